/**
 * Derived datasets (`--derive`, `derive = ...`): records for the standard-library modules and
 * installed packages that the checked files import, generated from the installed code at the
 * versions the project runs (./index.ts), and cached in the cache folder by module, version and
 * the files' sizes and times, so a later run reads them instead of generating them again.
 *
 * A module is derived when a checked file imports it (`import m`, `from m import x`, `from m.sub
 * import x`: its top-level package), it is found in the project's Python (the standard library,
 * then site-packages) and not in the checked project itself, and its name is public. A record
 * for a raise site that a configured or bundled dataset already has (same repo, file and line)
 * is left out: curated records, with their tips and fixes, win.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../io/atomic.js';
import type { InstalledRoots } from '../ground.js';
import { generateRecords, type GenerateInput } from './index.js';

export type DeriveMode = 'off' | 'certain' | 'all';
export const DERIVE_MODES: readonly DeriveMode[] = ['off', 'certain', 'all'];

/** A derived dataset file, and the ids of its records (their possible findings are dropped under `certain`). */
export interface Derived {
  files: string[];
  recordIds: Set<string>;
  /** Modules derived (from the cache, or generated now). */
  modules: { name: string; cached: boolean; records: number }[];
}

const IMPORT = /^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([A-Za-z_][\w., \t]*))/gm;

/** Top-level module names a source imports (absolute imports only). */
export function importedModules(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(IMPORT)) {
    if (m[1]) out.add(m[1].split('.')[0]!);
    else for (const part of m[2]!.split(',')) {
      const name = part.trim().split(/\s+/)[0]?.split('.')[0];
      if (name) out.add(name);
    }
  }
  return out;
}

/** Where an installed module is: its package folder or module file, and whether it is the standard library's. */
function locate(name: string, env: InstalledRoots): { path: string; stdlib: boolean; root: string } | undefined {
  for (const [i, root] of env.roots.entries()) {
    const pkg = join(root, name);
    if (existsSync(join(pkg, '__init__.py'))) return { path: pkg, stdlib: i === 0, root };
    if (existsSync(`${pkg}.py`)) return { path: `${pkg}.py`, stdlib: i === 0, root };
  }
  return undefined;
}

/** A signature of a module's files (sizes and times): a changed or upgraded module derives again. */
function signature(path: string): string {
  const h = createHash('sha256');
  const visit = (p: string) => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const n of readdirSync(p).sort()) if (n !== '__pycache__' && !n.startsWith('.')) visit(join(p, n));
    } else if (p.endsWith('.py')) h.update(`${p}\0${st.size}\0${st.mtimeMs}\0`);
  };
  visit(path);
  return h.digest('hex').slice(0, 16);
}

/** The raise sites (repo, file, line) of datasets already loaded: a derived record for one of them is left out. */
export type KnownSites = Set<string>;
export const siteKey = (r: { repo: string; filePath: string; lineNumber: number }) => `${r.repo}\0${r.filePath}\0${r.lineNumber}`;

/**
 * Derives datasets for the modules `texts` import. `projectDirs`: the checked project's folders (a
 * module found there is the project's own, not derived). `version`: the environment's Python version.
 */
export async function deriveDatasets(texts: Iterable<string>, env: InstalledRoots, cacheDir: string, projectDirs: string[], known: KnownSites): Promise<Derived> {
  const names = new Set<string>();
  for (const t of texts) for (const n of importedModules(t)) names.add(n);
  const out: Derived = { files: [], recordIds: new Set(), modules: [] };
  const dir = join(cacheDir, 'derived');
  for (const name of [...names].sort()) {
    if (name.startsWith('_') || name === '__future__') continue;
    if (projectDirs.some((d) => existsSync(join(d, name, '__init__.py')) || existsSync(join(d, `${name}.py`)))) continue;
    const where = locate(name, env);
    if (!where) continue;
    const file = join(dir, `${name}-${where.stdlib ? env.version : 'site'}-${signature(where.path)}.jsonl`);
    let text: string;
    let cached = true;
    if (existsSync(file)) text = readFileSync(file, 'utf8');
    else {
      cached = false;
      const input: GenerateInput = where.stdlib ? { path: where.root, stdlib: { version: env.version }, only: [name] } : { path: where.path };
      const lines = (await generateRecords([input])).lines;
      text = lines.length ? `${lines.join('\n')}\n` : '';
      mkdirSync(dirname(file), { recursive: true });
      try {
        writeFileAtomic(file, text);
      } catch {
        // the cache is an optimisation: the records are used from memory below through a file that could not be written
      }
    }
    const kept = text.split('\n').filter((l) => {
      if (!l) return false;
      const r = (JSON.parse(l) as { record: { id: string; repo: string; filePath: string; lineNumber: number } }).record;
      if (known.has(siteKey(r))) return false;
      out.recordIds.add(r.id);
      return true;
    });
    out.modules.push({ name, cached, records: kept.length });
    if (!kept.length) continue;
    if (kept.length === text.split('\n').filter(Boolean).length && existsSync(file)) out.files.push(file);
    else {
      const trimmed = join(dir, `${name}-kept-${createHash('sha256').update(kept.join('\n')).digest('hex').slice(0, 16)}.jsonl`);
      if (!existsSync(trimmed)) writeFileAtomic(trimmed, `${kept.join('\n')}\n`, { mkdir: true });
      out.files.push(trimmed);
    }
  }
  return out;
}
