/**
 * Module resolution as Python does it, for the project's own modules (cross-file summaries,
 * ./crossfile.ts). A file's import roots, in the order Python's `sys.path` would give them:
 *  1. the folder above its top-most package (the first folder up without an `__init__.py`): the
 *     root of `python -m pkg.mod`, and of the installed package;
 *  2. the file's own folder (a top-level script imports its neighbours);
 *  3. the project's folder (the nearest `pyproject.toml`, `setup.py`, `setup.cfg` or `.git`), its
 *     `src/`, and the folders `pyproject.toml` names (`[tool.setuptools] package-dir`, hatch's
 *     `packages`, poetry's `packages = [{ include, from }]`).
 * A dotted name resolves to `root/a/b.py` or `root/a/b/__init__.py` (namespace packages need no
 * `__init__.py`); roots are per file, so one module name in two projects of a checked tree stays
 * two modules. Everything is read through one memoised `stat`, and nothing is cached across runs.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { parse as parseToml } from 'smol-toml';

export interface ResolvedModule {
  /** The module's file (`x.py` or `pkg/__init__.py`). */
  file: string;
  /** The module's dotted name. */
  name: string;
  /** The rest of the dotted name: attributes of the module. */
  rest: string[];
}

const PROJECT_MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg', '.git'];

export class ModuleResolver {
  private readonly kinds = new Map<string, 'file' | 'dir' | null>();
  private readonly rootsMemo = new Map<string, string[]>();
  private readonly projectMemo = new Map<string, string[]>();
  /** Answers by the asking file's folder (its roots are its folder's) and name: asked for every import of every module read. */
  private readonly resolveMemo = new Map<string, ResolvedModule | undefined>();
  private readonly topMemo = new Map<string, boolean>();

  private kind(p: string): 'file' | 'dir' | null {
    let k = this.kinds.get(p);
    if (k !== undefined) return k;
    try {
      // A missing path is the usual answer: no exception made for it.
      const st = statSync(p, { throwIfNoEntry: false });
      k = st?.isFile() ? 'file' : st?.isDirectory() ? 'dir' : null;
    } catch {
      k = null;
    }
    this.kinds.set(p, k);
    return k;
  }

  /** The import roots of a file, in resolution order. */
  roots(file: string): string[] {
    const dir = dirname(file);
    let out = this.rootsMemo.get(dir);
    if (out) return out;
    let top = dir;
    while (this.kind(join(top, '__init__.py')) === 'file' && dirname(top) !== top) top = dirname(top);
    out = [...new Set([top, dir, ...this.projectRoots(dir)])];
    this.rootsMemo.set(dir, out);
    return out;
  }

  /** The project's folder and the source folders it declares (empty when no project marker is above). */
  private projectRoots(dir: string): string[] {
    const memo = this.projectMemo.get(dir);
    if (memo) return memo;
    let out: string[] = [];
    const marked = PROJECT_MARKERS.some((m) => this.kind(join(dir, m)) !== null);
    if (marked) {
      out = [dir];
      if (this.kind(join(dir, 'src')) === 'dir') out.push(join(dir, 'src'));
      for (const d of declaredSourceDirs(join(dir, 'pyproject.toml'))) if (this.kind(join(dir, d)) === 'dir') out.push(join(dir, d));
    } else if (dirname(dir) !== dir) out = this.projectRoots(dirname(dir));
    this.projectMemo.set(dir, out);
    return out;
  }

  /** The project module a dotted name (`app.runtime.make`) refers to from `file`: its longest prefix that is a module. */
  resolve(from: string, dotted: string): ResolvedModule | undefined {
    const key = `${dirname(from)}\0${dotted}`;
    if (this.resolveMemo.has(key)) return this.resolveMemo.get(key);
    const r = this.resolveIn(from, dotted);
    this.resolveMemo.set(key, r);
    return r;
  }

  private resolveIn(from: string, dotted: string): ResolvedModule | undefined {
    const parts = dotted.split('.');
    if (!parts.every((p) => /^[A-Za-z_]\w*$/.test(p))) return undefined;
    for (const root of this.roots(from)) {
      // The head must be a module or package of this root; else the next root.
      if (this.kind(join(root, `${parts[0]}.py`)) !== 'file' && this.kind(join(root, parts[0]!)) !== 'dir') continue;
      for (let n = parts.length; n >= 1; n--) {
        const base = join(root, ...parts.slice(0, n));
        const name = parts.slice(0, n).join('.');
        if (this.kind(`${base}.py`) === 'file') return { file: `${base}.py`, name, rest: parts.slice(n) };
        if (this.kind(base) === 'dir') {
          const init = join(base, '__init__.py');
          // A namespace package (no __init__.py) has no attributes of its own.
          if (this.kind(init) === 'file') return { file: init, name, rest: parts.slice(n) };
          if (n === parts.length) return undefined;
        }
      }
      return undefined;
    }
    return undefined;
  }

  /** Whether a top-level name is one of the project's modules or packages, seen from `file`. */
  isProjectTop(from: string, top: string): boolean {
    const key = `${dirname(from)}\0${top}`;
    let v = this.topMemo.get(key);
    if (v === undefined)
      this.topMemo.set(key, (v = this.roots(from).some((r) => this.kind(join(r, `${top}.py`)) === 'file' || this.kind(join(r, top)) === 'dir')));
    return v;
  }

  /** The absolute dotted name of `from .. m import x` (level 2, module `m`) written in `file`, or undefined above the top. */
  absolute(file: string, level: number, module: string): string | undefined {
    let pkg = dirname(file);
    for (let i = 1; i < level; i++) pkg = dirname(pkg);
    for (const root of this.roots(file)) {
      const rel = relative(root, pkg);
      if (rel.startsWith('..') || (rel && rel.split(sep).some((p) => !/^[A-Za-z_]\w*$/.test(p)))) continue;
      const head = rel ? rel.split(sep).join('.') : '';
      const name = [head, module].filter(Boolean).join('.');
      if (name) return name;
    }
    return undefined;
  }
}

/** Source folders `pyproject.toml` declares: setuptools' `package-dir`, hatch's `packages`, poetry's `from`. */
function declaredSourceDirs(path: string): string[] {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return [];
  }
  const tool = (doc.tool ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const out: string[] = [];
  const pkgDir = tool.setuptools?.['package-dir'];
  if (pkgDir && typeof pkgDir === 'object') for (const v of Object.values(pkgDir)) if (typeof v === 'string') out.push(v);
  const wheel = (tool.hatch?.build as Record<string, Record<string, Record<string, unknown>>> | undefined)?.targets?.wheel?.packages;
  if (Array.isArray(wheel)) for (const p of wheel) if (typeof p === 'string' && p.includes('/')) out.push(dirname(p));
  const poetry = tool.poetry?.packages;
  if (Array.isArray(poetry))
    for (const p of poetry) if (p && typeof p === 'object' && typeof (p as { from?: unknown }).from === 'string') out.push((p as { from: string }).from);
  return [...new Set(out.filter((d) => d && d !== '.'))];
}
