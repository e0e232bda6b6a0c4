/**
 * "Ignore this finding" for the editor: the same `# raiselint: ignore[rule-id]` placement as
 * `raiselint check --add-ignore` (src/suppress/edits.ts), as LSP text edits. The comment goes at
 * the end of the reported line, or joins an existing directive there (or above the statement);
 * where the line ends inside a multi-line string or with a backslash, it goes alone above the
 * statement with its indentation. In a JS/TS file, `// raiselint: ignore[rule-id]` (suppress/jsedits.ts).
 */
import type { TextEdit } from 'vscode-languageserver';
import type { Diagnostic } from '../diagnostics/types.js';
import { withTree } from '../parse/parser.js';
import { loneCrEol, normalizeLoneCR, withEol } from '../parse/source.js';
import type { FixEdit } from '../diagnostics/types.js';
import { lineStarts, positionAt } from '../diagnostics/positions.js';
import { collectDirectives } from '../suppress/directives.js';
import { addIgnoreEdits } from '../suppress/edits.js';
import { addJsIgnoreEdits } from '../suppress/jsedits.js';

/** LSP positions (0-based line, UTF-16 character) of UTF-16 offsets in `text`; lines end at \r, \n or \r\n, as LSP counts them. */
export function offsetConverter(text: string): (offset: number) => { line: number; character: number } {
  const starts = lineStarts(text);
  return (offset) => {
    const p = positionAt(starts, offset);
    return { line: p.row, character: p.column };
  };
}

export function toLspEdits(text: string, edits: readonly FixEdit[]): TextEdit[] {
  const at = offsetConverter(text);
  const eol = loneCrEol(text);
  return edits.map((e) => ({ range: { start: at(e.start), end: at(e.end) }, newText: withEol(e.text, eol) }));
}

/** The edits that suppress these findings (empty for the built-in raiselint/* rules, which cannot be suppressed). */
export function ignoreEdits(text: string, diags: Diagnostic[], jsFile?: string): TextEdit[] {
  // A JS/TS file: `// raiselint: ignore[...]`, as `--add-ignore` writes it there.
  if (jsFile) return toLspEdits(text, addJsIgnoreEdits(text, jsFile, diags));
  // Read as the check read it: lone CRs are line breaks (same offsets).
  const lf = normalizeLoneCR(text);
  return withTree(lf, (tree) => toLspEdits(text, addIgnoreEdits(tree.rootNode, lf, diags, collectDirectives(tree.rootNode, lf))));
}
