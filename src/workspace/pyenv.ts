/**
 * The Python environment the checked project runs in, whose installed libraries ground the rules
 * (src/records/ground.ts): `--python PATH` or the config's `python`, else `$VIRTUAL_ENV`, else a
 * `.venv/` or `venv/` in the project folder, else `python3` on PATH. It is asked once for its
 * standard library and site-packages folders; the answer is kept per process and, keyed by the
 * interpreter's path, size and mtime, in the cache folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { writeFileAtomic } from '../io/atomic.js';
import type { InstalledRoots } from '../records/ground.js';

export interface PythonEnv extends InstalledRoots {
  /** The interpreter (resolved). */
  executable: string;
}

/** What a run says about the environment: a path, `false` (none: records keep their windows), or undefined (discover). */
export type PythonOption = string | false | undefined;

const QUERY =
  'import json, sys, sysconfig, site\n' +
  'p = sysconfig.get_paths()\n' +
  'roots = [p["stdlib"], p["platstdlib"], p["purelib"], p["platlib"]]\n' +
  'try:\n    roots += site.getsitepackages()\nexcept Exception:\n    pass\n' +
  'print(json.dumps({"executable": sys.executable, "version": "%d.%d.%d" % sys.version_info[:3], "roots": roots}))\n';

const memo = new Map<string, PythonEnv | undefined>();

/** The interpreter to ask, by the order above; undefined when none is found. */
export function findPython(option: PythonOption, projectDir: string = process.cwd()): string | undefined {
  if (option === false) return undefined;
  if (option) return option;
  const venv = process.env.VIRTUAL_ENV;
  const candidates = [venv ? join(venv, 'bin', 'python') : undefined, join(projectDir, '.venv', 'bin', 'python'), join(projectDir, 'venv', 'bin', 'python')];
  for (const c of candidates) if (c && existsSync(c)) return c;
  return 'python3';
}

/** The environment of `python`, or undefined when it cannot be asked (no such interpreter, it failed). */
export function pythonEnv(option: PythonOption, cacheDir?: string, projectDir?: string): PythonEnv | undefined {
  const python = findPython(option, projectDir);
  if (!python) return undefined;
  if (memo.has(python)) return memo.get(python);
  let env: PythonEnv | undefined;
  const cacheFile = cacheDir ? cachePath(python, cacheDir) : undefined;
  if (cacheFile) env = readCached(cacheFile);
  if (!env) {
    env = ask(python);
    if (env && cacheFile) {
      try {
        writeFileAtomic(cacheFile, JSON.stringify(env), { mkdir: true });
      } catch {
        // the cache is an optimisation
      }
    }
  }
  memo.set(python, env);
  return env;
}

function ask(python: string): PythonEnv | undefined {
  try {
    const out = execFileSync(python, ['-I', '-c', QUERY], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
    const v = JSON.parse(out) as PythonEnv;
    const roots = [...new Set(v.roots.filter((r) => typeof r === 'string' && existsSync(r)).map((r) => resolve(r)))];
    return { executable: v.executable, version: v.version, roots };
  } catch {
    return undefined;
  }
}

/** The cache file of an interpreter: its resolved path, size and mtime (a new interpreter in a venv is a new file). */
function cachePath(python: string, cacheDir: string): string | undefined {
  try {
    const exe = python.includes('/') ? realpathSync(python) : whichSync(python);
    if (!exe) return undefined;
    const st = statSync(exe);
    const id = createHash('sha256')
      .update(`${exe}\0${st.size}\0${st.mtimeMs}\0${python}\0${process.env.VIRTUAL_ENV ?? ''}`)
      .digest('hex')
      .slice(0, 24);
    return join(cacheDir, 'python', `env-${id}.json`);
  } catch {
    return undefined;
  }
}

function whichSync(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const p = join(dir, name);
    try {
      if (statSync(p).isFile()) return realpathSync(p);
    } catch {
      // not here
    }
  }
  return undefined;
}

function readCached(file: string): PythonEnv | undefined {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as PythonEnv;
    if (
      typeof v.executable === 'string' &&
      typeof v.version === 'string' &&
      Array.isArray(v.roots) &&
      v.roots.every((r) => typeof r === 'string' && existsSync(r))
    )
      return v;
  } catch {
    // a miss
  }
  return undefined;
}

/** What identifies the environment's installed code for caches: the interpreter, and each root with its mtime (an install or removal changes it). */
export function envFingerprint(env: PythonEnv | undefined): string {
  if (!env) return 'python: none';
  const parts = [env.executable, env.version];
  for (const r of env.roots) {
    try {
      parts.push(`${r}\0${statSync(r).mtimeMs}`);
    } catch {
      parts.push(`${r}\0?`);
    }
  }
  return parts.join('\0');
}
