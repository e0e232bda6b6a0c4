/**
 * The versions a project pins, for the rules that apply to some versions only: Python from
 * `--target-version` / the config's `target-version` (Ruff's `py311`), `.python-version`, `requires-python`
 * (or Poetry's `python`) in pyproject.toml; libraries from poetry.lock, uv.lock, Pipfile.lock,
 * requirements*.txt and pyproject dependencies. The nearest file of each kind above a checked
 * file counts (up to the repository root). A file that cannot be read or parsed pins nothing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

const get = (o: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);

/** `name[extra] >=1,<2 ; markers` → [name, specifier]. */
function requirement(line: string): [string, string] | undefined {
  const t = line.replace(/\s+#.*$/, '').split(';')[0]!.trim();
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(\(?[<>=!~][^()]*\)?)?$/.exec(t);
  if (!m || !m[2]) return undefined;
  return [normaliseName(m[1]!), m[2].replace(/[()\s]/g, '')];
}

function lockPins(dir: string, out: Record<string, Pin>): boolean {
  for (const lock of ['poetry.lock', 'uv.lock']) {
    const doc = existsSync(join(dir, lock)) ? readToml(join(dir, lock)) : undefined;
    const pkgs = get(doc, 'package');
    if (!Array.isArray(pkgs)) continue;
    for (const p of pkgs) {
      const name = get(p, 'name');
      const version = get(p, 'version');
      if (typeof name === 'string' && typeof version === 'string') out[normaliseName(name)] ??= { spec: `==${version}`, from: `${name} ${version} (${lock})` };
    }
    return true;
  }
  if (!existsSync(join(dir, 'Pipfile.lock'))) return false;
  try {
    const doc = JSON.parse(readFileSync(join(dir, 'Pipfile.lock'), 'utf8')) as Record<string, Record<string, { version?: string }>>;
    for (const section of ['default', 'develop']) {
      for (const [name, v] of Object.entries(doc[section] ?? {})) if (typeof v?.version === 'string') out[normaliseName(name)] ??= { spec: v.version, from: `${name} ${v.version.replace(/^==/, '')} (Pipfile.lock)` };
    }
  } catch {
    return false;
  }
  return true;
}

function requirementPins(dir: string, out: Record<string, Pin>): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => /^requirements.*\.txt$/.test(n)).sort();
  } catch {
    return;
  }
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

/** What one directory pins (each kind only if not pinned by a nearer directory). */
function readDir(dir: string, pins: Pins, have: { python: boolean; libs: boolean }): void {
  const pyproject = existsSync(join(dir, 'pyproject.toml')) ? readToml(join(dir, 'pyproject.toml')) : undefined;
  if (!have.python) {
    let pv: string | undefined;
    try {
      pv = existsSync(join(dir, '.python-version')) ? readFileSync(join(dir, '.python-version'), 'utf8').split(/\r?\n/)[0]!.trim() : undefined;
    } catch {
      pv = undefined;
    }
    const req = get(pyproject, 'project', 'requires-python');
    const poetry = get(pyproject, 'tool', 'poetry', 'dependencies', 'python');
    if (pv && /^\d+\.\d+(\.\d+)?$/.test(pv)) pins.python = { spec: pv.split('.').length === 2 ? `==${pv}.*` : `==${pv}`, from: `Python ${pv} (.python-version)` };
    else if (typeof req === 'string') pins.python = { spec: req.replace(/\s+/g, ''), from: `requires-python ${req} (pyproject.toml)` };
    else if (typeof poetry === 'string') pins.python = { spec: poetrySpec(poetry), from: `python ${poetry} (pyproject.toml, Poetry)` };
    have.python = !!pins.python;
  }
  if (!have.libs) {
    const before = Object.keys(pins.packages).length;
    const locked = lockPins(dir, pins.packages);
    requirementPins(dir, pins.packages);
    const deps = get(pyproject, 'project', 'dependencies');
    if (Array.isArray(deps)) for (const d of deps) if (typeof d === 'string') {
      const r = requirement(d);
      if (r) pins.packages[r[0]] ??= { spec: r[1], from: `${d} (pyproject.toml)` };
    }
    have.libs = locked || Object.keys(pins.packages).length > before;
  }
}

const memo = new Map<string, Pins>();

/** The pins that apply to a file (absolute path); `targetVersion` (`--target-version` or the config's) wins over the files. */
export function pinsFor(fileAbs: string, targetVersion?: string): Pins {
  const start = dirname(fileAbs);
  const key = `${start}\0${targetVersion ?? ''}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const pins: Pins = { packages: {} };
  const have = { python: false, libs: false };
  const spec = targetVersion ? targetVersionSpec(targetVersion) : undefined;
  if (spec) {
    pins.python = { spec, from: `target-version ${targetVersion}` };
    have.python = true;
  }
  for (let dir = start, i = 0; i < 64; i++) {
    readDir(dir, pins, have);
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) break;
    dir = dirname(dir);
  }
  memo.set(key, pins);
  return pins;
}
