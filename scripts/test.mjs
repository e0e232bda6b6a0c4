#!/usr/bin/env node
// Runs the vitest suite and ends with a plain `tests: N passed, N failed, N skipped` line
// (CI reads that line). Extra arguments go to vitest. Exit code is vitest's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'raiselint-test-'));
const out = join(dir, 'report.json');
const r = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)], { stdio: 'inherit' });
let summary = 'tests: 0 passed, 0 failed';
try {
  const rep = JSON.parse(readFileSync(out, 'utf8'));
  const skipped = (rep.numPendingTests ?? 0) + (rep.numTodoTests ?? 0);
  summary = `tests: ${rep.numPassedTests} passed, ${rep.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`;
} catch {
  summary = 'tests: 0 passed, 1 failed';
}
rmSync(dir, { recursive: true, force: true });
console.log(summary);
process.exit(r.status ?? 1);
