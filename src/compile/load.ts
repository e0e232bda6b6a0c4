/** Loads the bundled datasets, extra datasets and curated data into a rule set. */
import { readFileSync } from 'node:fs';
import { initParser } from '../parse/parser.js';
import { DatasetError, loadDataset } from '../records/load.js';
import type { LoadedRecord, PlainValue, RecordProblem } from '../records/types.js';
import { ClassRegistry } from '../rules/classes.js';
import { loadCurated } from './curated.js';
import { buildRuleSet } from './ruleset.js';
import type { RuleSet } from '../rules/ruleset.js';
import { ruleInputs, type RuleOptions } from './inputs.js';
import { sha256 } from '../io/fingerprint.js';
import { RecordCacheFile } from './recordcache.js';
import { codeId } from './codeid.js';
import { envFingerprint, pythonEnv } from '../workspace/pyenv.js';
import { groundRecords } from '../records/ground.js';
import { groundJsRecords } from '../records/groundjs.js';
import { isJsRecord } from './js/compile.js';

export { BUNDLED_RULES_DIR, ruleInputs, type RuleOptions } from './inputs.js';

/**
 * `cacheDir`: reuse and keep compiled records there (src/compile/recordcache.ts), so that a changed
 * dataset recompiles only its changed records.
 */
export async function loadRules(opts: RuleOptions = {}, cacheDir?: string): Promise<RuleSet> {
  const { records: files, curated, fromFolders } = ruleInputs(opts);
  const cache = cacheDir ? RecordCacheFile.open(cacheDir, codeId()) : undefined;
  const records: LoadedRecord[] = [];
  const problems: RecordProblem[] = [];
  const hashInput: string[] = [];
  const classes = new ClassRegistry();
  await readInputs(files, curated, records, problems, hashInput, classes, fromFolders);
  // Records whose library is installed compile from the installed file (src/records/ground.ts).
  const env = pythonEnv(opts.python, cacheDir, opts.projectDir);
  const grounded: { constants?: Record<string, PlainValue> } = {};
  hashInput.push(envFingerprint(env), ...groundRecords(records, env, grounded));
  // JS/TS records whose package is installed in the project's node_modules (src/records/groundjs.ts).
  const isJs = (lr: LoadedRecord) => {
    const tags = (lr.record.tags ?? []).map((t) => t.toLowerCase());
    return !tags.includes('python') && isJsRecord(tags, lr.record.filePath);
  };
  hashInput.push(...groundJsRecords(records, opts.projectDir ?? process.cwd(), isJs));
  let set: RuleSet;
  try {
    set = buildRuleSet(records, classes, hashInput, cache);
  } catch (e) {
    cache?.abort();
    throw e;
  }
  cache?.save();
  set.warnings = [...problems, ...set.warnings];
  if (env) set.python = { executable: env.executable, version: env.version, constants: grounded.constants ?? {} };
  return set;
}

/** Reads the datasets (records, problems, content hashes) and the curated data (into `classes`). */
async function readInputs(
  files: string[],
  curated: string[],
  records: LoadedRecord[],
  problems: RecordProblem[],
  hashInput: string[],
  classes: ClassRegistry,
  fromFolders: Set<string>,
): Promise<void> {
  await initParser();
  let firstBad: DatasetError | undefined;
  let loaded = 0;
  for (const f of files) {
    let r;
    try {
      r = loadDataset(f);
    } catch (e) {
      // A bad file in a folder of datasets is said, one line, and the others load.
      if (!(e instanceof DatasetError) || !fromFolders.has(f)) throw e;
      firstBad ??= e;
      problems.push({ file: e.file, line: e.line, field: e.field, message: `not loaded: ${e.message}`, skipsRecord: true });
      continue;
    }
    if (fromFolders.has(f)) loaded++;
    // Loops, not push(...): a spread of 200,000 records overflows the stack.
    for (const x of r.records) records.push(x);
    for (const x of r.problems) problems.push(x);
    // The content's hash, not a second copy of a 100 MB dataset kept until the end.
    hashInput.push(sha256(readFileSync(f)));
  }
  // A folder none of whose files loads: the run cannot go on.
  if (firstBad && !loaded) throw firstBad;
  for (const c of curated) {
    loadCurated(c, classes);
    hashInput.push(sha256(readFileSync(c)));
  }
}
