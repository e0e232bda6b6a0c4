/** Which dataset and curated files a rule set is built from (light: no parser, no compiler). */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { datasetFiles } from '../records/load.js';

/** The package's `rules/` folder (works from src/ under vitest and from dist/). */
export const BUNDLED_RULES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'rules');

export interface RuleOptions {
  /** Extra dataset files or folders. */
  records?: string[];
  /** Use the bundled datasets (default true). */
  bundled?: boolean;
  /** Extra curated data files. */
  curated?: string[];
  /**
   * The Python environment whose installed libraries ground the records (src/records/ground.ts):
   * an interpreter's path, `false` for none (records compile from their windows alone), or
   * undefined to find it (src/workspace/pyenv.ts).
   */
  python?: string | false;
  /** The checked project's folder, where a `.venv/` or `venv/` is looked for (default: the current folder). */
  projectDir?: string;
}

/**
 * The dataset and curated files a rule set is built from, in load order. `fromFolders`: the
 * dataset files found in a folder (a bad one among them is said and skipped; a file named
 * itself stops the run).
 */
export function ruleInputs(opts: RuleOptions = {}): { records: string[]; curated: string[]; fromFolders: Set<string> } {
  const records: string[] = [];
  const fromFolders = new Set<string>();
  if (opts.bundled !== false) records.push(...datasetFiles(join(BUNDLED_RULES_DIR, 'records')));
  for (const p of opts.records ?? []) {
    const files = datasetFiles(p);
    if (files.length !== 1 || files[0] !== p) for (const f of files) fromFolders.add(f);
    records.push(...files);
  }
  const curatedDir = join(BUNDLED_RULES_DIR, 'curated');
  const curated = [
    ...readdirSync(curatedDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => join(curatedDir, f)),
    ...(opts.curated ?? []),
  ];
  return { records, curated, fromFolders };
}
