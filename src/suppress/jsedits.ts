/**
 * `--add-ignore` for JS/TS files: ids join a directive on the line (or above the statement), else
 * a trailing `// raiselint: ignore[...]` is added; where the line ends inside a template literal,
 * a string or JSX text, the comment goes alone on the line above.
 */
import type * as TS from 'typescript';
import type { Diagnostic, FixEdit } from '../diagnostics/types.js';
import { typescript } from '../parse/typescript.js';
import { isBuiltinRule } from './builtin.js';
import type { Directive } from './directives.js';
import { IgnoreEdits } from './edits.js';
import { collectJsDirectives, jsSourceFile } from './jsdirectives.js';

/** The innermost node around `pos` spans several lines and is text (a template, a string, JSX): a comment there would be part of it. */
function endsInText(sf: TS.SourceFile, pos: number, row: number): boolean {
  const ts = typescript();
  let inner: TS.Node | undefined;
  const visit = (n: TS.Node) => {
    if (n.getStart(sf) <= pos && pos < n.end) {
      inner = n;
      ts.forEachChild(n, visit);
    }
  };
  visit(sf);
  let textual = false;
  for (let n = inner; n; n = n.parent) {
    const k = n.kind;
    if (
      k === ts.SyntaxKind.TemplateExpression ||
      k === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
      k === ts.SyntaxKind.StringLiteral ||
      k === ts.SyntaxKind.JsxElement ||
      k === ts.SyntaxKind.JsxFragment ||
      k === ts.SyntaxKind.JsxText
    ) {
      textual ||= sf.getLineAndCharacterOfPosition(n.end).line > row;
    }
  }
  return textual;
}

export function addJsIgnoreEdits(text: string, fileName: string, diags: Diagnostic[]): FixEdit[] {
  const directives: Directive[] = collectJsDirectives(text, fileName);
  const sf = jsSourceFile(text, fileName);
  const out = new IgnoreEdits(text);
  const starts = out.starts;
  for (const diag of diags) {
    if (isBuiltinRule(diag.ruleId)) continue;
    const existing = directives.find((d) => d.kind === 'line' && !d.invalid && (d.ownLine ? diag.line >= d.from && diag.line <= d.to : d.line === diag.line));
    if (existing) {
      out.join(existing, diag.ruleId);
      continue;
    }
    const row = diag.line - 1;
    const end = out.lineEnd(row);
    const trimmed = text.slice(starts[row]!, end).trimEnd();
    const own = endsInText(sf, starts[row]! + Math.max(0, trimmed.length - 1), row);
    const indent = /^[ \t]*/.exec(trimmed)![0];
    out.insert(
      `${own ? 'o' : 't'}${row}`,
      { at: own ? starts[row]! : starts[row]! + trimmed.length, end: own ? starts[row]! : end, ownLine: own, indent },
      diag.ruleId,
    );
  }
  return out.edits('//');
}
