/** Loads the bundled datasets, extra datasets and curated data into a rule set. */
import { readFileSync } from 'node:fs';
import { initParser } from '../parse/parser.js';
import { loadDataset } from '../records/load.js';
import type { LoadedRecord, RecordProblem } from '../records/types.js';
import { ClassRegistry } from '../rules/classes.js';
import { loadCurated } from '../rules/curated.js';
import { buildRuleSet, MAX_RULES_WITH_PATTERNS, type RuleSet } from '../rules/ruleset.js';
import { ruleInputs, type RuleOptions } from './inputs.js';
import { sha256 } from '../cache/fingerprint.js';
import { RecordCacheFile } from '../cache/records.js';
import { ensureCacheDir } from '../cache/results.js';
import { codeId } from './codeid.js';
import { MIN_SPLIT_RECORDS, SplitCompile, type SplitOptions } from './compilesplit.js';
import { CompileWorker } from './compileworker.js';

export { BUNDLED_RULES_DIR, ruleInputs, type RuleOptions } from './inputs.js';

/**
 * `cacheDir`: reuse and keep compiled records there (src/cache/records.ts), so that a changed
 * dataset recompiles only its changed records.
 */
export async function loadRules(opts: RuleOptions = {}, cacheDir?: string, split?: SplitOptions): Promise<RuleSet> {
  const { records: files, curated } = ruleInputs(opts);
  const cache = cacheDir ? RecordCacheFile.open(cacheDir, codeId()) : undefined;
  // A first compile of many records: the worker that will share it starts now (./compileworker.ts).
  const early = cache ? CompileWorker.maybe(files, split?.minRecords === 0 ? -1 : cache.size, split?.minRecords ?? MIN_SPLIT_RECORDS, cache.salt) : undefined;
  const records: LoadedRecord[] = [];
  const problems: RecordProblem[] = [];
  const hashInput: string[] = [];
  const classes = new ClassRegistry();
  try {
    await readInputs(files, curated, records, problems, hashInput, classes);
  } catch (e) {
    early?.stop();
    throw e;
  }
  // Many records to compile: a worker compiles some of them (./compilesplit.ts; the same rules).
  const shared = cache ? SplitCompile.start(records, cache, records.length <= MAX_RULES_WITH_PATTERNS, split, early) : undefined;
  let set: RuleSet;
  try {
    set = buildRuleSet(records, classes, hashInput, shared ?? cache);
  } finally {
    shared?.close();
  }
  if (cache) {
    try {
      ensureCacheDir(cacheDir!);
      cache.save();
    } catch {
      // the cache is an optimisation
    }
  }
  set.warnings = [...problems, ...set.warnings];
  return set;
}

/** Reads the datasets (records, problems, content hashes) and the curated data (into `classes`). */
async function readInputs(files: string[], curated: string[], records: LoadedRecord[], problems: RecordProblem[], hashInput: string[], classes: ClassRegistry): Promise<void> {
  await initParser();
  for (const f of files) {
    const r = loadDataset(f);
    // Loops, not push(...): a spread of 200,000 records overflows the stack.
    for (const x of r.records) records.push(x);
    for (const x of r.problems) problems.push(x);
    // The content's hash, not a second copy of a 100 MB dataset kept until the end.
    hashInput.push(sha256(readFileSync(f)));
  }
  for (const c of curated) {
    loadCurated(c, classes);
    hashInput.push(sha256(readFileSync(c)));
  }
}
