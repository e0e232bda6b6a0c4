/**
 * Autofixes carried by findings, read for the editor. A finding may carry `fix` (and alternative
 * strategies in `fixes`) shaped as `{applicability, strategy, reason, edits: [{start, end, text}]}`
 * with offsets into the document's text (../diagnostics/types.ts FixEdit), which become LSP
 * ranges here. A finding without one simply offers no fix; a malformed one (or one whose edits do
 * not fit the text) is ignored, never half-applied.
 */
import type { Range, TextEdit } from 'vscode-languageserver';
import type { Diagnostic, FixEdit } from '../diagnostics/types.js';
import { lineStarts, positionEdits } from '../diagnostics/positions.js';
import { loneCrEol, withEol } from '../parse/source.js';

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

/** A fix without its own title (the planner gives one: fix/plan.ts), named from its strategy. */
function strategyLabel(strategy: string | undefined, d: Diagnostic): string {
  if (strategy === 'try-except' && d.errorClass) return `Wrap in try/except ${d.errorClass.split('.').pop()}`;
  return (strategy && STRATEGY_TITLES[strategy]) ?? (strategy ? `Apply the ${strategy} fix` : 'Apply the fix');
}

/** LSP edits of raw offset edits, or undefined when one is malformed or outside the text. */
function readEdits(raw: unknown[], text: string, starts: () => number[]): TextEdit[] | undefined {
  if (!raw.length) return [];
  if (!raw.every((e) => typeof e === 'object' && e !== null)) return undefined;
  const edits = positionEdits(text, raw as FixEdit[], starts());
  // A lone-CR document gets lone CRs (the check read its CRs as line breaks, as CPython does; see parse/source.ts).
  const eol = loneCrEol(text);
  return edits?.map((e) => ({
    range: { start: { line: e.line - 1, character: e.column - 1 }, end: { line: e.endLine - 1, character: e.endColumn - 1 } },
    newText: withEol(e.text, eol),
  }));
}

function readApplicability(v: unknown): Applicability {
  if (v === 'safe' || v === 'unsafe') return v;
  if (typeof v === 'string' && /display/i.test(v)) return 'display-only';
  return 'unsafe'; // unknown: never applied without the user choosing it
}

function readFix(f: unknown, d: Diagnostic, text: string, starts: () => number[]): EditorFix | undefined {
  if (typeof f !== 'object' || f === null) return undefined;
  const o = f as Record<string, unknown>;
  if (!Array.isArray(o.edits)) return undefined;
  const edits = readEdits(o.edits, text, starts);
  if (!edits) return undefined;
  const strategy = typeof o.strategy === 'string' ? o.strategy : undefined;
  const reason = typeof o.reason === 'string' ? o.reason : undefined;
  const label = typeof o.title === 'string' ? o.title : strategyLabel(strategy, d);
  // A fix without edits can only explain itself (`strategy: none` says why there is no automatic fix).
  const applicability = edits.length ? readApplicability(o.applicability) : 'display-only';
  // Its safety in the title, as Ruff's editor integration says it.
  const title = `${label} (${d.ruleId})${edits.length ? ` [${applicability}]` : ''}`;
  return { title, strategy, applicability, reason, edits };
}

/** The line index of the last document asked about (code actions ask for every finding of one document in turn). */
let lastIndex: { text: string; starts: number[] } | undefined;
function startsOf(text: string): number[] {
  if (lastIndex?.text !== text) lastIndex = { text, starts: lineStarts(text) };
  return lastIndex.starts;
}

/** The fixes a finding of the document `text` carries, the preferred (`fix`) first; identical alternatives once. */
export function fixesOf(d: Diagnostic, text: string): EditorFix[] {
  const carrier = d as Diagnostic & { fix?: unknown; fixes?: unknown };
  const raw = [carrier.fix, ...(Array.isArray(carrier.fixes) ? carrier.fixes : [])];
  const out: EditorFix[] = [];
  const seen = new Set<string>();
  const starts = () => startsOf(text);
  for (const r of raw) {
    const f = readFix(r, d, text, starts);
    if (!f) continue;
    const key = JSON.stringify(f.edits);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}

/**
 * One edit turning `before` into `after`: the changed middle, between their common prefix and
 * suffix (so the editor keeps the cursor and folds outside it). Empty when nothing changed.
 */
export function replaceEdit(before: string, after: string, at: (offset: number) => Range['start']): TextEdit[] {
  if (before === after) return [];
  let p = 0;
  const max = Math.min(before.length, after.length);
  while (p < max && before.charCodeAt(p) === after.charCodeAt(p)) p++;
  // Never split a surrogate pair or a CRLF.
  if (p > 0 && (/[\uD800-\uDBFF]/.test(before[p - 1]!) || (before[p - 1] === '\r' && before[p] === '\n'))) p--;
  let s = 0;
  while (s < max - p && before.charCodeAt(before.length - 1 - s) === after.charCodeAt(after.length - 1 - s)) s++;
  if (s > 0 && (/[\uDC00-\uDFFF]/.test(before[before.length - s]!) || (before[before.length - s] === '\n' && before[before.length - s - 1] === '\r'))) s--;
  return [{ range: { start: at(p), end: at(before.length - s) }, newText: after.slice(p, after.length - s) }];
}
