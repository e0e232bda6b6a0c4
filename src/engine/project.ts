/**
 * A configured run: discovery, per-file configuration (../config), the rules, the check, then each
 * file's per-file stage (./filecontext.ts: config filters, suppressions, severity, the baseline). Config files decide which extra datasets
 * load, so files are discovered (and their configs resolved) before the rules are built.
 */
import { resolve } from 'node:path';
import { compareDiagnostics } from '../diagnostics/build.js';
import { groupByFile } from '../diagnostics/group.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { datasetFiles } from '../records/load.js';
import type { RecordProblem } from '../records/types.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { Confidence } from '../rules/types.js';
import { BUILTIN_RULES } from '../suppress/builtin.js';
import type { UnusedSuppression } from '../suppress/apply.js';
import { baselinePath, readBaseline, type Baseline } from '../suppress/baseline.js';
import type { Directive } from '../suppress/directives.js';
import { discover, type DiscoveredFile, type DiscoverOptions } from '../workspace/discover.js';
import { pinsFor, type Listed } from '../config/pins.js';
import { removeStaleTempsIn } from '../io/atomic.js';
import { ConfigResolver, checkRulePatterns, fileRules, rulePatterns, type ResolvedConfig } from '../config/resolve.js';
import type { StrategyOption } from '../fix/plan.js';
import type { FileResult } from './check.js';
import type { PreparedRules, RuleOptions } from '../compile/index.js';
import { checkFiles, jsCacheOf, rulesFor, textOf, type BatchStats, type RawResult } from './batch.js';
import type { RunResult } from './run.js';
import { checkStdin, stdinFile, type StdinSource } from './stdin.js';
import { splitIoErrors } from './ioerror.js';
import { deriveForRun } from './derive.js';
import { DEFAULT_DERIVE, type DeriveMode } from '../records/generate/derive.js';
import { checkJs, displayOnlyFixes, JS_FILES, pythonFiles, splitJs } from './jsproject.js';
import { finishFile, type FileContext, type RunContext } from './filecontext.js';
import type { RulesSource } from './fixpool.js';

export { finishFile, type FileContext, type RunContext } from './filecontext.js';

const BUILTIN_IDS = BUILTIN_RULES.map((r) => r.id);

export interface ProjectOptions extends RuleOptions {
  /** Records derived from the installed modules the checked files import (default: the config's `derive`, else off). */
  derive?: DeriveMode;
  /** Overrides every config's `min-confidence`. */
  minConfidence?: Confidence;
  /** `--select` (replaces the configs' `select`) and `--ignore` (added to their `ignore`). */
  select?: string[];
  ignore?: string[];
  respectGitignore?: boolean;
  /** Extra exclusion globs (gitignore syntax), relative to the current directory. */
  exclude?: string[];
  /** Follow symbolic links to directories (--follow-links). */
  followLinks?: boolean;
  /** Files larger than this are an io-error, not read (--max-file-size). */
  maxFileSize?: number;
  /** Read config files (default true). */
  config?: boolean;
  /** `--config <file>`: this config file for every file instead of discovery. */
  configFile?: string;
  /** `--exclude` globs replace the built-in and configured exclusions (Ruff); `--extend-exclude` ones (in `exclude` too) add to them. */
  replaceExclude?: boolean;
  /** Discovery hooks and `--force-exclude`: see ../workspace/discover.ts. */
  discovery?: Pick<DiscoverOptions, 'forceExclude' | 'onSkip' | 'onPath' | 'alsoFind'>;
  /** Report only findings not in this baseline file. */
  baseline?: string;
  /** How fixes are planned (../fix); overrides every config's `fix-strategy`. */
  fixStrategy?: StrategyOption;
  /** Plan fixes of Python findings (default true; false when the output shows none). */
  fixes?: boolean;
  /** Keep the bytes of the files with findings for fixRun (default true; only --fix and --diff apply fixes). */
  originals?: boolean;
  /** Threads, content cache, cache directory, prefilter: see batch.ts. */
  jobs?: number;
  cache?: boolean;
  cacheDir?: string;
  prefilter?: boolean;
  /** Follow values through the project's own modules (default true; `--no-cross-file`). */
  crossFile?: boolean;
  /** See batch.ts (tests start workers at once with 0). */
  spawnAfterBytes?: number;
  /** Check this source (read from standard input) instead of files: see stdin.ts. */
  stdin?: StdinSource;
  /** `--target-version` (`py311`): the Python version, over what the project's files pin. */
  targetVersion?: string;
}

