/**
 * Notebook cells in editors: VS Code (and clients that follow it) open each cell of a notebook as
 * its own text document, `vscode-notebook-cell:/path/nb.ipynb#<cell id>`, language `python`. Such a
 * cell is checked as Python with the configuration of the notebook's file, and its diagnostics go to
 * the cell's URI. (Cells are checked one by one: names bound in other cells are not seen.)
 */
import { fileURLToPath } from 'node:url';
import { maskCell } from '../parse/notebook.js';

const CELL_SCHEME = 'vscode-notebook-cell:';

/** The notebook file a cell URI belongs to, or undefined for another URI. */
export function notebookFileOfCell(uri: string): string | undefined {
  if (!uri.startsWith(CELL_SCHEME)) return undefined;
  const rest = uri.slice(CELL_SCHEME.length).replace(/#.*$/, '');
  try {
    return fileURLToPath(`file:${rest.startsWith('//') ? '' : '//'}${rest}`);
  } catch {
    return undefined;
  }
}

/**
 * The text a cell is checked as: IPython lines (`!pip install`, `%time`) masked, the lines kept
 * (../parse/notebook.ts). `fixable` is false when something was masked: fixing the masked text
 * would write the mask back, so such a cell gets no fix-all.
 */
export function cellSource(uri: string, text: string): { text: string; fixable: boolean } {
  if (!uri.startsWith(CELL_SCHEME)) return { text, fixable: true };
  const m = maskCell(text);
  return { text: m.text, fixable: m.masked.length === 0 };
}
