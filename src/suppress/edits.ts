/**
 * Text edits over suppression comments: removing unused ones (what `--fix` applies) and adding
 * new ones (`--add-ignore`). Offsets are UTF-16 code units of the decoded text.
 */
import type { Node } from '../parse/parser.js';
import { isBuiltinRule } from './builtin.js';
import { lineStarts, type Directive } from './directives.js';
import type { UnusedSuppression } from './apply.js';
import type { Diagnostic } from '../diagnostics/types.js';

export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

/** Applies non-overlapping edits. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = Infinity;
  for (const e of sorted) {
    if (e.end > limit) throw new Error(`overlapping edits at offset ${e.start}`);
    out = out.slice(0, e.start) + e.newText + out.slice(e.end);
    limit = e.start;
  }
  return out;
}

export function rewriteDirective(text: string, d: Directive, ids: string[]): string {
  const own = text.slice(d.directiveStart, d.directiveEnd);
  // A JS/TS directive starts at `raiselint` (its comment's `//` stays).
  const head = own.match(/^(?:#\s*)?raiselint\s*:\s*(ignore-file|ignore)/)?.[0] ?? `${own.startsWith('#') ? '# ' : ''}raiselint: ${d.kind === 'file' ? 'ignore-file' : 'ignore'}`;
  return `${head}[${ids.join(', ')}]${d.reason ? ` -- ${d.reason}` : ''}`;
}

/** One edit per comment: `newComment` replaces the comment (empty: the comment goes, and its line if it stood alone). */
function commentEdit(text: string, starts: number[], d: Directive, newComment: string): TextEdit {
  if (newComment) return { start: d.commentStart, end: d.commentEnd, newText: newComment };
  const row = d.line - 1;
  if (d.ownLine) return { start: starts[row]!, end: starts[row + 1] ?? text.length, newText: '' };
  let s = d.commentStart;
  while (s > starts[row]! && (text[s - 1] === ' ' || text[s - 1] === '\t')) s--;
  return { start: s, end: d.commentEnd, newText: '' };
}

/**
 * The edits that remove unused suppressions: an unused id leaves its brackets, a directive with
 * no id left goes, and a comment with nothing left goes with its line when it stood alone.
 */
export function unusedSuppressionEdits(text: string, unused: UnusedSuppression[]): TextEdit[] {
  const starts = lineStarts(text);
  const byComment = new Map<number, UnusedSuppression[]>();
  for (const u of unused) byComment.set(u.directive.commentStart, [...(byComment.get(u.directive.commentStart) ?? []), u]);
  const edits: TextEdit[] = [];
  for (const list of byComment.values()) {
    const d0 = list[0]!.directive;
    const comment = text.slice(d0.commentStart, d0.commentEnd);
    list.sort((a, b) => b.directive.directiveStart - a.directive.directiveStart);
    let next = comment;
    for (const u of list) {
      const d = u.directive;
      const drop = new Set(u.ids);
      const left = d.ids.filter((i) => !drop.has(i)).map((i) => i.id);
      const replacement = left.length ? rewriteDirective(text, d, left) : '';
      next = next.slice(0, d.directiveStart - d.commentStart) + replacement + next.slice(d.directiveEnd - d.commentStart);
    }
    next = next.replace(/[ \t]{2,}#/g, '  #').trim();
    if (/^(#*|\/\/|\/\*\s*\*\/)$/.test(next)) next = '';
    if (next !== comment) edits.push(commentEdit(text, starts, d0, next));
  }
  return edits;
}

const STRINGY = new Set(['string', 'string_content', 'concatenated_string', 'string_start', 'string_end']);

function statementAt(node: Node | null): Node | null {
  let n = node;
  while (n && n.parent) {
    const t = n.type;
    if (t.endsWith('_statement') || t === 'function_definition' || t === 'class_definition' || t === 'decorated_definition') return n;
    n = n.parent;
  }
  return null;
}

/**
 * Edits that suppress every given finding (as Ruff's `--add-noqa`): ids join an existing directive
 * on the line (or above the statement), else a trailing `# raiselint: ignore[...]` is added; where
 * the line ends inside a string or continues with `\`, the comment goes alone above the statement.
 */
export function addIgnoreEdits(root: Node, text: string, diags: Diagnostic[], directives: Directive[]): TextEdit[] {
  const starts = lineStarts(text);
  const lineEnd = (row: number) => {
    const e = starts[row + 1] ?? text.length;
    let s = e;
    while (s > starts[row]! && (text[s - 1] === '\n' || text[s - 1] === '\r')) s--;
    return s;
  };
  // Target: an existing directive (merge ids), or an insertion point.
  const toDirective = new Map<Directive, Set<string>>();
  const inserts = new Map<string, { at: number; row: number; ownLine: boolean; indent: string; ids: Set<string> }>();
  for (const diag of diags) {
    if (isBuiltinRule(diag.ruleId)) continue;
    const row = diag.line - 1;
    const existing =
      directives.find((d) => d.kind === 'line' && !d.invalid && !d.ownLine && d.line === diag.line) ??
      directives.find((d) => d.kind === 'line' && !d.invalid && d.ownLine && diag.line >= d.from && diag.line <= d.to);
    if (existing) {
      const set = toDirective.get(existing) ?? new Set(existing.ids.map((i) => i.id));
      set.add(diag.ruleId);
      toDirective.set(existing, set);
      continue;
    }
    const end = lineEnd(row);
    const content = text.slice(starts[row]!, end);
    const trimmed = content.trimEnd();
    let safe = !trimmed.endsWith('\\');
    if (safe && trimmed.length) {
      let n: Node | null = root.descendantForPosition({ row, column: trimmed.length - 1 });
      for (; n; n = n.parent) {
        if (n.type === 'comment') break;
        if (STRINGY.has(n.type) && n.endPosition.row > row) {
          safe = false;
          break;
        }
      }
    }
    if (safe) {
      const key = `t${row}`;
      const ins = inserts.get(key) ?? { at: starts[row]! + trimmed.length, row, ownLine: false, indent: '', ids: new Set<string>() };
      ins.ids.add(diag.ruleId);
      inserts.set(key, ins);
      continue;
    }
    const stmt = statementAt(root.descendantForPosition({ row, column: Math.max(0, diag.column - 1) }));
    const srow = stmt ? stmt.startPosition.row : row;
    const sline = text.slice(starts[srow]!, lineEnd(srow));
    const key = `o${srow}`;
    const ins = inserts.get(key) ?? { at: starts[srow]!, row: srow, ownLine: true, indent: sline.slice(0, sline.length - sline.trimStart().length), ids: new Set<string>() };
    ins.ids.add(diag.ruleId);
    inserts.set(key, ins);
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const edits: TextEdit[] = [];
  for (const [d, ids] of toDirective) edits.push({ start: d.directiveStart, end: d.directiveEnd, newText: rewriteDirective(text, d, [...ids].sort()) });
  for (const ins of inserts.values()) {
    const comment = `# raiselint: ignore[${[...ins.ids].sort().join(', ')}]`;
    edits.push(ins.ownLine ? { start: ins.at, end: ins.at, newText: `${ins.indent}${comment}${eol}` } : { start: ins.at, end: lineEnd(ins.row), newText: `  ${comment}` });
  }
  return edits;
}
