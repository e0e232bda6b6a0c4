/** Builds the indexed rule set from records and curated data. */
import { createHash } from 'node:crypto';
import type { LoadedRecord, RecordProblem } from '../records/types.js';
import { ClassRegistry } from './classes.js';
import { compileRecord, type CompileOutcome } from './compile.js';
import { ExceptionHierarchy } from './exceptions.js';
import type { GuardSpec, Rule } from './types.js';

export interface RuleSet {
  rules: Rule[];
  /** Rules by trigger name (method / function / class name): matching cost does not grow with the rule count. */
  byTrigger: Map<string, Rule[]>;
  byId: Map<string, Rule>;
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

export function buildRuleSet(records: LoadedRecord[], classes: ClassRegistry, hashInput: string[]): RuleSet {
  const exceptions = new ExceptionHierarchy();
  const rules: Rule[] = [];
  const warnings: RecordProblem[] = [];
  const outcomes: RuleSet['outcomes'] = [];
  const byId = new Map<string, Rule>();
  for (const lr of records) {
    let outcome: CompileOutcome;
    try {
      outcome = compileRecord(lr, classes, exceptions);
    } catch (e) {
      outcome = { skipped: `cannot compile: ${(e as Error).message}`, derived: { entryPoints: [], receiverClasses: [], guards: [] } };
    }
    outcomes.push({ record: lr, outcome });
    if (!outcome.rule) {
      warnings.push({ file: lr.source.file, line: lr.source.line, field: 'record', message: `record ${lr.record.id} skipped: ${outcome.skipped}`, skipsRecord: true });
      continue;
    }
    const rule = outcome.rule;
    if (byId.has(rule.id)) {
      const prev = byId.get(rule.id)!;
      if (prev.recordId === rule.recordId) {
        warnings.push({ file: lr.source.file, line: lr.source.line, field: 'id', message: `duplicate record ${rule.recordId} ignored (first at ${prev.source.file}:${prev.source.line})`, skipsRecord: true });
        continue;
      }
      rule.id = `${rule.id}-${rule.recordId.slice(0, 8)}`;
    }
    byId.set(rule.id, rule);
    rules.push(rule);
  }
  const byTrigger = new Map<string, Rule[]>();
  const triggerNames = new Set<string>();
  const guards = new Map<string, GuardSpec[]>();
  for (const rule of rules) {
    for (const t of rule.targets) {
      const key = t.kind === 'method' ? t.method : t.symbol.path.split('.').pop()!;
      const list = byTrigger.get(key) ?? [];
      if (!list.includes(rule)) list.push(rule);
      byTrigger.set(key, list);
    }
    for (const n of rule.triggers) triggerNames.add(n);
    for (const g of rule.guards) guards.set(g.name, [...(guards.get(g.name) ?? []), g]);
  }
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
  return { rules, byTrigger, byId, classes, exceptions, guards, triggerNames, summaryMethods, hash: h.digest('hex'), warnings, outcomes };
}
