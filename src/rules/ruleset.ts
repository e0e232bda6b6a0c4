/** The indexed rule set: the rules and the maps matching reads them by (built by src/compile/ruleset.ts). */
import type { LoadedRecord, PlainValue, RecordProblem } from '../records/types.js';
import { type ClassRegistry } from './classes.js';
import type { ExceptionHierarchy } from './exceptions.js';
import { triggerKey } from './names.js';
import type { CompileOutcome, GuardSpec, Rule } from './types.js';

export { triggerKey } from './names.js';

export interface RuleSet {
  rules: Rule[];
  /** Rules by trigger name (method / function / class name): matching cost does not grow with the rule count. */
  byTrigger: Map<string, Rule[]>;
  byId: Map<string, Rule>;
  /** Record id → rule id (a suppression comment may name either). */
  byRecord: Map<string, string>;
  classes: ClassRegistry;
  exceptions: ExceptionHierarchy;
  guards: Map<string, GuardSpec[]>;
  /** Every name whose presence in a file may lead to a finding (rules, guards, curated summaries). */
  triggerNames: Set<string>;
  /** Method names that curated summaries route to other calls (indirect paths). */
  summaryMethods: Set<string>;
  /** Content hash of records + curated data, for caches. */
  hash: string;
  /** The Python whose installed libraries ground the rules (src/workspace/pyenv.ts); it runs library calls of literal arguments (src/analysis/probe.ts). */
  python?: RulePython;
  warnings: RecordProblem[];
  outcomes: { record: LoadedRecord; outcome: CompileOutcome }[];
  /** The JS/TS rules, when the set can give them without reading every rule (the snapshot's catalog). */
  jsRules?: () => Rule[];
}

export interface RulePython {
  executable: string;
  version: string;
  /** The public UPPER_CASE constants of the grounded standard-library modules, by `module:NAME` (src/records/values.ts). */
  constants?: Record<string, PlainValue>;
}

/** The JS/TS rules of a rule set. */
export function jsRulesOf(rules: RuleSet): Rule[] {
  return rules.jsRules ? rules.jsRules() : rules.rules.filter((r) => r.js);
}

/** The indexes of a rule set that `indexRule` fills. */
export type RuleIndex = Pick<RuleSet, 'byTrigger' | 'byId' | 'byRecord' | 'guards' | 'triggerNames'>;

/**
 * Files a rule in every index: by id, once under each trigger key (a rule with two targets of one
 * name, `BZ2File.seek` and `LZMAFile.seek`, is listed once: matching counts hits per listed rule),
 * its guards and its trigger names. The one way rules are indexed: by `buildRuleSet` and by the
 * compiled-rules snapshot as it loads rules.
 */
export function indexRule(index: RuleIndex, rule: Rule): void {
  index.byId.set(rule.id, rule);
  index.byRecord.set(rule.recordId, rule.id);
  for (const key of new Set(rule.targets.map(triggerKey))) {
    const list = index.byTrigger.get(key);
    if (list) list.push(rule);
    else index.byTrigger.set(key, [rule]);
  }
  for (const n of rule.triggers) index.triggerNames.add(n);
  for (const g of rule.guards) {
    const list = index.guards.get(g.name);
    if (list) list.push(g);
    else index.guards.set(g.name, [g]);
  }
}
