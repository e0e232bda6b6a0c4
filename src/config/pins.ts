/**
 * The versions a project pins, for the rules that apply to some versions only: Python from
 * `--target-version` / the config's `target-version` (Ruff's `py311`), `.python-version`, `requires-python`
 * (or Poetry's `python`) in pyproject.toml; libraries from poetry.lock, uv.lock, Pipfile.lock,
 * requirements*.txt and pyproject dependencies. The nearest file of each kind above a checked
 * file counts (up to the repository root). A file that cannot be read or parsed pins nothing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import picomatch from 'picomatch';
import { parse as parseToml } from 'smol-toml';
import { normaliseName, type Pin, type Pins } from '../rules/condition/versions.js';

/** `py311` / `3.11` → `==3.11.*`; undefined when it is not a version. */
export function targetVersionSpec(v: string): string | undefined {
  const m = /^(?:py)?(\d)\.?(\d+)$/.exec(v.trim());
  return m ? `==${m[1]}.${m[2]}.*` : undefined;
}

/** Poetry's `^3.10` / `~3.10` / `3.10.*` as PEP 440. */
function poetrySpec(s: string): string {
  return s
    .split(',')
    .map((p) => {
      const t = p.trim();
      const caret = /^\^(\d+)(?:\.(\d+))?/.exec(t);
      if (caret) return `>=${t.slice(1)},<${Number(caret[1]) + 1}`;
      const tilde = /^~(\d+)\.(\d+)/.exec(t);
      if (tilde && !t.startsWith('~=')) return `>=${t.slice(1)},<${tilde[1]}.${Number(tilde[2]) + 1}`;
      return /^\d/.test(t) ? `==${t}` : t;
    })
    .join(',');
}

