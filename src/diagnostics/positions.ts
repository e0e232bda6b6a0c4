/**
 * Offsets and positions in a decoded source text, one line index for every stage.
 *
 * Offsets count UTF-16 code units of the JS string that holds the file's decoded text (BOM
 * stripped; for a notebook, the module of its code cells), as tree-sitter's `startIndex` and the
 * TypeScript scanner count them. Fix and suppression edits (`FixEdit`) stay offsets all the way to
 * the reporters, as Ruff's TextRange and ESLint's `fix.range` do; only reporters (JSON, SARIF, the
 * language server) turn them into lines and columns, here.
 *
 * A line ends at `\n`, `\r\n` or a lone `\r`, as CPython and LSP count lines. The checker reads a
 * lone CR as `\n` (parse/source.ts normalizeLoneCR: one unit for one), so the raw and the checked
 * text of a file have the same offsets and the same lines.
 */
import type { FixEdit, PositionedEdit } from './types.js';

/** Offsets of line starts (0 first). */
export function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) out.push(i + 1);
    else if (ch === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      out.push(i + 1);
    }
  }
  return out;
}

/** The 0-based row and UTF-16 column of an offset, given the text's line starts. */
export function positionAt(starts: number[], offset: number): { row: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { row: lo, column: offset - starts[lo]! };
}

/**
 * Edits as reporters write them (1-based lines, UTF-16 columns, end exclusive), or undefined when
 * one does not fit the text (an offset outside it: the text is not the one the edits were made on).
 */
export function positionEdits(text: string, edits: readonly FixEdit[], starts = lineStarts(text)): PositionedEdit[] | undefined {
  const out: PositionedEdit[] = [];
  for (const e of edits) {
    if (!isOffset(e.start) || !isOffset(e.end) || e.end < e.start || e.end > text.length || typeof e.text !== 'string') return undefined;
    const a = positionAt(starts, e.start);
    const b = positionAt(starts, e.end);
    out.push({ line: a.row + 1, column: a.column + 1, endLine: b.row + 1, endColumn: b.column + 1, text: e.text });
  }
  return out;
}

function isOffset(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}
