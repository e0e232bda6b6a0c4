/** `raiselint check`: the lint run. */
import { targetVersionSpec } from '../config/pins.js';
import { readFileSync } from 'node:fs';
import { describeProblem, isUnloadedFile, warningLines } from '../records/load.js';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { exitCode } from '../engine/run.js';
import { runProject, type ProjectOptions, type ProjectResult } from '../engine/project.js';
import { defaultJobs, type BatchStats } from '../engine/batch.js';
import { fixRun, type FixRunResult } from '../engine/fixrun.js';
import type { StdinSource } from '../engine/stdin.js';
import { formatDiff } from '../report/diff.js';
import { FORMATS, renderReport, reportsErrors, showsFixes, type Format } from '../report/formats.js';
import { addIgnoreReport, baselineTarget, showConfig, writeBaselineReport } from './check-adopt.js';
import { UsageError, collect, type IO } from './io.js';
import { addReportingOptions, addRuleSourceOptions, pythonOption, type RuleSourceFlags } from './rule-options.js';
import { writeReport } from './output.js';
import { PathReport, addRuffOptions, ruffExitCode, ruffProjectOptions, showFiles, type RuffFlags } from './check-flags.js';

interface CheckFlags extends RuffFlags, RuleSourceFlags {
  format: Format;
  statistics?: boolean;
  verbose?: boolean;
  strict?: boolean;
  derive?: 'off' | 'certain' | 'all';
  minConfidence?: 'certain' | 'possible';
  select?: string[];
  ignore: string[];
  outputFile?: string;
  color?: boolean;
  gitignore: boolean;
  showConfig?: string;
  baseline?: string;
  updateBaseline?: boolean;
  addIgnore?: boolean;
  fix?: boolean;
  unsafeFixes?: boolean;
  diff?: boolean;
  fixStrategy?: 'auto' | 'try-except' | 'type-guard';
  targetVersion?: string;
  jobs?: number;
  cache: boolean;
  prefilter: boolean;
  crossFile: boolean;
  timings?: boolean;
  stdinFilename?: string;
  followLinks?: boolean;
  maxFileSize?: number;
}

/** `--select a,b --select c`: the patterns in order; an empty one is a usage error. */
function ruleList(v: string, prev: string[] | undefined): string[] {
  const parts = v.split(',').map((p) => p.trim());
  if (parts.some((p) => !p)) throw new InvalidArgumentError('expected rule ids, prefixes or globs separated by commas');
  return [...(prev ?? []), ...parts];
}

