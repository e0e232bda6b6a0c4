// Dataset-scale rows of `npm run bench` (scripts/bench.mjs): raiselint with records generated from the
// real raise sites of the standard library (scripts/gen-stdlib-records.mjs), a 1,000-record sample and
// all of them, over a copy of the standard library in the bench's temp folder (outside any git
// repository, so discovery walks it as a plain folder). The records name the code the corpus holds,
// so these runs parse and match for real (unlike the 10,000 synthetic records, which only exercise
// the prefilter).
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateStdlibRecords } from './gen-stdlib-records.mjs';
import { writeLines } from './lib/dataset.mjs';

const SKIP = new Set(['site-packages', '__pycache__', 'node_modules']);

/** Generates the datasets and the corpus copy; returns the scenarios to time and a report of what they did. */
export function datasetBench({ work, corpus, bin, jobs, run }) {
  const copy = join(work, 'stdlib-copy');
  cpSync(corpus, copy, { recursive: true, filter: (src) => !SKIP.has(src.split(/[\\/]/).pop()) });
  const all = generateStdlibRecords({ stdlib: corpus });
  const allFile = join(work, 'stdlib-records-all.jsonl');
  writeLines(all, allFile);
  const sampleFile = join(work, 'stdlib-records-1k.jsonl');
  writeLines(generateStdlibRecords({ stdlib: corpus, sample: 1000, seed: 1 }), sampleFile);
  const count = (f) => readFileSync(f, 'utf8').trimEnd().split('\n').length;
  const check = (cache, records, extra = []) => [bin, 'check', '--no-gitignore', '--format', 'concise', '--cache-dir', join(work, cache), '--records', records, '--jobs', String(jobs), ...extra, copy];
  const scenarios = [
    { id: 'ds1k', label: `dataset: ${count(sampleFile)} stdlib records, cold (--no-cache)`, cmd: process.execPath, argv: check('cache-ds1k', sampleFile, ['--no-cache']) },
    { id: 'dsAll', label: `dataset: all ${count(allFile)} stdlib records, cold`, cmd: process.execPath, argv: check('cache-dsall', allFile, ['--no-cache']) },
    { id: 'dsAllWarm', label: `dataset: all ${count(allFile)} stdlib records, warm`, cmd: process.execPath, argv: check('cache-dsall-warm', allFile) },
  ];
  /** Once, after the timed runs: the first run (compiles the snapshot), what each run parsed and found, and the compile rate. */
  const report = (out, fmt) => {
    const line = (r) => r.stderr.split('\n').find((l) => l.includes(' files: ')) ?? r.stderr.trim().split('\n').pop() ?? '';
    const findings = (r) => r.stdout.split('\n').filter((l) => /^\S.*:\d+:\d+: /.test(l)).length;
    out(`\ndataset-scale (records from the standard library's raise sites, corpus copy ${copy}):\n`);
    for (const [label, cache, file] of [
      ['1,000 records', 'first-ds1k', sampleFile],
      ['all records', 'first-dsall', allFile],
    ]) {
      const first = run(process.execPath, check(cache, file, ['--timings']));
      const timed = run(process.execPath, check(cache + '-stats', file, ['--no-cache', '--timings']));
      out(`  first run, ${label}: ${fmt(first.ms)} (compiles the snapshot)\n`);
      out(`  ${label}: ${line(timed)}; ${findings(timed)} findings\n`);
    }
    const sum = run(process.execPath, [bin, 'records', 'check', '--summary', allFile]);
    out(`  records check --summary, all records (${fmt(sum.ms)}): ${sum.stdout.split('\n')[0]}\n`);
  };
  return { scenarios, report };
}
