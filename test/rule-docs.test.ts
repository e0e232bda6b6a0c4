/** docs/rules/ holds one page per rule, generated from the same rule data as `raiselint explain`; a stale page fails. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rulePageUrl } from '../src/diagnostics/docpage.js';
import { loadRules } from '../src/compile/load.js';
import { rulePages } from '../src/report/rulepage.js';
import { BUILTIN_RULES } from '../src/suppress/builtin.js';

const ROOT = join(import.meta.dirname, '..');
const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));

describe('rule documentation pages', () => {
  it('docs/rules/ is exactly what the bundled records and built-in rules generate (run `npx tsc && node scripts/gen-rule-docs.mjs`)', async () => {
    const set = await loadRules();
    const pages = rulePages(set, BUILTIN_RULES);
    expect(pages.size).toBe(set.rules.length + BUILTIN_RULES.length + 1);
    const onDisk = walk(join(ROOT, 'docs', 'rules')).map((f) => relative(ROOT, f).replace(/\\/g, '/'));
    expect(onDisk.sort()).toEqual([...pages.keys()].sort());
    for (const [path, text] of pages) expect(readFileSync(join(ROOT, path), 'utf8'), `${path} is stale`).toBe(text);
  });

  it('each page has the record documentation explain prints, and the links point at these pages', async () => {
    const set = await loadRules();
    for (const rule of set.rules) {
      const page = readFileSync(join(ROOT, 'docs', 'rules', `${rule.id}.md`), 'utf8');
      expect(page).toContain(`# ${rule.id}\n`);
      if (rule.record.documentation) expect(page).toContain(rule.record.documentation.trim());
      for (const s of rule.record.solutions ?? []) expect(page).toContain(s.trim());
      expect(rulePageUrl(rule.id, rule.source.file)).toMatch(new RegExp(`/blob/v\\d+\\.\\d+\\.\\d+[^/]*/docs/rules/${rule.id}\\.md$`));
    }
    // A user's own dataset has no page here.
    expect(rulePageUrl('acme/x', join(ROOT, 'test', 'data', 'x.jsonl'))).toBeUndefined();
    expect(rulePageUrl('raiselint/unused-ignore')).toMatch(/\/docs\/rules\/raiselint\/unused-ignore\.md$/);
  });
});
