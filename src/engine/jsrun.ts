/**
 * JS/TS files in `raiselint check`: the prefilter (only files that mention a rule's names go on),
 * one TypeScript program per nearest tsconfig (jsprogram.ts), ESLint's Linter with the plugin's
 * rules for the rule snapshot's JS/TS rules, and its messages as raiselint diagnostics (same
 * fields, reports, suppressions and baseline as Python findings). Both suppression forms apply:
 * `// raiselint: ignore[...]` and ESLint's `eslint-disable` comments. Results are in the content
 * cache, keyed by the file's text and what its types depend on (jsdeps.ts).
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { FileError } from '../diagnostics/types.js';
import type { Rule } from '../rules/types.js';
import { collectJsDirectives } from '../suppress/jsdirectives.js';
import { DEFAULT_MAX_FILE_SIZE, readRegular } from '../parse/files.js';
import { readError } from './ioerror.js';
import type { JsStats, RawResult } from './batch.js';

export type { JsStats } from './batch.js';
import { buildPrograms, ConfigReader } from './jsprogram.js';
import { JsDependencies } from './jsdeps.js';
import { ResultCache } from '../cache/results.js';
import { sha256 } from '../io/fingerprint.js';
import { jsLinter } from './jslint.js';

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
  const lint: number[] = [];
  const errors: FileError[] = [];
  const stats: JsStats = { files: files.length, linted: 0, cached: 0, programs: 0, ms: 0 };
  const displayOf = new Map<string, string>();
  const configs = new ConfigReader(errors, (abs) => displayOf.get(abs) ?? shown(abs));
  const cache = opts.cache ? ResultCache.load(opts.cache.dir, sha256(`js\0${opts.cache.key}`)) : undefined;
  const deps = cache ? new JsDependencies(configs) : undefined;
  // Real paths: a linked checkout resolves its packages and tsconfig where its files really are.
  const real = new Map<number, string>();
  const keys = new Map<number, string>();
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
    displayOf.set(real.get(i)!, f.display);
    const key = deps?.signature(real.get(i)!, text);
    const hit = key ? cache!.get(f.abs) : undefined;
    if (hit && hit.h === key && hit.d === f.display) {
      results[i] = { ...results[i]!, diagnostics: hit.diagnostics, errors: hit.errors };
      cache!.touch(f.abs, Date.now());
      stats.cached++;
      return;
    }
    if (key) keys.set(i, key);
    lint.push(i);
  });
  stats.linted = lint.length;
  if (lint.length) {
    const groups = buildPrograms(
      lint.map((i) => real.get(i)!),
      configs,
    );
    stats.programs = groups.length;
    const linter = jsLinter(
      rules,
      groups.map((g) => g.program),
    );
    for (const i of lint) {
      linter.lint({ abs: real.get(i)!, display: files[i]!.display }, texts[i]!, results[i]!);
      const r = results[i]!;
      if (cache && keys.has(i) && !r.errors.some((e) => e.kind === 'internal'))
        cache.set(files[i]!.abs, {
          h: keys.get(i)!,
          d: files[i]!.display,
          o: '',
          t: Date.now(),
          diagnostics: r.diagnostics,
          errors: r.errors,
          directives: r.directives,
        });
    }
  }
  cache?.save();
  stats.ms = performance.now() - t0;
  return { results, errors, stats };
}