/** `--max-file-size 10M`: bytes, or kibibytes/mebibytes/gibibytes with K/M/G. */
function fileSize(v: string): number {
  const m = /^(\d+)([KMG]?)i?B?$/i.exec(v.trim());
  if (!m) throw new InvalidArgumentError('expected a size in bytes, or with K, M or G (10M)');
  const n = Number(m[1]) * 1024 ** ' KMG'.indexOf((m[2] || ' ').toUpperCase());
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive size');
  return n;
}

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** `raiselint check -`: the source on stdin; `-` alone, and not with the flags that write files. */
function stdinSource(paths: string[], flags: CheckFlags): StdinSource | undefined {
  if (!paths.includes('-')) {
    if (flags.stdinFilename !== undefined) throw new UsageError('--stdin-filename needs the path `-` (the source on standard input)');
    return undefined;
  }
  if (paths.length > 1) throw new UsageError('`-` (standard input) cannot be combined with other paths');
  for (const [on, name] of [
    [flags.addIgnore, '--add-ignore'],
    [flags.updateBaseline, '--update-baseline'],
  ] as const)
    if (on) throw new UsageError(`${name} cannot be used with \`-\` (standard input): it writes files`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(0);
  } catch (e) {
    throw new UsageError(`cannot read standard input (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return { bytes, filename: flags.stdinFilename };
}

export function registerCheck(program: Command, io: IO, setCode: (code: number) => void): void {
  addRuffOptions(checkCommand(program)).action((paths: string[], flags: CheckFlags) => runCheck(paths, flags, io, setCode));
}

/** `raiselint check` and its options. */
function checkCommand(program: Command): Command {
  return addReportingOptions(
    addRuleSourceOptions(
      program.command('check').description('check Python files and directories').argument('[paths...]', 'files or directories to check', ['.']),
    ),
  )
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('text'))
    .option('--statistics', 'print the number of findings per rule instead of the findings')
    .option('--verbose', 'say every record warning (duplicate records are summarised otherwise)')
    .addOption(
      new Option(
        '--derive <mode>',
        "records for the installed modules the checked files import: off, their certain findings, or all (default: the config's derive, else certain)",
      ).choices(['off', 'certain', 'all']),
    )
    .option('--strict', 'exit 2 when a dataset file of a records folder does not load (otherwise a warning, and the others load)')
    .option('--select <rules>', "report only these rules: ids, prefixes or globs, comma-separated (repeatable; replaces the config's select)", ruleList)
    .option('--ignore <rules>', "never report these rules: ids, prefixes or globs, comma-separated (repeatable; added to the config's ignore)", ruleList, [])
    .option('-o, --output-file <file>', 'write the report to a file')
    .option('--color', 'force colours')
    .option('--no-color', 'no colours')
    .option('--no-gitignore', 'do not honour .gitignore files')
    .option(
      '--exclude <glob>',
      'exclude paths matching a gitignore-style glob instead of the built-in and configured exclusions (repeatable; as Ruff: --extend-exclude adds to them)',
      collect,
      [],
    )
    .option('--show-config <file>', 'print the configuration that applies to a file and exit')
    .option('--baseline <file>', 'report only findings that are not in this baseline file')
    .addOption(
      new Option('--update-baseline', `write the current findings to the baseline file (--baseline, default ${baselineTarget(undefined)}) and exit`).conflicts([
        'addIgnore',
        'fix',
        'diff',
      ]),
    )
    .addOption(new Option('--add-ignore', 'add a `# raiselint: ignore[...]` comment for every current finding and exit').conflicts(['fix', 'diff']))
    .option('--fix', 'apply safe fixes (verified, written atomically)')
    .option('--unsafe-fixes', 'with --fix or --diff, apply unsafe fixes too')
    .option('--diff', 'print the fixes as a unified diff and write nothing')
    .option('--follow-links', 'follow symbolic links to directories (each real directory once)')
    .option('--max-file-size <bytes>', 'files larger than this are not read but reported as raiselint/too-large (bytes, or with K/M/G; default 10M)', fileSize)
    .option(
      '--target-version <version>',
      'the Python version to check for (py38 ... py314, as Ruff; default: target-version, .python-version or requires-python of the project)',
      targetVersionOption,
    )
    .addOption(
      new Option('--fix-strategy <strategy>', "how to fix: the record's choice (auto), a try/except, or a type guard (default: config, else auto)").choices([
        'auto',
        'try-except',
        'type-guard',
      ]),
    )
    .option('--exit-non-zero-on-fix', 'exit 1 when findings were fixed, even if none remain')
    .option('-j, --jobs <n>', 'threads to use at most (default: the number of cores)', positiveInt)
    .option('--no-cache', 'do not read or write cached results (compiled rules are still cached)')
    .option('--no-prefilter', 'parse every file, even those that mention no trigger name (for debugging)')
    .option('--no-cross-file', "check each file alone: do not follow values through the project's own modules")
    .option('--timings', 'print what the run did to stderr: files cached, read, parsed; threads; time')
    .option('--stdin-filename <path>', 'with the path `-`: the file the source on stdin stands for (its config applies; reports name it)');
}

type RuffOptions = ReturnType<typeof ruffProjectOptions>;

/** The run's options from the command line. */
function projectOptions(flags: CheckFlags, ruff: RuffOptions, stdin: StdinSource | undefined, paths_: PathReport): ProjectOptions {
  const format = ruff.format;
  return {
    records: flags.records,
    bundled: flags.bundled,
    python: pythonOption(flags.python),
    config: ruff.config,
    configFile: ruff.configFile,
    minConfidence: flags.minConfidence,
    select: flags.select,
    ignore: flags.ignore,
    respectGitignore: flags.gitignore,
    exclude: ruff.exclude,
    replaceExclude: ruff.replaceExclude,
    discovery: { forceExclude: flags.forceExclude, ...paths_.hooks },
    baseline: flags.updateBaseline ? undefined : flags.baseline,
    fixStrategy: flags.fixStrategy,
    jobs: flags.jobs,
    cache: flags.cache,
    cacheDir: flags.cacheDir,
    prefilter: flags.prefilter,
    crossFile: flags.crossFile,
    fixes: needsFixes(format, flags),
    originals: !!(flags.fix || flags.diff),
    stdin,
    followLinks: flags.followLinks,
    maxFileSize: flags.maxFileSize,
    targetVersion: flags.targetVersion,
    derive: flags.derive,
  };
}

/** `raiselint check PATHS`: the run, its fixes, the report and the exit code. */
async function runCheck(paths: string[], flags: CheckFlags, { stdout, stderr }: IO, setCode: (code: number) => void): Promise<void> {
  // Date.now, not performance.now: the `performance` global loads perf_hooks (~3 ms of start-up).
  const t0 = Date.now();
  const ruff = ruffProjectOptions(flags);
  const format = ruff.format;
  const stdin = stdinSource(paths, flags);
  if (flags.showConfig !== undefined) {
    const { records, bundled, minConfidence, select, ignore, cacheDir } = flags;
    const opts = {
      records,
      bundled,
      python: pythonOption(flags.python),
      config: ruff.config!,
      configFile: ruff.configFile,
      minConfidence,
      select,
      ignore,
      cacheDir,
    };
    return setCode(await showConfig(flags.showConfig, opts, { stdout, stderr }));
  }
  const paths_ = new PathReport();
  const projectOpts = projectOptions(flags, ruff, stdin, paths_);
  if (flags.showFiles) return setCode(showFiles(paths, projectOpts, { stdout, stderr }));
  const result = await runProject(paths, projectOpts);
  const noFiles = stdin ? undefined : paths_.verdict(result.files, flags, { stdout, stderr });
  const rules = result.rules;
  // --strict: a dataset file of a records folder that did not load ends the run (else it is a warning and the others load).
  const unloaded = flags.strict ? result.warnings.filter(isUnloadedFile) : [];
  for (const l of warningLines(unloaded.length ? result.warnings.filter((w) => !isUnloadedFile(w)) : result.warnings, flags.verbose)) stderr(`${l}\n`);
  if (unloaded.length) {
    for (const w of unloaded) stderr(`raiselint: error: ${describeProblem(w)} (--strict)\n`);
    return setCode(2);
  }
  if (!result.ruleCount) throw new UsageError('no rules: every record was skipped (see warnings above)');
  if (flags.timings) printTimings(result.stats, t0, stderr);
  // Fixes and added comments parse files: the parser loads only when some work needs it.
  if (flags.fix || flags.diff || flags.addIgnore) await (await import('../parse/parser.js')).initParser();
  if (flags.updateBaseline) return setCode(writeBaselineReport(result, baselineTarget(flags.baseline), { stdout, stderr }));
  if (flags.addIgnore) return setCode(addIgnoreReport(result, { stdout, stderr }));
  if (result.staleBaseline)
    stderr(
      `raiselint: ${result.staleBaseline} baseline finding${result.staleBaseline === 1 ? ' is' : 's are'} gone (run with --update-baseline to drop them)\n`,
    );
  // Like Ruff, `--fix` on stdin: the fixed source on stdout (byte for byte when nothing changed), the report on stderr.
  const fixStdin = !!(stdin && flags.fix && !flags.diff);
  const fixed = await applyFixes(result, flags, fixStdin ? stdin : undefined, stdout);
  if (flags.diff) return setCode(diffReport(fixed!, flags.exitZero, { stdout, stderr }));
  // The run after its fixes: what the report shows and the exit code counts.
  const shown: ProjectResult = fixed ? { ...result, diagnostics: fixed.diagnostics, errors: fixed.errors, sources: fixed.sources } : result;
  const color = !fixStdin && (flags.color ?? (!flags.outputFile && process.stdout.isTTY === true && !process.env.NO_COLOR));
  const report = renderReport(
    format,
    { ...shown, rules: rules.byId },
    { color, statistics: flags.statistics, fixed: fixed?.fixed, unsafeFixes: flags.unsafeFixes, quiet: flags.quiet },
  );
  if (flags.outputFile) writeReport(flags.outputFile, report);
  else (fixStdin ? stderr : stdout)(report);
  if (flags.statistics || !reportsErrors(format))
    for (const e of shown.errors) stderr(`raiselint: ${e.kind === 'syntax' ? 'warning' : 'error'}: ${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}\n`);
  setCode(noFiles ?? ruffExitCode(exitCode(shown), shown, flags, fixed?.fixed ?? 0, { stdout, stderr }));
}

/** `--fix` / `--diff`: each file's lint-and-fix loop; `stdin` (with --fix): the fixed source is written to stdout, and the report shows what is left in it. */
async function applyFixes(result: ProjectResult, flags: CheckFlags, stdin: StdinSource | undefined, stdout: IO['stdout']): Promise<FixRunResult | undefined> {
  if (stdin) {
    const run = await fixRun(result, result.rules, { unsafe: flags.unsafeFixes, write: false });
    const changed = run.changed[0];
    stdout(changed?.bytes ?? stdin.bytes);
    return changed ? { ...run, diagnostics: changed.diagnostics, sources: new Map([...run.sources, [changed.file, changed.after]]) } : run;
  }
  if (flags.fix || flags.diff) return fixRun(result, result.rules, { unsafe: flags.unsafeFixes, write: !flags.diff, jobs: flags.jobs ?? defaultJobs() });
  return undefined;
}

/** `--timings`: what the run did, on stderr. */
function printTimings(s: BatchStats, t0: number, stderr: IO['stderr']): void {
  stderr(
    `raiselint: ${s.files} files: ${s.cachedByStat + s.cachedByHash} cached, ${s.read} read, ${s.parsed} parsed${s.summaries ? `, ${s.summaries} module summaries` : ''}; ${s.ruleCount} rules${s.derived ? `, ${s.derived.records} derived from ${s.derived.modules} imported module${s.derived.modules === 1 ? '' : 's'}` : ''}${s.compileMs ? ` (compiled in ${Math.round(s.compileMs)} ms)` : ''}; ${s.workers} worker threads; ${Date.now() - t0} ms\n`,
  );
  if (s.js)
    stderr(
      `raiselint: ${s.js.files} JS/TS files: ${s.js.linted} linted with types (${s.js.programs} TypeScript program${s.js.programs === 1 ? '' : 's'}), ${s.js.clearedByTypes} cleared by types (no call a rule reaches), ${s.js.cached} cached (${s.js.cachedByStat} unchanged by stat), ${s.js.files - s.js.linted - s.js.clearedByTypes - s.js.cached} skipped by the prefilter; ${Math.round(s.js.ms)} ms\n`,
    );
}

/** `--diff`, like Ruff: the diff on stdout, a summary on stderr; returns the exit code (1 when something would change). */
function diffReport(fixed: FixRunResult, exitZero: boolean | undefined, { stdout, stderr }: IO): number {
  for (const f of fixed.changed) stdout(formatDiff(f.file, f.before, f.after));
  for (const e of fixed.errors) if (e.kind !== 'syntax') stderr(`raiselint: error: ${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}\n`);
  const n = fixed.fixed;
  stderr(n ? `Would fix ${n} finding${n === 1 ? '' : 's'}.\n` : 'No fixes to apply.\n');
  return fixed.errors.some((e) => e.kind !== 'syntax') ? 2 : n && !exitZero ? 1 : 0;
}

function targetVersionOption(v: string): string {
  if (!targetVersionSpec(v)) throw new InvalidArgumentError(`'${v}' is not a Python version (py38 ... py314, or 3.11)`);
  return v;
}

/** Whether the run must plan fixes: --fix, --diff, the baseline and comment writers, statistics (fixable counts) or a format that shows them. */
function needsFixes(format: Format, flags: CheckFlags): boolean {
  return showsFixes(format) || !!(flags.statistics || flags.fix || flags.diff || flags.updateBaseline || flags.addIgnore);
}
