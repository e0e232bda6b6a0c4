/**
 * Identity of the running raiselint: its version, the versions of the parser and grammar, and the
 * path, size and timestamps of each of its code files (a build rewrites them all; a copy changes
 * their ctime). Part of every cache key, so that no cache outlives a code change, also during
 * development, when the version number does not change. Stat only: nothing is read.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The compiled (dist/) or source (src/) root this module runs from. */
const CODE_ROOT = join(HERE, '..');

export const VERSION: string = (JSON.parse(readFileSync(join(CODE_ROOT, '..', 'package.json'), 'utf8')) as { version: string }).version;

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
