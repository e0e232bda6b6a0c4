/**
 * Scopes, for queries: the names each scope binds (parameters, assignment and loop targets,
 * imports, definitions, `global` names), the identifiers it uses, the scopes a statement sees, and
 * the module's imports in force at run time (not those under `if TYPE_CHECKING:`). The model
 * exposes them (`FileModel.scopes`); the fix stage asks them where a name is free or taken.
 */
import type { Node } from '../parse/parser.js';
import { descendantsIn, field, identifierNames, kids, namedChildren } from '../parse/syntax.js';
import { targetNames } from '../python/bindings.js';
import { BUILTINS } from '../python/builtins.js';
import { importedNames, isTypeChecking } from '../python/imports.js';
import { parameters } from '../python/params.js';

/**
 * Expression nodes (and their parts) that bind no name unless they hold a `:=` (a lambda or
 * comprehension in them binds nothing outside it). `as_pattern` is not here: `with ... as x` binds.
 */
const EXPRESSIONS = new Set([
  'attribute',
  'await',
  'binary_operator',
  'boolean_operator',
  'call',
  'comparison_operator',
  'concatenated_string',
  'conditional_expression',
  'dictionary',
  'ellipsis',
  'false',
  'float',
  'identifier',
  'integer',
  'list',
  'list_splat',
  'dictionary_splat',
  'none',
  'not_operator',
  'parenthesized_expression',
  'set',
  'string',
  'subscript',
  'true',
  'tuple',
  'unary_operator',
  'argument_list',
  'keyword_argument',
  'pair',
  'slice',
  'comment',
  'string_content',
  'escape_sequence',
  'interpolation',
  'lambda',
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
]);

const WALRUS = new Set(['named_expression']);
const DEFS = new Set(['function_definition', 'class_definition']);
const COMPREHENSIONS = new Set(['list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression']);

/** `name` read at `at` is a parameter of a lambda around it, or a target of a comprehension around it (scopes this reader does not list). */
function boundByExpression(name: string, at: Node): boolean {
  const targetsOf = (t: Node | null) => {
    const out = new Set<string>();
    if (t) targetNames(t, out);
    return out;
  };
  for (let p = at.parent; p && !DEFS.has(p.type); p = p.parent) {
    if (p.type === 'lambda' && parameters(p).some((q) => q.name === name)) return true;
    if (COMPREHENSIONS.has(p.type) && kids(p).some((c) => c.type === 'for_in_clause' && targetsOf(field(c, 'left')).has(name))) return true;
  }
  return false;
}

/** `name` occurs in `text` between characters that cannot be part of a name (ASCII ones: a superset of where a name can be). */
function wordIn(text: string, name: string): boolean {
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    if (!WORD.test(text[i - 1] ?? ' ') && !WORD.test(text[i + name.length] ?? ' ')) return true;
  }
  return false;
}
const WORD = /[A-Za-z0-9_]/;

export type ImportBinding = { kind: 'from'; module: string; name: string } | { kind: 'module'; module: string };

export class Scopes {
  private readonly bound = new Map<number, Set<string>>();
  private readonly used = new Map<number, Set<string>>();
  private allIds?: Set<string>;
  private readonly mentioned = new Map<string, boolean>();
  private readonly words = new Map<string, boolean>();
  private importCache?: Map<string, ImportBinding>;
  private walrus?: Node[];
  private defs?: Node[];

  constructor(readonly root: Node) {}

  /**
   * The `:=` expressions under `n`: from the file's one walk of the node types later stages look
   * for (parse/syntax.ts descendantsIn, which src/python/flows.ts reads too), not a walk of its own.
   */
  private walrusIn(n: Node): Node[] {
    const all = (this.walrus ??= descendantsIn(this.root, WALRUS));
    if (n.id === this.root.id) return all;
    const start = n.startIndex;
    const end = n.endIndex;
    return all.filter((w) => w.startIndex >= start && w.endIndex <= end);
  }

  /** Every identifier written anywhere in the file (fresh names avoid them all). */
  get identifiers(): Set<string> {
    if (this.allIds) return this.allIds;
    return (this.allIds = identifierNames(this.root));
  }

  /**
   * Some identifier of the file is `name`. A name the source does not hold as a word is none: a
   * search of the text answers most questions, where the identifier set reads every name of the file.
   */
  mentions(name: string): boolean {
    if (this.allIds) return this.allIds.has(name);
    let m = this.mentioned.get(name);
    if (m === undefined) this.mentioned.set(name, (m = this.written(name) && this.identifiers.has(name)));
    return m;
  }

  /** The source holds `name` as a word (in code, a comment or a string): a superset of `mentions`. */
  private written(name: string): boolean {
    let w = this.words.get(name);
    if (w === undefined) this.words.set(name, (w = wordIn(this.root.text, name)));
    return w;
  }

  /** Some identifier in `scope` (nested scopes included) is `name` (a function's own walk: not the file's identifier set). */
  uses(scope: Node, name: string): boolean {
    if (scope.id === this.root.id) return this.mentions(name);
    return this.written(name) && this.usedIn(scope).has(name);
  }

