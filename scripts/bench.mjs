#!/usr/bin/env node
// `npm run bench [-- <corpus dir>] [--reps N] [--jobs N] [--dataset-reps N] [--site-packages DIR|none] [--dataset-only] [--js-reps N] [--no-js] [--no-records-block]`
//
// Measures raiselint against the read-only floor and `ast-grep scan`, over the same files and
// threads, in one run, repeating every scenario (round robin, to spread machine noise) and
// reporting medians. Every command is a fresh process (Node start-up included) timed by wall
// clock; peak RSS comes from /usr/bin/time when it exists.
//
// Corpus: the standard library of the machine's python3 (its *.py files, without site-packages
// and __pycache__), or the directory given. Every tool gets the same explicit list of files.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
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
const flag = (name) => (args.includes(`--${name}`) ? (args.splice(args.indexOf(`--${name}`), 1), true) : false);
const KEEP = flag('keep');
// Dataset scale (scripts/bench-dataset.mjs): its runs take tens of seconds each, so fewer repetitions; 0 skips it.
const DATASET_REPS = Number(opt('dataset-reps', '3'));
const SITE_PACKAGES_ARG = opt('site-packages', undefined);
const DATASET_ONLY = flag('dataset-only');
// The JS/TS block (type-aware ESLint rules): `--js-reps N` (default 3); `--no-js` skips it.
const JS_REPS = Number(opt('js-reps', '3'));
const NO_JS = flag('no-js');
// Record loading at 1,000 / 10,000 / 100,000 records (scripts/bench-records.mjs): `--no-records-block` skips it.
const NO_RECORDS_BLOCK = flag('no-records-block');
// `--baseline DIR`: another raiselint checkout (built), whose start-up and small-corpus rows run
// interleaved with this build's, each with its own cache directories, for "no slower" side by side.
const BASELINE = opt('baseline', undefined);
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
// ast-grep (108 MB installed) and Ruff's WASM build are not devDependencies: every `npm install` of a
// clone (pre-commit's hook install among them) would unpack them. The benchmark installs these exact
// versions on first use (scripts/bench-ruff.mjs loads Ruff from the same folder).
const BENCH_TOOLS = ['@ast-grep/cli@0.51.1', '@astral-sh/ruff-wasm-nodejs@0.17.4'];
const tools = join(ROOT, 'node_modules', '.cache', 'raiselint-bench-tools');
const astGrep = join(tools, 'node_modules', '.bin', process.platform === 'win32' ? 'ast-grep.cmd' : 'ast-grep');
const ruffWasm = join(tools, 'node_modules', '@astral-sh', 'ruff-wasm-nodejs');
if (!existsSync(astGrep) || !existsSync(ruffWasm)) {
  process.stderr.write(`bench: installing ${BENCH_TOOLS.join(', ')} into ${tools} ...\n`);
  mkdirSync(tools, { recursive: true });
  const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', tools, ...BENCH_TOOLS], { stdio: 'inherit' });
  if (r.status !== 0 || !existsSync(astGrep) || !existsSync(ruffWasm)) fail(`could not install ${BENCH_TOOLS.join(', ')} (npm install exit ${r.status})`);
}
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
writeFileSync(
  rule,
  'id: agent-save-state\nlanguage: python\nseverity: error\nmessage: agent_save_state raises NotImplementedError\nrule:\n  pattern: $X.agent_save_state($$$)\n',
);
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
function run(cmd, argv, { env, cwd } = {}) {
  const full = TIME ? [TIME, ['-f', '%M %U %S', cmd, ...argv]] : [cmd, argv];
  const t0 = performance.now();
  const r = spawnSync(full[0], full[1], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 28, cwd });
  const ms = performance.now() - t0;
  if (r.error) fail(`${cmd}: ${r.error.message}`);
  let rssKb;
  let cpuMs;
  let stderr = r.stderr;
  if (TIME) {
    const lines = stderr.trimEnd().split('\n');
    const [kb, user, sys] = lines.pop().split(' ').map(Number);
    rssKb = kb;
    cpuMs = (user + sys) * 1000;
    stderr = lines.join('\n');
  }
  return { ms, rssKb, cpuMs, status: r.status, stdout: r.stdout, stderr };
}

