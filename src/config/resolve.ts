/**
 * Which configuration applies to a file: the nearest config file walking up from the file's
 * folder (raiselint.toml, else a pyproject.toml with [tool.raiselint]), merged over its parents'
 * up to one that says `root = true`. It depends only on where the file is, never on the paths
 * given on the command line.
 *
 * Merging (outermost first, nearer configs win):
 *   records, per-file-ignores, extend-exclude, extend-include   accumulate (each relative to its own file)
 *   select, ignore, exclude, min-confidence, fix-strategy   the nearest config that sets them wins
 *   severity                                     entries accumulate; for a rule, the last matching entry wins
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { datasetFiles } from '../records/load.js';
import type { Confidence, Severity } from '../rules/types.js';
import { resolvePath, SKIP_DIRS } from '../workspace/discover.js';
import { ConfigError, findLine, readConfigFile, type ConfigFile, type FixStrategy } from './schema.js';

/** A rule pattern as written, with where it was written (for "matches no rule" errors). */
export interface RulePattern {
  pattern: string;
  file: string;
  key: string;
  line?: number;
}

interface ExcludeLayer {
  base: string;
  patterns: string[];
  ig: Ignore;
  /** The config file (undefined: the built-in defaults). */
  file?: string;
  /** From `extend-exclude` (kept when `--exclude` replaces the rest). */
  extend?: boolean;
}

interface FileGlobIgnore {
  base: string;
  glob: string;
  ig: Ignore;
  rules: RulePattern[];
}

export interface ResolvedConfig {
  /** Config files that apply, outermost first (empty: no config). */
  sources: string[];
  /** Extra dataset files (absolute) from `records`. */
  records: string[];
  select?: RulePattern[];
  ignore: RulePattern[];
  severity: { pattern: RulePattern; severity: Severity }[];
  perFileIgnores: FileGlobIgnore[];
  exclude: ExcludeLayer[];
  /** `extend-include`: more files a folder walk checks as Python. */
  include: ExcludeLayer[];
  minConfidence?: Confidence;
  fixStrategy?: FixStrategy;
  targetVersion?: string;
  derive?: 'off' | 'certain' | 'all';
}

/** The built-in exclusions (`exclude` replaces them, `extend-exclude` adds to them). */
export const DEFAULT_EXCLUDE = [...SKIP_DIRS].sort().map((d) => `${d}/`);

/** No config file: every rule, no filters. */
export const EMPTY_CONFIG: ResolvedConfig = { sources: [], records: [], ignore: [], severity: [], perFileIgnores: [], exclude: [], include: [] };

/** Rule id patterns: an exact id, a prefix ending at `/` (`autogen` selects `autogen/...`), or a glob (`*` also crosses `/`). */
export function rulePatternMatches(pattern: string, id: string): boolean {
  if (pattern === id || id.startsWith(pattern.endsWith('/') ? pattern : `${pattern}/`)) return true;
  return picomatch.scan(pattern).isGlob && picomatch(pattern, { bash: true, dot: true })(id);
}

function posix(p: string): string {
  return p.split(sep).join('/');
}

/** Path of `abs` inside `base`, posix-style, or undefined when outside. */
function inside(base: string, abs: string): string | undefined {
  const rel = relative(base, abs);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return posix(rel);
}

/** Config file names, in the order a folder's are read: the first with raiselint settings is its config. */
export const CONFIG_FILE_NAMES: readonly string[] = ['raiselint.toml', 'pyproject.toml'];

export class ConfigResolver {
  private readonly fileCache = new Map<string, ConfigFile | undefined>();
  private readonly dirCache = new Map<string, ResolvedConfig>();
  private readonly overridden = new Map<ResolvedConfig, ResolvedConfig>();
  /** Folder listings this run's walk read (see `knowListing`). */
  private readonly listings = new Map<string, Set<string>>();

  /**
   * `use: false` ignores every config file (the built-in behaviour); `overrides` (the command
   * line's `--select` / `--ignore`) apply over every configuration returned.
   */
  constructor(private readonly opts: { use?: boolean; overrides?: RuleOverrides; file?: string } = {}) {}

  /**
   * The entry names of folder `dir` as the run's walk read them: a config file they do not name
   * is not looked up (a resolver lives for one run; the language server makes a new one on reload).
   */
  knowListing(dir: string, names: string[]): void {
    this.listings.set(dir, new Set(names));
  }

