/**
 * Source-grounded JS/TS records: a record whose package is installed in the checked project's
 * `node_modules` (the nearest one up from the project's folder) is compiled from the installed
 * file, not only from its ~37-line `sourceCode` window. The window often starts below the raising
 * function (semver's `inc()` is 130 lines above its `default: throw` of `switch (release)`); the
 * installed file shows the function's parameters and every test around the throw.
 *
 * The installed file is `node_modules/<package>/<filePath>`, the package named by the record's
 * `repo` (records of `raiselint records generate` name the npm package and the file relative to
 * it); the throw is found by the text of the record's raising line, at `lineNumber` or the nearest
 * equal line. A file that is there but has no such line (the package changed) is left to the window.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import type { LoadedRecord } from './types.js';
import { raiseLine } from './ground.js';

const JS_FILE = /\.(?:[cm]?js|[cm]?ts|jsx|tsx)$/;
/** Larger installed files are left to the window (a bundle of a whole package). */
const MAX_BYTES = 512 * 1024;

/** The nearest `node_modules` folder at or above `dir`. */
export function nodeModulesOf(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    const nm = join(d, 'node_modules');
    if (existsSync(nm)) return nm;
    if (dirname(d) === d) return undefined;
  }
}

/** What the installed packages are, for a cache key: npm's record of the install (its size and mtime), else nothing. */
export function nodeModulesFingerprint(dir: string): string {
  const nm = nodeModulesOf(dir);
  if (!nm) return 'none';
  try {
    const st = statSync(join(nm, '.package-lock.json'));
    return `${nm}:${st.size}:${st.mtimeMs}`;
  } catch {
    return `${nm}:no-lock`;
  }
}

/** The package folders a record's `repo` may name: `semver`, `@scope/name`, the last part of `owner/name`. */
function packageNames(repo: string): string[] {
  const out = [repo];
  if (!repo.startsWith('@') && repo.includes('/')) out.push(repo.split('/').pop()!);
  return out.filter((n) => n && !n.includes('..'));
}

/**
 * Grounds the JS/TS records (`isJs` says which) whose installed file is found; returns the hashes
 * of the files read (they are part of the compiled rules' cache key).
 */
export function groundJsRecords(records: LoadedRecord[], projectDir: string, isJs: (lr: LoadedRecord) => boolean): string[] {
  const nm = nodeModulesOf(projectDir);
  if (!nm) return [];
  const texts = new Map<string, string[] | null>();
  const hashes: string[] = [];
  for (const lr of records) {
    const r = lr.record;
    if (!JS_FILE.test(r.filePath) || r.filePath.includes('..') || !isJs(lr)) continue;
    const want = r.sourceCode.split('\n')[r.lineNumber - r.sourceCodeStart]?.trim();
    if (!want) continue;
    for (const pkg of packageNames(r.repo)) {
      const file = join(nm, pkg, r.filePath);
      let lines = texts.get(file);
      if (lines === undefined) {
        lines = null;
        try {
          if (statSync(file).size <= MAX_BYTES) {
            const text = readFileSync(file, 'utf8');
            lines = text.split(/\r?\n/);
            hashes.push(createHash('sha256').update(text).digest('hex'));
          }
        } catch {
          // not installed there
        }
        texts.set(file, lines);
      }
      if (!lines) continue;
      const row = raiseLine(lines, want, r.lineNumber - 1);
      if (row < 0) break;
      lr.grounded = { file, sourceCode: lines.join('\n'), sourceCodeStart: r.lineNumber - row, line: row + 1 };
      break;
    }
  }
  return hashes;
}