const cacheWarm = join(work, 'cache-warm');
const cacheCold = join(work, 'cache-cold');
const cache10k = join(work, 'cache-10k');
const cachePre = join(work, 'cache-pre');
// The rows measure the records they name: derivation (on by default) is off here (bench-dataset.mjs measures it).
const rl = (extra) => [bin, 'check', '--no-gitignore', '--format', 'concise', '--derive', 'off', ...extra];
const smallScenarios = [
  { id: 'floor', label: 'read-only floor (node, read every file)', cmd: process.execPath, argv: ['-e', readFloor, listFile] },
  { id: 'sg1', label: 'ast-grep scan, 1 thread', cmd: astGrep, argv: ['scan', '-r', rule, '-j', '1', '--report-style', 'short', ...files] },
  { id: 'sgN', label: `ast-grep scan, ${JOBS} threads`, cmd: astGrep, argv: ['scan', '-r', rule, '-j', String(JOBS), '--report-style', 'short', ...files] },
  {
    id: 'cold1',
    label: 'raiselint cold (--no-cache), --jobs 1',
    cmd: process.execPath,
    argv: rl(['--cache-dir', cacheCold, '--no-cache', '--jobs', '1', ...files]),
  },
  {
    id: 'coldN',
    label: `raiselint cold (--no-cache), --jobs ${JOBS}`,
    cmd: process.execPath,
    argv: rl(['--cache-dir', cacheCold, '--no-cache', '--jobs', String(JOBS), ...files]),
  },
  {
    id: 'warm',
    label: `raiselint warm (cache), --jobs ${JOBS}`,
    cmd: process.execPath,
    argv: rl(['--cache-dir', cacheWarm, '--jobs', String(JOBS), ...files]),
  },
  {
    id: 'cold10k',
    label: `raiselint cold, 10,000 records, --jobs ${JOBS}`,
    cmd: process.execPath,
    argv: rl(['--cache-dir', cache10k, '--no-cache', '--records', records10k, '--jobs', String(JOBS), ...files]),
  },
  {
    id: 'pre20',
    label: 'pre-commit style: 20 files, cold (--no-cache)',
    cmd: process.execPath,
    argv: rl(['--cache-dir', cachePre, '--no-cache', ...preCommitFiles]),
  },
  { id: 'pre20warm', label: 'pre-commit style: 20 files, cache on', cmd: process.execPath, argv: rl(['--cache-dir', cachePre, ...preCommitFiles]) },
  {
    id: 'heavy1',
    label: 'parse-heavy generated corpus, --jobs 1',
    cmd: process.execPath,
    argv: rl(['--cache-dir', join(work, 'cache-heavy'), '--no-cache', '--records', heavyRecords, '--jobs', '1', heavy]),
  },
  {
    id: 'heavyN',
    label: `parse-heavy generated corpus, --jobs ${JOBS}`,
    cmd: process.execPath,
    argv: rl(['--cache-dir', join(work, 'cache-heavy'), '--no-cache', '--records', heavyRecords, '--jobs', String(JOBS), heavy]),
  },
  { id: 'node', label: 'node -e 0 (start-up alone)', cmd: process.execPath, argv: ['-e', '0'] },
];
const scenarios = DATASET_ONLY ? [] : smallScenarios;
const baseBin = BASELINE ? join(resolve(BASELINE), 'bin', 'raiselint.js') : undefined;
if (baseBin && !existsSync(baseBin)) fail(`--baseline ${BASELINE}: no bin/raiselint.js there (build that checkout first)`);
const twins = [];
if (baseBin) {
  for (const s of [...scenarios]) {
    if (s.cmd !== process.execPath || s.argv[0] !== bin) continue;
    const argv = s.argv.map((a, i) => (i === 0 ? baseBin : s.argv[i - 1] === '--cache-dir' ? `${a}-baseline` : a));
    const twin = { id: `${s.id}@base`, label: `  baseline: ${s.label}`, cmd: s.cmd, argv };
    scenarios.splice(scenarios.indexOf(s) + 1, 0, twin);
    twins.push([s, twin]);
  }
}

