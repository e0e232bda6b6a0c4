#!/usr/bin/env node
// `npm run bench [-- <corpus dir>] [--reps N] [--jobs N]`
//
// Measures raiselint against the read-only floor and `ast-grep scan`, over the same files and
// threads, in one run, repeating every scenario (round robin, to spread machine noise) and
// reporting medians. Every command is a fresh process (Node start-up included) timed by wall
// clock; peak RSS comes from /usr/bin/time when it exists.
//
// Corpus: the standard library of the machine's python3 (its *.py files, without site-packages
// and __pycache__), or the directory given. Every tool gets the same explicit list of files.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, getPriority, loadavg, tmpdir, totalmem, release, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const REPS = Number(opt('reps', '5'));
const JOBS = Number(opt('jobs', String(availableParallelism())));
const KEEP = args.includes('--keep') ? (args.splice(args.indexOf('--keep'), 1), true) : false;
const NO_RECORDS_BLOCK = args.includes('--no-records-block') ? (args.splice(args.indexOf('--no-records-block'), 1), true) : false;
const corpusArg = args.find((a) => !a.startsWith('--'));

function fail(msg) {
  process.stderr.write(`bench: ${msg}\n`);
  process.exit(2);
}

// ---------------------------------------------------------------- setup
const bin = join(ROOT, 'bin', 'raiselint.js');
if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
  process.stderr.write('bench: building dist/ ...\n');
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json')], { stdio: 'inherit' });
}
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : -1);
if (mtime(join(ROOT, 'dist', 'bundle', 'main.cjs')) < mtime(join(ROOT, 'dist', 'cli', 'main.js'))) {
  process.stderr.write('bench: bundling the CLI (scripts/bundle.mjs) ...\n');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs')], { stdio: 'inherit' });
}
const astGrep = join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'ast-grep.cmd' : 'ast-grep');
if (!existsSync(astGrep)) fail('ast-grep not found: run `npm ci` (it is a devDependency)');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

let corpus = corpusArg;
if (!corpus) {
  try {
    corpus = execFileSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: 'utf8' }).trim();
  } catch {
    fail('no corpus given and python3 is not available to find its standard library');
  }
}
corpus = resolve(corpus);
if (!existsSync(corpus) || !statSync(corpus).isDirectory()) fail(`${corpus}: not a directory`);

function pyFiles(dir, out = []) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name === '__pycache__' || e.name === 'site-packages' || e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) pyFiles(p, out);
    else if (e.isFile() && e.name.endsWith('.py')) out.push(p);
  }
  return out;
}
const files = pyFiles(corpus);
if (!files.length) fail(`${corpus}: no .py files`);
const bytes = files.reduce((n, f) => n + statSync(f).size, 0);

const work = mkdtempSync(join(tmpdir(), 'raiselint-bench-'));
const listFile = join(work, 'files.txt');
writeFileSync(listFile, files.join('\n'));
const rule = join(work, 'rule.yml');
writeFileSync(rule, 'id: agent-save-state\nlanguage: python\nseverity: error\nmessage: agent_save_state raises NotImplementedError\nrule:\n  pattern: $X.agent_save_state($$$)\n');
const records10k = join(work, 'records-10k.jsonl');
execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-records.mjs'), '--count', '9995', '--out', records10k]);
// A parse-heavy corpus: generated files that use the recorded APIs (most pass the prefilter).
const heavy = join(work, 'heavy');
const heavyRecords = join(work, 'heavy-records.jsonl');
const { generateCorpus } = await import('./gen-corpus.mjs');
generateCorpus(heavy, { files: 1200, seed: 3, recordsFile: heavyRecords, recordCount: 200 });
const heavyBytes = pyFiles(heavy).reduce((n, f) => n + statSync(f).size, 0);
const preCommitFiles = readdirSync(join(ROOT, 'fixtures', 'autogen'))
  .filter((n) => n.endsWith('.py'))
  .sort()
  .slice(0, 20)
  .map((n) => join(ROOT, 'fixtures', 'autogen', n));

// The read-only floor: a Node process that reads every file (into one reused buffer, the fastest
// way we know), started and timed like the others.
const readFloor = `
const fs = require('node:fs');
const files = fs.readFileSync(process.argv[1], 'utf8').split('\\n');
let buf = Buffer.allocUnsafe(1 << 20), total = 0;
for (const f of files) {
  const fd = fs.openSync(f, 'r');
  const size = fs.fstatSync(fd).size;
  if (size + 1 > buf.length) buf = Buffer.allocUnsafe(size * 2);
  let n = 0, r;
  while ((r = fs.readSync(fd, buf, n, buf.length - n, null)) > 0) n += r;
  fs.closeSync(fd);
  total += n;
}
process.stdout.write(String(total));
`;

