/**
 * The raising module's own definitions a test reads through: a helper predicate that returns one
 * expression over its parameters (`def _is_instance_mock(obj): return issubclass(type(obj),
 * NonCallableMock)`), read as that expression over the caller's argument; and the module's plain
 * classes, of which no literal, class object or function is an instance.
 */
import type { Node } from '../../parse/parser.js';
import { dottedName, field, namedChildren } from '../../parse/syntax.js';
import { moduleDefinitions } from '../../rules/condition/literal.js';
import { plainClass } from '../../python/defs.js';
import { splitPath } from '../../rules/condition/derived.js';
import type { CmpOp, Cond, ParamSpec, PyVal } from '../../rules/condition/types.js';
import { literalOf } from '../../rules/condition/literal.js';
import { compare } from '../../rules/condition/eval.js';
import { data } from './atoms.js';

export interface Helper {
  def: Node;
  /** Its parameters, all plain positional names (no default, no `*args`). */
  params: string[];
  /** The one expression it returns. */
  expr: Node;
}

export class ModuleDefs {
  private defs?: Map<string, Node>;
  private readonly plainCache = new Map<string, boolean>();

  constructor(
    private readonly root: Node,
    /** The installed module's plain classes (src/records/ground.ts), whose bodies the window may blank. */
    private readonly installed: readonly string[] = [],
  ) {}

  private definition(name: string): Node | undefined {
    return (this.defs ??= moduleDefinitions(this.root)).get(name);
  }

  /** A def bound once at module level whose body (past its docstring) is `return <expr>`. */
  helper(name: string): Helper | undefined {
    const def = this.definition(name);
    if (def?.type !== 'function_definition') return undefined;
    const ps = namedChildren(field(def, 'parameters') ?? def);
    if (ps.some((p) => p.type !== 'identifier')) return undefined;
    const body = namedChildren(field(def, 'body') ?? def).filter((s) => s.type !== 'comment');
    const docstring = body[0]?.type === 'expression_statement' && namedChildren(body[0])[0]?.type === 'string';
    const rest = docstring ? body.slice(1) : body;
    const ret = rest.length === 1 && rest[0]!.type === 'return_statement' ? namedChildren(rest[0]!)[0] : undefined;
    return ret ? { def, params: ps.map((p) => p.text), expr: ret } : undefined;
  }

  /**
   * A class of the module whose bases are `object` or plain classes of the module, with no keyword
   * (no metaclass): no built-in value, class object or function is an instance of it (an ABC's
   * `register` or `__subclasshook__` could make one).
   */
  plain(name: string): boolean {
    const known = this.plainCache.get(name);
    if (known !== undefined) return known;
    if (this.installed.includes(name)) return true;
    this.plainCache.set(name, false);
    const out = plainClass(this.definition(name), (b) => this.plain(b.text));
    this.plainCache.set(name, out);
    return out;
  }
}

/** A helper's condition over its own parameters, read over the caller's (`names`: helper parameter → caller's); a test of any other is data. */
export function renameParams(c: Cond, names: Map<string, string>, whole: Cond): Cond {
  switch (c.k) {
    case 'true':
    case 'false':
    case 'data':
      return c;
    case 'not':
      return { k: 'not', e: renameParams(c.e, names, whole) };
    case 'and':
    case 'or':
      return { k: c.k, es: c.es.map((e) => renameParams(e, names, whole)) };
    default: {
      const base = splitPath(c.param)?.base ?? c.param;
      const to = names.get(base);
      return to === undefined ? whole : { ...c, param: to + c.param.slice(base.length) };
    }
  }
}

/** `x` of `type(x)`. */
export function typeArg(n: Node): Node | undefined {
  // `x.__class__` is the class isinstance reads too.
  if (n.type === 'attribute' && field(n, 'attribute')?.text === '__class__') return field(n, 'object') ?? undefined;
  const args = n.type === 'call' && field(n, 'function')?.text === 'type' ? namedChildren(field(n, 'arguments') ?? n) : [];
  return args.length === 1 ? args[0] : undefined;
}

