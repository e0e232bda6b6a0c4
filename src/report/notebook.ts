/**
 * Positions in notebooks, for reports: a finding in a `.ipynb` file is found in the module of its
 * code cells (../parse/notebook.ts); reports give its cell and the line within that cell, as Ruff
 * does (`nb.ipynb:cell 3:2:5`, `"cell": 3` in JSON and SARIF). Fix edits get the same treatment
 * (editInCell, when ./fixinfo.ts positions them).
 */
import type { Diagnostic, PositionedEdit } from '../diagnostics/types.js';
import { kindOf } from '../parse/kind.js';
import { cellOf } from '../parse/notebook.js';

export const isNotebook = (file: string) => kindOf(file) === 'notebook';

/** The cell and line of a module line; a cell's marker line counts as the start of that cell. */
function position(text: string, line: number): { cell: number; line: number } | undefined {
  return cellOf(text, line) ?? cellOf(text, line + 1);
}

/** Diagnostics of notebooks with cell-relative lines (`cell` set); others as they are. */
export function withCells(diags: Diagnostic[], sources: ReadonlyMap<string, string> | undefined): Diagnostic[] {
  if (!sources || !diags.some((d) => isNotebook(d.file))) return diags;
  return diags.map((d) => {
    const text = isNotebook(d.file) && !d.cell ? sources.get(d.file) : undefined;
    const at = text === undefined ? undefined : position(text, d.line);
    if (!at || text === undefined) return d;
    const offset = d.line - at.line;
    return { ...d, line: at.line, endLine: d.endLine - offset, cell: { index: at.cell, offset } };
  });
}

/** A positioned edit of the notebook's module (`text`), relative to its cell. */
export function editInCell(text: string, e: PositionedEdit): PositionedEdit {
  const at = position(text, e.line);
  if (!at) return e;
  const offset = e.line - at.line;
  // An edit at a cell's marker line (an import added at the top) is at the start of that cell.
  return { ...e, cell: at.cell, line: at.line, endLine: Math.max(at.line, e.endLine - offset) };
}

/** The lines a cell-relative diagnostic's `line` indexes (the module's lines, from its cell on). */
export function cellLines(d: Diagnostic, lines: string[]): string[];
export function cellLines(d: Diagnostic, lines: string[] | undefined): string[] | undefined;
export function cellLines(d: Diagnostic, lines: string[] | undefined): string[] | undefined {
  return d.cell && lines ? lines.slice(d.cell.offset) : lines;
}

/** `file:line:column`, or `file:cell N:line:column` in a notebook (as Ruff writes it). */
export function locationOf(d: Pick<Diagnostic, 'file' | 'line' | 'column' | 'cell'>): string {
  return `${d.file}:${d.cell ? `cell ${d.cell.index}:` : ''}${d.line}:${d.column}`;
}
