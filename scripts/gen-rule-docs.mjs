#!/usr/bin/env node
// Writes the rule documentation pages, docs/rules/<rule id>.md and docs/rules/README.md, from the
// bundled records (src/report/rulepage.ts; the compiled code in dist/: run `npx tsc` first), and
// removes pages of rules that are gone. test/rule-docs.test.ts fails when a page is stale.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { loadRules } = await import('../dist/compile/load.js');
const { rulePages } = await import('../dist/report/rulepage.js');
const { BUILTIN_RULES } = await import('../dist/suppress/builtin.js');

const pages = rulePages(await loadRules(), BUILTIN_RULES);
const dir = join(ROOT, 'docs', 'rules');
const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
mkdirSync(dir, { recursive: true });
for (const f of walk(dir)) if (!pages.has(relative(ROOT, f).replace(/\\/g, '/'))) rmSync(f);
for (const [path, text] of pages) {
  mkdirSync(dirname(join(ROOT, path)), { recursive: true });
  writeFileSync(join(ROOT, path), text);
}
process.stdout.write(`wrote ${pages.size} pages under docs/rules/\n`);
