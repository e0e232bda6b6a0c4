/** `raiselint explain`: a record's documentation for a rule id, an error message or a traceback. */
import type { RuleMatch } from '../rules/lookup.js';
import type { RuntimeError } from '../rules/lookup.js';
import type { Rule } from '../rules/types.js';
import { docText, ruleDoc } from './ruledoc.js';
import { describeCondition } from '../rules/condition/words.js';
import type { BuiltinRule } from '../suppress/builtin.js';

export function explainRuleText(rule: Rule, match?: RuleMatch): string {
  const doc = ruleDoc(rule);
  const out = [
    `${rule.id}`,
    `  ${doc.title}`,
    `  raised by ${doc.raiser}() (line ${rule.raiser.line})`,
    `  condition: ${describeCondition(rule.condition)}${rule.versions.length ? `; ${rule.versions.map((v) => `${v.subject} ${v.constraint}`).join(', ')} only` : ''}`,
  ];
  if (rule.controlFlow) out.push(`  off by default: ${rule.controlFlow} (\`--select control-flow\` or the rule's id turns it on)`);
  if (doc.messagePattern) out.push(`  message pattern: ${doc.messagePattern}`);
  if (match) out.push(`  matched: ${match.reasons.join('; ')}`);
  out.push('', docText(doc));
  return out.join('\n') + '\n';
}

export function formatExplainText(rules: Rule[], matches?: RuleMatch[], err?: RuntimeError): string {
  const parts: string[] = [];
  if (err) {
    const what = `${err.errorClass ? `${err.errorClass}: ` : ''}${err.message}`.trim();
    parts.push(
      `${matches?.length ?? rules.length} record${(matches?.length ?? rules.length) === 1 ? '' : 's'} match${(matches?.length ?? rules.length) === 1 ? 'es' : ''} '${what}'\n`,
    );
  }
  if (matches) for (const m of matches) parts.push(explainRuleText(m.rule, m));
  else for (const r of rules) parts.push(explainRuleText(r));
  return parts.join('\n');
}

export function formatExplainJson(rules: Rule[], matches?: RuleMatch[], err?: RuntimeError): string {
  const entries = (matches ?? rules.map((rule) => ({ rule, reasons: [] as string[], score: 0, byMessage: false }))).map((m) => {
    const doc = ruleDoc(m.rule);
    return {
      id: m.rule.id,
      recordId: m.rule.recordId,
      errorClass: doc.errorClass,
      errorMessage: doc.errorMessage,
      messagePattern: doc.messagePattern ?? null,
      raiser: doc.raiser,
      documentation: doc.documentation ?? null,
      triggerScenarios: doc.triggers ?? null,
      commonSituations: doc.situations ?? null,
      solutions: doc.solutions,
      preventionTips: doc.tips,
      exampleFix: doc.exampleFix ?? null,
      sourceUrl: doc.source ?? null,
      condition: describeCondition(m.rule.condition),
      controlFlow: m.rule.controlFlow ?? null,
      ...(matches ? { matchedBy: m.reasons } : {}),
    };
  });
  const doc = err ? { query: { errorClass: err.errorClass ?? null, message: err.message, frames: err.frames }, matches: entries } : { matches: entries };
  return JSON.stringify(doc, null, 2) + '\n';
}

/** A built-in `raiselint/*` rule, Ruff-style: what it does, why, an example, and the fix. */
export function formatBuiltinExplainText(b: BuiltinRule): string {
  const indent = (s: string) =>
    s
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n');
  const out = [
    `${b.id}  (built in, default severity ${b.defaultSeverity})`,
    `  ${b.summary}`,
    '',
    'Why this matters:',
    indent(b.why),
    '',
    'Example:',
    indent(b.example),
    '',
    'How to fix it:',
    indent(b.help),
  ];
  if (b.fix) out.push('', 'Fix safety:', indent(b.fix));
  return out.join('\n') + '\n';
}

export function formatBuiltinExplainJson(b: BuiltinRule): string {
  return (
    JSON.stringify(
      {
        matches: [
          { id: b.id, builtin: true, summary: b.summary, severity: b.defaultSeverity, why: b.why, example: b.example, help: b.help, fix: b.fix ?? null },
        ],
      },
      null,
      2,
    ) + '\n'
  );
}