// ---------------------------------------------------------------- running
function run(cmd, argv, { env } = {}) {
  const full = TIME ? [TIME, ['-f', '%M', cmd, ...argv]] : [cmd, argv];
  const t0 = performance.now();
  const r = spawnSync(full[0], full[1], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.error) fail(`${cmd}: ${r.error.message}`);
  let rssKb;
  let stderr = r.stderr;
  if (TIME) {
    const lines = stderr.trimEnd().split('\n');
    rssKb = Number(lines.pop());
    stderr = lines.join('\n');
  }
  return { ms, rssKb, status: r.status, stdout: r.stdout, stderr };
}

const cacheWarm = join(work, 'cache-warm');
const cacheCold = join(work, 'cache-cold');
const cache10k = join(work, 'cache-10k');
const cachePre = join(work, 'cache-pre');
const rl = (extra) => [bin, 'check', '--no-gitignore', '--format', 'concise', ...extra];
const scenarios = [
  { id: 'floor', label: 'read-only floor (node, read every file)', cmd: process.execPath, argv: ['-e', readFloor, listFile] },
  { id: 'sg1', label: 'ast-grep scan, 1 thread', cmd: astGrep, argv: ['scan', '-r', rule, '-j', '1', '--report-style', 'short', ...files] },
  { id: 'sgN', label: `ast-grep scan, ${JOBS} threads`, cmd: astGrep, argv: ['scan', '-r', rule, '-j', String(JOBS), '--report-style', 'short', ...files] },
  { id: 'cold1', label: 'raiselint cold (--no-cache), --jobs 1', cmd: process.execPath, argv: rl(['--cache-dir', cacheCold, '--no-cache', '--jobs', '1', ...files]) },
  { id: 'coldN', label: `raiselint cold (--no-cache), --jobs ${JOBS}`, cmd: process.execPath, argv: rl(['--cache-dir', cacheCold, '--no-cache', '--jobs', String(JOBS), ...files]) },
  { id: 'warm', label: `raiselint warm (cache), --jobs ${JOBS}`, cmd: process.execPath, argv: rl(['--cache-dir', cacheWarm, '--jobs', String(JOBS), ...files]) },
  { id: 'cold10k', label: `raiselint cold, 10,000 records, --jobs ${JOBS}`, cmd: process.execPath, argv: rl(['--cache-dir', cache10k, '--no-cache', '--records', records10k, '--jobs', String(JOBS), ...files]) },
  { id: 'pre20', label: 'pre-commit style: 20 files, cold (--no-cache)', cmd: process.execPath, argv: rl(['--cache-dir', cachePre, '--no-cache', ...preCommitFiles]) },
  { id: 'pre20warm', label: 'pre-commit style: 20 files, cache on', cmd: process.execPath, argv: rl(['--cache-dir', cachePre, ...preCommitFiles]) },
  { id: 'heavy1', label: 'parse-heavy generated corpus, --jobs 1', cmd: process.execPath, argv: rl(['--cache-dir', join(work, 'cache-heavy'), '--no-cache', '--records', heavyRecords, '--jobs', '1', heavy]) },
  { id: 'heavyN', label: `parse-heavy generated corpus, --jobs ${JOBS}`, cmd: process.execPath, argv: rl(['--cache-dir', join(work, 'cache-heavy'), '--no-cache', '--records', heavyRecords, '--jobs', String(JOBS), heavy]) },
  { id: 'node', label: 'node -e 0 (start-up alone)', cmd: process.execPath, argv: ['-e', '0'] },
];

const out = (s) => process.stdout.write(s);
const cpu = cpus()[0]?.model ?? 'unknown CPU';
out(`raiselint benchmark\n`);
out(`machine: ${cpu}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${platform()} ${release()}, Node ${process.version}\n`);
out(`load average at start: ${loadavg().map((x) => x.toFixed(2)).join(' ')}; scheduling priority (nice): ${getPriority()}\n`);
out(`corpus: ${corpus}: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB; ${REPS} repetitions, medians; threads: ${JOBS}\n\n`);

// Warm-ups (not timed): compiled-rules snapshots, the warm cache, ast-grep's binary in the page cache.
out('preparing (compiling rule snapshots, filling the cache) ...\n');
const first5 = run(process.execPath, rl(['--cache-dir', join(work, 'first-5'), '--no-cache', '--timings', ...files]));
const first10k = run(process.execPath, rl(['--cache-dir', join(work, 'first-10k'), '--no-cache', '--timings', '--records', records10k, ...files]));
for (const s of scenarios) {
  const r = run(s.cmd, s.argv);
  if (s.id.startsWith('sg') && r.status !== 0 && r.status !== 1) fail(`ast-grep failed: ${r.stderr.slice(0, 500)}`);
  if (s.id !== 'floor' && s.id !== 'node' && !s.id.startsWith('sg') && r.status === 2 && !/error:/.test(r.stdout + r.stderr)) fail(`raiselint failed: ${r.stderr.slice(0, 500)}`);
}
const statsOf = (extra) => run(process.execPath, rl([...extra, '--timings', ...files])).stderr.split('\n').find((l) => l.startsWith('raiselint: ') && l.includes(' files: ')) ?? '';
const sgInspect = run(astGrep, ['scan', '-r', rule, '-j', String(JOBS), '--inspect', 'summary', ...files]).stderr.split('\n').find((l) => l.includes('scannedFileCount')) ?? '';

