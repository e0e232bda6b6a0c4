/** Builds the indexed rule set from records and curated data. */
import { createHash } from 'node:crypto';
import type { LoadedRecord, RecordProblem } from '../records/types.js';
import { type ClassRegistry } from './classes.js';
import type { CompileOutcome } from './compile/record.js';
import { compileOne, type RecordCache } from './compile/cached.js';
import { readPatterns } from './compile/patterns.js';
import { ExceptionHierarchy } from './exceptions.js';
import { triggerKey } from './names.js';
import type { GuardSpec, Rule } from './types.js';

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
  warnings: RecordProblem[];
  outcomes: { record: LoadedRecord; outcome: CompileOutcome }[];
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

/** Up to this many rules, the rule set reads every rule's fix patterns when it is built. */
export const MAX_RULES_WITH_PATTERNS = 1000;

function readPatternsInto(r: Rule): void {
  try {
    r.patterns = readPatterns(r);
  } catch {
    // read again (and failing the same way) only if a finding needs a fix
  }
}

/** `cache`: compiled records to reuse and to keep (./compile/cached.ts). */
export function buildRuleSet(records: LoadedRecord[], classes: ClassRegistry, hashInput: string[], cache?: RecordCache): RuleSet {
  const exceptions = new ExceptionHierarchy();
  const rules: Rule[] = [];
  const warnings: RecordProblem[] = [];
  const outcomes: RuleSet['outcomes'] = [];
  const ids = new Map<string, Rule>();
  // With no more records than the limit, no more rules either: patterns are read as each record
  // compiles, from the trees its snippets were parsed into (./compile/trees.ts).
  const eager = records.length <= MAX_RULES_WITH_PATTERNS;
  for (const lr of records) {
    const outcome = compileOne(lr, exceptions, classes, eager, cache);
    outcomes.push({ record: lr, outcome });
    if (!outcome.rule) {
      warnings.push({ file: lr.source.file, line: lr.source.line, field: 'record', message: `record ${lr.record.id} skipped: ${outcome.skipped}`, skipsRecord: true });
      continue;
    }
    const rule = outcome.rule;
    if (ids.has(rule.id)) {
      const prev = ids.get(rule.id)!;
      if (prev.recordId === rule.recordId) {
        warnings.push({ file: lr.source.file, line: lr.source.line, field: 'id', message: `duplicate record ${rule.recordId} ignored (first at ${prev.source.file}:${prev.source.line})`, skipsRecord: true });
        continue;
      }
      rule.id = `${rule.id}-${rule.recordId.slice(0, 8)}`;
    }
    ids.set(rule.id, rule);
    rules.push(rule);
  }
  // Fix patterns are part of the rule (the snapshot keeps them), for rule sets up to a size: reading
  // them parses the record's snippets again, which tripled the first run on 10,000 records (~9 s
  // to ~27 s); beyond it, a run reads them only for the rules with findings (fixPatterns).
  if (!eager && rules.length <= MAX_RULES_WITH_PATTERNS) for (const r of rules) readPatternsInto(r);
  const index: RuleIndex = { byTrigger: new Map(), byId: new Map(), byRecord: new Map(), guards: new Map(), triggerNames: new Set() };
  for (const rule of rules) indexRule(index, rule);
  const { byTrigger, triggerNames, guards } = index;
  const summaryMethods = new Set<string>();
  for (const c of classes.all()) {
    for (const [m, s] of Object.entries(c.methods)) {
      if (s.calls.length) {
        summaryMethods.add(m);
        triggerNames.add(m);
      }
    }
  }
  const h = createHash('sha256');
  for (const s of hashInput) h.update(s).update('\0');
  return { rules, byTrigger, byId: index.byId, byRecord: index.byRecord, classes, exceptions, guards, triggerNames, summaryMethods, hash: h.digest('hex'), warnings, outcomes };
}
