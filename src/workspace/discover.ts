/** Finds the Python files to check: files as given, directories recursively, honouring .gitignore. */
import { existsSync, readFileSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isPythonFile, PYTHON_FILE } from './pathkind.js';

export const SKIP_DIRS = new Set(['.git', '.hg', '.svn', 'node_modules', '__pycache__', '.venv', 'venv', '.tox', '.nox', '.mypy_cache', '.ruff_cache', '.pytest_cache', '.raiselint_cache', 'site-packages', '.eggs', 'build', 'dist']);
const PY = PYTHON_FILE;

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
  /** Extra exclusion globs (gitignore syntax), relative to the current directory. */
  exclude?: string[];
  respectGitignore?: boolean;
  /** Configured exclusion (true/false), or undefined to use the built-in rules; applies to named files too. */
  excluded?: (abs: string, isDir: boolean) => boolean | undefined;
  /** A file a config's `extend-include` adds (checked as Python whatever its name). */
  included?: (abs: string) => boolean;
  /** `--exclude` replaces the built-in exclusions (as Ruff's): they no longer apply while walking. */
  noDefaultExcludes?: boolean;
  /** `--force-exclude`: the exclusions (built-in, `exclude`) apply to paths named on the command line too. */
  forceExclude?: boolean;
  /** Told of each path not checked and why (`--show-files`): named non-Python files, excluded folders and files. */
  onSkip?: (display: string, reason: string) => void;
  /** Told, for each path given, how many Python files it holds (before de-duplication). */
  onPath?: (given: string, found: number) => void;
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
}

/** Returns [absolute path, display path] pairs, sorted by display path, without duplicates. */
export function discover(paths: string[], opts: DiscoverOptions = {}): DiscoveredFile[] {
  const out = new Map<string, string>();
  const stats = new Map<string, Stats>();
  const cwd = process.cwd();
  const extra = opts.exclude?.length ? ignore().add(opts.exclude) : undefined;
  for (const p of paths) {
    const abs = resolvePath(p);
    let st;
    try {
      st = statSync(abs);
    } catch {
      throw new PathError(p, 'no such file or directory');
    }
    const why = namedExclusion(abs, st.isDirectory(), opts, extra, cwd);
    if (why) {
      opts.onSkip?.(p, why);
      opts.onPath?.(p, 0);
      continue;
    }
    if (st.isFile()) {
      // A file named explicitly is checked when it is Python (extension, or a python shebang: pre-commit passes them).
      if (!isPythonFile(abs) && !opts.included?.(abs)) {
        opts.onSkip?.(p, 'not a Python file (.py, .pyi, .pyw, .ipynb or a python shebang)');
        opts.onPath?.(p, 0);
        continue;
      }
      if (!out.has(abs)) {
        out.set(abs, p);
        stats.set(abs, st);
      }
      opts.onPath?.(p, 1);
      continue;
    }
    const layers = opts.respectGitignore === false ? [] : gitignoreChain(abs);
    const found = walk(abs, p, layers, out, extra, cwd, opts);
    opts.onPath?.(p, found);
  }
  return [...out].map(([abs, display]) => ({ abs, display, stat: stats.get(abs) })).sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
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

/** Why a path named on the command line is not checked (`--force-exclude`, or a config's exclusion), if it is not. */
function namedExclusion(abs: string, isDir: boolean, opts: DiscoverOptions, extra: Ignore | undefined, cwd: string): string | undefined {
  const configured = opts.excluded?.(abs, isDir);
  if (configured) return "excluded by the configuration's exclude / extend-exclude";
  if (!opts.forceExclude) return undefined;
  const rel = relative(cwd, abs).split(sep).join('/');
  const within = rel && !rel.startsWith('..') ? (isDir ? `${rel}/` : rel) : undefined;
  if (within && extra?.ignores(within)) return 'excluded by --exclude / --extend-exclude (--force-exclude)';
  if (configured === undefined && !opts.noDefaultExcludes && within && DEFAULT_IGNORE.ignores(within)) return 'a built-in exclusion (--force-exclude)';
  return undefined;
}

const DEFAULT_IGNORE = ignore().add([...SKIP_DIRS].map((d) => `${d}/`));

/** Walks a folder into `out`; returns how many Python files it holds (including ones already in `out`). */
function walk(abs: string, display: string, layers: IgnoreLayer[], out: Map<string, string>, extra: Ignore | undefined, cwd: string, opts: DiscoverOptions): number {
  const gitignore = opts.respectGitignore !== false;
  const excluded = opts.excluded;
  let entries;
  try {
    entries = readdirSync(abs, { withFileTypes: true });
  } catch {
    return 0;
  }
  const own = gitignore ? readGitignore(abs) : undefined;
  const here = own ? [...layers, own] : layers;
  if (entries.some((e) => e.name === 'pyvenv.cfg')) {
    opts.onSkip?.(display === '.' ? './' : `${display}/`, 'a virtualenv (holds pyvenv.cfg)');
    return 0;
  }
  let found = 0;
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const childAbs = join(abs, e.name);
    const childDisplay = display === '.' ? e.name : join(display, e.name);
    const isDir = e.isDirectory() || (e.isSymbolicLink() && isDirLink(childAbs));
    const py = !isDir && (e.isFile() || e.isSymbolicLink()) && (PY.test(e.name) || opts.included?.(childAbs) === true);
    const shown = isDir ? `${childDisplay}/` : childDisplay;
    if (!isDir && !py) continue;
    const configured = excluded?.(childAbs, isDir);
    if (configured === true) {
      opts.onSkip?.(shown, "excluded by the configuration's exclude / extend-exclude");
      continue;
    }
    if (configured === undefined && isDir && !opts.noDefaultExcludes && SKIP_DIRS.has(e.name)) {
      opts.onSkip?.(shown, 'a built-in exclusion');
      continue;
    }
    if (ignored(childAbs, isDir, here)) {
      opts.onSkip?.(shown, 'ignored by .gitignore');
      continue;
    }
    if (extra) {
      const rel = relative(cwd, childAbs).split(sep).join('/');
      if (rel && !rel.startsWith('..') && extra.ignores(isDir ? `${rel}/` : rel)) {
        opts.onSkip?.(shown, 'excluded by --exclude / --extend-exclude');
        continue;
      }
    }
    if (isDir) found += walk(childAbs, childDisplay, here, out, extra, cwd, opts);
    // Symbolic links to files are followed; a broken one is reported as unreadable when checked.
    else {
      found++;
      if (!out.has(childAbs)) out.set(childAbs, childDisplay);
    }
  }
  return found;
}

function isDirLink(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
