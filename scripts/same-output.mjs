#!/usr/bin/env node
// Runs two builds of raiselint with the same arguments and says whether they print the same:
// the proof a refactor asks for ("behaviour byte-identical").
//
//   node scripts/same-output.mjs BASE_CLONE NEW_CLONE -- check --records R.jsonl --no-bundled DIR --format json
//
// Each clone must be built (`npm run build`). Every run gets a cold cache folder of its own, then
// runs again on that cache (the snapshot path), so both the compile and the cached load are
// compared. Exit code 0 when stdout, stderr and exit codes are equal in every run, 1 otherwise
// (with the first differing line of each stream).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
if (sep !== 2) {
  process.stderr.write('usage: same-output.mjs BASE_CLONE NEW_CLONE -- RAISELINT_ARGS...\n');
  process.exit(2);
}
const [base, next] = argv.slice(0, 2).map((p) => resolve(p));
const args = argv.slice(3);

function run(clone, cache) {
  const started = performance.now();
  const r = spawnSync(process.execPath, [join(clone, 'bin', 'raiselint.js'), ...args, '--cache-dir', cache], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, NO_COLOR: '1' },
  });
  // Timing lines and cache paths differ between runs by nature.
  const clean = (s) => s.replaceAll(cache, '<cache>').replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<t>');
  return { out: clean(r.stdout), err: clean(r.stderr), code: r.status, ms: performance.now() - started };
}

function firstDiff(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) return `line ${i + 1}:\n  base: ${x[i] ?? '<none>'}\n  new:  ${y[i] ?? '<none>'}`;
  return '';
}

let same = true;
const caches = [base, next].map(() => mkdtempSync(join(tmpdir(), 'raiselint-same-')));
try {
  for (const pass of ['cold', 'cached']) {
    const a = run(base, caches[0]);
    const b = run(next, caches[1]);
    const diffs = [];
    if (a.code !== b.code) diffs.push(`exit code: base ${a.code}, new ${b.code}`);
    if (a.out !== b.out) diffs.push(`stdout ${firstDiff(a.out, b.out)}`);
    if (a.err !== b.err) diffs.push(`stderr ${firstDiff(a.err, b.err)}`);
    const lines = a.out.split('\n').length - 1;
    process.stdout.write(
      `${pass}: ${diffs.length ? 'DIFFERENT' : 'same'} (exit ${a.code}, ${lines} lines of stdout; base ${(a.ms / 1000).toFixed(2)} s, new ${(b.ms / 1000).toFixed(2)} s)\n`,
    );
    for (const d of diffs) process.stdout.write(`  ${d}\n`);
    if (diffs.length) same = false;
  }
} finally {
  for (const c of caches) rmSync(c, { recursive: true, force: true });
}
process.exit(same ? 0 : 1);