/** The classes a type argument names (`T`, `(A, B)`), as written. */
export function typeNames(t: Node, depth = 0): string[] | undefined {
  if (depth > 8) return undefined;
  // `(A, (B, C))`, `A | B` (PEP 604) and `type(None)` as Python's isinstance reads them.
  if (t.type === 'tuple' || t.type === 'parenthesized_expression' || (t.type === 'binary_operator' && field(t, 'operator')?.text === '|')) {
    const parts = namedChildren(t).map((x) => typeNames(x, depth + 1));
    return parts.every((x): x is string[] => !!x) ? parts.flat() : undefined;
  }
  if (t.type === 'call' && t.text.replace(/\s+/g, '') === 'type(None)') return ['type(None)'];
  const name = dottedName(t);
  return name ? [name] : undefined;
}

/** `isinstance(param, types)`, with the module's plain classes among them marked. */
export function isinstanceOf(param: string, types: string[], o: { subclass?: true; exact?: true }, defs: ModuleDefs | undefined): Cond {
  const plain = defs ? types.filter((t) => defs.plain(t)) : [];
  return { k: 'isinstance', param, types, ...o, ...(plain.length ? { plain } : {}) };
}

/** `p == C` for a bare parameter `p` (`param`) and a plain class `C` of the module (not rebound by the def): `p` is that very class. */
export function classIdentity(param: string | undefined, c: Node, defs: ModuleDefs | undefined): Cond | undefined {
  if (!param || c.type !== 'identifier' || !defs?.plain(c.text)) return undefined;
  return isinstanceOf(param, [c.text], { subclass: true, exact: true }, defs);
}

/**
 * A call of `helper` with `args`: its one returned expression read over its own parameters (`read`),
 * then over what the caller passed them (`param`: the caller's parameter an argument is, if one).
 * Undefined when the call does not bind the helper's parameters one by one.
 */
export function throughHelper(
  helper: Helper,
  call: Node,
  args: Node[],
  param: (arg: Node) => string | undefined,
  read: (params: Map<string, ParamSpec>, expr: Node) => Cond,
): Cond | undefined {
  if (args.length !== helper.params.length || args.some((a) => a.type === 'keyword_argument' || a.type.endsWith('splat'))) return undefined;
  const names = new Map<string, string>();
  args.forEach((a, i) => {
    const q = param(a);
    if (q) names.set(helper.params[i]!, q);
  });
  const own = new Map(helper.params.map((q): [string, ParamSpec] => [q, { name: q, kind: 'normal' }]));
  return renameParams(read(own, helper.expr), names, data(call));
}

export interface Branch {
  /** null for `else`. */
  test: Node | null;
  block: Node | null;
}

/** The branches of an `if` statement in order: its `elif`s, its `else` (test null). */
export function branches(ifs: Node): Branch[] {
  const out: Branch[] = [{ test: field(ifs, 'condition'), block: field(ifs, 'consequence') }];
  for (const c of namedChildren(ifs)) {
    if (c.type === 'elif_clause') out.push({ test: field(c, 'condition'), block: field(c, 'consequence') });
    else if (c.type === 'else_clause') out.push({ test: null, block: field(c, 'body') ?? namedChildren(c).find((b) => b.type === 'block') ?? null });
  }
  return out;
}

/** Two constants compared (`os.sep != '/'` as this Python has it): decided once, here; a local's value is data. */
export function twoConstants(ln: Node, op: CmpOp, rn: Node, whole: Node, constant: (name: string) => PyVal | undefined): Cond {
  const a = literalOf(ln, constant);
  const b = literalOf(rn, constant);
  const both = a && b ? compare(a, op, b) : undefined;
  return both === undefined ? { k: 'data', text: whole.text } : { k: both ? 'true' : 'false' };
}
