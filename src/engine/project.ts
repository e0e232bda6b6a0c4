/**
 * A configured run: per-file configuration (../config), suppression comments and unused ones
 * (../suppress), severity overrides, then the baseline. Config files decide which extra datasets
 * load, so files are discovered (and their configs resolved) before the rules are built.
 */
import { resolve } from 'node:path';
import { compareDiagnostics } from '../diagnostics/build.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { datasetFiles } from '../records/load.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { Confidence, Rule } from '../rules/types.js';
import { BUILTIN_RULES } from '../suppress/builtin.js';
import { applySuppressions, type UnusedSuppression } from '../suppress/apply.js';
import { filterBaseline, readBaseline } from '../suppress/baseline.js';
import type { Directive } from '../suppress/directives.js';
import { discover, type DiscoveredFile, type DiscoverOptions } from '../workspace/discover.js';
import type { Pins } from '../rules/condition/versions.js';
import { pinsFor } from '../config/pins.js';
import { controlFlowOf } from '../rules/controlflow.js';
import { removeStaleTempsIn } from '../io/atomic.js';
import { groupByCallAndError } from '../diagnostics/group.js';
import { ConfigResolver, checkRulePatterns, rulePatterns, ruleEnabled, severityOverride, type ResolvedConfig } from '../config/resolve.js';
import type { StrategyOption } from '../fix/plan.js';
import type { FileResult } from './check.js';
import type { RuleOptions } from '../compile/index.js';
import { checkFiles, rulesFor, textOf, type BatchStats, type RawResult } from './batch.js';
import type { RunResult } from './run.js';
import { checkStdin, stdinFile, type StdinSource } from './stdin.js';
import { splitIoErrors } from './ioerror.js';
import { deriveForRun, keepDerived } from './derive.js';
import type { DeriveMode } from '../records/generate/derive.js';
import { checkJs, displayOnlyFixes, JS_FILES, pythonFiles, splitJs } from './jsproject.js';

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
  /** The same per-file stage (config, suppressions, confidence, severity, baseline) for a re-check of one file (--fix). */
  finish: (r: FileResult, display: string) => Diagnostic[];
  /** The fix strategy for a file: the option, else its config's `fix-strategy`. */
  strategyOf: (display: string) => StrategyOption | undefined;
  /** The versions each checked file's project pins. */
  pinsOf: (display: string) => Pins | undefined;
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

/** What the per-file stage needs to know about the whole run. */
export interface RunContext {
  rules: RuleSet;
  /** Dataset files (absolute) that only some configs load: their rules apply only under those configs. */
  configOnly: Set<string>;
  minConfidence?: Confidence;
}

const BUILTIN_IDS = BUILTIN_RULES.map((r) => r.id);

/** Control-flow rules are off by default (src/rules/controlflow.ts); the answer is kept per rule set. */
const controlFlowMemo = new WeakMap<RuleSet, Map<string, boolean>>();
function isControlFlow(rule: Rule, rules: RuleSet): boolean {
  let memo = controlFlowMemo.get(rules);
  if (!memo) controlFlowMemo.set(rules, (memo = new Map()));
  let v = memo.get(rule.id);
  if (v === undefined) memo.set(rule.id, (v = !!controlFlowOf(rule, rules.exceptions)));
  return v;
}

