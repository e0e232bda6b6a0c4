/** `raiselint rules`: the loaded rules, as text or JSON. */
import { describeTarget } from '../rules/names.js';
import { reachIndex, ruleReach, type ReachIndex, type RuleReach } from '../rules/reach.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { Rule } from '../rules/types.js';
import { ruleDoc } from './ruledoc.js';
import type { BuiltinRule } from '../suppress/builtin.js';

export interface RuleEntry {
  id: string;
  recordId: string;
  errorClass: string;
  errorMessage: string;
  messagePattern: string | null;
  severity: string;
  raiser: { module: string; qualname: string; line: number; url: string | null };
  targets: string[];
  confidence: RuleReach;
  guards: string[];
  tips: string[];
  docsUrl: string | null;
  dataset: { file: string; line: number };
}

/** `reach`: reachIndex(set.classes), when entries are made for many rules. */
export function ruleEntry(rule: Rule, set: RuleSet, reach?: ReachIndex): RuleEntry {
  return {
    id: rule.id,
    recordId: rule.recordId,
    errorClass: rule.errorClass,
    errorMessage: rule.message ?? rule.record.errorMessage,
    messagePattern: rule.record.messagePattern ?? null,
    severity: rule.defaultSeverity,
    raiser: { module: rule.raiser.module, qualname: rule.raiser.qualname, line: rule.raiser.line, url: rule.raiser.url ?? null },
    targets: rule.targets.map(describeTarget),
    confidence: ruleReach(rule, set.classes, reach),
    guards: rule.guards.map((g) => `${g.name}(arg ${g.param})`),
    tips: rule.tips,
    docsUrl: rule.docsUrl ?? null,
    dataset: rule.source,
  };
}

/** Rules whose id, error class, raiser or message contains `filter` (case-insensitive). */
export function filterRules(rules: Rule[], filter: string | undefined): Rule[] {
  if (!filter) return rules;
  const f = filter.toLowerCase();
  return rules.filter((r) => [r.id, r.errorClass, `${r.raiser.module}.${r.raiser.qualname}`, r.record.errorMessage].some((s) => s.toLowerCase().includes(f)));
}

/** Built-in rules whose id or summary contains `filter` (case-insensitive). */
export function filterBuiltins(rules: BuiltinRule[], filter: string | undefined): BuiltinRule[] {
  if (!filter) return rules;
  const f = filter.toLowerCase();
  return rules.filter((r) => [r.id, r.summary].some((s) => s.toLowerCase().includes(f)));
}

export interface BuiltinEntry {
  id: string;
  builtin: true;
  summary: string;
  severity: string;
  help: string;
  fix: string | null;
}

export function builtinEntry(b: BuiltinRule): BuiltinEntry {
  return { id: b.id, builtin: true, summary: b.summary, severity: b.defaultSeverity, help: b.help, fix: b.fix ?? null };
}

/** Record rules (sorted by id), then the built-in ones (`builtin: true`). */
export function formatRulesJson(rules: Rule[], set: RuleSet, builtins: BuiltinRule[] = []): string {
  const reach = reachIndex(set.classes);
  return JSON.stringify([...rules.map((r) => ruleEntry(r, set, reach)), ...builtins.map(builtinEntry)], null, 2) + '\n';
}

export function formatRulesText(rules: Rule[], set: RuleSet, builtins: BuiltinRule[] = []): string {
  const out: string[] = [];
  const field = (name: string, values: string[]) => {
    values.forEach((v, i) => out.push(`  ${(i === 0 ? name : '').padEnd(9)} ${v}`));
  };
  const reach = reachIndex(set.classes);
  for (const rule of rules) {
    const e = ruleEntry(rule, set, reach);
    const doc = ruleDoc(rule);
    out.push(rule.id);
    field('raises', [doc.title]);
    field('raiser', [`${doc.raiser} (line ${rule.raiser.line})`]);
    field('severity', [e.severity]);
    field('certain', e.confidence.certain);
    field('possible', e.confidence.possible);
    field('indirect', e.confidence.indirect);
    field('guards', e.guards);
    field('source', rule.raiser.url ? [rule.raiser.url] : []);
    out.push('');
  }
  for (const b of builtins) {
    out.push(`${b.id}  (built in)`);
    field('reports', [b.summary]);
    field('severity', [b.defaultSeverity]);
    field('help', [b.help]);
    if (b.fix) field('fix', [b.fix]);
    out.push('');
  }
  const datasets = new Set(rules.map((r) => r.source.file)).size;
  const extra = builtins.length
    ? `, and ${builtins.length} built-in rule${builtins.length === 1 ? '' : 's'} (suppression comments, unreadable or too large files, code too deep to analyse)`
    : '';
  out.push(`${rules.length} rule${rules.length === 1 ? '' : 's'} from ${datasets} dataset${datasets === 1 ? '' : 's'}${extra}.`);
  return out.join('\n') + '\n';
}
