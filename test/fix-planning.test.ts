/**
 * Fixes are planned only when the output shows them (github, gitlab and junit show none): the
 * reports are the same as with fixes planned, and the content cache keeps the two kinds of
 * results apart (a github run does not leave fixless results for a later json or text run).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_FIVE, makeProject, raiselint } from './helpers/project.js';

describe('fix planning only when the output needs it', () => {
  it('a fixless format run and a shared cache leave every report as with fixes planned', () => {
    const root = makeProject({ 'a.py': ALL_FIVE, 'b.py': ALL_FIVE.replace('agent_id', 'aid') });
    const cache = join(root, 'cache');
    const run = (format: string, useCache: boolean) =>
      raiselint(root, ['check', '--format', format, ...(useCache ? ['--cache-dir', cache] : ['--no-cache', '--cache-dir', join(root, 'c0')]), '.']);
    const fresh = Object.fromEntries(['json', 'text', 'sarif', 'github', 'gitlab', 'junit'].map((f) => [f, run(f, false).stdout]));
    // Findings with fixes, so the comparison can fail.
    expect(JSON.parse(fresh.json!).diagnostics.filter((d: { fix: unknown }) => d.fix).length).toBeGreaterThan(0);
    expect(fresh.text).toContain('= fix (display-only)');
    for (const f of ['github', 'json', 'gitlab', 'text', 'junit', 'sarif', 'github', 'json']) expect(run(f, true).stdout, f).toBe(fresh[f]);
  });
});
