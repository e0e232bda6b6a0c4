/**
 * The fix stage, scopes: what a fix needs to know about the user's file: the names each scope binds, the
 * imports in force at run time (not those under `if TYPE_CHECKING:`), where a new import goes,
 * the line ending and the indentation unit.
 */
import type { Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';
import { lineStarts, positionAt } from './apply.js';
import { targetNames } from '../python/bindings.js';
import { importedNames, isWildcardImport } from '../python/imports.js';
import { parameters } from '../python/params.js';

export const BUILTINS = new Set(
  (
    'abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex copyright credits ' +
    'delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals hasattr hash help hex id input ' +
    'int isinstance issubclass iter len license list locals map max memoryview min next object oct open ord pow print property quit ' +
    'range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__ __name__ __file__ ' +
    '__doc__ __builtins__ __debug__ NotImplemented Ellipsis None True False BaseException BaseExceptionGroup Exception ExceptionGroup ' +
    'ArithmeticError AssertionError AttributeError BlockingIOError BrokenPipeError BufferError ChildProcessError ConnectionAbortedError ' +
    'ConnectionError ConnectionRefusedError ConnectionResetError EOFError EnvironmentError FileExistsError FileNotFoundError ' +
    'FloatingPointError GeneratorExit IOError ImportError IndentationError IndexError InterruptedError IsADirectoryError KeyError ' +
    'KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError ' +
    'OverflowError PermissionError ProcessLookupError RecursionError ReferenceError RuntimeError StopAsyncIteration StopIteration ' +
    'SyntaxError SystemError SystemExit TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError ' +
    'UnicodeError UnicodeTranslateError ValueError ZeroDivisionError Warning UserWarning DeprecationWarning PendingDeprecationWarning ' +
    'SyntaxWarning RuntimeWarning FutureWarning ImportWarning UnicodeWarning BytesWarning ResourceWarning EncodingWarning'
  ).split(' '),
);

/**
 * Expression nodes (and their parts) that bind no name unless they hold a `:=` (a lambda or
 * comprehension in them binds nothing outside it). `as_pattern` is not here: `with ... as x` binds.
 */
const EXPRESSIONS = new Set([
  'attribute', 'await', 'binary_operator', 'boolean_operator', 'call', 'comparison_operator', 'concatenated_string',
  'conditional_expression', 'dictionary', 'ellipsis', 'false', 'float', 'identifier', 'integer', 'list', 'list_splat',
  'dictionary_splat', 'none', 'not_operator', 'parenthesized_expression', 'set', 'string', 'subscript', 'true', 'tuple',
  'unary_operator', 'argument_list', 'keyword_argument', 'pair', 'slice', 'comment', 'string_content', 'escape_sequence',
  'interpolation', 'lambda', 'list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression',
]);

export type ImportBinding = { kind: 'from'; module: string; name: string } | { kind: 'module'; module: string };

export interface ImportSpot {
  /** Offset where a new import line is inserted (a line start). */
  offset: number;
  /** Text before the import line (an end of line when the spot is at the end of a file without one). */
  before: string;
  /** Text after the import line (a blank line to separate it from code). */
  after: string;
}

export class FileFacts {
  readonly eol: string;
  private unitCache?: string;
  private readonly bound = new Map<number, Set<string>>();
  private readonly used = new Map<number, Set<string>>();
  private allIds?: Set<string>;
  private importCache?: Map<string, ImportBinding>;
  private starImport = false;
  private readonly lineStarts: number[];

  constructor(
    readonly root: Node,
    readonly text: string,
  ) {
    const m = /\r?\n/.exec(text);
    this.eol = m ? m[0] : '\n';
    this.lineStarts = lineStarts(text);
  }

  /** 1-based line and UTF-16 column of an offset. */
  position(offset: number): { line: number; column: number } {
    const p = positionAt(this.lineStarts, offset);
    return { line: p.row + 1, column: p.column + 1 };
  }

  lineStart(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  /** End of the line holding `offset`, before its line ending. */
  lineEnd(offset: number): number {
    const j = this.text.indexOf('\n', offset);
    const e = j < 0 ? this.text.length : j;
    return e > 0 && this.text[e - 1] === '\r' && e - 1 >= offset ? e - 1 : e;
  }

  /** The line ending of the line holding `offset` (the file's first one when that line has none). */
  eolAt(offset: number): string {
    const j = this.text.indexOf('\n', offset);
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

  /** The unit one level below the statement at `stmt` (its own indentation minus its block header's). */
  unitFor(stmt: Node): string {
    const indent = this.text.slice(this.lineStart(stmt.startIndex), stmt.startIndex);
    const block = stmt.parent?.type === 'block' ? stmt.parent : undefined;
    const header = block?.parent;
    if (header) {
      // The block's header: the compound statement, or its `else:`/`except:`/... clause.
      const h = this.text.slice(this.lineStart(header.startIndex), header.startIndex);
      if (/^[ \t]*$/.test(h) && indent.startsWith(h) && indent.length > h.length) return indent.slice(h.length);
    }
    if (indent && /^\t+$/.test(indent)) return '\t';
    return this.unit;
  }

  /** Every identifier written anywhere in the file (fresh names avoid them all). */
  get identifiers(): Set<string> {
    if (this.allIds) return this.allIds;
    const s = new Set<string>();
    for (const n of this.root.descendantsOfType('identifier')) if (n) s.add(n.text);
    return (this.allIds = s);
  }

  freshName(base: string, taken: Set<string> = new Set()): string {
    for (let i = 1; ; i++) {
      const name = `${base}_${i}`;
      if (!this.identifiers.has(name) && !taken.has(name)) return name;
    }
  }

  /** Scopes that a statement sees: enclosing functions (and a class body it sits in directly), then the module. */
  scopesOf(stmt: Node): Node[] {
    const out: Node[] = [];
    let n: Node | null = stmt.parent;
    let direct = true;
    while (n) {
      const type = n.type;
      if (type === 'function_definition') {
        out.push(n);
        direct = false;
      } else if (type === 'class_definition') {
        if (direct) out.push(n);
        direct = false;
      }
      n = n.parent;
    }
    out.push(this.root);
    return out;
  }

  /** The name is defined for the statement (a builtin, or bound in a scope it sees). */
  defines(name: string, scopes: Node[]): boolean {
    if (BUILTINS.has(name)) return true;
    return scopes.some((s) => this.boundIn(s).has(name));
  }

  hasStarImport(): boolean {
    this.boundIn(this.root);
    return this.starImport;
  }

  /** Identifiers used anywhere in a scope (nested scopes included). */
  usedIn(scope: Node): Set<string> {
    let s = this.used.get(scope.id);
    if (s) return s;
    s = new Set<string>();
    for (const n of scope.descendantsOfType('identifier')) if (n) s.add(n.text);
    this.used.set(scope.id, s);
    return s;
  }

  /** Names a scope binds: parameters, assignment and loop targets, imports, definitions, `global` names. */
  boundIn(scope: Node): Set<string> {
    let s = this.bound.get(scope.id);
    if (s) return s;
    s = new Set<string>();
    if (scope.type === 'function_definition') {
      for (const p of parameters(scope)) if (p.name) s.add(p.name);
    }
    const body = scope.type === 'module' ? scope : field(scope, 'body');
    // Without `:=` in the scope, no expression binds a name: expressions need not be walked.
    if (body) this.collectBindings(body, s, scope.type === 'module', !body.descendantsOfType('named_expression').some((w) => !!w));
    this.bound.set(scope.id, s);
    return s;
  }

  private collectBindings(n: Node, into: Set<string>, module: boolean, skipExpressions: boolean): void {
    for (const c of namedChildren(n)) {
      const type = c.type;
      if (skipExpressions && EXPRESSIONS.has(type)) continue;
      switch (type) {
        case 'function_definition':
        case 'class_definition': {
          const name = field(c, 'name');
          if (name) into.add(name.text);
          continue; // a new scope
        }
        case 'decorated_definition': {
          const def = field(c, 'definition');
          const name = def ? field(def, 'name') : null;
          if (name) into.add(name.text);
          continue;
        }
        case 'lambda':
        case 'list_comprehension':
        case 'set_comprehension':
        case 'dictionary_comprehension':
        case 'generator_expression':
          // Only walrus targets leak out of comprehensions.
          for (const w of c.descendantsOfType('named_expression')) if (w) into.add(field(w, 'name')?.text ?? '');
          continue;
        case 'import_statement':
        case 'import_from_statement':
          if (isWildcardImport(c)) this.starImport ||= module;
          for (const i of importedNames(c)) into.add(i.local);
          continue;
        case 'if_statement':
          if (module && isTypeChecking(field(c, 'condition'))) {
            // Imports under TYPE_CHECKING do not exist at run time; an `else:` branch does.
            for (const alt of c.childrenForFieldName('alternative')) if (alt) this.collectBindings(alt, into, module, skipExpressions);
            continue;
          }
          break;
        case 'assignment':
        case 'augmented_assignment': {
          const left = field(c, 'left');
          if (left) targetNames(left, into);
          break;
        }
        case 'for_statement': {
          const left = field(c, 'left');
          if (left) targetNames(left, into);
          break;
        }
        case 'named_expression':
          into.add(field(c, 'name')?.text ?? '');
          break;
        case 'as_pattern': {
          const alias = field(c, 'alias');
          const t = alias ? (namedChildren(alias)[0] ?? alias) : null;
          if (t) targetNames(t, into);
          break;
        }
        case 'global_statement':
        case 'nonlocal_statement':
          for (const x of namedChildren(c)) into.add(x.text);
          continue;
      }
      this.collectBindings(c, into, module, skipExpressions);
    }
  }

  /** Module-level imports in force at run time: local name → what it binds. */
  get imports(): Map<string, ImportBinding> {
    if (this.importCache) return this.importCache;
    const out = new Map<string, ImportBinding>();
    const visit = (stmts: Node[]) => {
      for (const s of stmts) {
        for (const i of importedNames(s)) {
          if (i.kind === 'from') {
            if (!i.relative && !out.has(i.local)) out.set(i.local, { kind: 'from', module: i.module, name: i.name! });
          } else if (!i.aliased) {
            // `import a.b.c` binds `a` and makes `a.b.c` reachable.
            const key = `${i.local}\0${i.module}`;
            if (!out.has(key)) out.set(key, { kind: 'module', module: i.module });
          } else if (!out.has(i.local)) out.set(i.local, { kind: 'module', module: i.module });
        }
        if (s.type === 'try_statement') {
          const b = field(s, 'body');
          if (b) visit(namedChildren(b));
        } else if (s.type === 'if_statement' && !isTypeChecking(field(s, 'condition'))) {
          const b = field(s, 'consequence');
          if (b) visit(namedChildren(b));
        }
      }
    };
    visit(namedChildren(this.root));
    return (this.importCache = out);
  }

  /**
   * How the file spells a qualified name, through its run-time imports: `Name` after
   * `from pkg import Name`, `alias.Name` after `import pkg as alias`. `same` says whether two
   * qualified names denote the same object (re-exports, aliases).
   */
  spell(q: string, same: (a: string, b: string) => boolean): string | undefined {
    const name = q.split('.').pop()!;
    for (const [local, b] of this.imports) {
      if (b.kind === 'from' && same(`${b.module}.${b.name}`, q)) return local;
    }
    for (const [key, b] of this.imports) {
      if (b.kind !== 'module') continue;
      const local = key.includes('\0') ? b.module : key;
      if (b.module === q) return local;
      if (same(`${b.module}.${name}`, q)) return `${local}.${name}`;
    }
    for (const [key, b] of this.imports) {
      if (b.kind !== 'module') continue;
      const local = key.includes('\0') ? b.module : key;
      if (q.startsWith(`${b.module}.`)) return `${local}${q.slice(b.module.length)}`;
    }
    return undefined;
  }

  /** Top-level packages the file imports from at run time. */
  importedPackages(): Set<string> {
    const out = new Set<string>();
    for (const b of this.imports.values()) out.add(b.module.split('.')[0]!);
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
      const section = sections.find((sec) => sec.some((s) => modOf(s).split('.')[0] === pkg)) ?? sections.filter((sec) => !sec.every((s) => s.type === 'future_import_statement' || modOf(s) === '__future__')).pop() ?? sections[sections.length - 1]!;
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

function isTypeChecking(cond: Node | null): boolean {
  if (!cond) return false;
  const t = cond.text;
  return t === 'TYPE_CHECKING' || /^[A-Za-z_][\w.]*\.TYPE_CHECKING$/.test(t);
}