export interface FileOutcome {
  abs: string;
  display: string;
  text?: string;
  directives: Directive[];
  unused: UnusedSuppression[];
}

export interface ProjectResult extends RunResult {
  /** Every rule, read lazily from the compiled-rules snapshot (see compile/snapshot.ts). */
  rules: RuleSet;
  /** The datasets' problems to show: the rules' warnings, less the skipped records raiselint derived itself (`derive`), which are not the user's to mend. */
  warnings: RecordProblem[];
  ruleCount: number;
  /** What the run did: files cached, read, parsed; threads. */
  stats: BatchStats;
  resolver: ConfigResolver;
  /** Per checked file, by display path. */
  outcomes: Map<string, FileOutcome>;
  /** Absolute path of each display path. */
  absOf: (d: Diagnostic) => string;
  suppressed: number;
  /** Findings hidden because the baseline has them; baseline entries of checked files no longer found. */
  baselined: number;
  staleBaseline: number;
  /** What the per-file stage knew of the run, and of each checked file (by display path): a re-check (--fix) finishes as the run did. */
  context: RunContext;
  contexts: Map<string, FileContext>;
  /** Where the run's rules are, for the fix phase's worker threads (./fixpool.ts). */
  rulesSource: RulesSource;
}

/** A checked file's text and bytes, read again (textOf) at most once, and only when asked for. */
class FileText {
  private got?: { text?: string; bytes?: Buffer };

  constructor(
    private readonly abs: string,
    private readonly raw: RawResult,
  ) {}

  text(): string | undefined {
    return this.raw.text ?? this.read().text;
  }

  read(): { text?: string; bytes?: Buffer } {
    return (this.got ??= textOf(this.abs, this.raw));
  }
}

/** The configuration resolver of a run (config files, `--config`, `--select` / `--ignore` / `--exclude`). */
export function projectResolver(opts: ProjectOptions): ConfigResolver {
  return new ConfigResolver({
    use: opts.config !== false,
    file: opts.configFile,
    overrides: { select: opts.select, ignore: opts.ignore, replaceExclude: opts.replaceExclude },
  });
}

/** The files a run checks (`--show-files` lists them). */
export function discoverProject(paths: string[], opts: ProjectOptions, resolver: ConfigResolver): DiscoveredFile[] {
  // Each folder is listed once: the resolver (and pins, through it) look config files up in the walk's listings.
  return discover(paths, {
    ...opts.discovery,
    respectGitignore: opts.respectGitignore,
    exclude: opts.exclude,
    followLinks: opts.followLinks,
    noDefaultExcludes: opts.replaceExclude,
    excluded: (abs, isDir) => resolver.excluded(abs, isDir),
    included: (abs) => resolver.included(abs),
    onListing: (dir, names) => {
      resolver.knowListing(dir, names);
      // What a killed `--fix` left next to the user's files (io/atomic.ts).
      removeStaleTempsIn(dir, names);
    },
  });
}

