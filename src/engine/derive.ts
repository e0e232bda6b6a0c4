/**
 * `--derive` / `derive = ...` for a run: records for the installed modules the checked files
 * import (src/records/generate/derive.ts), added to the run's datasets. Under `certain` (the
 * value to choose for a first run: quiet and right) only their certain findings are kept.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../io/atomic.js';
import { hashParts, trustedSig } from '../io/fingerprint.js';
import { pruneFiles } from '../io/prune.js';
import { deriveDatasets, siteKey, type Derived, type DeriveMode, type KnownSites } from '../records/generate/derive.js';
import type { DiscoveredFile } from '../workspace/discover.js';
import { pythonEnv } from '../workspace/pyenv.js';
import { DEFAULT_MAX_FILE_SIZE, readRegularText } from '../parse/files.js';
import { MAX_DATASET_BYTES } from '../records/load.js';
import { DEFAULT_CACHE_DIR } from './batch.js';
import { ruleInputs, type RuleOptions } from '../compile/index.js';

/** The derived datasets of a run, or undefined (off, or no Python found). `datasets`: the run's other dataset paths. */
export async function deriveForRun(mode: DeriveMode, files: readonly DiscoveredFile[], opts: DeriveOptions, datasets: string[]): Promise<Derived | undefined> {
  if (mode === 'off' || !files.length) return undefined;
  const texts: string[] = [];
  for (const f of files) {
    try {
      // Regular files only, within the size limit (never a FIFO's blocking read).
      texts.push(readRegularText(f.abs, opts.maxFileSize ?? DEFAULT_MAX_FILE_SIZE));
    } catch {
      // an unreadable, special or oversized file is reported by the check itself
    }
  }
  return deriveForTexts(
    texts,
    files.map((f) => f.abs),
    opts,
    datasets,
  );
}

export type DeriveOptions = RuleOptions & { cacheDir?: string; maxFileSize?: number };

/**
 * The derived datasets for the modules `texts` import (the texts of the files at `paths`; the
 * language server's buffers), or undefined when no Python is found.
 */
export async function deriveForTexts(
  texts: readonly string[],
  paths: readonly string[],
  opts: DeriveOptions,
  datasets: string[],
): Promise<Derived | undefined> {
  const cacheDir = resolve(opts.cacheDir ?? DEFAULT_CACHE_DIR);
  const env = pythonEnv(opts.python, cacheDir, opts.projectDir);
  if (!env) return undefined;
  // Raise sites the configured and bundled datasets already have (read only when a module is derived): curated records win.
  const known = () => knownSites(ruleInputs({ ...opts, records: datasets }).records, cacheDir);
  // The project's own modules: next to a checked file, or in a folder above it inside the working folder (a `src/` layout's package).
  const cwd = process.cwd();
  const projectDirs = new Set<string>();
  for (const abs of paths) {
    for (let d = dirname(abs); !projectDirs.has(d); d = dirname(d)) {
      projectDirs.add(d);
      if (d === cwd || !d.startsWith(cwd) || dirname(d) === d) break;
    }
  }
  return deriveDatasets(texts, env, cacheDir, [...projectDirs], known);
}

/** Per dataset file (by path and stat signature), its raise sites, kept in the cache folder: a later run reads these, not the records. */
const MAX_SITE_INDEXES = 32;

/** The raise sites (repo, file, line) of dataset files; each file's from its index in `cacheDir` when unchanged. */
function knownSites(files: readonly string[], cacheDir: string): KnownSites {
  const known: KnownSites = new Set();
  const dir = join(cacheDir, 'derived');
  for (const file of files) {
    const st = statSync(file, { throwIfNoEntry: false });
    // A file changed within the last seconds may change again unseen: read, not indexed (io/fingerprint.ts).
    const sig = st?.isFile() ? trustedSig(st, Date.now()) : undefined;
    const index = sig && join(dir, `sites-${hashParts([resolve(file), ...sig]).slice(0, 16)}.json`);
    const indexed = index ? readIndex(index) : undefined;
    const sites = indexed ?? sitesOf(file);
    for (const k of sites) known.add(k);
    if (index && !indexed) {
      try {
        writeFileAtomic(index, JSON.stringify(sites), { mkdir: true });
        pruneFiles(dir, /^sites-[0-9a-f]{16}\.json$/, index, MAX_SITE_INDEXES);
      } catch {
        // the index is an optimisation
      }
    }
  }
  return known;
}

function readIndex(index: string): string[] | undefined {
  try {
    const rows = JSON.parse(readFileSync(index, 'utf8')) as unknown;
    return Array.isArray(rows) && rows.every((r) => typeof r === 'string') ? (rows as string[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The raise sites of one dataset file, read from its records. */
function sitesOf(file: string): string[] {
  const out: string[] = [];
  let text: string;
  try {
    text = readRegularText(file, MAX_DATASET_BYTES);
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as { record?: { repo?: string; filePath?: string; lineNumber?: number } };
      const r = v.record ?? (v as { repo?: string; filePath?: string; lineNumber?: number });
      if (typeof r.repo === 'string' && typeof r.filePath === 'string' && typeof r.lineNumber === 'number')
        out.push(siteKey(r as { repo: string; filePath: string; lineNumber: number }));
    } catch {
      // a bad line is the loader's to report
    }
  }
  return out;
}
