#!/usr/bin/env node
// `npm run fuzz [-- --runs 10000] [--seed 1] [--only I] [--hang-ms 60000]`
//
// The fuzz suite: seeded generated inputs (scripts/fuzz/gen.mjs) through the real pipeline
// (scripts/fuzz/cases.mjs, the compiled dist/): mutated and random Python, encodings and line
// endings, hostile records and configs, filesystem oddities (link cycles, FIFOs, devices,
// dangling links, undecodable names, deletions mid-run, a corrupt cache), LSP framing.
// Inputs run in a worker thread watched by this one: an input that makes no progress for
// --hang-ms is a hang (the worker is replaced and the run goes on). Every applied fix is also
// checked with CPython at the end (python3's ast): an input CPython parses must still parse.
// Prints one line of counts; exit 1 when any count of failures is not 0. Failing inputs are
// written to .fuzz-failures/ (seed and index reproduce them with --only).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(args[i + 1]);
};
const RUNS = opt('runs', 10000);
const SEED = opt('seed', 1);
const ONLY = opt('only', undefined);
const HANG_MS = opt('hang-ms', 60000);

/** Runs inputs [from, to) in worker threads, one at a time, replacing a worker that hangs. */
export async function fuzz({ seed, from, to, hangMs, onOutcome, onHang }) {
  const dir = mkdtempSync(join(tmpdir(), 'raiselint-fuzz-'));
  let next = from;
  try {
    while (next < to) {
      next = await new Promise((resolveNext) => {
        const w = new Worker(new URL('./fuzz/worker.mjs', import.meta.url), { workerData: { seed, from: next, to, dir } });
        let current = next;
        let last = Date.now();
        const timer = setInterval(() => {
          if (Date.now() - last < hangMs) return;
          clearInterval(timer);
          onHang(current);
          void w.terminate();
          resolveNext(current + 1);
        }, 500);
        w.on('message', (m) => {
          last = Date.now();
          if (m.start !== undefined) current = m.start;
          else if (m.done !== undefined) onOutcome(m.done, m.o);
          else if (m.end) {
            clearInterval(timer);
            void w.terminate();
            resolveNext(to);
          }
        });
        w.on('error', (e) => {
          clearInterval(timer);
          onOutcome(current, { kind: 'worker', crash: `worker died: ${e?.message}` });
          resolveNext(current + 1);
        });
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pairs [input, output] (base64) of applied fixes whose input CPython parses and output it does not. */
export function cpythonBroken(pairs) {
  if (!pairs.length) return [];
  const py = `
import ast, base64, json, sys, warnings
warnings.simplefilter("ignore")
bad = []
for n, line in enumerate(sys.stdin):
    i, a, b = json.loads(line)
    def ok(s):
        try:
            ast.parse(base64.b64decode(s))
            return True
        except (SyntaxError, ValueError):
            return False
        except Exception:
            return False
    if ok(a) and not ok(b):
        bad.append(i)
print(json.dumps(bad))
`;
  const input = pairs.map(([i, a, b]) => JSON.stringify([i, a, b])).join('\n') + '\n';
  const r = spawnSync('python3', ['-c', py], { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) {
    process.stderr.write(`fuzz: python3 not available for the CPython check (${(r.stderr || r.error?.message || '').trim().split('\n').pop()})\n`);
    return [];
  }
  return JSON.parse(r.stdout);
}

async function main() {
  const counts = { runs: 0, crashes: 0, hangs: 0, badFixes: 0, lostBytes: 0, fixed: 0 };
  const byKind = {};
  const failures = [];
  const pairs = [];
  const t0 = Date.now();
  const from = ONLY ?? 0;
  const to = ONLY !== undefined ? ONLY + 1 : RUNS;
  await fuzz({
    seed: SEED,
    from,
    to,
    hangMs: HANG_MS,
    onHang: (i) => {
      counts.runs++;
      counts.hangs++;
      failures.push({ i, what: 'hang' });
    },
    onOutcome: (i, o) => {
      counts.runs++;
      byKind[o.kind] = (byKind[o.kind] ?? 0) + 1;
      if (o.fixed) counts.fixed++;
      if (o.crash) (counts.crashes++, failures.push({ i, kind: o.kind, what: 'crash', why: o.crash }));
      if (o.badFix) (counts.badFixes++, failures.push({ i, kind: o.kind, what: 'bad fix', why: o.badFix }));
      if (o.lostBytes) (counts.lostBytes++, failures.push({ i, kind: o.kind, what: 'lost bytes', why: o.lostBytes }));
      if (o.pair) pairs.push([i, ...o.pair]);
      if (counts.runs % 1000 === 0) process.stderr.write(`fuzz: ${counts.runs} runs...\n`);
    },
  });
  for (const i of cpythonBroken(pairs)) {
    counts.badFixes++;
    failures.push({ i, kind: 'python', what: 'bad fix', why: 'CPython parses the input but not the fixed output' });
  }
  const secs = ((Date.now() - t0) / 1000).toFixed(0);
  if (failures.length) {
    const dir = join(ROOT, '.fuzz-failures');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `seed-${SEED}.json`), JSON.stringify(failures, null, 2));
    for (const f of failures.slice(0, 20))
      process.stderr.write(`fuzz: input ${f.i} (${f.kind ?? '?'}): ${f.what}${f.why ? `: ${f.why}` : ''}  (npm run fuzz -- --seed ${SEED} --only ${f.i})\n`);
  }
  const kinds = Object.entries(byKind)
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  process.stdout.write(
    `fuzz: ${counts.runs} runs (seed ${SEED}; ${kinds}) in ${secs} s: ${counts.crashes} crashes, ${counts.hangs} hangs, ${counts.badFixes} bad fixes, ${counts.lostBytes} lost bytes; ${counts.fixed} inputs fixed (${pairs.length} checked with CPython)\n`,
  );
  process.exitCode = counts.crashes || counts.hangs || counts.badFixes || counts.lostBytes ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