export async function runProject(paths: string[], opts: ProjectOptions = {}): Promise<ProjectResult> {
  const resolver = projectResolver(opts);
  // JS/TS files are found too, and checked only when JS/TS rules are loaded (see jsproject.ts).
  const found: DiscoveredFile[] = opts.stdin
    ? [stdinFile(opts.stdin)]
    : discoverProject(paths, { ...opts, discovery: { ...opts.discovery, alsoFind: JS_FILES } }, resolver);
  const files = opts.stdin ? found : pythonFiles(found);
  const cfgs = files.map((f) => resolver.forFile(f.abs));
  const cli = new Set((opts.records ?? []).flatMap((p) => datasetFiles(p)).map((f) => resolve(f)));
  const configOnly = new Set<string>();
  for (const c of cfgs) for (const f of c.records) if (!cli.has(f)) configOnly.add(f);
  const deriveMode = opts.derive ?? cfgs[0]?.derive ?? DEFAULT_DERIVE;
  const derived = opts.stdin ? undefined : await deriveForRun(deriveMode, files, opts, [...(opts.records ?? []), ...configOnly]);
  const prepared = await rulesFor({ ...opts, records: [...(opts.records ?? []), ...configOnly, ...(derived?.files ?? [])] }, opts);
  const rules = prepared.snapshot.catalog();
  // Rule ids are read from the snapshot's index only when a config names rules.
  const distinct = new Set(cfgs);
  if ([...distinct].some((c) => rulePatterns(c).length)) checkRulePatterns(distinct, [...prepared.snapshot.ids, ...BUILTIN_IDS]);
  const ctx: RunContext = { rules, configOnly, minConfidence: opts.minConfidence, crossFile: opts.crossFile !== false };
  const js = opts.stdin ? undefined : splitJs(prepared.snapshot.jsRules(), found, files, cfgs);
  const baseline = opts.baseline ? readBaseline(opts.baseline) : undefined;
  const contexts = new FileContexts(opts, cfgs, (dir) => resolver.listed(dir), baseline, derived && { ids: derived.recordIds, mode: deriveMode });
  // Checking (content cache, prefilter, threads); the per-file stage below runs on the main thread.
  const batch = await checkAll(files, prepared, contexts, opts);
  const errors: FileError[] = js
    ? await checkJs(js, files, cfgs, batch, resolver, { prefilter: opts.prefilter, maxFileSize: opts.maxFileSize, cache: jsCacheOf(prepared, opts) })
    : [];
  const done = finishAll(files, batch.results, contexts, ctx, opts, !!js);
  return {
    files: files.length,
    ...done,
    errors: [...errors, ...done.errors],
    rules,
    warnings: derived?.files.length ? rules.warnings.filter((w) => !(w.field === 'record' && derived.files.includes(w.file))) : rules.warnings,
    ruleCount: prepared.snapshot.meta.ruleCount,
    stats: derived?.files.length ? { ...batch.stats, derived: { records: derived.recordIds.size, modules: derived.files.length } } : batch.stats,
    resolver,
    context: ctx,
    contexts: contexts.all,
    rulesSource: { key: prepared.key, path: prepared.path, bytes: prepared.bytes },
  };
}

/** Each checked file's context (./filecontext.ts), made when first asked for: JS/TS files join the run's files after checking (jsproject.ts). */
class FileContexts {
  readonly all = new Map<string, FileContext>();
  private readonly baselineOf: (abs: string) => Baseline | undefined;

  constructor(
    private readonly opts: ProjectOptions,
    private readonly cfgs: ResolvedConfig[],
    private readonly listed: Listed,
    baseline: Baseline | undefined,
    private readonly derived: FileContext['derived'],
  ) {
    this.baselineOf = baselineByFile(baseline);
  }

  of(f: DiscoveredFile, i: number): FileContext {
    let c = this.all.get(f.display);
    if (c) return c;
    const cfg = this.cfgs[i]!;
    const { opts } = this;
    c = {
      abs: f.abs,
      display: f.display,
      rules: fileRules(cfg, f.abs),
      fixStrategy: opts.fixStrategy ?? cfg.fixStrategy,
      pins: pinsFor(f.abs, opts.targetVersion ?? cfg.targetVersion, this.listed),
      baseline: this.baselineOf(f.abs),
      derived: this.derived,
    };
    this.all.set(f.display, c);
    return c;
  }
}

