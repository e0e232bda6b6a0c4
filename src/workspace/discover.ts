/** Finds the Python files to check: files as given, directories recursively, honouring .gitignore. */
import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { describeFsError, specialKind } from '../parse/files.js';
import { walkTree } from './walk.js';

export const SKIP_DIRS = new Set(['.git', '.hg', '.svn', 'node_modules', '__pycache__', '.venv', 'venv', '.tox', '.nox', '.mypy_cache', '.ruff_cache', '.pytest_cache', '.raiselint_cache', 'site-packages', '.eggs', 'build', 'dist']);
const PY = /\.pyi?$/;

export class PathError extends Error {
  constructor(readonly path: string, message: string) {
    super(message);
  }
}

interface IgnoreLayer {
  base: string;
  ig: Ignore;
}

export interface DiscoverOptions {
  /** Extra exclusion globs (gitignore syntax), relative to the current directory (for paths in it), else to the path's project root. */
  exclude?: string[];
  respectGitignore?: boolean;
  /** Follow symbolic links to directories (each real directory once: a link cycle ends). */
  followLinks?: boolean;
  /** Configured exclusion (true/false), or undefined to use the built-in rules; applies to named files too. */
  excluded?: (abs: string, isDir: boolean) => boolean | undefined;
}

/** Not normalized: `//`, a `.` or `..` segment, or a trailing `/` (string searches: a regular expression was slower). */
function unnormal(p: string): boolean {
  return p.includes('//') || p.includes('/./') || p.includes('/../') || p.endsWith('/') || p.endsWith('/.') || p.endsWith('/..');
}

/**
 * `path.resolve(p)`, without its cost for a path that is already absolute and normalized (the
 * usual case: pre-commit and editors pass absolute paths; every path discovered is one). On a
 * few thousand long paths `resolve` alone took tens of milliseconds.
 */
export function resolvePath(p: string): string {
  return sep === '/' && p.charCodeAt(0) === 47 && !unnormal(p) ? p : resolve(p);
}

/** A file to check: absolute path, display path, and its stat when discovery took one (a file named on the command line). */
export interface DiscoveredFile {
  abs: string;
  display: string;
  stat?: Stats;
  /** Why the file cannot be checked (a FIFO named on the command line, a name that is not UTF-8): an io-error finding. */
  error?: string;
}

interface WalkContext {
  extra?: Ignore;
  base: string;
  gitignore: boolean;
  excluded?: DiscoverOptions['excluded'];
  followLinks?: boolean;
}

/** Returns [absolute path, display path] pairs, sorted by display path, without duplicates. */
export function discover(paths: string[], opts: DiscoverOptions = {}): DiscoveredFile[] {
  const out = new Map<string, DiscoveredFile>();
  const cwd = process.cwd();
  const extra = opts.exclude?.length ? ignore().add(opts.exclude) : undefined;
  for (const p of paths) {
    const abs = resolvePath(p);
    let st;
    try {
      st = statSync(abs);
    } catch (e) {
      throw new PathError(p, describeFsError(e));
    }
    if (opts.excluded?.(abs, st.isDirectory())) continue;
    if (!st.isDirectory()) {
      // A file named explicitly is checked whatever its extension (pre-commit passes them); a FIFO or device is an io-error.
      const kind = specialKind(st);
      if (!out.has(abs)) out.set(abs, { abs, display: p, stat: kind ? undefined : st, error: kind ? `not a regular file (${kind})` : undefined });
      continue;
    }
    const layers = opts.respectGitignore === false ? [] : gitignoreChain(abs);
    walk(abs, p, layers, out, { extra, base: extra ? excludeBase(abs, cwd) : cwd, gitignore: opts.respectGitignore !== false, excluded: opts.excluded, followLinks: opts.followLinks });
  }
  return [...out.values()].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}

function gitignoreChain(dir: string): IgnoreLayer[] {
  // .gitignore files of the parents up to the repository root apply too.
  const chain: IgnoreLayer[] = [];
  let cur = resolve(dir, '..');
  const dirs: string[] = [];
  for (;;) {
    dirs.push(cur);
    if (existsSync(join(cur, '.git'))) break;
    const up = resolve(cur, '..');
    if (up === cur) {
      dirs.length = 0; // not in a repository: parent .gitignore files do not apply
      break;
    }
    cur = up;
  }
  for (const d of dirs.reverse()) {
    const layer = readGitignore(d);
    if (layer) chain.push(layer);
  }
  return chain;
}

function readGitignore(dir: string): IgnoreLayer | undefined {
  const f = join(dir, '.gitignore');
  if (!existsSync(f)) return undefined;
  try {
    return { base: dir, ig: ignore().add(readFileSync(f, 'utf8')) };
  } catch {
    return undefined;
  }
}

function ignored(abs: string, isDir: boolean, layers: IgnoreLayer[]): boolean {
  for (const l of layers) {
    const rel = relative(l.base, abs).split(sep).join('/');
    if (!rel || rel.startsWith('..')) continue;
    if (l.ig.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

interface WalkState {
  layers: IgnoreLayer[];
}

/** Extra excludes (`--exclude`) are relative to this folder: the cwd when the path is in it, else the project root of the path. */
export function excludeBase(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  if (!rel.startsWith('..') && !isAbsolute(rel)) return cwd;
  let cur = abs;
  for (;;) {
    if (PROJECT_MARKERS.some((m) => existsSync(join(cur, m)))) return cur;
    const up = dirname(cur);
    if (up === cur) return abs;
    cur = up;
  }
}

const PROJECT_MARKERS = ['raiselint.toml', 'pyproject.toml', '.git'];

function walk(abs: string, display: string, layers: IgnoreLayer[], out: Map<string, DiscoveredFile>, ctx: WalkContext): void {
  const { extra, base, gitignore, excluded } = ctx;
  const skip = (childAbs: string, name: string, isDir: boolean, here: IgnoreLayer[]): boolean => {
    const configured = excluded?.(childAbs, isDir);
    if (configured === true || (configured === undefined && isDir && SKIP_DIRS.has(name))) return true;
    if (ignored(childAbs, isDir, here)) return true;
    if (extra) {
      const rel = relative(base, childAbs).split(sep).join('/');
      if (rel && !rel.startsWith('..') && extra.ignores(isDir ? `${rel}/` : rel)) return true;
    }
    return false;
  };
  const withOwn = (dir: string, here: IgnoreLayer[]) => {
    const own = gitignore ? readGitignore(dir) : undefined;
    return own ? [...here, own] : here;
  };
  walkTree<WalkState>(abs, display, { layers: withOwn(abs, layers) }, {
    listing: (_dir, names) => !names.includes('pyvenv.cfg'), // a virtualenv
    enter: (childAbs, _shown, name, here) => (skip(childAbs, name, true, here.layers) ? undefined : { layers: withOwn(childAbs, here.layers) }),
    file: (childAbs, shown, name, here) => {
      // Symbolic links to files are followed; a broken one is reported as unreadable when checked.
      if (PY.test(name) && !out.has(childAbs) && !skip(childAbs, name, false, here.layers)) out.set(childAbs, { abs: childAbs, display: shown });
    },
    badName: (childAbs, shown) => {
      if (PY.test(shown) && !out.has(childAbs)) out.set(childAbs, { abs: childAbs, display: shown, error: 'file name is not valid UTF-8 (rename it to check it)' });
    },
  }, { followLinks: ctx.followLinks });
}