/** The per-file stage after checking: config filters, suppressions, confidence, severity. */
export function finishFile(r: FileResult, abs: string, cfg: ResolvedConfig, ctx: RunContext, text: () => string | undefined = () => r.text): { diagnostics: Diagnostic[]; unused: UnusedSuppression[]; suppressed: number } {
  // No finding and no suppression comment (most files): nothing to filter, suppress or report.
  if (!r.diagnostics.length && !r.directives?.length) return { diagnostics: [], unused: [], suppressed: 0 };
  const loaded = (id: string) => {
    // Every rule applies when no dataset is config-only (the usual run): no rule to read, no path to resolve.
    if (!ctx.configOnly.size) return true;
    const rule = ctx.rules.byId.get(id);
    if (!rule) return true;
    const src = resolve(rule.source.file);
    return !ctx.configOnly.has(src) || cfg.records.includes(src);
  };
  const ruleOf = (id: string) => (ctx.rules.byId.has(id) ? id : ctx.rules.byRecord.get(id) ?? id);
  const active = (id: string) => {
    const rid = ruleOf(id);
    const rule = ctx.rules.byId.get(rid);
    return loaded(rid) && ruleEnabled(cfg, rid, abs, !!rule && isControlFlow(rule, ctx.rules), rule?.recordId);
  };
  const raw = r.diagnostics.filter((d) => loaded(d.ruleId));
  const sup = applySuppressions(r.file, raw, r.directives ?? [], { active, known: (id) => ctx.rules.byId.has(id) || BUILTIN_IDS.includes(id) || ctx.rules.byRecord.has(id), text });
  const min = ctx.minConfidence ?? cfg.minConfidence ?? 'possible';
  const diagnostics = [...sup.kept, ...sup.problems]
    .filter((d) => active(d.ruleId) && (min === 'possible' || d.confidence === 'certain'))
    .map((d) => {
      const s = severityOverride(cfg, d.ruleId);
      return s && s !== d.severity ? { ...d, severity: s } : d;
    })
    .sort(compareDiagnostics);
  return { diagnostics: groupByCallAndError(diagnostics, (c) => ctx.rules.exceptions.canonical(c)), unused: sup.unused, suppressed: sup.suppressed.length };
}

/** The configuration resolver of a run (config files, `--config`, `--select` / `--ignore` / `--exclude`). */
export function projectResolver(opts: ProjectOptions): ConfigResolver {
  return new ConfigResolver({ use: opts.config !== false, file: opts.configFile, overrides: { select: opts.select, ignore: opts.ignore, replaceExclude: opts.replaceExclude } });
}

/** The files a run checks (`--show-files` lists them). */
export function discoverProject(paths: string[], opts: ProjectOptions, resolver: ConfigResolver): DiscoveredFile[] {
  // Each folder is listed once: the resolver (and pins, through it) look config files up in the walk's listings.
  return discover(paths, { ...opts.discovery, respectGitignore: opts.respectGitignore, exclude: opts.exclude, followLinks: opts.followLinks, noDefaultExcludes: opts.replaceExclude, excluded: (abs, isDir) => resolver.excluded(abs, isDir), included: (abs) => resolver.included(abs), onListing: (dir, names) => {
      resolver.knowListing(dir, names);
      // What a killed `--fix` left next to the user's files (io/atomic.ts).
      removeStaleTempsIn(dir, names);
    } });
}