/** The check of every file (standard input, or files through the batch: content cache, prefilter, threads). */
async function checkAll(
  files: DiscoveredFile[],
  prepared: PreparedRules,
  contexts: FileContexts,
  opts: ProjectOptions,
): Promise<{ results: RawResult[]; stats: BatchStats }> {
  if (opts.stdin) {
    const c = contexts.of(files[0]!, 0);
    return checkStdin(opts.stdin, prepared, { fixStrategy: c.fixStrategy, prefilter: opts.prefilter, pins: c.pins, crossFile: opts.crossFile });
  }
  const tasks = files.map((f, i) => ({
    abs: f.abs,
    display: f.display,
    stat: f.stat,
    error: f.error,
    fixStrategy: contexts.of(f, i).fixStrategy,
    pins: contexts.of(f, i).pins,
  }));
  const { jobs, cache, cacheDir, prefilter, spawnAfterBytes, maxFileSize, fixes, crossFile } = opts;
  return checkFiles(tasks, prepared, { jobs, cache, cacheDir, prefilter, spawnAfterBytes, maxFileSize, fixes, crossFile });
}

type Finished = Pick<ProjectResult, 'diagnostics' | 'errors' | 'sources' | 'originals' | 'outcomes' | 'suppressed' | 'baselined' | 'staleBaseline'>;

/** Each file's per-file stage (./filecontext.ts), and what the reporters and fixes need of the files with findings. */
function finishAll(
  files: DiscoveredFile[],
  results: RawResult[],
  contexts: FileContexts,
  ctx: RunContext,
  opts: ProjectOptions,
  js: boolean,
): Finished & Pick<ProjectResult, 'absOf'> {
  const out: Finished = {
    diagnostics: [],
    errors: [],
    sources: new Map(),
    originals: new Map(),
    outcomes: new Map(),
    suppressed: 0,
    baselined: 0,
    staleBaseline: 0,
  };
  const absByDisplay = new Map<string, string>();
  files.forEach((f, i) => {
    const raw = results[i]!;
    // A file that cannot be read or decoded is a raiselint/io-error finding (as Ruff's E902), configured like any rule.
    const io = splitIoErrors(raw.errors);
    const diagnostics = io.findings.length ? [...raw.diagnostics, ...io.findings] : raw.diagnostics;
    const r: FileResult = { file: f.display, diagnostics, errors: io.rest, text: raw.text, directives: raw.directives };
    // The check keeps no text (batch.ts): read once, when a suppression, a finding or the outcome needs it.
    const once = new FileText(f.abs, raw);
    const done = finishFile(r, contexts.of(f, i), ctx, () => once.text());
    if (js) displayOnlyFixes(f.abs, done.diagnostics);
    out.diagnostics.push(...done.diagnostics);
    out.errors.push(...r.errors);
    out.suppressed += done.suppressed;
    out.baselined += done.baselined;
    out.staleBaseline += done.staleBaseline;
    absByDisplay.set(f.display, f.abs);
    if (done.diagnostics.length) {
      // Files with findings: their text (code frames) and bytes (fixes).
      const { text, bytes } = opts.stdin ? { text: raw.text, bytes: opts.stdin.bytes } : once.read();
      if (text !== undefined) out.sources.set(f.display, text);
      if (bytes && opts.originals !== false) out.originals.set(f.display, { abs: f.abs, bytes });
    }
    const text = raw.diagnostics.length || raw.directives.length ? once.text() : undefined;
    out.outcomes.set(f.display, { abs: f.abs, display: f.display, text, directives: r.directives ?? [], unused: done.unused });
  });
  out.diagnostics.sort(compareDiagnostics);
  return { ...out, absOf: (d: Diagnostic) => absByDisplay.get(d.file) ?? resolve(d.file) };
}

/** A baseline's entries of each file, by the file's absolute path (undefined: no baseline). */
function baselineByFile(baseline: Baseline | undefined): (abs: string) => Baseline | undefined {
  if (!baseline) return () => undefined;
  const byFile = groupByFile(baseline.entries);
  return (abs) => ({ path: baseline.path, entries: byFile.get(baselinePath(baseline.path, abs)) ?? [] });
}
