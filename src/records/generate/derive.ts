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
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../io/atomic.js';
import { pruneFiles } from '../../io/prune.js';
import { sha256 } from '../../io/fingerprint.js';
import { regexEscape } from './fields.js';
import type { InstalledRoots } from '../ground.js';
import { generateRecords, type GenerateInput } from './index.js';

export type DeriveMode = 'off' | 'certain' | 'all';
export const DERIVE_MODES: readonly DeriveMode[] = ['off', 'certain', 'all'];
/** Without `--derive` or a config's `derive`: the certain findings of the modules the code imports (a first run is quiet and right). */
export const DEFAULT_DERIVE: DeriveMode = 'certain';

/** The derived dataset files, and the ids of their records (their possible findings are dropped under `certain`). */
export interface Derived {
  files: string[];
  recordIds: Set<string>;
}

type Site = { id: string; repo: string; filePath: string; lineNumber: number };
type Line = { line: string; record: Site };

/** The lines of a derived dataset in the cache, or undefined when it is missing or damaged (then derived again). */
const toLine = (line: string): Line => ({ line, record: (JSON.parse(line) as Pick<Line, 'record'>).record });

function cached(file: string): Line[] | undefined {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(toLine);
  } catch {
    return undefined;
  }
}

/**
 * The raise sites of a cached derived dataset, from its index (`<file>.sites`: a later run reads
 * these few bytes, not the records), or undefined when either file is missing or damaged.
 */
function cachedSites(file: string): Site[] | undefined {
  try {
    if (!existsSync(file)) return undefined;
    const rows = JSON.parse(readFileSync(`${file}.sites`, 'utf8')) as unknown;
    if (!Array.isArray(rows)) return undefined;
    const out: Site[] = [];
    for (const r of rows) {
      if (!Array.isArray(r) || typeof r[0] !== 'string' || typeof r[1] !== 'string' || typeof r[2] !== 'string' || typeof r[3] !== 'number') return undefined;
      out.push({ id: r[0], repo: r[1], filePath: r[2], lineNumber: r[3] });
    }
    return out;
  } catch {
    return undefined;
  }
}

function storeSites(file: string, lines: readonly Line[]): void {
  store(`${file}.sites`, [JSON.stringify(lines.map(({ record: r }) => [r.id, r.repo, r.filePath, r.lineNumber]))]);
}

/** Datasets of a module kept in the cache (an upgraded module, or another environment's, derives a new one). */
const MAX_DERIVED_PER_MODULE = 3;

/** Keeps `file` and the newest other datasets of the same module and kind (`prefix`), with their indexes. */
function pruneDerived(dir: string, file: string, prefix: string): void {
  const p = regexEscape(prefix);
  try {
    pruneFiles(dir, new RegExp(`^${p}[0-9a-f]{16}\\.jsonl$`), file, MAX_DERIVED_PER_MODULE);
    pruneFiles(dir, new RegExp(`^${p}[0-9a-f]{16}\\.jsonl\\.sites$`), `${file}.sites`, MAX_DERIVED_PER_MODULE);
  } catch {
    // the cache is an optimisation
  }
}

/** Writes a dataset into the cache; false when it cannot be written (the module is then not derived: rules are read from files). */
function store(file: string, lines: readonly string[]): boolean {
  try {
    writeFileAtomic(file, lines.length ? `${lines.join('\n')}\n` : '', { mkdir: true });
    return true;
  } catch {
    return false;
  }
}

const IMPORT = /^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([A-Za-z_][\w., \t]*))/gm;

/** Top-level module names a source imports (absolute imports only). */
export function importedModules(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(IMPORT)) {
    if (m[1]) out.add(m[1].split('.')[0]!);
    else
      for (const part of m[2]!.split(',')) {
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
export async function deriveDatasets(
  texts: Iterable<string>,
  env: InstalledRoots,
  cacheDir: string,
  projectDirs: string[],
  knownSites: () => KnownSites,
): Promise<Derived> {
  let known: KnownSites | undefined;
  const names = new Set<string>();
  for (const t of texts) for (const n of importedModules(t)) names.add(n);
  const out: Derived = { files: [], recordIds: new Set() };
  const dir = join(cacheDir, 'derived');
  for (const name of [...names].sort()) {
    if (name.startsWith('_') || name === '__future__') continue;
    if (projectDirs.some((d) => existsSync(join(d, name, '__init__.py')) || existsSync(join(d, `${name}.py`)))) continue;
    const where = locate(name, env);
    if (!where) continue;
    const kind = `${name}-${where.stdlib ? env.version : 'site'}-`;
    const file = join(dir, `${kind}${signature(where.path)}.jsonl`);
    let sites = cachedSites(file);
    let lines: Line[] | undefined;
    if (!sites) {
      lines = cached(file);
      if (!lines) {
        const input: GenerateInput = where.stdlib ? { path: where.root, stdlib: { version: env.version }, only: [name] } : { path: where.path };
        const made = (await generateRecords([input])).lines;
        if (!store(file, made)) continue;
        lines = made.map(toLine);
        pruneDerived(dir, file, kind);
      }
      storeSites(file, lines);
      sites = lines.map((l) => l.record);
    }
    known ??= knownSites();
    const keptSites = sites.filter((r) => !known!.has(siteKey(r)));
    if (!keptSites.length) continue;
    let use = file;
    if (keptSites.length < sites.length) {
      // Some raise sites are a configured dataset's: the rest in a file of their own.
      lines ??= cached(file);
      if (!lines) continue;
      const kept = lines.filter((l) => !known!.has(siteKey(l.record)));
      use = join(dir, `${name}-kept-${sha256(kept.map((l) => l.line).join('\n')).slice(0, 16)}.jsonl`);
      if (!existsSync(use)) {
        if (
          !store(
            use,
            kept.map((l) => l.line),
          )
        )
          continue;
        pruneDerived(dir, use, `${name}-kept-`);
      }
    }
    for (const r of keptSites) out.recordIds.add(r.id);
    out.files.push(use);
  }
  return out;
}
