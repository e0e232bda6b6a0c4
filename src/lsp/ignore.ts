/**
 * `# raiselint: ignore[rule-id]` comments for the editor: where the "ignore this finding" action
 * puts one, and which findings the comments in a buffer silence.
 *
 * The comment goes at the end of the reported line. Where a comment cannot go there (the line
 * ends inside a multi-line string, or with a backslash continuation), it goes alone on the line
 * above the enclosing statement, with the statement's indentation. A finding is silenced by a
 * comment listing its rule id (or record id) on its reported line, or alone on the line above
 * its statement. Comments are tree-sitter `comment` nodes, so text inside strings never counts.
 */
import { parsePython, type Node } from '../parse/parser.js';
import type { Diagnostic } from '../diagnostics/types.js';

/** `# raiselint: ignore[a, b]` (optionally ` -- reason`); group 1 is the id list. */
const IGNORE_RE = /#\s*raiselint:\s*ignore\[([^\]]*)\]/;

/** A 0-based range in UTF-16 units, as LSP counts. */
export interface Span {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface InsertEdit {
  range: Span;
  newText: string;
}

/** Lines without their terminators, and each line's terminator. */
function lineInfo(text: string): { lines: string[]; eols: string[] } {
  const lines: string[] = [];
  const eols: string[] = [];
  const re = /\r\n|\r|\n/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    lines.push(text.slice(last, m.index));
    eols.push(m[0]);
    last = m.index + m[0].length;
  }
  lines.push(text.slice(last));
  eols.push('');
  return { lines, eols };
}

/** The statement (child of the module or of a block) that contains the node. */
function enclosingStatement(node: Node): Node {
  let cur: Node = node;
  while (cur.parent && cur.parent.type !== 'module' && cur.parent.type !== 'block') cur = cur.parent;
  return cur;
}

interface Comment {
  column: number;
  text: string;
}

function commentsByRow(root: Node): Map<number, Comment> {
  const out = new Map<number, Comment>();
  for (const c of root.descendantsOfType('comment')) if (c) out.set(c.startPosition.row, { column: c.startPosition.column, text: c.text });
  return out;
}

/** The edit that adds `id` to the list of an existing ignore comment. */
function extendList(row: number, c: Comment, m: RegExpExecArray, id: string): InsertEdit | undefined {
  const listed = ids(m[1]!);
  if (listed.includes(id)) return undefined;
  const open = c.column + m.index + m[0].indexOf('[') + 1;
  const close = c.column + m.index + m[0].length - 1;
  return { range: { start: { line: row, character: open }, end: { line: row, character: close } }, newText: [...listed, id].join(', ') };
}

function ids(list: string): string[] {
  return list.split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * The edit that silences `d` (1-based diagnostic positions). `undefined` when the comment
 * already lists the rule.
 */
export function ignoreEdit(text: string, d: Pick<Diagnostic, 'ruleId' | 'line' | 'column'>): InsertEdit | undefined {
  const { lines, eols } = lineInfo(text);
  const row = d.line - 1;
  const line = lines[row] ?? '';
  const tree = parsePython(text);
  try {
    const root = tree.rootNode;
    const comments = commentsByRow(root);
    const own = comments.get(row);
    const existing = own ? IGNORE_RE.exec(own.text) : null;
    // Extend an existing list in place: `ignore[a]` becomes `ignore[a, b]`.
    if (own && existing) return extendList(row, own, existing, d.ruleId);
    const content = line.replace(/\s+$/, '');
    if (fitsAtEnd(root, row, content, own !== undefined)) {
      return { range: { start: { line: row, character: content.length }, end: { line: row, character: line.length } }, newText: `  # raiselint: ignore[${d.ruleId}]` };
    }
    // Alone on the line above the statement, with its indentation.
    const at = root.descendantForPosition({ row, column: Math.max(0, d.column - 1) }) ?? root;
    const stmt = enclosingStatement(at);
    const stmtRow = stmt === root ? row : stmt.startPosition.row;
    const above = stmtRow - 1;
    const aboveComment = above >= 0 ? comments.get(above) : undefined;
    const aboveMatch = aboveComment && (lines[above] ?? '').trim() === aboveComment.text.trim() ? IGNORE_RE.exec(aboveComment.text) : null;
    if (aboveComment && aboveMatch) return extendList(above, aboveComment, aboveMatch, d.ruleId);
    const indent = /^[ \t]*/.exec(lines[stmtRow] ?? '')![0];
    const eol = eols.find((e) => e) ?? '\n';
    return { range: { start: { line: stmtRow, character: 0 }, end: { line: stmtRow, character: 0 } }, newText: `${indent}# raiselint: ignore[${d.ruleId}]${eol}` };
  } finally {
    tree.delete();
  }
}

/** A trailing comment may follow the line's content: not inside a string, not after a backslash continuation. */
function fitsAtEnd(root: Node, row: number, content: string, hasComment: boolean): boolean {
  if (hasComment) return true; // a comment already ends the line: ours extends it
  if (content.endsWith('\\')) return false;
  if (!content.length) return false;
  const node = root.descendantForPosition({ row, column: content.length - 1 });
  // The line must not end inside a string that continues on the next line.
  for (let cur: Node | null = node; cur; cur = cur.parent) if (cur.type === 'string' && cur.startPosition.row <= row && cur.endPosition.row > row) return false;
  return true;
}

/** Findings not silenced by an ignore comment in the text. */
export function withoutIgnored<T extends Pick<Diagnostic, 'ruleId' | 'recordId' | 'line' | 'column'>>(text: string, diags: T[]): T[] {
  if (!diags.length || !text.includes('raiselint:')) return diags;
  const { lines } = lineInfo(text);
  const tree = parsePython(text);
  try {
    const root = tree.rootNode;
    const comments = commentsByRow(root);
    const listedAt = (row: number, alone: boolean): string[] => {
      const c = comments.get(row);
      if (!c) return [];
      if (alone && (lines[row] ?? '').trim() !== c.text.trim()) return [];
      const m = IGNORE_RE.exec(c.text);
      return m ? ids(m[1]!) : [];
    };
    return diags.filter((d) => {
      const row = d.line - 1;
      const here = listedAt(row, false);
      if (here.includes(d.ruleId) || here.includes(d.recordId)) return false;
      const at = root.descendantForPosition({ row, column: Math.max(0, d.column - 1) }) ?? root;
      const stmt = enclosingStatement(at);
      const stmtRow = stmt === root ? row : stmt.startPosition.row;
      const above = listedAt(stmtRow - 1, true);
      return !(above.includes(d.ruleId) || above.includes(d.recordId));
    });
  } finally {
    tree.delete();
  }
}