// ---------------------------------------------------------------- dataset scale (scripts/bench-dataset.mjs)
let sitePackages = SITE_PACKAGES_ARG === 'none' ? undefined : SITE_PACKAGES_ARG;
if (SITE_PACKAGES_ARG === undefined && !corpusArg) {
  try {
    sitePackages = execFileSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], { encoding: 'utf8' }).trim();
  } catch {
    sitePackages = undefined;
  }
}
let dataset;
if (DATASET_REPS > 0) {
  process.stderr.write('bench: generating the stdlib datasets and copying the corpora ...\n');
  const { datasetBench } = await import('./bench-dataset.mjs');
  dataset = await datasetBench({ work, corpus, bin, jobs: JOBS, run, astGrep, rule, reps: DATASET_REPS, sitePackages, root: ROOT });
  scenarios.push(...dataset.scenarios);
}
// ---------------------------------------------------------------- end of dataset scale

const out = (s) => process.stdout.write(s);
const cpu = cpus()[0]?.model ?? 'unknown CPU';
out(`raiselint benchmark\n`);
out(`machine: ${cpu}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${platform()} ${release()}, Node ${process.version}\n`);
out(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; scheduling priority (nice): ${getPriority()}\n`,
);
out(
  `corpus: ${corpus}: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB; ${REPS} repetitions (dataset scale: ${DATASET_REPS}), medians; threads: ${JOBS}\n\n`,
);

// Warm-ups (not timed): compiled-rules snapshots, the warm cache, ast-grep's binary in the page cache.
out('preparing (compiling rule snapshots, filling the cache) ...\n');
const first5 = DATASET_ONLY ? undefined : run(process.execPath, rl(['--cache-dir', join(work, 'first-5'), '--no-cache', '--timings', ...files]));
const first10k = DATASET_ONLY
  ? undefined
  : run(process.execPath, rl(['--cache-dir', join(work, 'first-10k'), '--no-cache', '--timings', '--records', records10k, ...files]));
const isTool = (s) => s.cmd === astGrep || s.id === 'floor' || s.id === 'node' || s.id.startsWith('dsRuff');
for (const argv of dataset?.prepare ?? []) run(process.execPath, argv);
for (const s of scenarios) {
  if (s.reps !== undefined && !isTool(s)) continue; // a dataset-scale raiselint run: its snapshot is prepared above
  const r = run(s.cmd, s.argv);
  if (s.cmd === astGrep && r.status !== 0 && r.status !== 1) fail(`ast-grep failed: ${r.stderr.slice(0, 500)}`);
  if (s.id.startsWith('dsRuff') && r.status !== 0) fail(`ruff failed: ${r.stderr.slice(0, 500)}`);
  if (!isTool(s) && r.status === 2 && !/error:/.test(r.stdout + r.stderr)) fail(`raiselint failed: ${r.stderr.slice(0, 500)}`);
  dataset?.observe(s, r);
}
const statsOf = (extra) =>
  run(process.execPath, rl([...extra, '--timings', ...files]))
    .stderr.split('\n')
    .find((l) => l.startsWith('raiselint: ') && l.includes(' files: ')) ?? '';
const sgInspect = DATASET_ONLY
  ? ''
  : (run(astGrep, ['scan', '-r', rule, '-j', String(JOBS), '--inspect', 'summary', ...files])
      .stderr.split('\n')
      .find((l) => l.includes('scannedFileCount')) ?? '');

const times = new Map(scenarios.map((s) => [s.id, []]));
const cpuTimes = new Map(scenarios.map((s) => [s.id, []]));
const rss = new Map(scenarios.map((s) => [s.id, []]));
const rounds = Math.max(0, ...scenarios.map((s) => s.reps ?? REPS));
for (let rep = 0; rep < rounds; rep++) {
  for (const s of scenarios) {
    if (rep >= (s.reps ?? REPS)) continue;
    const r = run(s.cmd, s.argv);
    times.get(s.id).push(r.ms);
    if (r.cpuMs !== undefined) cpuTimes.get(s.id).push(r.cpuMs);
    if (r.rssKb) rss.get(s.id).push(r.rssKb);
    if (s.reps !== undefined) dataset.observe(s, r);
    // Progress, so that a long run that is stopped still says what it measured.
    process.stderr.write(
      `  [${rep + 1}] ${s.label}: ${(r.ms / 1000).toFixed(2)} s wall${r.cpuMs !== undefined ? `, ${(r.cpuMs / 1000).toFixed(2)} s CPU` : ''}${r.rssKb ? `, ${Math.round(r.rssKb / 1024)} MB` : ''}\n`,
    );
  }
  out(`  repetition ${rep + 1}/${rounds} done (load ${loadavg()[0].toFixed(2)})\n`);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const med = (id) => median(times.get(id));
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const mb = (kb) => (kb ? `${Math.round(kb / 1024)} MB` : 'n/a');

const W = 62;
out(`\n${'scenario'.padEnd(W)} ${'median'.padStart(9)} ${'min'.padStart(9)} ${'max'.padStart(9)} ${'CPU'.padStart(9)} ${'peak RSS'.padStart(9)}\n`);
out(`${''.padEnd(W)} ${'(wall)'.padStart(9)} ${''.padStart(9)} ${''.padStart(9)} ${'(median)'.padStart(9)}\n`);
for (const s of scenarios) {
  const t = times.get(s.id);
  const c = cpuTimes.get(s.id);
  out(
    `${s.label.padEnd(W)} ${fmt(med(s.id)).padStart(9)} ${fmt(Math.min(...t)).padStart(9)} ${fmt(Math.max(...t)).padStart(9)} ${(c.length ? fmt(median(c)) : 'n/a').padStart(9)} ${mb(Math.max(0, ...rss.get(s.id))).padStart(9)}  (${t.length}x)\n`,
  );
}
if (!DATASET_ONLY) {
  out(`\nfirst run, empty cache directory (compiles and saves the rules snapshot), once:\n`);
  out(`  5 records:      ${fmt(first5.ms)}   ${first5.stderr.split('\n').find((l) => l.includes(' files: ')) ?? ''}\n`);
  out(`  10,000 records: ${fmt(first10k.ms)}   ${first10k.stderr.split('\n').find((l) => l.includes(' files: ')) ?? ''}\n`);
  out(`parse-heavy corpus: ${pyFiles(heavy).length} generated files, ${(heavyBytes / 1e6).toFixed(1)} MB, 200 extra synthetic records\n`);
  out(
    `what the runs did (the 5 bundled and 10,000 synthetic records name APIs the corpus never mentions: they measure the prefilter and start-up):\n  heavy: ${
      run(process.execPath, rl(['--cache-dir', join(work, 'cache-heavy'), '--no-cache', '--timings', '--records', heavyRecords, heavy]))
        .stderr.split('\n')
        .find((l) => l.includes(' files: ')) ?? ''
    }\n  cold: ${statsOf(['--cache-dir', cacheCold, '--no-cache'])}\n  warm: ${statsOf(['--cache-dir', cacheWarm])}\n  10k:  ${statsOf(['--cache-dir', cache10k, '--no-cache', '--records', records10k])}\n  ast-grep: ${sgInspect.trim()}\n`,
  );
}
dataset?.report(out, fmt);

const ratios = [];
const ratio = (label, a, b, target, ok) => ratios.push([label, med(a) / med(b), target, ok, median(cpuTimes.get(a)) / median(cpuTimes.get(b))]);
for (const [label, a, b, target, ok] of dataset?.ratios ?? []) ratio(label, a, b, target, ok);
if (!DATASET_ONLY) {
  ratio('raiselint cold / ast-grep (same threads)', 'coldN', 'sgN', '<= 0.5', (v) => v <= 0.5);
  ratio('raiselint cold / ast-grep, 1 thread each', 'cold1', 'sg1', '(info)', null);
  ratio('raiselint cold / read-only floor', 'coldN', 'floor', '<= 2', (v) => v <= 2);
  ratio('raiselint warm / cold', 'warm', 'coldN', '<= 0.1', (v) => v <= 0.1);
  ratio('raiselint 10,000 records / 5 records (cold)', 'cold10k', 'coldN', '<= 1.2', (v) => v <= 1.2);
  ratio('raiselint cold --jobs 1 / --jobs N', 'cold1', 'coldN', '(info)', null);
  ratio('parse-heavy corpus --jobs 1 / --jobs N', 'heavy1', 'heavyN', '(info)', null);
}
for (const [s, twin] of twins) ratio(`this build / baseline: ${s.label}`, s.id, twin.id, '<= 1 (no slower)', (v) => v <= 1);
out(`\n${'ratio (of medians)'.padEnd(W)} ${'wall'.padStart(9)} ${'CPU'.padStart(9)}  target (on wall time)\n`);
for (const [label, v, target, ok, c] of ratios)
  out(
    `${label.padEnd(W)} ${v.toFixed(2).padStart(9)} ${(Number.isFinite(c) ? c.toFixed(2) : 'n/a').padStart(9)}  ${target}${ok ? (ok(v) ? '  met' : '  MISSED') : ''}\n`,
  );
if (!DATASET_ONLY)
  out(
    `${'20-file pre-commit run, wall (cold)'.padEnd(W)} ${fmt(med('pre20')).padStart(9)} ${''.padStart(9)}  <= 300 ms${med('pre20') <= 300 ? '  met' : '  MISSED'}\n`,
  );
const rlIds = scenarios.filter((s) => !isTool(s)).map((s) => s.id);
const rlRss = Math.max(0, ...rlIds.flatMap((id) => rss.get(id)));
out(
  `${'peak RSS of any raiselint run'.padEnd(W)} ${mb(rlRss).padStart(9)} ${''.padStart(9)}  <= 400 MB${rlRss ? (rlRss / 1024 <= 400 ? '  met' : '  MISSED') : ''}\n`,
);
if (dataset && times.has(dataset.rssTarget)) {
  const k = Math.max(0, ...rss.get(dataset.rssTarget));
  out(
    `${`peak RSS, ${dataset.rssTarget} (all records, largest corpus)`.padEnd(W)} ${mb(k).padStart(9)} ${''.padStart(9)}  <= 400 MB${k ? (k / 1024 <= 400 ? '  met' : '  MISSED') : ''}\n`,
  );
}
// ---------------------------------------------------------------- JS/TS (type-aware ESLint rules)
// A separate block: a generated TypeScript project (a tsconfig, the packages of node_modules
// linked in) where a few files call recorded APIs and most do not; the six JS/TS records of
// fixtures/js/js-records.jsonl. Compared: the prefilter on (only files that mention a rule's names go
// to ESLint with types) and off (every file does), and the same files with the bundled (Python)
// records only (JS/TS files are then not read at all). `--js-reps N` (default 3); `--no-js` skips it.
if (!NO_JS) {
  const jsDir = join(work, 'js-project');
  mkdirSync(join(jsDir, 'src'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(jsDir, 'node_modules'), 'dir');
  writeFileSync(
    join(jsDir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      include: ['src'],
    }),
  );
  const JS_FILES = 200;
  const USING = 10;
  for (let i = 0; i < JS_FILES; i++) {
    const uses = i % (JS_FILES / USING) === 0;
    const body = uses
      ? `import { parse } from 'yaml';\nexport function load${i}(text: string, input: string) {\n  const config = parse(text);\n  return { config, url: new URL(input) };\n}\n`
      : `export interface Item${i} { id: number; name: string }\nexport class Repo${i} {\n  private items = new Map<number, Item${i}>();\n  add(item: Item${i}): void { this.items.set(item.id, item); }\n  find(id: number): Item${i} | undefined { return this.items.get(id); }\n}\n`;
    writeFileSync(join(jsDir, 'src', `m${i}.ts`), body);
  }
  const jsRecords = join(ROOT, 'fixtures', 'js', 'js-records.jsonl');
  const jsRl = (extra) => [bin, 'check', jsDir, '--no-gitignore', '--format', 'concise', '--no-cache', '--cache-dir', join(work, 'cache-js'), ...extra];
  // The content cache's JS/TS results (its own cache directory, filled by the warm-up run).
  const jsWarm = [bin, 'check', jsDir, '--no-gitignore', '--format', 'concise', '--cache-dir', join(work, 'cache-js-warm'), '--records', jsRecords];
  // The yardsticks the issue names: `tsc --noEmit` (the CLI should cost no more when the prefilter
  // skips nothing) and ESLint with one typed typescript-eslint rule (the plugin should cost at most
  // 1.2x that), on the same files and tsconfig.
  const eslintBin = join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const tsRuleConfig = join(jsDir, 'eslint.tsrule.config.mjs');
  const pluginConfig = join(jsDir, 'eslint.raiselint.config.mjs');
  const langOpts = "languageOptions: { parser: tsParser, parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } }";
  writeFileSync(
    tsRuleConfig,
    `import tsParser from '@typescript-eslint/parser';\nimport tsPlugin from '@typescript-eslint/eslint-plugin';\nexport default [{ files: ['src/**/*.ts'], ${langOpts}, plugins: { '@typescript-eslint': tsPlugin }, rules: { '@typescript-eslint/no-floating-promises': 'error' } }];\n`,
  );
  writeFileSync(
    pluginConfig,
    // As docs/js-ts.md configures it: `loadPlugin` of the package's `raiselint/eslint` (dist/bundle/eslint.mjs) reads the
    // compiled-rules snapshot (made by the warm-up run), not the records.
    `import tsParser from '@typescript-eslint/parser';\nimport { loadPlugin } from ${JSON.stringify(join(ROOT, 'dist', 'bundle', 'eslint.mjs'))};\nconst raiselint = await loadPlugin({ records: [${JSON.stringify(join(ROOT, 'fixtures', 'js', 'js-records.jsonl'))}], bundled: false, cacheDir: ${JSON.stringify(join(work, 'cache-eslint'))} });\nexport default [{ files: ['src/**/*.ts'], ${langOpts}, ...raiselint.configs.recommended }];\n`,
  );
  const eslintRun = (config) => [eslintBin, '--no-config-lookup', '-c', config, '--format', 'json', '-o', join(work, 'eslint-out.json'), 'src'];
  const jsScenarios = [
    { id: 'jsTsc', label: `tsc --noEmit on the same project`, argv: [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', jsDir] },
    { id: 'jsEslintTs', label: `eslint: one typed typescript-eslint rule`, argv: eslintRun(tsRuleConfig), cwd: jsDir },
    { id: 'jsEslintRl', label: `eslint: the raiselint plugin (6 records, snapshot)`, argv: eslintRun(pluginConfig), cwd: jsDir },
    { id: 'jsPre', label: `JS/TS: ${JS_FILES} .ts files, prefilter on`, argv: jsRl(['--records', jsRecords]) },
    { id: 'jsWarm', label: `JS/TS: ${JS_FILES} .ts files, warm content cache`, argv: jsWarm },
    { id: 'jsAll', label: `JS/TS: ${JS_FILES} .ts files, --no-prefilter`, argv: jsRl(['--records', jsRecords, '--no-prefilter']) },
    { id: 'jsNone', label: `same files, Python records only (no JS/TS rules)`, argv: jsRl([]) },
  ];
  out(`\nJS/TS block: ${JS_FILES} generated .ts files (${USING} call yaml.parse and new URL), 6 JS/TS records; ${JS_REPS} repetitions, medians\n`);
  for (const s of jsScenarios) run(process.execPath, s.argv, { cwd: s.cwd }); // warm-up: the rules snapshot
  const jsTimes = new Map(jsScenarios.map((s) => [s.id, []]));
  const jsRss = new Map(jsScenarios.map((s) => [s.id, []]));
  for (let rep = 0; rep < JS_REPS; rep++) {
    for (const s of jsScenarios) {
      const r = run(process.execPath, s.argv, { cwd: s.cwd });
      if (r.status === 2 && s.id !== 'jsTsc') fail(`${s.label} failed: ${r.stderr.slice(0, 500)}`);
      jsTimes.get(s.id).push(r.ms);
      if (r.rssKb) jsRss.get(s.id).push(r.rssKb);
    }
  }
  const jsMed = (id) => median(jsTimes.get(id));
  for (const s of jsScenarios) {
    const t = jsTimes.get(s.id);
    out(
      `${s.label.padEnd(52)} ${fmt(jsMed(s.id)).padStart(9)} ${fmt(Math.min(...t)).padStart(9)} ${fmt(Math.max(...t)).padStart(9)} ${mb(Math.max(0, ...jsRss.get(s.id))).padStart(9)}\n`,
    );
  }
  const jsLine = (extra, argv = jsRl(extra)) =>
    run(process.execPath, [...argv, '--timings'])
      .stderr.split('\n')
      .filter((l) => l.startsWith('raiselint: '))
      .join('\n    ');
  out(
    `what the runs did:\n  prefilter on:\n    ${jsLine(['--records', jsRecords])}\n  --no-prefilter:\n    ${jsLine(['--records', jsRecords, '--no-prefilter'])}\n  warm content cache:\n    ${jsLine([], jsWarm)}\n`,
  );
  out(`${'CLI (prefilter on, cold) / tsc --noEmit'.padEnd(52)} ${(jsMed('jsPre') / jsMed('jsTsc')).toFixed(2).padStart(9)}  (goal <= 1.00)\n`);
  out(`${'CLI (--no-prefilter, cold) / tsc --noEmit'.padEnd(52)} ${(jsMed('jsAll') / jsMed('jsTsc')).toFixed(2).padStart(9)}  (goal <= 1.00)\n`);
  out(`${'eslint: raiselint plugin / one typed rule'.padEnd(52)} ${(jsMed('jsEslintRl') / jsMed('jsEslintTs')).toFixed(2).padStart(9)}  (goal <= 1.20)\n`);
  out(`${'JS/TS warm cache / cold (prefilter on)'.padEnd(52)} ${(jsMed('jsWarm') / jsMed('jsPre')).toFixed(2).padStart(9)}  (info)\n`);
  out(`${'JS/TS prefilter on / off'.padEnd(52)} ${(jsMed('jsPre') / jsMed('jsAll')).toFixed(2).padStart(9)}  (info)\n`);
  out(
    `${'JS/TS rules loaded / Python records only'.padEnd(52)} ${(jsMed('jsPre') / jsMed('jsNone')).toFixed(2).padStart(9)}  (info: the cost of type-aware checking)\n`,
  );
  npmRecordsBlock();
}

/**
 * Records generated from installed npm packages (`raiselint records generate node_modules/<name>`):
 * how many, how long, the compile rate by kind, and the share aimed at the exported call the
 * record's code shows (its entry point is the call in `tryCatchPattern`).
 */
function npmRecordsBlock() {
  const pkgs = ['semver', 'tough-cookie', 'commander', 'abstract-level', 'ajv', 'minimatch', 'smol-toml', 'yaml'].filter((p) =>
    existsSync(join(ROOT, 'node_modules', p)),
  );
  const file = join(work, 'npm-records.jsonl');
  const gen = run(process.execPath, [bin, 'records', 'generate', ...pkgs.map((p) => join(ROOT, 'node_modules', p)), '-o', file]);
  if (gen.status !== 0) fail(`records generate failed: ${gen.stderr.slice(0, 500)}`);
  const records = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).record);
  const checked = run(process.execPath, [bin, 'records', 'check', file, '--format', 'json', '--python', 'none']);
  const reports = JSON.parse(checked.stdout).records;
  const byKind = new Map();
  let aimed = 0;
  reports.forEach((r, i) => {
    const kind = records[i].tags.at(-1);
    const k = byKind.get(kind) ?? { compiled: 0, all: 0 };
    k.all++;
    if (r.status === 'compiled') {
      k.compiled++;
      const entry = (r.entryPoints?.[0] ?? '').replace(/\(\)$/, '');
      const call = entry.startsWith('new ') ? entry : entry.split('.').pop();
      if (call && records[i].tryCatchPattern.includes(call.startsWith('new ') ? call : `${call}(`)) aimed++;
    }
    byKind.set(kind, k);
  });
  const compiled = [...byKind.values()].reduce((n, k) => n + k.compiled, 0);
  out(`\nnpm records: ${pkgs.join(', ')}: ${records.length} records in ${fmt(gen.ms)} (${gen.stderr.trim().replace(/^raiselint: /, '')})\n`);
  out(`  compiled ${compiled} of ${records.length}; by kind: ${[...byKind].map(([k, v]) => `${k} ${v.compiled}/${v.all}`).join(', ')}\n`);
  out(`  aimed at the exported call the record's code shows: ${aimed} of ${compiled}\n`);
}

// ---------------------------------------------------------------- record loading (1,000 / 10,000 / 100,000 records)
// Its own block: scripts/bench-records.mjs (load, compile, reuse per dataset size). `--no-records-block` skips it.
if (!NO_RECORDS_BLOCK) (await import('./bench-records.mjs')).recordLoadingBlock({ out, work });
out(
  `\nload average at end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}\n`,
);
if (!KEEP) rmSync(work, { recursive: true, force: true });
else out(`kept ${work}\n`);
