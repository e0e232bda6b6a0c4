#!/usr/bin/env node
// Runs the vitest suite and ends with a plain `tests: N passed, N failed, N skipped` line
// (CI reads that line). Extra arguments go to vitest (`--config vitest.e2e.config.ts` for the
// end-to-end suites). A test file that fails outside any test (it does not load, a hook throws)
// counts as one failure, so the line never says "0 failed" for a run that failed.
// Exit code is vitest's, or 1 when the line counts a failure that vitest's code does not.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'raiselint-test-'));
const out = join(dir, 'report.json');
const r = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
let summary = 'tests: 0 passed, 1 failed';
let failed = 1;
try {
  const rep = JSON.parse(readFileSync(out, 'utf8'));
  const skipped = (rep.numPendingTests ?? 0) + (rep.numTodoTests ?? 0);
  // Files that failed with no failed test in them: an import error, a failing beforeAll.
  const brokenFiles = (rep.testResults ?? []).filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'));
  for (const f of brokenFiles) console.log(`failed outside a test: ${f.name}${f.message ? `: ${String(f.message).split('\n')[0]}` : ''}`);
  failed = rep.numFailedTests + brokenFiles.length;
  summary = `tests: ${rep.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
} catch {
  // No report: vitest did not run.
}
rmSync(dir, { recursive: true, force: true });
console.log(summary);
process.exit(r.status || (failed ? 1 : 0));
