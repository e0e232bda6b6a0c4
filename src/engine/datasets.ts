/**
 * `raiselint records list`: the datasets a `raiselint check` of these paths would load, and why
 * each one: bundled with raiselint, named by `--records`, named by a config file's `records` (for
 * the files under it), or derived from a module the checked files import (`derive`). Discovery,
 * configuration and derivation are the run's own (./project.ts, ./derive.ts), so the list is what
 * the check uses; a module derived here is cached for the check that follows.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { datasetFiles } from '../records/load.js';
import { BUNDLED_RULES_DIR } from '../compile/index.js';
import { deriveForRun } from './derive.js';
import { DEFAULT_DERIVE } from '../records/generate/derive.js';
import { discoverProject, projectResolver, type ProjectOptions } from './project.js';
import { JS_FILES, pythonFiles } from './jsproject.js';

export type DatasetSource = 'bundled' | 'records-option' | 'config' | 'derived';

export interface ActiveDataset {
  file: string;
  source: DatasetSource;
  /** Non-empty lines of the file (records). */
  records: number;
  /** Why it is active, in words. */
  why: string;
}

export interface DatasetList {
  datasets: ActiveDataset[];
  /** Python files and notebooks found. */
  files: number;
  /** JS/TS files found (checked when a dataset has JS/TS records). */
  jsFiles: number;
  derive: string;
}

function countRecords(file: string): number {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim()).length;
  } catch {
    return 0;
  }
}

export async function activeDatasets(paths: string[], opts: ProjectOptions): Promise<DatasetList> {
  const resolver = projectResolver(opts);
  const found = discoverProject(paths, { ...opts, discovery: { ...opts.discovery, alsoFind: JS_FILES } }, resolver);
  const files = pythonFiles(found);
  const cfgs = files.map((f) => resolver.forFile(f.abs));
  const out: ActiveDataset[] = [];
  const seen = new Set<string>();
  const add = (file: string, source: DatasetSource, why: string) => {
    const abs = resolve(file);
    if (seen.has(abs)) return;
    seen.add(abs);
    out.push({ file: abs, source, records: countRecords(abs), why });
  };
  if (opts.bundled !== false)
    for (const f of datasetFiles(resolve(BUNDLED_RULES_DIR, 'records'))) add(f, 'bundled', 'bundled with raiselint (--no-bundled leaves it out)');
  for (const p of opts.records ?? []) for (const f of datasetFiles(p)) add(f, 'records-option', `--records ${p}`);
  // Config datasets: for the files under each config that names them.
  const byDataset = new Map<string, { config: string; files: number }>();
  cfgs.forEach((c) => {
    for (const f of c.records) {
      const e = byDataset.get(f) ?? { config: c.sources[c.sources.length - 1] ?? '', files: 0 };
      e.files++;
      byDataset.set(f, e);
    }
  });
  for (const [f, e] of byDataset)
    add(f, 'config', `records = [...] in ${basename(e.config)} (${e.config}), for ${e.files} checked file${e.files === 1 ? '' : 's'} under it`);
  const mode = opts.derive ?? cfgs[0]?.derive ?? DEFAULT_DERIVE;
  const derived = await deriveForRun(mode, files, opts, [...(opts.records ?? []), ...byDataset.keys()]);
  for (const f of derived?.files ?? []) {
    const module = basename(f).replace(/-(?:kept|site|\d[\w.]*)-.*$/, '');
    add(f, 'derived', `derive = "${mode}": the checked files import ${module} (its installed source, cached)`);
  }
  return { datasets: out, files: files.length, jsFiles: found.length - files.length, derive: mode };
}
