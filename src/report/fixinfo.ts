/**
 * The optional `fix` a diagnostic may carry (`{applicability, strategy, reason, edits}`), for
 * reporters. Its edits are offsets into the file's text (../diagnostics/types.ts FixEdit); here,
 * and only here, machine formats get them as 1-based lines and columns (in a notebook, of the
 * cell), from the report's source texts. Read defensively: a fix with a shape this reporter does
 * not know, or whose edits do not fit the file's text, has no fix in machine formats.
 */
import type { Diagnostic, FixEdit, PositionedEdit } from '../diagnostics/types.js';
import { lineStarts, positionEdits } from '../diagnostics/positions.js';
import { editInCell, isNotebook } from './notebook.js';

export interface FixInfo {
  applicability: string;
  strategy?: string;
  reason?: string;
  edits: PositionedEdit[];
}

/** The fix's applicability, strategy and reason, when it has edits (positions aside: `--statistics` needs no text). */
export function fixOf(d: Diagnostic): Omit<FixInfo, 'edits'> | undefined {
  const f = (d as { fix?: unknown }).fix;
  if (!f || typeof f !== 'object') return undefined;
  const o = f as Record<string, unknown>;
  if (!Array.isArray(o.edits) || !o.edits.length) return undefined;
  return {
    applicability: typeof o.applicability === 'string' ? o.applicability : 'unsafe',
    strategy: typeof o.strategy === 'string' ? o.strategy : undefined,
    reason: typeof o.reason === 'string' ? o.reason : undefined,
  };
}

/** Writes fixes' offset edits as positions, with each file's line index made once. */
export class FixPositions {
  private readonly starts = new Map<string, number[]>();

  constructor(private readonly sources: ReadonlyMap<string, string> | undefined) {}

  /** The edits of `d.fix` as positions; undefined when the file's text is not known or they do not fit it. */
  edits(d: Diagnostic): PositionedEdit[] | undefined {
    const raw = (d as { fix?: { edits?: unknown } }).fix?.edits;
    if (!Array.isArray(raw)) return undefined;
    if (!raw.length) return [];
    if (!raw.every((e) => !!e && typeof e === 'object')) return undefined;
    const text = this.sources?.get(d.file);
    if (text === undefined) return undefined;
    let starts = this.starts.get(d.file);
    if (!starts) this.starts.set(d.file, (starts = lineStarts(text)));
    const out = positionEdits(text, raw as FixEdit[], starts);
    // Notebooks: lines within the cell, as the finding's own position (./notebook.ts).
    return out && isNotebook(d.file) ? out.map((e) => editInCell(text, e)) : out;
  }

  /** The fix with positioned edits, for a format that applies or offers it; undefined without edits. */
  fix(d: Diagnostic): FixInfo | undefined {
    const info = fixOf(d);
    const edits = info && this.edits(d);
    return info && edits?.length ? { ...info, edits } : undefined;
  }

  /** Fixes that `--fix` (safe) or `--unsafe-fixes` could apply; display-only ones are not offered as edits. */
  applicable(d: Diagnostic): FixInfo | undefined {
    const f = this.fix(d);
    return f && f.applicability !== 'display-only' ? f : undefined;
  }
}

export function describeFix(f: Omit<FixInfo, 'edits'>): string {
  const head = f.strategy ? `Apply the ${f.strategy} fix` : 'Apply the fix';
  return `${head} (${f.applicability})${f.reason ? `: ${f.reason}` : ''}`;
}