const times = new Map(scenarios.map((s) => [s.id, []]));
const rss = new Map(scenarios.map((s) => [s.id, []]));
for (let rep = 0; rep < REPS; rep++) {
  for (const s of scenarios) {
    const r = run(s.cmd, s.argv);
    times.get(s.id).push(r.ms);
    if (r.rssKb) rss.get(s.id).push(r.rssKb);
  }
  out(`  repetition ${rep + 1}/${REPS} done (load ${loadavg()[0].toFixed(2)})\n`);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const med = (id) => median(times.get(id));
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const mb = (kb) => (kb ? `${Math.round(kb / 1024)} MB` : 'n/a');

out(`\n${'scenario'.padEnd(52)} ${'median'.padStart(9)} ${'min'.padStart(9)} ${'max'.padStart(9)} ${'peak RSS'.padStart(9)}\n`);
for (const s of scenarios) {
  const t = times.get(s.id);
  out(`${s.label.padEnd(52)} ${fmt(med(s.id)).padStart(9)} ${fmt(Math.min(...t)).padStart(9)} ${fmt(Math.max(...t)).padStart(9)} ${mb(Math.max(0, ...rss.get(s.id))).padStart(9)}\n`);
}
out(`\nfirst run, empty cache directory (compiles and saves the rules snapshot), once:\n`);
out(`  5 records:      ${fmt(first5.ms)}   ${first5.stderr.split('\n').find((l) => l.includes(' files: ')) ?? ''}\n`);
out(`  10,000 records: ${fmt(first10k.ms)}   ${first10k.stderr.split('\n').find((l) => l.includes(' files: ')) ?? ''}\n`);
out(`parse-heavy corpus: ${pyFiles(heavy).length} generated files, ${(heavyBytes / 1e6).toFixed(1)} MB, 200 extra synthetic records\n`);
out(`what the runs did:\n  heavy: ${run(process.execPath, rl(['--cache-dir', join(work, 'cache-heavy'), '--no-cache', '--timings', '--records', heavyRecords, heavy])).stderr.split('\n').find((l) => l.includes(' files: ')) ?? ''}\n  cold: ${statsOf(['--cache-dir', cacheCold, '--no-cache'])}\n  warm: ${statsOf(['--cache-dir', cacheWarm])}\n  10k:  ${statsOf(['--cache-dir', cache10k, '--no-cache', '--records', records10k])}\n  ast-grep: ${sgInspect.trim()}\n`);

const rlRss = Math.max(0, ...['cold1', 'coldN', 'warm', 'cold10k', 'pre20', 'pre20warm', 'heavy1', 'heavyN'].flatMap((id) => rss.get(id)));
const ratios = [
  ['raiselint cold / ast-grep (same threads)', med('coldN') / med('sgN'), '<= 0.5', (v) => v <= 0.5],
  ['raiselint cold / ast-grep, 1 thread each', med('cold1') / med('sg1'), '(info)', null],
  ['raiselint cold / read-only floor', med('coldN') / med('floor'), '<= 2', (v) => v <= 2],
  ['raiselint warm / cold', med('warm') / med('coldN'), '<= 0.1', (v) => v <= 0.1],
  ['raiselint 10,000 records / 5 records (cold)', med('cold10k') / med('coldN'), '<= 1.2', (v) => v <= 1.2],
  ['raiselint cold --jobs 1 / --jobs N', med('cold1') / med('coldN'), '(info)', null],
  ['parse-heavy corpus --jobs 1 / --jobs N', med('heavy1') / med('heavyN'), '(info)', null],
];
out(`\n${'ratio'.padEnd(52)} ${'value'.padStart(9)}  target\n`);
for (const [label, v, target, ok] of ratios) out(`${label.padEnd(52)} ${v.toFixed(2).padStart(9)}  ${target}${ok ? (ok(v) ? '  met' : '  MISSED') : ''}\n`);
out(`${'20-file pre-commit run, wall (cold)'.padEnd(52)} ${fmt(med('pre20')).padStart(9)}  <= 400 ms${med('pre20') <= 400 ? '  met' : '  MISSED'}\n`);
out(`${'peak RSS of any raiselint run'.padEnd(52)} ${mb(rlRss).padStart(9)}  <= 400 MB${rlRss ? (rlRss / 1024 <= 400 ? '  met' : '  MISSED') : ''}\n`);
// Record loading at 1,000 / 10,000 / 100,000 records (issue 15), its own block: scripts/bench-records.mjs.
if (!NO_RECORDS_BLOCK) (await import('./bench-records.mjs')).recordLoadingBlock({ out, work });
out(`\nload average at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
if (!KEEP) rmSync(work, { recursive: true, force: true });
else out(`kept ${work}\n`);
