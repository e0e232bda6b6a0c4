// Dataset-scale rows of `npm run bench` (scripts/bench.mjs): raiselint with records generated from the
// real raise sites of the standard library (scripts/gen-stdlib-records.mjs), a 1,000-record sample and
// all of them, over a copy of the standard library in the bench's temp folder (outside any git
// repository, so discovery walks it as a plain folder) and over python3's site-packages (copied the
// same way), side by side with `ast-grep scan` (one rule, 1 and N threads) and Ruff's WebAssembly
// build (one rule, one process: scripts/bench-ruff.mjs) over the same folders. The records name the
// code the corpus holds, so these runs parse and match for real (unlike the 5 bundled and the 10,000
// synthetic records, which only exercise the prefilter on these corpora).
//
// Each scenario runs `reps` times (bench.mjs's --dataset-reps; these runs take tens of seconds each).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { generateStdlibRecords } from './gen-stdlib-records.mjs';
import { writeLines } from './lib/dataset.mjs';

const SKIP = new Set(['site-packages', '__pycache__', 'node_modules', '.git']);

function pyStats(dir, acc = { files: 0, bytes: 0 }) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name) || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) pyStats(p, acc);
    else if (e.isFile() && e.name.endsWith('.py')) {
      acc.files++;
      acc.bytes += statSync(p).size;
    }
  }
  return acc;
}

