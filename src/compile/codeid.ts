/**
 * Identity of the running raiselint: its version, the versions of the parser and grammar, and the
 * path, size and timestamps of each of its code files (a build rewrites them all; a copy changes
 * their ctime). Part of every cache key, so that no cache outlives a code change, also during
 * development, when the version number does not change. Stat only: nothing is read.
 *
 * The code files are those of the build that runs: the bundle's folder (dist/bundle/: the CLI,
 * its worker threads and the parser's .wasm files are all there) when it runs from the bundle,
 * else every compiled stage (dist/, or src/ under the tests). A clone's dist/ also holds tsc's
 * output, ~200 files the bundle never loads: stating them cost ~5 ms of every run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { PACKAGE } from '../io/package.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The code this module runs from: the bundle's folder, or the compiled (dist/) or source (src/) root. */
const CODE_ROOT = basename(HERE) === 'bundle' ? HERE : join(HERE, '..');

export const VERSION: string = PACKAGE.version;

let cached: string | undefined;

export function codeId(): string {
  if (cached) return cached;
  const h = createHash('sha256');
  h.update(`raiselint ${VERSION}\0`);
  const require = createRequire(import.meta.url);
  for (const dep of ['web-tree-sitter/package.json', 'tree-sitter-python/package.json']) {
    try {
      h.update(`${dep} ${(JSON.parse(readFileSync(require.resolve(dep), 'utf8')) as { version: string }).version}\0`);
    } catch {
      // The package: the parser's .wasm files are next to the bundle (their stat is hashed below).
      h.update(`${dep} ?\0`);
    }
  }
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(js|cjs|ts|wasm)$/.test(e.name) && !e.name.endsWith('.d.ts')) files.push(p);
    }
  };
  walk(CODE_ROOT);
  files.sort();
  for (const f of files) {
    const st = statSync(f);
    h.update(`${f.slice(CODE_ROOT.length)}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\0`);
  }
  cached = h.digest('hex');
  return cached;
}
