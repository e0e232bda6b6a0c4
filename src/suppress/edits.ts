/**
 * Text edits over suppression comments: removing unused ones (what `--fix` applies) and adding
 * new ones (`--add-ignore`). Edits are the fixes' offset edits (`FixEdit`: UTF-16 code units of
 * the decoded text, ../diagnostics/positions.ts).
 */
import type { Node } from '../parse/parser.js';
import { lineStarts } from '../diagnostics/positions.js';
import { isBuiltinRule } from './builtin.js';
import type { Directive, DirectiveId } from './directives.js';
import type { Diagnostic, FixEdit } from '../diagnostics/types.js';

/** A suppression comment (or some of its ids) that suppressed nothing. */
export interface UnusedSuppression {
  directive: Directive;
  ids: DirectiveId[];
  all: boolean;
}

/** Applies non-overlapping edits. */
export function applyEdits(text: string, edits: FixEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = Infinity;
  for (const e of sorted) {
    if (e.end > limit) throw new Error(`overlapping edits at offset ${e.start}`);
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    limit = e.start;
  }
  return out;
}

export function rewriteDirective(text: string, d: Directive, ids: string[]): string {
  const own = text.slice(d.directiveStart, d.directiveEnd);
  // A JS/TS directive starts at `raiselint` (its comment's `//` stays).
  const head =
    own.match(/^(?:#\s*)?raiselint\s*:\s*(ignore-file|ignore)/)?.[0] ??
    `${own.startsWith('#') ? '# ' : ''}raiselint: ${d.kind === 'file' ? 'ignore-file' : 'ignore'}`;
  return `${head}[${ids.join(', ')}]${d.reason ? ` -- ${d.reason}` : ''}`;
}

/** One edit per comment: `newComment` replaces the comment (empty: the comment goes, and its line if it stood alone). */
function commentEdit(text: string, starts: number[], d: Directive, newComment: string): FixEdit {
  if (newComment) return { start: d.commentStart, end: d.commentEnd, text: newComment };
  const row = d.line - 1;
  if (d.ownLine) return { start: starts[row]!, end: starts[row + 1] ?? text.length, text: '' };
  let s = d.commentStart;
  while (s > starts[row]! && (text[s - 1] === ' ' || text[s - 1] === '\t')) s--;
  return { start: s, end: d.commentEnd, text: '' };
}

/**
 * The edits that remove unused suppressions: an unused id leaves its brackets, a directive with
 * no id left goes, and a comment with nothing left goes with its line when it stood alone.
 */
export function unusedSuppressionEdits(text: string, unused: UnusedSuppression[]): FixEdit[] {
  const starts = lineStarts(text);
  const byComment = new Map<number, UnusedSuppression[]>();
  for (const u of unused) byComment.set(u.directive.commentStart, [...(byComment.get(u.directive.commentStart) ?? []), u]);
  const edits: FixEdit[] = [];
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

/** A new `raiselint: ignore[...]` comment: trailing (`at` to `end` becomes the comment), or alone on its line above (inserted at `at`). */
interface IgnoreInsert {
  at: number;
  end: number;
  ownLine: boolean;
  indent: string;
  ids: Set<string>;
}

/**
 * What `--add-ignore` writes (Python and JS/TS alike), gathered finding by finding: rule ids that
 * join an existing directive, and new comments keyed by where they go.
 */
export class IgnoreEdits {
  readonly starts: number[];
  private readonly joins = new Map<Directive, Set<string>>();
  private readonly inserts = new Map<string, IgnoreInsert>();

  constructor(readonly text: string) {
    this.starts = lineStarts(text);
  }

  /** End of the 0-based `row`, before its line break. */
  lineEnd(row: number): number {
    const starts = this.starts;
    let e = starts[row + 1] ?? this.text.length;
    while (e > starts[row]! && (this.text[e - 1] === '\n' || this.text[e - 1] === '\r')) e--;
    return e;
  }

  join(d: Directive, ruleId: string): void {
    this.joins.set(d, (this.joins.get(d) ?? new Set(d.ids.map((i) => i.id))).add(ruleId));
  }

  /** Adds the rule to the comment at `key`, made from `spot` when it is the first. */
  insert(key: string, spot: Omit<IgnoreInsert, 'ids'>, ruleId: string): void {
    const ins = this.inserts.get(key) ?? { ...spot, ids: new Set<string>() };
    ins.ids.add(ruleId);
    this.inserts.set(key, ins);
  }

  /** The edits; `lead` starts a comment (`#`, `//`). */
  edits(lead: string): FixEdit[] {
    const text = this.text;
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const edits: FixEdit[] = [];
    for (const [d, ids] of this.joins) edits.push({ start: d.directiveStart, end: d.directiveEnd, text: rewriteDirective(text, d, [...ids].sort()) });
    for (const ins of this.inserts.values()) {
      const comment = `${lead} raiselint: ignore[${[...ins.ids].sort().join(', ')}]`;
      edits.push(ins.ownLine ? { start: ins.at, end: ins.at, text: `${ins.indent}${comment}${eol}` } : { start: ins.at, end: ins.end, text: `  ${comment}` });
    }
    return edits;
  }
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
export function addIgnoreEdits(root: Node, text: string, diags: Diagnostic[], directives: Directive[]): FixEdit[] {
  const out = new IgnoreEdits(text);
  const starts = out.starts;
  for (const diag of diags) {
    if (isBuiltinRule(diag.ruleId)) continue;
    const row = diag.line - 1;
    // An existing directive takes the id: the line's own, else one above the statement.
    const existing =
      directives.find((d) => d.kind === 'line' && !d.invalid && !d.ownLine && d.line === diag.line) ??
      directives.find((d) => d.kind === 'line' && !d.invalid && d.ownLine && diag.line >= d.from && diag.line <= d.to);
    if (existing) {
      out.join(existing, diag.ruleId);
      continue;
    }
    const end = out.lineEnd(row);
    const trimmed = text.slice(starts[row]!, end).trimEnd();
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
      out.insert(`t${row}`, { at: starts[row]! + trimmed.length, end, ownLine: false, indent: '' }, diag.ruleId);
      continue;
    }
    const stmt = statementAt(root.descendantForPosition({ row, column: Math.max(0, diag.column - 1) }));
    const srow = stmt ? stmt.startPosition.row : row;
    const sline = text.slice(starts[srow]!, out.lineEnd(srow));
    out.insert(
      `o${srow}`,
      { at: starts[srow]!, end: starts[srow]!, ownLine: true, indent: sline.slice(0, sline.length - sline.trimStart().length) },
      diag.ruleId,
    );
  }
  return out.edits('#');
}
