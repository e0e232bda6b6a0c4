#!/usr/bin/env node
// Record loading at scale (issue 15): `node scripts/bench-records.mjs [--counts 1000,10000,100000]`,
// and the last block of `npm run bench` (skip it there with --no-records-block).
//
// For each dataset size (synthetic records from scripts/gen-records.mjs, one JSON Lines file):
//   load      reading and validating the dataset in a fresh process (dist/records/load.js): wall
//             time and peak RSS; this is linear and bounded (streamed, field size limits)
//   compile   `raiselint check` of one small file with an empty cache directory: the records are
//             loaded, compiled to rules and the snapshot written (--timings says what it did)
//   reuse     the same command again: the snapshot is reused, nothing is compiled
// Each command is a fresh process timed by wall clock; peak RSS from /usr/bin/time when present.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function timed(argv) {
  const full = TIME ? [TIME, ['-f', '%M', process.execPath, ...argv]] : [process.execPath, argv];
  const t0 = performance.now();
  const r = spawnSync(full[0], full[1], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  let stderr = r.stderr ?? '';
  let rssKb;
  if (TIME) {
    const lines = stderr.trimEnd().split('\n');
    rssKb = Number(lines.pop());
    stderr = lines.join('\n');
  }
  return { ms, rssKb, code: r.status, stdout: r.stdout ?? '', stderr };
}

const LOAD = `
const { loadDataset } = await import(${JSON.stringify(new URL('../dist/records/load.js', import.meta.url).href)});
const t0 = performance.now();
const r = loadDataset(process.argv[1]);
const ms = performance.now() - t0;
process.stdout.write(JSON.stringify({ ms, records: r.records.length, problems: r.problems.length, heapMb: process.memoryUsage().heapUsed / 1048576 }));
`;

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const mb = (kb) => (kb ? `${Math.round(kb / 1024)} MB` : 'n/a');

/** Measures each size and writes the block through `out`. */
export function recordLoadingBlock({ out = (s) => process.stdout.write(s), counts = [1000, 10000, 100000], work } = {}) {
  const dir = work ?? mkdtempSync(join(tmpdir(), 'raiselint-bench-records-'));
  const bin = join(ROOT, 'bin', 'raiselint.js');
  const py = join(dir, 'one.py');
  writeFileSync(py, 'import json\n\nx = json.loads("{}")\n');
  out(`\nrecord loading (synthetic records, one JSON Lines file each; fresh process per command):\n`);
  out(
    `${'records'.padStart(8)} ${'file'.padStart(8)}  ${'load'.padStart(8)} ${'RSS'.padStart(7)} ${'per rec'.padStart(8)}  ${'compile'.padStart(8)} ${'RSS'.padStart(7)} ${'per rec'.padStart(8)}  ${'reuse'.padStart(7)} ${'RSS'.padStart(7)}  rules\n`,
  );
  for (const n of counts) {
    const file = join(dir, `records-${n}.jsonl`);
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-records.mjs'), '--count', String(n), '--out', file]);
    const size = statSync(file).size;
    const load = timed(['--input-type=module', '-e', LOAD, file]);
    let loaded = {};
    try {
      loaded = JSON.parse(load.stdout);
    } catch {
      loaded = { records: `failed: ${load.stderr.trim().split('\n').pop()}` };
    }
    const cache = join(dir, `cache-${n}`);
    const args = [bin, 'check', py, '--no-bundled', '--records', file, '--cache-dir', cache, '--no-cache', '--timings', '--derive', 'off'];
    const compile = timed(args);
    const reuse = timed(args);
    const rules =
      /; (\d+) rules/.exec(compile.stderr)?.[1] ??
      (compile.code === 0 || compile.code === 1 ? '?' : `failed (exit ${compile.code}: ${compile.stderr.trim().split('\n').pop()})`);
    const per = (ms) => `${((ms * 1000) / n).toFixed(0)} us`;
    out(
      `${String(n).padStart(8)} ${`${(size / 1e6).toFixed(0)} MB`.padStart(8)}  ${fmt(load.ms).padStart(8)} ${mb(load.rssKb).padStart(7)} ${per(load.ms).padStart(8)}  ${fmt(compile.ms).padStart(8)} ${mb(compile.rssKb).padStart(7)} ${per(compile.ms).padStart(8)}  ${fmt(reuse.ms).padStart(7)} ${mb(reuse.rssKb).padStart(7)}  ${rules}\n`,
    );
    if (typeof loaded.records !== 'number') out(`         load: ${loaded.records}\n`);
    rmSync(cache, { recursive: true, force: true });
    rmSync(file, { force: true });
  }
  if (!work) rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--counts');
  const counts = i > 0 ? process.argv[i + 1].split(',').map(Number) : undefined;
  recordLoadingBlock({ counts });
}
