/**
 * The fix stage, scopes: what a fix needs to know about the user's file: the names each scope binds, the
 * imports in force at run time (not those under `if TYPE_CHECKING:`), where a new import goes,
 * the line ending and the indentation unit.
 */
import type { Node } from '../parse/parser.js';
import { descendantsIn, field, namedChildren, parentOf } from '../parse/syntax.js';
import { Scopes } from '../semantic/scopes.js';
import { lineStarts, positionAt } from '../diagnostics/positions.js';

export interface ImportSpot {
  /** Offset where a new import line is inserted (a line start). */
  offset: number;
  /** Text before the import line (an end of line when the spot is at the end of a file without one). */
  before: string;
  /** Text after the import line (a blank line to separate it from code). */
  after: string;
}

const COMMENT = new Set(['comment']);
const STRING = new Set(['string']);
/** What may stand between the parts of a concatenated string: space, line continuations, comments (each ends its line: no backtracking). */
const GAP = /^(?:[ \t\f\r\n]|\\\r?\n|#[^\n]*\n)*$/;

/** The index of the first node starting at or after `offset` (`nodes` in document order, as descendantsIn lists them: sorted by start). */
function firstFrom(nodes: readonly Node[], offset: number): number {
  let lo = 0;
  let hi = nodes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (nodes[mid]!.startIndex < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class UserFile {
  readonly eol: string;
  private unitCache?: string;
  private comments?: Node[];
  private strings?: Node[];
  /** The text's line starts (diagnostics/positions.ts; made on the first line question). */
  private starts?: number[];

  /** The scope queries: the semantic model's, or made for this file. */
  readonly scopes: Scopes;

  constructor(
    readonly root: Node,
    readonly text: string,
    scopes?: Scopes,
  ) {
    this.scopes = scopes ?? new Scopes(root);
    const m = /\r?\n/.exec(text);
    this.eol = m ? m[0] : '\n';
  }

  /** A comment lies within [start, end) (the file's comments: from its one walk of node types, parse/syntax.ts descendantsIn). */
  hasComment(start: number, end: number): boolean {
    const cs = (this.comments ??= descendantsIn(this.root, COMMENT));
    // Comments never overlap: the first one from `start` on ends first.
    const c = cs[firstFrom(cs, start)];
    return !!c && c.endIndex <= end;
  }

  /**
   * The offsets after each line break inside a string literal (or between the parts of an
   * implicitly concatenated one) in [start, end): from the file's strings (its one walk of node
   * types, parse/syntax.ts descendantsIn), not a walk of the statement.
   */
  breaksInStrings(start: number, end: number): number[] {
    const ss = (this.strings ??= descendantsIn(this.root, STRING));
    const out: number[] = [];
    const breaks = (from: number, to: number) => {
      for (let i = this.text.indexOf('\n', from); i >= 0 && i < to; i = this.text.indexOf('\n', i + 1)) out.push(i + 1);
    };
    // The string before, of those that end before the one at hand (an f-string's inner strings end before it does).
    let prev: Node | undefined;
    for (let k = firstFrom(ss, start); k < ss.length && ss[k]!.startIndex < end; k++) {
      const s = ss[k]!;
      if (s.endIndex > end) continue;
      if (prev && prev.endIndex <= s.startIndex) {
        const gap = this.text.slice(prev.endIndex, s.startIndex);
        if (gap.includes('\n') && GAP.test(gap)) {
          const p = parentOf(prev);
          if (p?.type === 'concatenated_string' && parentOf(s)?.id === p.id) breaks(prev.endIndex, s.startIndex);
        }
      }
      breaks(s.startIndex, s.endIndex - 1);
      if (!prev || s.endIndex > prev.endIndex) prev = s;
    }
    return out;
  }

  /**
   * The row holding `offset`, from the line starts. Line questions are asked per finding: a search
   * of the text from the offset would cost the line's length each time, quadratic for thousands of
   * statements on one line. (The fix stage's text has no lone CR: parse/source.ts normalizeLoneCR.)
   */
  private rowOf(offset: number): number {
    return positionAt((this.starts ??= lineStarts(this.text)), offset).row;
  }

  /** Offset of the `\n` ending the line holding `offset`, or -1 on the last line. */
  private nextNewline(offset: number): number {
    const row = this.rowOf(offset);
    return row + 1 < this.starts!.length ? this.starts![row + 1]! - 1 : -1;
  }

  lineStart(offset: number): number {
    const row = this.rowOf(offset);
    return this.starts![row]!;
  }

  /** End of the line holding `offset`, before its line ending. */
  lineEnd(offset: number): number {
    const j = this.nextNewline(offset);
    const e = j < 0 ? this.text.length : j;
    return e > 0 && this.text[e - 1] === '\r' && e - 1 >= offset ? e - 1 : e;
  }

  /** The line ending of the line holding `offset` (the file's first one when that line has none). */
  eolAt(offset: number): string {
    const j = this.nextNewline(offset);
    if (j < 0) return this.eol;
    return j > 0 && this.text[j - 1] === '\r' ? '\r\n' : '\n';
  }

  /** The file's indentation unit: the first indented block (4 spaces when there is none). */
  get unit(): string {
    if (this.unitCache !== undefined) return this.unitCache;
    let unit = '    ';
    const stack: Node[] = [this.root];
    outer: while (stack.length) {
      const n = stack.shift()!;
      for (const c of namedChildren(n)) {
        const body = field(c, 'body') ?? field(c, 'consequence');
        if (body?.type === 'block' && body.startPosition.row > c.startPosition.row) {
          const first = namedChildren(body)[0];
          if (first) {
            const header = this.text.slice(this.lineStart(c.startIndex), c.startIndex);
            const inner = this.text.slice(this.lineStart(first.startIndex), first.startIndex);
            if (/^[ \t]*$/.test(inner) && inner.startsWith(header) && inner.length > header.length) {
              unit = inner.slice(header.length);
              break outer;
            }
          }
        }
        if (c.type === 'class_definition' || c.type === 'function_definition' || c.type === 'decorated_definition') stack.push(c);
      }
    }
    return (this.unitCache = unit);
  }

  /**
   * The unit one level below the statement at `stmt` (its own indentation minus its block
   * header's). `header`: the compound statement (or clause) whose block holds `stmt`, if any.
   */
  unitFor(stmt: Node, header: Node | null | undefined): string {
    const indent = this.text.slice(this.lineStart(stmt.startIndex), stmt.startIndex);
    if (header) {
      // The block's header: the compound statement, or its `else:`/`except:`/... clause.
      const h = this.text.slice(this.lineStart(header.startIndex), header.startIndex);
      if (/^[ \t]*$/.test(h) && indent.startsWith(h) && indent.length > h.length) return indent.slice(h.length);
    }
    if (indent && /^\t+$/.test(indent)) return '\t';
    return this.unit;
  }

  /**
   * How the file spells a qualified name, through its run-time imports: `Name` after
   * `from pkg import Name`, `alias.Name` after `import pkg as alias`. `same` says whether two
   * qualified names denote the same object (re-exports, aliases).
   */
  spell(q: string, same: (a: string, b: string) => boolean): string | undefined {
    const name = q.split('.').pop()!;
    for (const [local, b] of this.scopes.imports) {
      if (b.kind === 'from' && same(`${b.module}.${b.name}`, q)) return local;
    }
    for (const [key, b] of this.scopes.imports) {
      if (b.kind !== 'module') continue;
      const local = key.includes('\0') ? b.module : key;
      if (b.module === q) return local;
      if (same(`${b.module}.${name}`, q)) return `${local}.${name}`;
    }
    for (const [key, b] of this.scopes.imports) {
      if (b.kind !== 'module') continue;
      const local = key.includes('\0') ? b.module : key;
      if (q.startsWith(`${b.module}.`)) return `${local}${q.slice(b.module.length)}`;
    }
    return undefined;
  }

  /** Top-level packages the file imports from at run time. */
  importedPackages(): Set<string> {
    const out = new Set<string>();
    for (const b of this.scopes.imports.values()) out.add(b.module.split('.')[0]!);
    return out;
  }

  /**
   * Where a new `import` line goes: among the module's top-level imports (sorted into the
   * section of the same package when the imports there are sorted), else after the module
   * docstring and `from __future__` imports, else at the top (after a shebang or coding line).
   */
  importSpot(stmt: string): ImportSpot {
    const top = namedChildren(this.root);
    const module = /^from\s+(\S+)|^import\s+(\S+)/.exec(stmt);
    const mod = (module?.[1] ?? module?.[2] ?? '').toLowerCase();
    const imports = top.filter((s) => (s.type === 'import_statement' || s.type === 'import_from_statement') && this.aloneOnLines(s));
    const after = (n: Node): ImportSpot => {
      const end = this.lineEnd(n.endIndex);
      const j = this.text.indexOf('\n', end);
      return j < 0 ? { offset: this.text.length, before: this.eol, after: '' } : { offset: j + 1, before: '', after: '' };
    };
    if (imports.length) {
      // Sections: runs of imports separated by anything else (blank lines included).
      const sections: Node[][] = [];
      let cur: Node[] = [];
      for (const s of imports) {
        const prev = cur[cur.length - 1];
        if (prev && (s.startPosition.row !== prev.endPosition.row + 1 || !this.adjacent(prev, s, top))) {
          sections.push(cur);
          cur = [];
        }
        cur.push(s);
      }
      if (cur.length) sections.push(cur);
      const modOf = (s: Node) => (field(s, 'module_name')?.text ?? namedChildren(s)[0]?.text ?? '').toLowerCase();
      const pkg = mod.split('.')[0]!;
      const section =
        sections.find((sec) => sec.some((s) => modOf(s).split('.')[0] === pkg)) ??
        sections.filter((sec) => !sec.every((s) => s.type === 'future_import_statement' || modOf(s) === '__future__')).pop() ??
        sections[sections.length - 1]!;
      const keys = section.map(modOf);
      const sorted = keys.every((k, i) => i === 0 || keys[i - 1]! <= k);
      if (sorted) {
        const i = keys.findIndex((k) => k > mod);
        if (i >= 0) return { offset: this.lineStart(section[i]!.startIndex), before: '', after: '' };
      }
      return after(section[section.length - 1]!);
    }
    // No imports: after the docstring and __future__ imports.
    let anchor: Node | undefined;
    for (const s of top) {
      if (s.type === 'comment') continue;
      if (!anchor && s.type === 'expression_statement' && namedChildren(s)[0]?.type === 'string') anchor = s;
      else if (s.type === 'future_import_statement') anchor = s;
      else break;
    }
    if (anchor) {
      const sp = after(anchor);
      return { ...sp, before: sp.before + this.eol, after: this.followedByCode(sp.offset) ? this.eol : '' };
    }
    // The very top, after a shebang and coding cookie.
    let offset = 0;
    for (let i = 0; i < 2; i++) {
      const line = this.text.slice(offset, this.lineEnd(offset));
      if (!/^#!|^[ \t\f]*#.*coding[:=]/.test(line)) break;
      const j = this.text.indexOf('\n', offset);
      if (j < 0) return { offset: this.text.length, before: this.eol, after: '' };
      offset = j + 1;
    }
    return { offset, before: '', after: this.followedByCode(offset) ? this.eol : '' };
  }

  private followedByCode(offset: number): boolean {
    const line = this.text.slice(offset, this.lineEnd(offset));
    return line.trim().length > 0;
  }

  private adjacent(a: Node, b: Node, top: Node[]): boolean {
    const i = top.findIndex((x) => x.id === a.id);
    return top[i + 1]?.id === b.id;
  }

  /** Only whitespace before the node on its first line and only a comment after it on its last. */
  aloneOnLines(n: Node): boolean {
    const before = this.text.slice(this.lineStart(n.startIndex), n.startIndex);
    const afterText = this.text.slice(n.endIndex, this.lineEnd(n.endIndex));
    return /^[ \t\f]*$/.test(before) && /^[ \t\f]*(#.*)?$/.test(afterText);
  }
}
