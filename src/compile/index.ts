/**
 * The compiler's one entry: datasets, curated data and the project's Python in, a ready rule set
 * out (the compiled-rules snapshot, src/compile/snapshot.ts). Records become rules here and
 * nowhere else; other stages import src/compile/ only through this file (test/layers.test.ts).
 *
 * What happens inside, in order: inputs.ts lists the datasets; prepare.ts keys the snapshot by
 * their contents, the code and the Python environment, and opens it; on a miss load.ts reads the
 * records, grounds them in the installed libraries (src/records/ground.ts) and builds the rule set
 * (ruleset.ts: each record through the per-record cache, python/ or js/), which snapshot.ts
 * encodes with the prefilter's tables.
 */
import type { RuleSet } from '../rules/ruleset.js';
import type { RuleOptions } from './inputs.js';

export { prepareRules, type PreparedRules } from './prepare.js';
export { Snapshot } from './snapshot.js';
export { BUNDLED_RULES_DIR, ruleInputs, type RuleOptions } from './inputs.js';
export { codeId, VERSION } from './codeid.js';
export { CuratedDataError } from './curated.js';
export { fixPatterns } from './python/patterns.js';
export { compileJsRecord, isJsRecord } from './js/compile.js';
export { unNegate } from './js/syntax.js';

/**
 * A rule set compiled in this thread, without the snapshot (`records check`, tests). The compiler
 * is loaded on first use: a run whose snapshot is current never loads it.
 */
export async function loadRules(opts: RuleOptions = {}, cacheDir?: string): Promise<RuleSet> {
  return (await import('./load.js')).loadRules(opts, cacheDir);
}
