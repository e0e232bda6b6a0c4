/** Loads the bundled datasets, extra datasets and curated data into a rule set. */
import { readFileSync } from 'node:fs';
import { initParser } from '../parse/parser.js';
import { loadDataset } from '../records/load.js';
import type { LoadedRecord, RecordProblem } from '../records/types.js';
import { ClassRegistry } from '../rules/classes.js';
import { loadCurated } from '../rules/curated.js';
import { buildRuleSet, type RuleSet } from '../rules/ruleset.js';
import { ruleInputs, type RuleOptions } from './inputs.js';

export { BUNDLED_RULES_DIR, ruleInputs, type RuleOptions } from './inputs.js';

export async function loadRules(opts: RuleOptions = {}): Promise<RuleSet> {
  await initParser();
  const { records: files, curated } = ruleInputs(opts);
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
  for (const c of curated) {
    loadCurated(c, classes);
    hashInput.push(readFileSync(c, 'utf8'));
  }
  const set = buildRuleSet(records, classes, hashInput);
  set.warnings.unshift(...problems);
  return set;
}
