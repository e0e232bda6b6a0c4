/** Loads the bundled datasets, extra datasets and curated data into a rule set. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initParser } from '../parse/parser.js';
import { datasetFiles, loadDataset } from '../records/load.js';
import type { LoadedRecord, RecordProblem } from '../records/types.js';
import { ClassRegistry } from '../rules/classes.js';
import { loadCurated } from '../rules/curated.js';
import { buildRuleSet, type RuleSet } from '../rules/ruleset.js';

/** The package's `rules/` folder (works from src/ under vitest and from dist/). */
export const BUNDLED_RULES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'rules');

export interface RuleOptions {
  /** Extra dataset files or folders. */
  records?: string[];
  /** Use the bundled datasets (default true). */
  bundled?: boolean;
  /** Extra curated data files. */
  curated?: string[];
}

export async function loadRules(opts: RuleOptions = {}): Promise<RuleSet> {
  await initParser();
  const files: string[] = [];
  if (opts.bundled !== false) files.push(...datasetFiles(join(BUNDLED_RULES_DIR, 'records')));
  for (const p of opts.records ?? []) files.push(...datasetFiles(p));
  const records: LoadedRecord[] = [];
  const problems: RecordProblem[] = [];
  const hashInput: string[] = [];
  for (const f of files) {
    const r = loadDataset(f);
    records.push(...r.records);
    problems.push(...r.problems);
    hashInput.push(readFileSync(f, 'utf8'));
  }
  const classes = new ClassRegistry();
  const curated = [...readdirSync(join(BUNDLED_RULES_DIR, 'curated')).filter((f) => f.endsWith('.json')).sort().map((f) => join(BUNDLED_RULES_DIR, 'curated', f)), ...(opts.curated ?? [])];
  for (const c of curated) {
    loadCurated(c, classes);
    hashInput.push(readFileSync(c, 'utf8'));
  }
  const set = buildRuleSet(records, classes, hashInput);
  set.warnings.unshift(...problems);
  return set;
}
