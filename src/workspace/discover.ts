/** Finds the Python files to check: files as given, directories recursively, honouring .gitignore. */
import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { describeFsError, specialKind } from '../parse/files.js';
import { isPythonFile, PYTHON_FILE } from './pathkind.js';
import { walkTree } from './walk.js';

export const SKIP_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.nox',
  '.mypy_cache',
  '.ruff_cache',
  '.pytest_cache',
  '.raiselint_cache',
  'site-packages',
  '.eggs',
  'build',
  'dist',
]);
const PY = PYTHON_FILE;

export class PathError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
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
  /** Other files to find in directories and to accept when named (JS/TS files: checked when JS/TS rules are loaded). */
  alsoFind?: RegExp;
  /** Told of each folder's entry names as the walk reads them (before its entries are visited), so later lookups in it need no listing of their own. */
  onListing?: (dir: string, names: string[]) => void;
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
    const why = namedExclusion(abs, st.isDirectory(), opts, extra, cwd);
    if (why) {
      opts.onSkip?.(p, why);
      opts.onPath?.(p, 0);
      continue;
    }
    if (!st.isDirectory()) {
      // A FIFO, device or socket is never opened (it would hang or read forever): a Python-named one is an io-error.
      const kind = specialKind(st);
      // A file named explicitly is checked when it is Python (extension, or a python shebang: pre-commit passes them).
      if (
        kind
          ? extname(abs) !== '' && !NAMED_PY.test(abs) && !opts.alsoFind?.test(abs)
          : !isPythonFile(abs) && !opts.included?.(abs) && !opts.alsoFind?.test(abs)
      ) {
        opts.onSkip?.(p, 'not a Python file (.py, .pyi, .pyw, .ipynb or a python shebang)');
        opts.onPath?.(p, 0);
        continue;
      }
      if (!out.has(abs)) out.set(abs, { abs, display: p, stat: kind ? undefined : st, error: kind ? `not a regular file (${kind})` : undefined });
      opts.onPath?.(p, 1);
      continue;
    }
    const layers = opts.respectGitignore === false ? [] : gitignoreChain(abs);
    const found = walk(abs, p, layers, out, { extra, base: extra ? excludeBase(abs, cwd) : cwd, opts });
    opts.onPath?.(p, found);
  }
  return [...out.values()].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}

const NAMED_PY = /\.(?:pyi?|pyw|ipynb)$/;

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

/** Extra excludes (`--exclude`) are relative to this folder: the cwd when the path is in it, else the project root of the path. */
export function excludeBase(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  if (!rel.startsWith('..') && !isAbsolute(rel)) return cwd;
  for (let cur = abs; ; ) {
    if (PROJECT_MARKERS.some((m) => existsSync(join(cur, m)))) return cur;
    const up = dirname(cur);
    if (up === cur) return abs;
    cur = up;
  }
}

const PROJECT_MARKERS = ['raiselint.toml', 'pyproject.toml', '.git'];

interface WalkContext {
  extra?: Ignore;
  /** `--exclude` patterns are relative to it (see excludeBase). */
  base: string;
  opts: DiscoverOptions;
}

/** Why a folder or file found in a walk is not checked, if it is not. */
function walkExclusion(childAbs: string, name: string, isDir: boolean, layers: IgnoreLayer[], ctx: WalkContext): string | undefined {
  const { opts, extra } = ctx;
  const configured = opts.excluded?.(childAbs, isDir);
  if (configured === true) return "excluded by the configuration's exclude / extend-exclude";
  if (configured === undefined && isDir && !opts.noDefaultExcludes && SKIP_DIRS.has(name)) return 'a built-in exclusion';
  if (ignored(childAbs, isDir, layers)) return 'ignored by .gitignore';
  if (extra) {
    const rel = relative(ctx.base, childAbs).split(sep).join('/');
    if (rel && !rel.startsWith('..') && extra.ignores(isDir ? `${rel}/` : rel)) return 'excluded by --exclude / --extend-exclude';
  }
  return undefined;
}

/**
 * Walks a folder into `out` (iteratively, see walk.ts: directory links followed only with
 * `followLinks`, each real directory once; FIFOs and devices skipped); returns how many Python
 * files it holds (including ones already in `out`).
 */
function walk(abs: string, display: string, layers: IgnoreLayer[], out: Map<string, DiscoveredFile>, ctx: WalkContext): number {
  const { opts } = ctx;
  const gitignore = opts.respectGitignore !== false;
  // A folder's own .gitignore, read when its listing names one (no lookup per folder).
  const withOwn = (dir: string, names: string[], here: IgnoreLayer[]) => {
    const own = gitignore && names.includes('.gitignore') ? readGitignore(dir) : undefined;
    return own ? [...here, own] : here;
  };
  let found = 0;
  const skip = (shown: string, why: string | undefined) => {
    if (why) opts.onSkip?.(shown, why);
    return !!why;
  };
  walkTree<IgnoreLayer[]>(
    abs,
    display,
    layers,
    {
      listing: (dir, shown, names, here) => {
        if (names.includes('pyvenv.cfg')) return void opts.onSkip?.(shown === '.' ? './' : `${shown}/`, 'a virtualenv (holds pyvenv.cfg)');
        opts.onListing?.(dir, names);
        return withOwn(dir, names, here);
      },
      enter: (childAbs, shown, name, here) => (skip(`${shown}/`, walkExclusion(childAbs, name, true, here, ctx)) ? undefined : here),
      file: (childAbs, shown, name, here) => {
        if (!PY.test(name) && opts.included?.(childAbs) !== true && opts.alsoFind?.test(name) !== true) return;
        if (skip(shown, walkExclusion(childAbs, name, false, here, ctx))) return;
        // Symbolic links to files are followed; a broken one is reported as unreadable when checked.
        found++;
        if (!out.has(childAbs)) out.set(childAbs, { abs: childAbs, display: shown });
      },
      badName: (childAbs, shown) => {
        if (!PY.test(shown) && opts.alsoFind?.test(shown) !== true) return;
        found++;
        if (!out.has(childAbs)) out.set(childAbs, { abs: childAbs, display: shown, error: 'file name is not valid UTF-8 (rename it to check it)' });
      },
      skippedLink: (shown) => opts.onSkip?.(`${shown}/`, 'a symbolic link to a directory (--follow-links follows it)'),
    },
    { followLinks: opts.followLinks },
  );
  return found;
}
