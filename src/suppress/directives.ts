/**
 * Suppression comments, read from tree-sitter `comment` nodes (never from strings):
 *   x = runtime.save_state()  # raiselint: ignore[autogen/saving-state-is-not-yet-implemented]
 *   # raiselint: ignore[rule-a, rule-b] -- reason      (alone on the line above a statement: covers all of it)
 *   # raiselint: ignore-file[rule-a]                    (anywhere: the whole file)
 * The result is plain data (no tree nodes), so it outlives the tree and crosses worker boundaries.
 */
import type { Node } from '../parse/parser.js';
import { lineStarts } from '../diagnostics/positions.js';

export interface DirectiveId {
  id: string;
  /** UTF-16 offsets of the id in the text. */
  start: number;
  end: number;
}

export interface Directive {
  kind: 'line' | 'file';
  ids: DirectiveId[];
  reason?: string;
  /** 1-based position of the directive (`raiselint:` ... `]`), columns in UTF-16 code units. */
  line: number;
  column: number;
  endColumn: number;
  /** UTF-16 offsets: the whole comment, and the directive inside it (from its `#`). */
  commentStart: number;
  commentEnd: number;
  directiveStart: number;
  directiveEnd: number;
  /** Alone on its line (no code before it). */
  ownLine: boolean;
  /** Lines (1-based, inclusive) a line directive covers. */
  from: number;
  to: number;
  /** Set when the comment says `raiselint:` but is not a valid directive. */
  invalid?: string;
}

const MARK = /#\s*raiselint\s*:/g;
/** A reason runs to the end of the comment, or to another pragma after two spaces (`  # noqa`) or another directive. */
const DIRECTIVE = /^#\s*raiselint\s*:\s*(ignore-file|ignore)(?![\w-])(?:\[([^\]]*)\])?(?:\s+--\s+(.*?)(?=\s{2,}#|\s*#\s*raiselint\s*:|\s*$)|\s*(?=#|$))/;

/** Compound statements: a directive above one covers its header (up to the body), not the body. */
const COMPOUND = new Set([
  'if_statement',
  'for_statement',
  'while_statement',
  'try_statement',
  'with_statement',
  'function_definition',
  'class_definition',
  'decorated_definition',
  'match_statement',
]);

function isStatement(type: string): boolean {
  return type.endsWith('_statement') || type === 'function_definition' || type === 'class_definition' || type === 'decorated_definition';
}

export function collectDirectives(root: Node, text: string): Directive[] {
  if (!text.includes('raiselint')) return [];
  const out: Directive[] = [];
  const starts = lineStarts(text);
  for (const c of markedComments(root, text)) {
    // tree-sitter's comment token runs to the newline, so on a CRLF line it ends with the `\r`.
    const ctext = c.text.replace(/\r+$/, '');
    const row = c.startPosition.row;
    const col = c.startPosition.column;
    const cstart = starts[row]! + col;
    const ownLine = text.slice(starts[row]!, cstart).trim() === '';
    for (const m of ctext.matchAll(MARK)) {
      const at = m.index;
      const rest = ctext.slice(at);
      const d = DIRECTIVE.exec(rest);
      const base: Omit<Directive, 'kind' | 'ids' | 'directiveEnd' | 'endColumn'> = {
        line: row + 1,
        column: col + at + 1,
        commentStart: cstart,
        commentEnd: cstart + ctext.length,
        directiveStart: cstart + at,
        ownLine,
        from: row + 1,
        to: row + 1,
      };
      if (!d) {
        const next = rest.indexOf('#', 1);
        const len = (next < 0 ? rest : rest.slice(0, next)).trimEnd().length;
        out.push({
          ...base,
          kind: 'line',
          ids: [],
          directiveEnd: cstart + at + len,
          endColumn: col + at + len + 1,
          invalid: `not a raiselint directive: expected '# raiselint: ignore[rule-id]' or '# raiselint: ignore-file[rule-id]'`,
        });
        continue;
      }
      const kind = d[1] === 'ignore-file' ? 'file' : 'line';
      const { ids, invalid } = directiveIds(d[2], cstart + at + rest.indexOf('[') + 1);
      const len = d[0].trimEnd().length;
      const dir: Directive = { ...base, kind, ids, reason: d[3] || undefined, directiveEnd: cstart + at + len, endColumn: col + at + len + 1, invalid };
      if (kind === 'line' && ownLine) {
        const span = statementBelow(root, text, starts, row);
        if (span) [dir.from, dir.to] = span;
      }
      out.push(dir);
    }
  }
  return out;
}

/**
 * The comment nodes that hold a `# raiselint:` mark, in document order: the node at each mark
 * in the text (one look-up each, where walking every comment of the tree cost ~0.2 ms a file).
 * A mark in a string is not in a comment node; a comment with several marks is listed once.
 */
function markedComments(root: Node, text: string): Node[] {
  const out: Node[] = [];
  let last = -1;
  for (const m of text.matchAll(MARK)) {
    const n = root.descendantForIndex(m.index, m.index + 1);
    if (n?.type !== 'comment' || n.startIndex === last) continue;
    last = n.startIndex;
    out.push(n);
  }
  return out;
}

/**
 * The statement an own-line comment on `row` stands above: the first code line after the run of
 * comment lines that starts at `row`. Returns its covered lines (1-based), or undefined when a
 * blank line or the end of the file comes first.
 */
function statementBelow(root: Node, text: string, starts: number[], row: number): [number, number] | undefined {
  let r = row + 1;
  for (; r < starts.length; r++) {
    const line = text.slice(starts[r]!, starts[r + 1] ?? text.length).replace(/\r?\n$|\r$/, '');
    const t = line.trim();
    if (!t) return undefined;
    if (t.startsWith('#')) continue;
    const col = line.length - line.trimStart().length;
    let n: Node | null = root.descendantForPosition({ row: r, column: col });
    let stmt: Node | undefined;
    while (n && n.startPosition.row === r) {
      if (isStatement(n.type) || n.type === 'expression_statement') stmt = n;
      if (n.type === 'block' || n.type === 'module') break;
      n = n.parent;
    }
    if (!stmt) return [r + 1, r + 1];
    let end = stmt.endPosition.row;
    if (COMPOUND.has(stmt.type)) {
      const def = stmt.type === 'decorated_definition' ? stmt.childForFieldName('definition') : stmt;
      const body = def?.childForFieldName('body') ?? def?.namedChildren.find((c) => c?.type === 'block') ?? null;
      // The header ends at the colon before the body (the body may share its line).
      if (body) end = body.previousSibling?.endPosition.row ?? body.startPosition.row;
      if (stmt.type === 'match_statement') end = r;
    }
    return [r + 1, end + 1];
  }
  return undefined;
}

/** The rule ids of a directive's `[...]` list (`list`, starting at offset `start`), and why the list is invalid, if it is. */
export function directiveIds(list: string | undefined, start: number): { ids: DirectiveId[]; invalid?: string } {
  const ids: DirectiveId[] = [];
  let invalid: string | undefined;
  if (list === undefined) return { ids };
  let off = 0;
  for (const part of list.split(',')) {
    const id = part.trim();
    const s = start + off + (part.length - part.trimStart().length);
    if (!id) invalid = 'empty rule id in brackets';
    else if (!/^[\w.-]+(\/[\w.-]+)*$/.test(id)) invalid = `'${id}' is not a rule id`;
    else ids.push({ id, start: s, end: s + id.length });
    off += part.length + 1;
  }
  return { ids, invalid };
}