  /** The names of the folder's listing, when the walk read it. */
  listed(dir: string): Set<string> | undefined {
    return this.listings.get(dir);
  }

  /** The config file in `dir` itself, if any (raiselint.toml first, then pyproject.toml with [tool.raiselint]). */
  configIn(dir: string): ConfigFile | undefined {
    if (this.fileCache.has(dir)) return this.fileCache.get(dir);
    let found: ConfigFile | undefined;
    const names = this.listings.get(dir);
    for (const name of CONFIG_FILE_NAMES) {
      if (names && !names.has(name)) continue;
      const f = join(dir, name);
      if (!existsSync(f)) continue;
      found = readConfigFile(f);
      if (found) break;
    }
    if (found) checkPaths(found);
    this.fileCache.set(dir, found);
    return found;
  }

  /** The configuration for files in folder `dir` (absolute): the merged config files, then the overrides. */
  forDir(dir: string): ResolvedConfig {
    const merged = this.merged(dir);
    const o = this.opts.overrides;
    if (!o?.select && !o?.ignore?.length && !o?.replaceExclude) return merged;
    let out = this.overridden.get(merged);
    if (!out) {
      const cli = (key: string, pattern: string): RulePattern => ({ pattern, file: '', key });
      out = {
        ...merged,
        select: o.select ? o.select.map((p) => cli('--select', p)) : merged.select,
        ignore: [...merged.ignore, ...(o.ignore ?? []).map((p) => cli('--ignore', p))],
      };
      // `--exclude` (its globs are applied by discovery) replaces the configs' `exclude` and the built-in exclusions.
      if (o.replaceExclude) out.exclude = out.exclude.filter((l) => l.extend);
      this.overridden.set(merged, out);
    }
    return out;
  }

  /** The config files that apply to folder `dir`, merged (cached per folder). */
  private merged(dir: string): ResolvedConfig {
    // Looked up as given first: the callers pass absolute paths, so resolving is rarely needed.
    const given = this.dirCache.get(dir);
    if (given) return given;
    dir = resolvePath(dir);
    const hit = this.dirCache.get(dir);
    if (hit) return hit;
    let out: ResolvedConfig;
    if (this.opts.use === false) out = EMPTY_CONFIG;
    else if (this.opts.file) out = this.fixed();
    else {
      const own = this.configIn(dir);
      const up = resolve(dir, '..');
      const parent = up === dir || own?.root ? EMPTY_CONFIG : this.merged(up);
      out = own ? merge(parent, own) : parent;
    }
    this.dirCache.set(dir, out);
    return out;
  }

  /** `--config <file>`: that file for every folder, instead of discovery (its relative paths are relative to the current directory, as Ruff's). */
  private fixed(): ResolvedConfig {
    const file = resolve(this.opts.file!);
    const key = `\0${file}`;
    const hit = this.dirCache.get(key);
    if (hit) return hit;
    if (!existsSync(file)) throw new ConfigError(file, undefined, undefined, 'no such config file (--config)');
    const own = readConfigFile(file);
    if (!own) throw new ConfigError(file, undefined, undefined, 'no [tool.raiselint] table (--config)');
    const c = { ...own, dir: process.cwd(), root: true };
    checkPaths(c);
    const out = merge(EMPTY_CONFIG, c);
    this.dirCache.set(key, out);
    return out;
  }

  forFile(file: string): ResolvedConfig {
    return this.forDir(dirname(resolvePath(file)));
  }

  /** A file a config's `extend-include` adds to the walk. */
  included(abs: string): boolean {
    const cfg = this.forDir(dirname(abs));
    return cfg.include.length > 0 && isIncluded(cfg, abs);
  }

  /** True/false when a config decides; undefined when no config applies (the built-in walk rules decide). */
  excluded(abs: string, isDir: boolean): boolean | undefined {
    const cfg = this.forDir(dirname(abs));
    if (!cfg.sources.length) return undefined;
    return isExcluded(cfg, abs, isDir);
  }
}

/** Does a config's `extend-include` name this file? */
export function isIncluded(cfg: ResolvedConfig, abs: string): boolean {
  for (const l of cfg.include) {
    const rel = inside(l.base, abs);
    if (rel && l.ig.ignores(rel)) return true;
  }
  return false;
}

