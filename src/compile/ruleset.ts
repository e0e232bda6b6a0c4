/** Builds the indexed rule set from records and curated data: each record compiled (./python/cached.ts), then indexed. */
import { createHash } from 'node:crypto';
import type { LoadedRecord, RecordProblem } from '../records/types.js';
import type { ClassRegistry } from '../rules/classes.js';
import { compileOne, type RecordCache } from './python/cached.js';
import { readPatterns } from './python/patterns.js';
import { openSourceTrees } from './python/trees.js';
import { ExceptionHierarchy } from '../rules/exceptions.js';
import { indexRule, type RuleIndex, type RuleSet } from '../rules/ruleset.js';
import type { Rule } from '../rules/types.js';

/** Up to this many rules, the rule set reads every rule's fix patterns when it is built. */
export const MAX_RULES_WITH_PATTERNS = 1000;

function readPatternsInto(r: Rule): void {
  try {
    r.patterns = readPatterns(r);
  } catch {
    // read again (and failing the same way) only if a finding needs a fix
  }
}

/** `cache`: compiled records to reuse and to keep (./python/cached.ts). */
export function buildRuleSet(records: LoadedRecord[], classes: ClassRegistry, hashInput: string[], cache?: RecordCache): RuleSet {
  const exceptions = new ExceptionHierarchy();
  const rules: Rule[] = [];
  const warnings: RecordProblem[] = [];
  const outcomes: RuleSet['outcomes'] = [];
  const ids = new Map<string, Rule>();
  // With no more records than the limit, no more rules either: patterns are read as each record
  // compiles, from the trees its snippets were parsed into (./python/trees.ts).
  const eager = records.length <= MAX_RULES_WITH_PATTERNS;
  // An installed module's file is parsed once for the records of it that follow each other (./python/trees.ts).
  const closeSources = openSourceTrees();
  try {
    for (const lr of records) compileInto(lr);
  } finally {
    closeSources();
  }
  function compileInto(lr: LoadedRecord): void {
    const outcome = compileOne(lr, exceptions, classes, eager, cache);
    outcomes.push({ record: lr, outcome });
    if (!outcome.rule) {
      warnings.push({
        file: lr.source.file,
        line: lr.source.line,
        field: 'record',
        message: `record ${lr.record.id} skipped: ${outcome.skipped}`,
        skipsRecord: true,
      });
      return;
    }
    const rule = outcome.rule;
    if (ids.has(rule.id)) {
      const prev = ids.get(rule.id)!;
      if (prev.recordId === rule.recordId) {
        warnings.push({
          file: lr.source.file,
          line: lr.source.line,
          field: 'id',
          message: `duplicate record ${rule.recordId} ignored (first at ${prev.source.file}:${prev.source.line})`,
          skipsRecord: true,
        });
        return;
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
  return {
    rules,
    byTrigger,
    byId: index.byId,
    byRecord: index.byRecord,
    classes,
    exceptions,
    guards,
    triggerNames,
    summaryMethods,
    hash: h.digest('hex'),
    warnings,
    outcomes,
  };
}
