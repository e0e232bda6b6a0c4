/**
 * Autofixes carried by findings, read for the editor. A finding may carry `fix` (and alternative
 * strategies in `fixes`) shaped as `{applicability, strategy, reason, edits: [{line, column,
 * endLine, endColumn, text}]}` with 1-based positions in UTF-16 units. A finding without one
 * simply offers no fix; a malformed one is ignored, never half-applied.
 */
import type { Range, TextEdit } from 'vscode-languageserver';
import type { Diagnostic } from '../diagnostics/types.js';

export type Applicability = 'safe' | 'unsafe' | 'display-only';

export interface EditorFix {
  title: string;
  strategy?: string;
  applicability: Applicability;
  reason?: string;
  edits: TextEdit[];
}

const STRATEGY_TITLES: Record<string, string> = {
  'try-except': 'Wrap in try/except',
  'type-guard': 'Guard with isinstance',
  replace: 'Replace with the recorded alternative',
  'direct-replacement': 'Replace with the recorded alternative',
  'remove-ignore': 'Remove the unused suppression',
  none: 'No automatic fix',
};

function num(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1;
}

function readEdit(e: unknown): TextEdit | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const o = e as Record<string, unknown>;
  const text = typeof o.text === 'string' ? o.text : typeof o.newText === 'string' ? o.newText : undefined;
  if (text === undefined || !num(o.line) || !num(o.column) || !num(o.endLine) || !num(o.endColumn)) return undefined;
  return { range: { start: { line: o.line - 1, character: o.column - 1 }, end: { line: o.endLine - 1, character: o.endColumn - 1 } }, newText: text };
}

function readApplicability(v: unknown): Applicability {
  if (v === 'safe' || v === 'unsafe') return v;
  if (typeof v === 'string' && /display/i.test(v)) return 'display-only';
  return 'unsafe'; // unknown: never applied without the user choosing it
}

function readFix(f: unknown, d: Diagnostic): EditorFix | undefined {
  if (typeof f !== 'object' || f === null) return undefined;
  const o = f as Record<string, unknown>;
  if (!Array.isArray(o.edits)) return undefined;
  const edits = o.edits.map(readEdit);
  if (edits.some((e) => !e)) return undefined;
  const strategy = typeof o.strategy === 'string' ? o.strategy : undefined;
  const label = typeof o.title === 'string' ? o.title : (strategy && STRATEGY_TITLES[strategy]) ?? (strategy ? `Apply the ${strategy} fix` : 'Apply the fix');
  // A fix without edits can only explain itself (`strategy: none` says why there is no automatic fix).
  const applicability = edits.length ? readApplicability(o.applicability) : 'display-only';
  const title = `${label} (${d.ruleId})${applicability === 'unsafe' ? ' [unsafe]' : ''}`;
  return { title, strategy, applicability, reason: typeof o.reason === 'string' ? o.reason : undefined, edits: edits as TextEdit[] };
}

/** The fixes a finding carries, the preferred (`fix`) first; identical alternatives once. */
export function fixesOf(d: Diagnostic): EditorFix[] {
  const carrier = d as Diagnostic & { fix?: unknown; fixes?: unknown };
  const raw = [carrier.fix, ...(Array.isArray(carrier.fixes) ? carrier.fixes : [])];
  const out: EditorFix[] = [];
  const seen = new Set<string>();
  for (const r of raw) {
    const f = readFix(r, d);
    if (!f) continue;
    const key = JSON.stringify(f.edits);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}

function cmp(a: Range['start'], b: Range['start']): number {
  return a.line - b.line || a.character - b.character;
}

/** The span a fix touches, from its first edit's start to its last edit's end. */
function spanOf(edits: TextEdit[]): Range {
  let start = edits[0]!.range.start;
  let end = edits[0]!.range.end;
  for (const e of edits) {
    if (cmp(e.range.start, start) < 0) start = e.range.start;
    if (cmp(e.range.end, end) > 0) end = e.range.end;
  }
  return { start, end };
}

/**
 * The edits of every finding's first safe fix, in document order, leaving out a fix whose span
 * overlaps one already taken (it would corrupt it; a re-check offers it again). Findings that
 * share one fix (several calls in one wrapped statement) apply it once.
 */
export function fixAllEdits(diags: Diagnostic[]): { edits: TextEdit[]; fixed: number } {
  const chosen: { span: Range; edits: TextEdit[] }[] = [];
  let reach: Range | undefined; // the furthest end taken so far, and whether it was an insertion point
  const seen = new Set<string>();
  let fixed = 0;
  const candidates = diags
    .map((d) => fixesOf(d).find((f) => f.applicability === 'safe' && f.edits.length))
    .filter((f): f is EditorFix => f !== undefined)
    .map((f) => ({ span: spanOf(f.edits), edits: f.edits }))
    .sort((a, b) => cmp(a.span.start, b.span.start) || cmp(a.span.end, b.span.end));
  for (const c of candidates) {
    const key = JSON.stringify(c.edits);
    if (seen.has(key)) {
      fixed++;
      continue;
    }
    // Spans may touch, but two insertions at one point have no defined order: the second waits.
    if (reach && (cmp(c.span.start, reach.end) < 0 || (cmp(c.span.start, reach.end) === 0 && cmp(reach.start, reach.end) === 0 && cmp(c.span.start, c.span.end) === 0))) continue;
    if (!reach || cmp(c.span.end, reach.end) >= 0) reach = c.span;
    seen.add(key);
    chosen.push(c);
    fixed++;
  }
  return { edits: chosen.flatMap((c) => c.edits), fixed };
}