export async function runProject(paths: string[], opts: ProjectOptions = {}): Promise<ProjectResult> {
  const resolver = projectResolver(opts);
  // JS/TS files are found too, and checked only when JS/TS rules are loaded (see jsproject.ts).
  const found: DiscoveredFile[] = opts.stdin ? [stdinFile(opts.stdin)] : discoverProject(paths, { ...opts, discovery: { ...opts.discovery, alsoFind: JS_FILES } }, resolver);
  const files = opts.stdin ? found : pythonFiles(found);
  const cfgs = files.map((f) => resolver.forFile(f.abs));
  const listed = (dir: string) => resolver.listed(dir);
  const cli = new Set((opts.records ?? []).flatMap((p) => datasetFiles(p)).map((f) => resolve(f)));
  const configOnly = new Set<string>();
  for (const c of cfgs) for (const f of c.records) if (!cli.has(f)) configOnly.add(f);
  const deriveMode = opts.derive ?? cfgs[0]?.derive ?? 'off';
  const derived = opts.stdin ? undefined : await deriveForRun(deriveMode, files, opts, [...(opts.records ?? []), ...configOnly]);
  const prepared = await rulesFor({ ...opts, records: [...(opts.records ?? []), ...configOnly, ...(derived?.files ?? [])] }, opts);
  const rules = prepared.snapshot.catalog();
  // Rule ids are read from the snapshot's index only when a config names rules.
  const distinct = new Set(cfgs);
  if ([...distinct].some((c) => rulePatterns(c).length)) checkRulePatterns(distinct, [...prepared.snapshot.ids, ...BUILTIN_IDS]);
  const ctx: RunContext = { rules, configOnly, minConfidence: opts.minConfidence };
  const js = opts.stdin ? undefined : splitJs(prepared.snapshot.jsRules(), found, files, cfgs);
  // Checking (content cache, prefilter, threads); the per-file stage below runs on the main thread.
  const batch = opts.stdin ? await checkStdin(opts.stdin, prepared, { fixStrategy: opts.fixStrategy ?? cfgs[0]!.fixStrategy, prefilter: opts.prefilter, pins: pinsFor(files[0]!.abs, opts.targetVersion ?? cfgs[0]!.targetVersion, listed) }) : await checkFiles(
    files.map((f, i) => ({ abs: f.abs, display: f.display, stat: f.stat, error: f.error, fixStrategy: opts.fixStrategy ?? cfgs[i]!.fixStrategy, pins: pinsFor(f.abs, opts.targetVersion ?? cfgs[i]!.targetVersion, listed) })),
    prepared,
    { jobs: opts.jobs, cache: opts.cache, cacheDir: opts.cacheDir, prefilter: opts.prefilter, spawnAfterBytes: opts.spawnAfterBytes, maxFileSize: opts.maxFileSize, fixes: opts.fixes },
  );

  const errors: FileError[] = js ? await checkJs(js, files, cfgs, batch, resolver, { prefilter: opts.prefilter, maxFileSize: opts.maxFileSize }) : [];
  let diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();
  const outcomes = new Map<string, FileOutcome>();
  const absByDisplay = new Map<string, string>();
  const originals = new Map<string, { abs: string; bytes: Buffer }>();
  let suppressed = 0;
  files.forEach((f, i) => {
    const raw = batch.results[i]!;
    // A file that cannot be read or decoded is a raiselint/io-error finding (as Ruff's E902), configured like any rule.
    const io = splitIoErrors(raw.errors);
    const r: FileResult = { file: f.display, diagnostics: io.findings.length ? [...raw.diagnostics, ...io.findings] : raw.diagnostics, errors: io.rest, text: raw.text, directives: raw.directives };
    // The check keeps no text (batch.ts): read once, when a suppression, a finding or the outcome needs it.
    const once = new FileText(f.abs, raw);
    const done = finishFile(r, f.abs, cfgs[i]!, ctx, () => once.text());
    done.diagnostics = keepDerived(done.diagnostics, deriveMode, derived);
    if (js) displayOnlyFixes(f.abs, done.diagnostics);
    diagnostics.push(...done.diagnostics);
    errors.push(...r.errors);
    suppressed += done.suppressed;
    absByDisplay.set(f.display, f.abs);
    if (done.diagnostics.length) {
      // Files with findings: their text (code frames) and bytes (fixes).
      const { text, bytes } = opts.stdin ? { text: raw.text, bytes: opts.stdin.bytes } : once.read();
      if (text !== undefined) sources.set(f.display, text);
      if (bytes && opts.originals !== false) originals.set(f.display, { abs: f.abs, bytes });
    }
    const text = raw.diagnostics.length || raw.directives.length ? once.text() : undefined;
    outcomes.set(f.display, { abs: f.abs, display: f.display, text, directives: r.directives ?? [], unused: done.unused });
  });
  const absOf = (d: Diagnostic) => absByDisplay.get(d.file) ?? resolve(d.file);
  let baselined = 0;
  let staleBaseline = 0;
  const baseline = opts.baseline ? readBaseline(opts.baseline) : undefined;
  if (baseline) {
    const b = filterBaseline(baseline, diagnostics, absOf, files.map((f) => f.abs));
    diagnostics = b.fresh;
    baselined = b.known.length;
    staleBaseline = b.stale;
  }
  diagnostics.sort(compareDiagnostics);
  const index = new Map(files.map((f, i) => [f.display, i]));
  const finish = (r: FileResult, display: string): Diagnostic[] => {
    const i = index.get(display)!;
    const abs = files[i]!.abs;
    const kept = finishFile(r, abs, cfgs[i]!, ctx).diagnostics;
    return baseline ? filterBaseline(baseline, kept, absOf, [abs]).fresh : kept;
  };
  const strategyOf = (display: string) => opts.fixStrategy ?? cfgs[index.get(display)!]?.fixStrategy;
  const pinsOf = (display: string) => (index.has(display) ? pinsFor(files[index.get(display)!]!.abs, opts.targetVersion ?? cfgs[index.get(display)!]?.targetVersion, listed) : undefined);
  return { files: files.length, diagnostics, errors, sources, originals, rules, ruleCount: prepared.snapshot.meta.ruleCount, stats: batch.stats, resolver, outcomes, absOf, suppressed, baselined, staleBaseline, finish, strategyOf, pinsOf };
}
