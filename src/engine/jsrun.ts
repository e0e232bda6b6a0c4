/**
 * JS/TS files in `raiselint check`: the prefilter (only files that mention a rule's names go on),
 * one TypeScript program per nearest tsconfig (jsprogram.ts), ESLint's Linter with the plugin's
 * rules for the rule snapshot's JS/TS rules, and its messages as raiselint diagnostics (same
 * fields, reports, suppressions and baseline as Python findings). Both suppression forms apply:
 * `// raiselint: ignore[...]` and ESLint's `eslint-disable` comments. Results are in the content
 * cache, keyed by the file's text and what its types depend on (jsdeps.ts).
 */
import { depsUnchanged } from './depsigs.js';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { FileError } from '../diagnostics/types.js';
import type { Rule } from '../rules/types.js';
import { collectJsDirectives } from '../suppress/jsdirectives.js';
import { DEFAULT_MAX_FILE_SIZE, readRegular } from '../parse/files.js';
import { readError } from './ioerror.js';
import type { JsStats, RawResult } from './batch.js';

export type { JsStats } from './batch.js';
import { ResultCache, type CacheEntry } from '../cache/results.js';
import { sameSig, sha256, statSig, trustedSig, type StatSig } from '../io/fingerprint.js';

export interface JsFile {
  abs: string;
  display: string;
  /** Why discovery could not take it (see DiscoveredFile): an io-error, never read. */
  error?: string;
}

/** Names whose mention lets a file match (every JS/TS rule's), and `raiselint` for suppression comments. */
export function mentions(text: string, names: Set<string>): { match: boolean; directives: boolean } {
  const directives = text.includes('raiselint');
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) if (names.has(m[0])) return { match: true, directives };
  return { match: false, directives };
}

