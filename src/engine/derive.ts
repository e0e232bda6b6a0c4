/**
 * `--derive` / `derive = ...` for a run: records for the installed modules the checked files
 * import (src/records/generate/derive.ts), added to the run's datasets. Under `certain` (the
 * value to choose for a first run: quiet and right) only their certain findings are kept.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { deriveDatasets, siteKey, type Derived, type DeriveMode } from '../records/generate/derive.js';
import type { DiscoveredFile } from '../workspace/discover.js';
import { pythonEnv } from '../workspace/pyenv.js';
import { DEFAULT_CACHE_DIR } from './batch.js';
import { ruleInputs, type RuleOptions } from '../compile/index.js';

/** The derived datasets of a run, or undefined (off, or no Python found). `datasets`: the run's other dataset paths. */
export async function deriveForRun(
  mode: DeriveMode,
  files: readonly DiscoveredFile[],
  opts: RuleOptions & { cacheDir?: string },
  datasets: string[],
): Promise<Derived | undefined> {
  if (mode === 'off' || !files.length) return undefined;
  const cacheDir = resolve(opts.cacheDir ?? DEFAULT_CACHE_DIR);
  const env = pythonEnv(opts.python, cacheDir, opts.projectDir);
  if (!env) return undefined;
  const texts: string[] = [];
  for (const f of files) {
    try {
      texts.push(readFileSync(f.abs, 'utf8'));
    } catch {
      // an unreadable file is reported by the check itself
    }
  }
  // Raise sites the configured and bundled datasets already have: curated records win.
  const known = new Set<string>();
  for (const file of ruleInputs({ ...opts, records: datasets }).records) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const v = JSON.parse(line) as { record?: { repo?: string; filePath?: string; lineNumber?: number } };
        const r = v.record ?? (v as { repo?: string; filePath?: string; lineNumber?: number });
        if (typeof r.repo === 'string' && typeof r.filePath === 'string' && typeof r.lineNumber === 'number')
          known.add(siteKey(r as { repo: string; filePath: string; lineNumber: number }));
      } catch {
        // a bad line is the loader's to report
      }
    }
  }
  // The project's own modules: next to a checked file, or in a folder above it inside the working folder (a `src/` layout's package).
  const cwd = process.cwd();
  const projectDirs = new Set<string>();
  for (const f of files) {
    for (let d = dirname(f.abs); !projectDirs.has(d); d = dirname(d)) {
      projectDirs.add(d);
      if (d === cwd || !d.startsWith(cwd) || dirname(d) === d) break;
    }
  }
  return deriveDatasets(texts, env, cacheDir, [...projectDirs], known);
}
