/**
 * The flags of `raiselint check` a Ruff user expects: `--config <file>`, `--isolated`,
 * `--extend-exclude`, `--force-exclude`, `--show-files`, `--exit-zero`, `--max-warnings`,
 * `--quiet`, `--output-format`, `--strict-paths`; and "No Python files found".
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { discoverProject, projectResolver, type ProjectOptions } from '../engine/project.js';
import { FORMATS, type Format } from '../report/formats.js';
import { UsageError, collect, type IO } from './io.js';

export interface RuffFlags {
  /** `--config <file>` (a string), `--no-config` (false), or neither (true). */
  config: string | boolean;
  isolated?: boolean;
  exclude: string[];
  extendExclude: string[];
  forceExclude?: boolean;
  showFiles?: boolean;
  exitZero?: boolean;
  exitNonZeroOnFix?: boolean;
  maxWarnings?: number;
  quiet?: boolean;
  format: Format;
  outputFormat?: Format;
  strictPaths?: boolean;
}

function nonNegativeInt(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number (0 or more)');
  return n;
}

/** Adds the options (help order: after the command's own). */
export function addRuffOptions(cmd: Command): Command {
  return cmd
    .option(
      '--config <file>',
      'use this raiselint.toml / pyproject.toml for every file instead of looking for config files (its relative paths are relative to the current directory)',
    )
    .option('--isolated', 'ignore every config file (as --no-config)')
    .option(
      '--extend-exclude <glob>',
      'exclude paths matching a gitignore-style glob, in addition to the built-in and configured exclusions (repeatable)',
      collect,
      [],
    )
    .option('--force-exclude', 'apply the exclusions to paths named on the command line too')
    .option('--show-files', 'print the files that would be checked (and, on stderr, what was skipped and why) and exit')
    .option('--strict-paths', 'exit 2 when a given path holds no Python file to check')
    .option('--exit-zero', 'exit 0 even when findings are reported (2 still means the run failed)')
    .option('--max-warnings <n>', 'exit 1 when more than n warning-severity (possible) findings are reported', nonNegativeInt)
    .option('-q, --quiet', 'print the findings only: no summary, no "No Python files found" warning')
    .addOption(new Option('--output-format <format>', "output format (Ruff's name for --format)").choices(FORMATS));
}

/** The options of a run that these flags decide; usage errors for the combinations that make no sense. */
export function ruffProjectOptions(flags: RuffFlags): Pick<ProjectOptions, 'config' | 'configFile' | 'exclude' | 'replaceExclude'> & { format: Format } {
  if (flags.isolated && typeof flags.config === 'string') throw new UsageError('--config cannot be used with --isolated (which ignores every config file)');
  if (flags.exitZero && flags.exitNonZeroOnFix) throw new UsageError('--exit-zero cannot be used with --exit-non-zero-on-fix');
  if (flags.outputFormat && flags.format !== 'text' && flags.format !== flags.outputFormat)
    throw new UsageError(`--format ${flags.format} and --output-format ${flags.outputFormat} disagree (they are the same option)`);
  return {
    config: flags.config !== false && !flags.isolated,
    configFile: typeof flags.config === 'string' ? flags.config : undefined,
    exclude: [...flags.exclude, ...flags.extendExclude],
    replaceExclude: flags.exclude.length > 0,
    format: flags.outputFormat ?? flags.format,
  };
}

/** What discovery said about the given paths: skipped ones (with why), and how many Python files each holds. */
export class PathReport {
  readonly skipped: { path: string; reason: string }[] = [];
  readonly found = new Map<string, number>();
  readonly hooks = {
    onSkip: (path: string, reason: string) => void this.skipped.push({ path, reason }),
    onPath: (given: string, n: number) => void this.found.set(given, (this.found.get(given) ?? 0) + n),
  };

  /** Given paths that hold no Python file. */
  empty(): string[] {
    return [...this.found].filter(([, n]) => !n).map(([p]) => p);
  }

  /**
   * After discovery: "No Python files found" (a warning, unless quiet), and exit 2 (returned) when
   * `--strict-paths` finds a path with none, or every path given was a file that is not Python (as ESLint).
   */
  verdict(files: number, flags: Pick<RuffFlags, 'strictPaths' | 'quiet'>, { stderr }: IO): number | undefined {
    const named = new Set(this.skipped.filter((s) => s.reason.startsWith('not a Python file')).map((s) => s.path));
    for (const p of named) stderr(`raiselint: warning: ${p}: not a Python file, skipped\n`);
    if (flags.strictPaths) {
      const empty = this.empty().filter((p) => !named.has(p));
      for (const p of empty) stderr(`raiselint: error: ${p}: no Python files to check (--strict-paths)\n`);
      if (empty.length || named.size) return 2;
    }
    if (files) return undefined;
    if (!flags.quiet) stderr('raiselint: warning: No Python files found under the given path(s)\n');
    const allNamed = this.found.size > 0 && [...this.found.keys()].every((p) => named.has(p));
    return allNamed ? 2 : undefined;
  }
}

/** `--show-files`: the files that would be checked, one a line, and on stderr what was skipped and why. */
export function showFiles(paths: string[], opts: ProjectOptions, { stdout, stderr }: IO): number {
  const report = new PathReport();
  const files = discoverProject(paths, { ...opts, discovery: { ...opts.discovery, ...report.hooks } }, projectResolver(opts));
  for (const f of files) stdout(`${f.display}\n`);
  for (const s of report.skipped) stderr(`raiselint: skipped ${s.path}: ${s.reason}\n`);
  return 0;
}

/** The exit code after the report: `--exit-zero`, `--max-warnings`, `--exit-non-zero-on-fix` over the run's own. */
export function ruffExitCode(
  code: number,
  r: { diagnostics: Pick<Diagnostic, 'severity'>[]; errors: FileError[] },
  flags: RuffFlags,
  fixed: number,
  { stderr }: IO,
): number {
  if (code === 2) return 2;
  const warnings = r.diagnostics.filter((d) => d.severity === 'warning').length;
  const tooMany = flags.maxWarnings !== undefined && warnings > flags.maxWarnings;
  if (tooMany) stderr(`raiselint: ${warnings} warning${warnings === 1 ? '' : 's'} found, more than --max-warnings ${flags.maxWarnings}\n`);
  if (flags.exitZero) return 0;
  if (code === 0 && (tooMany || (flags.exitNonZeroOnFix && fixed > 0))) return 1;
  return code;
}