function readToml(path: string): Record<string, unknown> | undefined {
  try {
    return parseToml(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

const get = (o: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);

/** `name[extra] >=1,<2 ; markers` → [name, specifier]. */
function requirement(line: string): [string, string] | undefined {
  const t = line
    .replace(/\s+#.*$/, '')
    .split(';')[0]!
    .trim();
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(\(?[<>=!~][^()]*\)?)?$/.exec(t);
  if (!m || !m[2]) return undefined;
  return [normaliseName(m[1]!), m[2].replace(/[()\s]/g, '')];
}

/** The files besides pyproject.toml (a config file) whose content pins something, as globs of a file name: the one list the folder reading, the language server's watchers and isPinFile use. */
const PIN_FILES = ['.python-version', 'poetry.lock', 'uv.lock', 'Pipfile.lock', 'requirements*.txt'] as const;
const isRequirements = picomatch('requirements*.txt', { dot: true });

/** A folder's listing, read once: which of the files this module looks for are there. */
type Has = (name: string) => boolean;

/** A folder's entry names, when the caller has them already (the run's walk read the folder). */
export type Listed = (dir: string) => Set<string> | undefined;

function listing(dir: string, listed?: Listed): { has: Has; requirements: string[] } {
  let set = listed?.(dir);
  if (!set) {
    try {
      set = new Set(readdirSync(dir));
    } catch {
      // Not listable (no read permission) but maybe searchable: test each name.
      return { has: (n) => existsSync(join(dir, n)), requirements: [] };
    }
  }
  const requirements: string[] = [];
  // The glob's literal start first: a matcher call per name cost ~2 ms on a 6,000-entry /tmp.
  for (const n of set) if (n.startsWith('requirements') && isRequirements(n)) requirements.push(n);
  return { has: (n) => set.has(n), requirements: requirements.sort() };
}

function lockPins(dir: string, has: Has, out: Record<string, Pin>): boolean {
  for (const lock of ['poetry.lock', 'uv.lock']) {
    const doc = has(lock) ? readToml(join(dir, lock)) : undefined;
    const pkgs = get(doc, 'package');
    if (!Array.isArray(pkgs)) continue;
    for (const p of pkgs) {
      const name = get(p, 'name');
      const version = get(p, 'version');
      if (typeof name === 'string' && typeof version === 'string') out[normaliseName(name)] ??= { spec: `==${version}`, from: `${name} ${version} (${lock})` };
    }
    return true;
  }
  if (!has('Pipfile.lock')) return false;
  try {
    const doc = JSON.parse(readFileSync(join(dir, 'Pipfile.lock'), 'utf8')) as Record<string, Record<string, { version?: string }>>;
    for (const section of ['default', 'develop']) {
      for (const [name, v] of Object.entries(doc[section] ?? {}))
        if (typeof v?.version === 'string') out[normaliseName(name)] ??= { spec: v.version, from: `${name} ${v.version.replace(/^==/, '')} (Pipfile.lock)` };
    }
  } catch {
    return false;
  }
  return true;
}

function requirementPins(dir: string, names: string[], out: Record<string, Pin>): void {
  for (const n of names) {
    let text = '';
    try {
      text = readFileSync(join(dir, n), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split(/\r?\n/)) {
      const r = requirement(line);
      if (r) out[r[0]] ??= { spec: r[1], from: `${line.trim().split(/[\s;#]/)[0]} (${n})` };
    }
  }
}

/** What one folder pins by itself, and whether the walk stops there (a repository root). */
interface FolderPins {
  python?: Pin;
  /** Set when the folder pins libraries (a lock file, or at least one requirement): farther folders then pin none. */
  packages?: Record<string, Pin>;
  root: boolean;
}

function pythonPin(dir: string, has: Has, pyproject: unknown): Pin | undefined {
  let pv: string | undefined;
  try {
    pv = has('.python-version') ? readFileSync(join(dir, '.python-version'), 'utf8').split(/\r?\n/)[0]!.trim() : undefined;
  } catch {
    pv = undefined;
  }
  const req = get(pyproject, 'project', 'requires-python');
  const poetry = get(pyproject, 'tool', 'poetry', 'dependencies', 'python');
  if (pv && /^\d+\.\d+(\.\d+)?$/.test(pv)) return { spec: pv.split('.').length === 2 ? `==${pv}.*` : `==${pv}`, from: `Python ${pv} (.python-version)` };
  if (typeof req === 'string') return { spec: req.replace(/\s+/g, ''), from: `requires-python ${req} (pyproject.toml)` };
  if (typeof poetry === 'string') return { spec: poetrySpec(poetry), from: `python ${poetry} (pyproject.toml, Poetry)` };
  return undefined;
}

function readFolder(dir: string, listed?: Listed): FolderPins {
  const { has, requirements } = listing(dir, listed);
  const pyproject = has('pyproject.toml') ? readToml(join(dir, 'pyproject.toml')) : undefined;
  const packages: Record<string, Pin> = {};
  const locked = lockPins(dir, has, packages);
  requirementPins(dir, requirements, packages);
  const deps = get(pyproject, 'project', 'dependencies');
  if (Array.isArray(deps))
    for (const d of deps)
      if (typeof d === 'string') {
        const r = requirement(d);
        if (r) packages[r[0]] ??= { spec: r[1], from: `${d} (pyproject.toml)` };
      }
  const libs = locked || Object.keys(packages).length > 0;
  return { python: pythonPin(dir, has, pyproject), packages: libs ? packages : undefined, root: has('.git') || dirname(dir) === dir };
}

/** Per folder: what the folder pins with everything above it (up to the repository root), the nearest of each kind winning. */
const folders = new Map<string, Pins>();
const MAX_DEPTH = 64;

function folderPins(dir: string, listed: Listed | undefined, depth = 0): Pins {
  const hit = folders.get(dir);
  if (hit) return hit;
  const own = readFolder(dir, listed);
  const above: Pins = own.root || depth + 1 >= MAX_DEPTH ? { packages: {} } : folderPins(dirname(dir), listed, depth + 1);
  const pins: Pins = { packages: own.packages ?? above.packages };
  const python = own.python ?? above.python;
  if (python) pins.python = python;
  folders.set(dir, pins);
  return pins;
}

const memo = new Map<string, Pins>();

/**
 * The pins that apply to a file (absolute path); `targetVersion` (`--target-version` or the
 * config's) wins over the files. `listed` gives the entry names of folders the caller has just
 * read (a run's walk), so that they are not listed again.
 */
export function pinsFor(fileAbs: string, targetVersion?: string, listed?: Listed): Pins {
  const found = folderPins(dirname(fileAbs), listed);
  const spec = targetVersion ? targetVersionSpec(targetVersion) : undefined;
  if (!spec) return found;
  const key = `${dirname(fileAbs)}\0${targetVersion}`;
  let pins = memo.get(key);
  if (!pins) memo.set(key, (pins = { packages: found.packages, python: { spec, from: `target-version ${targetVersion}` } }));
  return pins;
}

/** The files besides pyproject.toml (a config file) whose change changes the pins, for a file watcher. */
export const PIN_FILES_GLOB = `**/{${PIN_FILES.join(',')}}`;
/** A file name whose change changes the pins (pyproject.toml too). */
export const isPinFile: (name: string) => boolean = picomatch([...PIN_FILES, 'pyproject.toml'], { dot: true });

/** Forget what was read (a long-running server, after a pin file changed). */
export function forgetPins(): void {
  folders.clear();
  memo.clear();
}