function insideGit(dir) {
  try {
    execFileSync('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** A copy of the .py files of `from` (and their folders) under `to`. */
function copyPy(from, to) {
  cpSync(from, to, {
    recursive: true,
    filter: (src) => {
      const name = src.split(/[\\/]/).pop();
      // The folder copied may itself be named site-packages: only what is below it is skipped.
      if (src !== from && SKIP.has(name)) return false;
      try {
        return statSync(src).isDirectory() || name.endsWith('.py');
      } catch {
        return false;
      }
    },
  });
}

/**
 * Inputs for the cost-in-size rows: one file of 1 MiB and one of 4 MiB made of the corpus's own
 * top-level modules (concatenated, cut at a `def`), and 2,500 and 10,000 statements on one line that
 * call what the 1,000-record sample names. Each in its own folder: [id, folder, label].
 */
function scaleInputs(corpus, work) {
  const mods = readdirSync(corpus)
    .filter((n) => n.endsWith('.py'))
    .sort()
    .map((n) => readFileSync(join(corpus, n), 'utf8'))
    .filter((t) => !t.includes('__future__'));
  const blob = mods.join('\n');
  const out = [];
  for (const mb of [1, 4]) {
    const n = mb << 20;
    let text = blob.repeat(Math.ceil(n / blob.length)).slice(0, n);
    text = `${text.slice(0, text.lastIndexOf('\ndef '))}\n`;
    const dir = join(work, `scale-${mb}m`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'big.py'), text);
    out.push([`scale${mb}m`, dir, `one ${mb} MiB file of stdlib code`]);
  }
  for (const k of [2500, 10000]) {
    const stmts = Array.from({ length: k }, (_, i) => `x${i + 1} = json.loads(os.path.join(x${i}, "a")); subprocess.Popen(x${i + 1})`);
    const dir = join(work, `scale-line-${k}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'one.py'), `import json, os, subprocess; x0 = ""; ${stmts.join('; ')}\n`);
    out.push([`scaleLine${k}`, dir, `${k.toLocaleString('en-US')} statements on one line`]);
  }
  return out;
}

/**
 * Generates the datasets and the corpus copies; returns the scenarios to time, the ratios to
 * print, and a report of what the runs did (files read and parsed, findings, first compile).
 */
export async function datasetBench({ work, corpus, bin, jobs, run, astGrep, rule, reps, sitePackages, root }) {
  const copy = join(work, 'stdlib-copy');
  copyPy(corpus, copy);
  if (insideGit(copy)) throw new Error(`${copy} is inside a git repository: its .gitignore files would hide the corpus`);
  const corpora = [{ id: '', name: 'stdlib', dir: copy, ...pyStats(copy) }];
  if (sitePackages && existsSync(sitePackages)) {
    const sp = join(work, 'site-packages');
    copyPy(sitePackages, sp);
    corpora.push({ id: 'Sp', name: 'site-packages', dir: sp, ...pyStats(sp) });
  }
  const allFile = join(work, 'stdlib-records-all.jsonl');
  writeLines(await generateStdlibRecords({ stdlib: corpus }), allFile);
  const sampleFile = join(work, 'stdlib-records-1k.jsonl');
  writeLines(await generateStdlibRecords({ stdlib: corpus, sample: 1000, seed: 1 }), sampleFile);
  const count = (f) => readFileSync(f, 'utf8').trimEnd().split('\n').length;
  const nAll = count(allFile);
  // Rows measure the records they name: derivation (on by default) is off unless a row turns it on.
  const check = (dir, cache, extra = []) => [
    bin,
    'check',
    '--format',
    'concise',
    '--timings',
    '--derive',
    'off',
    '--cache-dir',
    join(work, cache),
    ...extra,
    dir,
  ];
  const ruff = join(root, 'scripts', 'bench-ruff.mjs');
  const scenarios = [];
  for (const c of corpora) {
    const j = String(jobs);
    const sc = (id, label, cmd, argv) => scenarios.push({ id: id + c.id, label: `${c.name}: ${label}`, cmd, argv, reps, corpus: c });
    if (!c.id) sc('dsSg1', 'ast-grep scan, one rule, -j 1', astGrep, ['scan', '-r', rule, '-j', '1', '--report-style', 'short', c.dir]);
    sc('dsSgN', `ast-grep scan, one rule, -j ${j}`, astGrep, ['scan', '-r', rule, '-j', j, '--report-style', 'short', c.dir]);
    sc('dsRuff', "Ruff's WASM build, one rule, one process", process.execPath, [ruff, c.dir]);
    sc(
      'ds1k',
      `raiselint, ${count(sampleFile)} stdlib records, cold, --jobs ${j}`,
      process.execPath,
      check(c.dir, 'cache-ds1k', ['--no-cache', '--records', sampleFile, '--jobs', j]),
    );
    // Cross-file (src/semantic/crossfile.ts): the same run with each file read alone; the stdlib
    // checked as a project is the worst case (every module both the project's and a library's).
    if (!c.id)
      sc(
        'ds1kNoXf',
        `raiselint, ${count(sampleFile)} stdlib records, cold, --no-cross-file, --jobs ${j}`,
        process.execPath,
        check(c.dir, 'cache-ds1k', ['--no-cache', '--no-cross-file', '--records', sampleFile, '--jobs', j]),
      );
    if (!c.id)
      sc(
        'ds1kJ1',
        `raiselint, ${count(sampleFile)} stdlib records, cold, --jobs 1`,
        process.execPath,
        check(c.dir, 'cache-ds1k', ['--no-cache', '--records', sampleFile, '--jobs', '1']),
      );
    sc(
      'dsAll',
      `raiselint, all ${nAll} stdlib records, cold, --jobs ${j}`,
      process.execPath,
      check(c.dir, 'cache-dsall', ['--no-cache', '--records', allFile, '--jobs', j]),
    );
    if (!c.id)
      sc(
        'dsAllWarm',
        `raiselint, all ${nAll} stdlib records, warm (cache)`,
        process.execPath,
        check(c.dir, 'cache-dsall-warm', ['--records', allFile, '--jobs', j]),
      );
    if (!c.id)
      sc(
        'dsNoPf',
        `raiselint, bundled records, --no-prefilter, --jobs ${j}`,
        process.execPath,
        check(c.dir, 'cache-dsnopf', ['--no-cache', '--no-prefilter', '--jobs', j]),
      );
    // Every file parsed and modelled with records that name what the corpus calls (the bundled
    // records name nothing in it): the prefilter's worth, and the model's cost on every file.
    if (!c.id)
      sc(
        'dsNoPf1k',
        `raiselint, ${count(sampleFile)} stdlib records, --no-prefilter, --jobs ${j}`,
        process.execPath,
        check(c.dir, 'cache-ds1k', ['--no-cache', '--no-prefilter', '--records', sampleFile, '--jobs', j]),
      );
    // The fix phase: --diff of every fix of the 1,000-record sample on a warm results cache, so
    // each file's lint-and-fix loop is most of the run (src/engine/fixpool.ts: 1 and N threads).
    if (!c.id)
      for (const [id, n] of [
        ['ds1kDiff', j],
        ['ds1kDiffJ1', '1'],
      ])
        sc(
          id,
          `raiselint --diff --unsafe-fixes, ${count(sampleFile)} stdlib records, warm, --jobs ${n}`,
          process.execPath,
          check(c.dir, 'cache-ds1k-diff', ['--diff', '--unsafe-fixes', '--records', sampleFile, '--jobs', n]),
        );
    if (!c.id)
      sc('dsBundled', `raiselint, bundled records (5), cold, --jobs ${j}`, process.execPath, check(c.dir, 'cache-dsbundled', ['--no-cache', '--jobs', j]));
    // The default run (`derive = "certain"`): bundled records plus those derived from the installed
    // modules the corpus imports, derived and compiled once (prepare), against the same run without.
    // Site-packages only: the stdlib copy's imports are its own modules, so nothing would be derived there.
    if (c.id) {
      sc(
        'dsDeriveOff',
        `raiselint, bundled records, --derive off, cold results, --jobs ${j}`,
        process.execPath,
        check(c.dir, `cache-derive${c.id}`, ['--no-cache', '--jobs', j]),
      );
      sc(
        'dsDerive',
        `raiselint, bundled records, --derive certain (the default; derived records cached), cold results, --jobs ${j}`,
        process.execPath,
        check(c.dir, `cache-derive${c.id}`, ['--no-cache', '--jobs', j, '--derive', 'certain']),
      );
    }
  }

  // Cost in size (issue: bounded cost at the edges): each pair side by side, the ratio should stay near the size ratio (4x).
  for (const [id, dir, label] of scaleInputs(corpus, work)) {
    scenarios.push({
      id,
      label: `scale: ${label}, ${count(sampleFile)} records, --jobs 1`,
      cmd: process.execPath,
      argv: check(dir, 'cache-ds1k', ['--no-cache', '--records', sampleFile, '--jobs', '1']),
      reps,
    });
  }

  /** What a raiselint run did, from its --timings line: files read and parsed (the prefilter's pass rate). */
  const did = (r) => {
    const line = r.stderr.split('\n').find((l) => l.startsWith('raiselint: ') && l.includes(' files: ')) ?? '';
    const m = /(\d+) files: (\d+) cached, (\d+) read, (\d+) parsed/.exec(line);
    const summaries = /(\d+) module summaries/.exec(line)?.[1] ?? '0';
    const findings = /Found (\d+) finding/.exec(r.stdout)?.[1] ?? (/All checks passed/.test(r.stdout) ? '0' : '?');
    if (!m) return { text: line || r.stderr.trim().split('\n').pop() || '', findings };
    const [, files, , read, parsed] = m.map(Number);
    return {
      text: `${read} read, ${parsed} parsed (${read ? ((100 * parsed) / read).toFixed(0) : 0}% pass the prefilter) of ${files} files; ${summaries} module summaries computed (0 read from a cache: summaries are not cached across runs); ${findings} findings`,
      findings,
    };
  };
  const last = new Map();
  const observe = (s, r) => last.set(s.id, r);
  // Not timed, once: the rules snapshots (one compile per records file and cache directory) and the warm cache.
  // The cold dataset runs themselves are not run as warm-ups: each takes tens of seconds.
  const prepare = [
    ...[
      ['cache-ds1k', sampleFile],
      ['cache-dsall', allFile],
      ['cache-dsall-warm', allFile],
    ].map(([cache, file]) => [bin, 'rules', '--format', 'json', '--cache-dir', join(work, cache), '--records', file]),
    check(copy, 'cache-dsall-warm', ['--records', allFile, '--jobs', String(jobs)]),
    check(copy, 'cache-ds1k-diff', ['--records', sampleFile, '--jobs', String(jobs)]),
    ...corpora.filter((c) => c.id).map((c) => check(c.dir, `cache-derive${c.id}`, ['--no-cache', '--jobs', String(jobs), '--derive', 'certain'])),
  ];

  const report = (out, fmt) => {
    out(`\ndataset scale (records generated from the standard library's raise sites: ${count(sampleFile)}-record sample, seed 1, and all ${nAll}):\n`);
    for (const c of corpora) out(`  corpus ${c.name}: ${c.files} files, ${(c.bytes / 1e6).toFixed(1)} MB (copy outside any git repository: ${c.dir})\n`);
    for (const s of scenarios) {
      const r = last.get(s.id);
      if (!r) continue;
      const what =
        s.cmd === process.execPath && s.argv[0] === bin
          ? did(r).text
          : s.cmd === astGrep
            ? `${r.stdout.split('\n').filter(Boolean).length} matches`
            : (r.stdout.trim().split('\n').pop() ?? '').slice(0, 90);
      out(`  ${s.label}: ${what}\n`);
    }
    for (const [label, file] of [
      ['1,000 records', sampleFile],
      [`all ${nAll} records`, allFile],
    ]) {
      const first = run(process.execPath, [bin, 'rules', '--format', 'json', '--cache-dir', join(work, `first-${label.length}`), '--records', file]);
      out(`  first compile, ${label} (raiselint rules, empty cache directory): ${fmt(first.ms)}\n`);
    }
    const sum = run(process.execPath, [bin, 'records', 'check', '--summary', allFile]);
    out(`  records check --summary, all records (${fmt(sum.ms)}): ${sum.stdout.split('\n')[0]}\n`);
  };

  /** [label, numerator id, denominator id, target text, test] for bench.mjs's ratio table. */
  const ratios = [];
  for (const c of corpora) {
    const sg = `dsSgN${c.id}`;
    ratios.push([`${c.name}: 1,000 records / ast-grep -j ${jobs}`, `ds1k${c.id}`, sg, '<= 1.0', (v) => v <= 1.0]);
    ratios.push([`${c.name}: all records / ast-grep -j ${jobs}`, `dsAll${c.id}`, sg, c.id ? '(info)' : '<= 1.2', c.id ? null : (v) => v <= 1.2]);
    ratios.push([`${c.name}: 1,000 records / Ruff (WASM, 1 process)`, `ds1k${c.id}`, `dsRuff${c.id}`, '(info)', null]);
    if (!c.id) {
      ratios.push([`${c.name}: --no-prefilter (bundled records) / ast-grep -j ${jobs}`, 'dsNoPf', sg, '<= 1.5', (v) => v <= 1.5]);
      ratios.push([`${c.name}: 1,000 records --no-prefilter / ast-grep -j ${jobs}`, 'dsNoPf1k', sg, '(info)', null]);
      ratios.push([`${c.name}: bundled records / ast-grep -j ${jobs}`, 'dsBundled', sg, '<= 0.1', (v) => v <= 0.1]);
      ratios.push([`${c.name}: 1,000 records --jobs 1 / --jobs ${jobs}`, 'ds1kJ1', 'ds1k', '(info)', null]);
      ratios.push([`${c.name}: 1,000 records, cross-file / --no-cross-file`, 'ds1k', 'ds1kNoXf', '<= 1.2', (v) => v <= 1.2]);
      ratios.push([`${c.name}: --diff, 1,000 records, --jobs 1 / --jobs ${jobs}`, 'ds1kDiffJ1', 'ds1kDiff', '(info)', null]);
    }
  }
  for (const c of corpora.filter((x) => x.id))
    ratios.push([`${c.name}: --derive certain (cached) / --derive off`, `dsDerive${c.id}`, `dsDeriveOff${c.id}`, '<= 2', (v) => v <= 2]);
  ratios.push(['scale: a 4 MiB file / a 1 MiB file', 'scale4m', 'scale1m', '<= 5', (v) => v <= 5]);
  ratios.push(['scale: 10,000 statements on one line / 2,500', 'scaleLine10000', 'scaleLine2500', '<= 5', (v) => v <= 5]);
  const rssTarget = corpora.some((c) => c.id) ? 'dsAllSp' : 'dsAll';
  return { scenarios, report, observe, ratios, rssTarget, prepare };
}