  freshName(base: string, taken: Set<string> = new Set()): string {
    for (let i = 1; ; i++) {
      const name = `${base}_${i}`;
      if (!this.mentions(name) && !taken.has(name)) return name;
    }
  }

  /**
   * Scopes that a statement sees: enclosing functions (and a class body it sits in directly), then
   * the module. The enclosing definitions are those whose range holds the statement, from the
   * file's one walk of node types (no walk up the tree: each step up asks the parser again).
   */
  scopesOf(stmt: Node): Node[] {
    // In document order, outer before inner, as descendantsIn lists them (a preorder walk).
    const defs = (this.defs ??= descendantsIn(this.root, DEFS));
    const start = stmt.startIndex;
    const end = stmt.endIndex;
    const out: Node[] = [];
    let direct = true;
    // Outer before inner: the last definitions around the statement are the innermost.
    const around = defs.filter((d) => d.startIndex <= start && end <= d.endIndex && d.id !== stmt.id);
    for (let i = around.length - 1; i >= 0; i--) {
      const n = around[i]!;
      if (n.type === 'function_definition' || direct) out.push(n);
      direct = false;
    }
    out.push(this.root);
    return out;
  }

  /** The name is defined for the statement (a builtin, or bound in a scope it sees). */
  defines(name: string, scopes: Node[]): boolean {
    if (BUILTINS.has(name)) return true;
    // Every name a scope binds is written as an identifier: a name the file never writes is bound nowhere.
    return this.written(name) && scopes.some((s) => this.boundIn(s).has(name));
  }

  /** Some scope around `at` binds `name` (a built-in of that name then means something else there). */
  bindsAround(name: string, at: Node): boolean {
    return this.written(name) && this.scopesOf(at).some((s) => this.boundIn(s).has(name));
  }

  /** Identifiers used anywhere in a scope (nested scopes included). */
  usedIn(scope: Node): Set<string> {
    if (scope.id === this.root.id) return this.identifiers;
    let s = this.used.get(scope.id);
    if (s) return s;
    s = identifierNames(scope);
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
    if (body) this.collectBindings(body, s, scope.type === 'module', !this.walrusIn(body).length);
    this.bound.set(scope.id, s);
    return s;
  }

  /**
   * Whether `name`, read at `at`, is a class object: the innermost scope that binds it does so by one
   * `class` statement (no decorator) and nothing else (`get_type_hints(Foo)` with `class Foo:` above).
   */
  isClassAt(name: string, at: Node): boolean {
    return this.definitionAt(name, at)?.type === 'class_definition';
  }

  /** The statement that alone binds `name` read at `at` in the innermost scope binding it: one undecorated `class` or `def`. */
  definitionAt(name: string, at: Node): Node | undefined {
    if (boundByExpression(name, at)) return undefined;
    for (const scope of this.scopesOf(at)) {
      if (!this.boundIn(scope).has(name)) continue;
      const { other, defs } = this.definitionsIn(scope);
      const own = defs.get(name);
      return !other.has(name) && own?.length === 1 ? own[0] : undefined;
    }
    return undefined;
  }

  private readonly definitionMemo = new Map<number, { other: Set<string>; defs: Map<string, Node[]> }>();

  /** A scope's undecorated `class` / `def` statements by name, and the names it binds otherwise (made once per scope). */
  private definitionsIn(scope: Node): { other: Set<string>; defs: Map<string, Node[]> } {
    let m = this.definitionMemo.get(scope.id);
    if (m) return m;
    const other = new Set<string>();
    const list: Node[] = [];
    if (scope.type === 'function_definition') for (const p of parameters(scope)) if (p.name) other.add(p.name);
    const body = scope.type === 'module' ? scope : field(scope, 'body');
    if (body) this.collectBindings(body, other, scope.type === 'module', !this.walrusIn(body).length, list);
    const defs = new Map<string, Node[]>();
    for (const c of list) {
      const n = field(c, 'name')?.text;
      if (n) defs.set(n, [...(defs.get(n) ?? []), c]);
    }
    m = { other, defs };
    this.definitionMemo.set(scope.id, m);
    return m;
  }

  /** `defs`: undecorated `class` and `def` statements go there instead of binding their names in `into`. */
  private collectBindings(n: Node, into: Set<string>, module: boolean, skipExpressions: boolean, defs?: Node[]): void {
    for (const c of namedChildren(n)) {
      const type = c.type;
      if (skipExpressions && EXPRESSIONS.has(type)) continue;
      switch (type) {
        case 'class_definition':
        case 'function_definition': {
          if (defs) {
            defs.push(c);
            continue;
          }
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
          for (const w of this.walrusIn(c)) into.add(field(w, 'name')?.text ?? '');
          continue;
        case 'import_statement':
        case 'import_from_statement':
          for (const i of importedNames(c)) into.add(i.local);
          continue;
        case 'if_statement':
          if (module && isTypeChecking(field(c, 'condition'))) {
            // Imports under TYPE_CHECKING do not exist at run time; an `else:` branch does.
            for (const alt of c.childrenForFieldName('alternative')) if (alt) this.collectBindings(alt, into, module, skipExpressions, defs);
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
      this.collectBindings(c, into, module, skipExpressions, defs);
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
}
