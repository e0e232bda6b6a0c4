/** raiselint findings as LSP diagnostics and hovers. Positions: raiselint is 1-based, LSP 0-based; both count UTF-16 units. */
import { DiagnosticSeverity, MarkupKind, type Diagnostic as LspDiagnostic, type MarkupContent, type Range } from 'vscode-languageserver';
import type { Diagnostic } from '../diagnostics/types.js';
import type { Rule } from '../rules/types.js';

export const SOURCE = 'raiselint';

export function rangeOf(d: Pick<Diagnostic, 'line' | 'column' | 'endLine' | 'endColumn'>): Range {
  return {
    start: { line: d.line - 1, character: d.column - 1 },
    end: { line: d.endLine - 1, character: d.endColumn - 1 },
  };
}

/** What the client sends back in `CodeActionContext.diagnostics` lets us find the finding again. */
export interface DiagnosticData {
  ruleId: string;
  recordId: string;
}

export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  // The rule's documentation page (docs/rules/) when it has one, else the record's links.
  const href = d.helpUri ?? d.docsUrl ?? d.sourceUrl;
  const tips = d.tips.map((t) => `\nhelp: ${t}`).join('');
  const data: DiagnosticData = { ruleId: d.ruleId, recordId: d.recordId };
  return {
    range: rangeOf(d),
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.ruleId,
    ...(href ? { codeDescription: { href } } : {}),
    source: SOURCE,
    message: `${d.confidence === 'possible' ? '(possible) ' : ''}${d.message}${tips}`,
    data,
  };
}

export function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

/** Whether the 0-based position lies in the finding's range (end inclusive, so the cursor just after a call counts). */
export function covers(d: Diagnostic, line: number, character: number): boolean {
  const r = rangeOf(d);
  if (line < r.start.line || line > r.end.line) return false;
  if (line === r.start.line && character < r.start.character) return false;
  if (line === r.end.line && character > r.end.character) return false;
  return true;
}

/** Whether two 0-based ranges share a position (touching counts: a cursor is an empty range). */
export function intersects(a: Range, b: Range): boolean {
  const before = (p: { line: number; character: number }, q: { line: number; character: number }) =>
    p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** Hover text for findings under the cursor: the message, the record's documentation, tips, solutions and links. */
export function hoverContent(found: Diagnostic[], rules: Map<string, Rule>, markdown: boolean): MarkupContent {
  const parts = found.map((d) => {
    const rec = rules.get(d.ruleId)?.record;
    const out: string[] = [];
    out.push(markdown ? `**raiselint** \`${d.ruleId}\` (${d.confidence})` : `raiselint ${d.ruleId} (${d.confidence})`);
    out.push(d.message);
    if (rec?.documentation) out.push(rec.documentation);
    if (rec?.triggerScenarios) out.push(`${markdown ? '**When**' : 'When'}: ${rec.triggerScenarios}`);
    if (d.tips.length) out.push(`${markdown ? '**Prevention tips**' : 'Prevention tips'}\n${d.tips.map((t) => `- ${t}`).join('\n')}`);
    const solutions = rec?.solutions ?? [];
    if (solutions.length) out.push(`${markdown ? '**Solutions**' : 'Solutions'}\n${solutions.map((t) => `- ${t}`).join('\n')}`);
    const links: string[] = [];
    if (d.helpUri) links.push(markdown ? `[rule documentation](${d.helpUri})` : `rule documentation: ${d.helpUri}`);
    if (d.sourceUrl) links.push(markdown ? `[raised here](${d.sourceUrl})` : `raised here: ${d.sourceUrl}`);
    if (d.docsUrl && d.docsUrl !== d.sourceUrl) links.push(markdown ? `[record source](${d.docsUrl})` : `record source: ${d.docsUrl}`);
    if (links.length) out.push(links.join(markdown ? ' · ' : '\n'));
    return out.join('\n\n');
  });
  return { kind: markdown ? MarkupKind.Markdown : MarkupKind.PlainText, value: parts.join(markdown ? '\n\n---\n\n' : '\n\n') };
}