export function isExcluded(cfg: ResolvedConfig, abs: string, isDir: boolean): boolean {
  for (const l of cfg.exclude) {
    const rel = inside(l.base, abs);
    if (rel && l.ig.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

function checkPaths(c: ConfigFile): void {
  const key = (k: string) => (c.kind === 'pyproject' ? `tool.raiselint.${k}` : k);
  for (const r of c.records ?? []) {
    const abs = resolve(c.dir, r);
    if (!existsSync(abs)) throw new ConfigError(c.file, lineOf(c, 'records'), key('records'), `'${r}' does not exist (paths are relative to ${c.dir})`);
    try {
      if (statSync(abs).isDirectory() && !datasetFiles(abs).length)
        throw new ConfigError(c.file, lineOf(c, 'records'), key('records'), `folder '${r}' holds no .jsonl/.json/.ndjson dataset`);
    } catch (e) {
      if (e instanceof ConfigError) throw e;
      throw new ConfigError(c.file, lineOf(c, 'records'), key('records'), `cannot read '${r}': ${(e as Error).message}`);
    }
  }
}

function lineOf(c: ConfigFile, key: string): number | undefined {
  return findLine(c.text, key, c.kind);
}

function merge(parent: ResolvedConfig, c: ConfigFile): ResolvedConfig {
  const k = (key: string) => (c.kind === 'pyproject' ? `tool.raiselint.${key}` : key);
  const pats = (list: string[], key: string): RulePattern[] =>
    list.map((pattern) => ({ pattern, file: c.file, key: k(key), line: findLine(c.text, pattern, c.kind) }));
  const out: ResolvedConfig = {
    sources: [...parent.sources, c.file],
    records: [...parent.records],
    select: parent.select,
    ignore: parent.ignore,
    severity: [...parent.severity],
    perFileIgnores: [...parent.perFileIgnores],
    exclude: parent.sources.length ? [...parent.exclude] : [{ base: c.dir, patterns: DEFAULT_EXCLUDE, ig: ignore().add(DEFAULT_EXCLUDE) }],
    include: c.extendInclude
      ? [...parent.include, { base: c.dir, patterns: c.extendInclude, ig: gitignore(c, c.extendInclude, 'extend-include'), file: c.file }]
      : parent.include,
    minConfidence: c.minConfidence ?? parent.minConfidence,
    fixStrategy: c.fixStrategy ?? parent.fixStrategy,
    targetVersion: c.targetVersion ?? parent.targetVersion,
    derive: c.derive ?? parent.derive,
  };
  for (const r of c.records ?? []) for (const f of datasetFiles(resolve(c.dir, r))) if (!out.records.includes(resolve(f))) out.records.push(resolve(f));
  if (c.select) out.select = pats(c.select, 'select');
  if (c.ignore) out.ignore = pats(c.ignore, 'ignore');
  for (const [pattern, severity] of c.severity ?? [])
    out.severity.push({ pattern: { pattern, file: c.file, key: k(`severity."${pattern}"`), line: findLine(c.text, pattern, c.kind) }, severity });
  for (const [glob, rules] of c.perFileIgnores ?? []) {
    out.perFileIgnores.push({ base: c.dir, glob, ig: gitignore(c, glob, 'per-file-ignores'), rules: pats(rules, `per-file-ignores."${glob}"`) });
  }
  if (c.exclude) out.exclude = [{ base: c.dir, patterns: c.exclude, ig: gitignore(c, c.exclude, 'exclude'), file: c.file }];
  if (c.extendExclude)
    out.exclude.push({ base: c.dir, patterns: c.extendExclude, ig: gitignore(c, c.extendExclude, 'extend-exclude'), file: c.file, extend: true });
  return out;
}

function gitignore(c: ConfigFile, patterns: string | string[], key: string): Ignore {
  try {
    return ignore().add(patterns);
  } catch (e) {
    throw new ConfigError(c.file, lineOf(c, key), c.kind === 'pyproject' ? `tool.raiselint.${key}` : key, `invalid glob: ${(e as Error).message}`);
  }
}

/** The `select` pattern that turns on the rules whose raises are control flow (src/rules/controlflow.ts), off by default. */
export const CONTROL_FLOW = 'control-flow';

/**
 * Is the rule reported for this file? (select, ignore, per-file-ignores). A rule `offByDefault`
 * (control flow) is reported only when a `select` names it exactly (its rule or record id) or
 * names `control-flow`.
 */
export function ruleEnabled(cfg: ResolvedConfig, ruleId: string, fileAbs: string, offByDefault = false, recordId?: string): boolean {
  return ruleEnabledIn(fileRules(cfg, fileAbs), ruleId, offByDefault, recordId);
}

/** The severity override for a rule, if any (the last matching entry wins). */
export function severityOverride(cfg: ResolvedConfig, ruleId: string): Severity | undefined {
  return lastSeverity(severityEntries(cfg), ruleId);
}

/**
 * What a file's configuration says about reporting, decided for that file: `per-file-ignores`
 * that match it are in `ignore`. Plain data: it is all the per-file stage reads of a config, and a
 * worker thread gets it as it is.
 */
export interface FileRules {
  select?: string[];
  ignore: string[];
  /** Severity overrides in order (the last matching one wins). */
  severity: [string, Severity][];
  /** Extra dataset files (absolute) the config loads. */
  records: string[];
  minConfidence?: Confidence;
}

export function fileRules(cfg: ResolvedConfig, fileAbs: string): FileRules {
  const ignore = cfg.ignore.map((p) => p.pattern);
  for (const pfi of cfg.perFileIgnores) {
    const rel = inside(pfi.base, fileAbs);
    if (rel && pfi.ig.ignores(rel)) ignore.push(...pfi.rules.map((p) => p.pattern));
  }
  return {
    select: cfg.select?.map((p) => p.pattern),
    ignore,
    severity: severityEntries(cfg),
    records: cfg.records,
    minConfidence: cfg.minConfidence,
  };
}

/** `ruleEnabled` for a file's decided rules. */
export function ruleEnabledIn(r: FileRules, ruleId: string, offByDefault = false, recordId?: string): boolean {
  if (offByDefault && !r.select?.some((p) => p === ruleId || p === recordId || p === CONTROL_FLOW)) return false;
  if (r.select && !r.select.some((p) => rulePatternMatches(p, ruleId) || p === CONTROL_FLOW)) return false;
  return !r.ignore.some((p) => rulePatternMatches(p, ruleId));
}

/** `severityOverride` for a file's decided rules. */
export function severityIn(r: FileRules, ruleId: string): Severity | undefined {
  return lastSeverity(r.severity, ruleId);
}

function severityEntries(cfg: ResolvedConfig): [string, Severity][] {
  return cfg.severity.map((s) => [s.pattern.pattern, s.severity]);
}

function lastSeverity(entries: [string, Severity][], ruleId: string): Severity | undefined {
  let out: Severity | undefined;
  for (const [pattern, severity] of entries) if (rulePatternMatches(pattern, ruleId)) out = severity;
  return out;
}

/** Every rule pattern of the configuration, for validation against the known rule ids. */
export function rulePatterns(cfg: ResolvedConfig): RulePattern[] {
  return [...(cfg.select ?? []), ...cfg.ignore, ...cfg.severity.map((s) => s.pattern), ...cfg.perFileIgnores.flatMap((p) => p.rules)];
}

/** Rule selection from the command line (`--select`, `--ignore`), over every file's configuration. */
export interface RuleOverrides {
  /** Replaces the configs' `select`. */
  select?: string[];
  /** Added to the configs' `ignore`. */
  ignore?: string[];
  /** `--exclude`: the configs' `exclude` (and the built-in exclusions) no longer apply; their `extend-exclude` still does. */
  replaceExclude?: boolean;
}

/** Throws a ConfigError for the first pattern that matches none of the known rule ids. */
export function checkRulePatterns(configs: Iterable<ResolvedConfig>, ids: string[]): void {
  const seen = new Set<string>();
  for (const cfg of configs) {
    for (const p of rulePatterns(cfg)) {
      const key = `${p.file}\0${p.key}\0${p.pattern}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (p.pattern !== CONTROL_FLOW && !ids.some((id) => rulePatternMatches(p.pattern, id))) {
        throw new ConfigError(p.file, p.line, p.key, `'${p.pattern}' matches no rule (see \`raiselint rules\`)`);
      }
    }
  }
}