function realPath(abs: string): string {
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

/** A path for messages: relative to the working directory when under it. */
function shown(abs: string): string {
  const rel = relative(process.cwd(), abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
}

/** Only regular files, bounded (see parse/files.ts); a file discovery could not take (a FIFO, a name that is not UTF-8) is never opened. */
function read(f: JsFile, errors: FileError[], maxBytes: number): string | undefined {
  if (f.error) {
    errors.push({ file: f.display, kind: 'read', message: `cannot read file: ${f.error}` });
    return undefined;
  }
  let bytes: Buffer;
  try {
    bytes = readRegular(f.abs, { maxBytes, limitName: '--max-file-size' }).bytes;
  } catch (e) {
    errors.push(readError(f.display, e));
    return undefined;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    errors.push({ file: f.display, kind: 'decode', message: 'cannot decode file as UTF-8' });
    return undefined;
  }
}

export interface JsCheckOptions {
  prefilter?: boolean;
  maxFileSize?: number;
  /** The content cache: its directory and the run's key (rules, raiselint's code, options); none with --no-cache. */
  cache?: { dir: string; key: string };
}

/** Checks JS/TS files with the JS/TS rules; one result per file, in the order given. */
export async function checkJsFiles(
  files: JsFile[],
  rules: Rule[],
  opts: JsCheckOptions = {},
): Promise<{ results: RawResult[]; errors: FileError[]; stats: JsStats }> {
  const t0 = performance.now();
  const names = new Set(rules.flatMap((r) => r.js?.names ?? []));
  const results: RawResult[] = files.map(() => ({ diagnostics: [], errors: [], directives: [] }));
  const texts: (string | undefined)[] = [];
  const errors: FileError[] = [];
  const stats: JsStats = { files: files.length, linted: 0, clearedByTypes: 0, cached: 0, cachedByStat: 0, programs: 0, ms: 0 };
  const cache = opts.cache ? ResultCache.load(opts.cache.dir, sha256(`js\0${opts.cache.key}`)) : undefined;
  // Real paths: a linked checkout resolves its packages and tsconfig where its files really are.
  const real = new Map<number, string>();
  const pending: number[] = [];
  files.forEach((f, i) => {
    const text = read(f, results[i]!.errors, opts.maxFileSize ?? DEFAULT_MAX_FILE_SIZE);
    texts.push(text);
    if (text === undefined) return;
    const seen = mentions(text, names);
    if (seen.directives) results[i]!.directives = collectJsDirectives(text, f.abs);
    // --no-prefilter: every file goes to ESLint (for debugging and the benchmark).
    const match = seen.match || opts.prefilter === false;
    if (match || seen.directives) results[i]!.text = text;
    if (!match) return;
    real.set(i, realPath(f.abs));
    // Unchanged, and so is every file its types were read from (by their stat): no TypeScript is loaded.
    const hit = cache?.get(f.abs);
    if (hit && hit.d === f.display && unchangedByStat(f.abs, hit)) {
      reuse(results, i, f.abs, hit, cache!, stats);
      stats.cachedByStat++;
      return;
    }
    pending.push(i);
  });
  if (pending.length) await checkPending(pending, { files, texts, real, results, errors, stats, rules, cache, prefilter: opts.prefilter });
  cache?.save();
  stats.ms = performance.now() - t0;
  return { results, errors, stats };
}

function reuse(results: RawResult[], i: number, abs: string, hit: CacheEntry, cache: ResultCache, stats: JsStats): void {
  results[i] = { ...results[i]!, diagnostics: hit.diagnostics, errors: hit.errors };
  cache.touch(abs, Date.now());
  stats.cached++;
}

interface Pending {
  files: JsFile[];
  texts: (string | undefined)[];
  real: Map<number, string>;
  results: RawResult[];
  errors: FileError[];
  stats: JsStats;
  rules: Rule[];
  cache: ResultCache | undefined;
  /** false with --no-prefilter: every file goes to ESLint, the typed prefilter too is off. */
  prefilter?: boolean;
}

/** Files the stat check could not clear: keyed by content and dependencies (jsdeps.ts), then linted with types when the key is new. */
async function checkPending(pending: number[], p: Pending): Promise<void> {
  const { ConfigReader, buildPrograms } = await import('./jsprogram.js');
  const displayOf = new Map([...p.real].map(([i, abs]) => [abs, p.files[i]!.display]));
  const configs = new ConfigReader(p.errors, (abs) => displayOf.get(abs) ?? shown(abs));
  const deps = p.cache ? new (await import('./jsdeps.js')).JsDependencies(configs) : undefined;
  const keys = new Map<number, { hash: string; files: string[] }>();
  const lint: number[] = [];
  for (const i of pending) {
    const f = p.files[i]!;
    const key = deps?.signature(p.real.get(i)!, p.texts[i]!);
    const hit = key ? p.cache!.get(f.abs) : undefined;
    if (key) keys.set(i, key);
    if (hit && hit.h === key!.hash && hit.d === f.display) {
      p.cache!.set(f.abs, { ...hit, ...statsOf(f.abs, key!.files, configs), t: Date.now() });
      reuse(p.results, i, f.abs, hit, p.cache!, p.stats);
    } else lint.push(i);
  }
  if (!lint.length) return;
  const groups = buildPrograms(
    lint.map((i) => p.real.get(i)!),
    configs,
  );
  p.stats.programs = groups.length;
  // The typed prefilter: a file none of whose calls a rule reaches (as the rule judges it) is not parsed again by ESLint.
  const { mayReport } = await import('../eslint/candidates.js');
  const programOf = new Map(groups.flatMap((g) => g.files.map((f) => [f, g.program] as const)));
  const reaches = (i: number) => {
    const program = programOf.get(p.real.get(i)!);
    const sf = program?.getSourceFile(p.real.get(i)!);
    return !program || !sf || mayReport(sf, p.rules, program);
  };
  const linted = new Set(p.prefilter === false ? lint : lint.filter(reaches));
  p.stats.linted = linted.size;
  p.stats.clearedByTypes = lint.length - linted.size;
  const linter = linted.size
    ? (await import('./jslint.js')).jsLinter(
        p.rules,
        groups.map((g) => g.program),
        { deferVerify: true },
      )
    : undefined;
  for (const i of linted) linter!.lint({ abs: p.real.get(i)!, display: p.files[i]!.display }, p.texts[i]!, p.results[i]!);
  // The suggestions of all files, type-checked together.
  linter?.finish();
  for (const i of lint) {
    const f = p.files[i]!;
    const r = p.results[i]!;
    const key = keys.get(i);
    if (p.cache && key && !r.errors.some((e) => e.kind === 'internal'))
      p.cache.set(f.abs, {
        h: key.hash,
        d: f.display,
        o: '',
        t: Date.now(),
        ...statsOf(f.abs, key.files, configs),
        diagnostics: r.diagnostics,
        errors: r.errors,
        directives: r.directives,
      });
  }
}

/**
 * The stat signatures that let a later run reuse the entry without loading TypeScript: the file's
 * and those of every file its key read. None when one is racy (just written) or missing, or when
 * a config was broken (its error is said again by the run that reads it).
 */
function statsOf(abs: string, deps: string[], configs: { hasErrors(): boolean }): Pick<CacheEntry, 's' | 'deps'> {
  const now = Date.now();
  const sigOf = (p: string) => {
    try {
      return trustedSig(statSync(p), now);
    } catch {
      return undefined;
    }
  };
  const s = sigOf(abs);
  if (!s || configs.hasErrors()) return { s: undefined, deps: undefined };
  const out: [string, StatSig][] = [];
  for (const d of deps) {
    const sig = sigOf(d);
    if (!sig) return { s, deps: undefined };
    out.push([d, sig]);
  }
  return { s, deps: out };
}

function unchangedByStat(abs: string, e: CacheEntry): boolean {
  if (!e.s || !e.deps) return false;
  try {
    if (!sameSig(e.s, statSig(statSync(abs)))) return false;
    return depsUnchanged(e.deps);
  } catch {
    return false;
  }
}
