/** The diagnostics stage: findings → diagnostics, with the record's message, tips and links. */
import type { Finding } from '../match/match.js';
import { abbreviate } from '../parse/syntax.js';
import type { Rule } from '../rules/types.js';
import { rulePageUrl } from './docpage.js';
import { formatMessage, literalArgumentTexts } from './message.js';
import type { Diagnostic } from './types.js';

const pages = new WeakMap<Rule, { helpUri?: string }>();

/** `{ helpUri }` when the rule has a documentation page (once per rule). */
function withHelpUri(rule: Rule): { helpUri?: string } {
  let p = pages.get(rule);
  if (!p) {
    const url = rulePageUrl(rule.id, rule.source.file);
    pages.set(rule, (p = url ? { helpUri: url } : {}));
  }
  return p;
}

export function toDiagnostic(f: Finding, file: string): Diagnostic {
  const { rule, site } = f;
  const n = site.node;
  const what = `${rule.raiser.qualname}()`;
  const recv = site.receiverText ? abbreviate(site.receiverText) : undefined;
  const shown = site.kind === 'attribute' ? `${recv}.${site.name}` : recv ? `${recv}.${site.name}()` : `${site.name}()`;
  // The message the run raised (analysis/probe.ts) when the call was run; else the record's, its
  // placeholders filled from the call's literal arguments or written in words (./message.ts).
  const said =
    f.observed ||
    formatMessage(
      rule.message ?? rule.record.errorMessage,
      n.type === 'call' && !f.via.length ? literalArgumentTexts(n, rule.condition.params) : new Map(),
      rule.record.messagePattern,
    );
  let message: string;
  if (f.via.length) {
    const path = f.via.join(' -> ');
    message = f.confidence === 'certain' ? `${path}: ${what} raises ${rule.errorClass}: ${said}` : `${path}: may raise ${rule.errorClass} (${what}): ${said}`;
  } else if (f.confidence === 'certain') {
    message = `${shown} raises ${rule.errorClass} (${what}): ${said}`;
  } else {
    const cls = rule.raiser.qualname.includes('.') ? rule.raiser.qualname.split('.')[0] : undefined;
    message = `${shown} may raise ${rule.errorClass}${cls && !f.receiverProven ? ` when the receiver is a ${cls}` : ` (${what})`}: ${said}`;
  }
  // Each position read once: every read is a call into the parser that makes a new object.
  const start = n.startPosition;
  const end = n.endPosition;
  return {
    ruleId: rule.id,
    recordId: rule.recordId,
    file,
    line: start.row + 1,
    column: start.column + 1,
    endLine: end.row + 1,
    endColumn: end.column + 1,
    severity: f.confidence === 'certain' ? rule.defaultSeverity : 'warning',
    confidence: f.confidence,
    errorClass: rule.errorClass,
    message,
    tips: rule.tips,
    docsUrl: rule.docsUrl,
    sourceUrl: rule.raiser.url,
    ...withHelpUri(rule),
    via: f.via,
    condition: f.condition,
    receiver: site.receiverText,
  };
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0);
}
