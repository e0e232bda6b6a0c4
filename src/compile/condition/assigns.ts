/**
 * The raising def's local bindings that a test reads through (./expr.ts): rebindings of a
 * parameter before the test (guarded, keeping its length, a None replaced by a literal), `n =
 * len(p)`, and locals bound to an attribute every object has.
 */
import type { Node } from '../../parse/parser.js';
import { contains, field, namedChildren, stringValue } from '../../parse/syntax.js';
import { literalOf } from '../../rules/condition/literal.js';
import type { ParamSpec, PyVal } from '../../rules/condition/types.js';
import { selfAttr } from './initflow.js';
import { typeArg } from './helpers.js';

const SCOPES = new Set(['function_definition', 'lambda', 'class_definition']);

/**
 * Attributes of `object` itself, which every Python object has and which are never None (`__hash__`
 * and `__doc__` may be None, so they are not here): `getattr(x, "__reduce_ex__", None)` is never the default.
 */
const OBJECT_ATTRIBUTES = new Set([
  '__class__',
  '__delattr__',
  '__dir__',
  '__eq__',
  '__format__',
  '__ge__',
  '__getattribute__',
  '__gt__',
  '__init__',
  '__init_subclass__',
  '__le__',
  '__lt__',
  '__ne__',
  '__new__',
  '__reduce__',
  '__reduce_ex__',
  '__repr__',
  '__setattr__',
  '__sizeof__',
  '__str__',
  '__subclasshook__',
]);

/** `getattr(<any>, "<an attribute of object>", <default>)`. */
function objectAttribute(n: Node | null): boolean {
  if (n?.type !== 'call' || field(n, 'function')?.text !== 'getattr') return false;
  const args = namedChildren(field(n, 'arguments') ?? n).filter((a) => a.type !== 'comment');
  const name = args[1]?.type === 'string' ? stringValue(args[1]) : undefined;
  return args.length >= 2 && !!name && OBJECT_ATTRIBUTES.has(name);
}

export interface Assign {
  name: string;
  row: number;
  /** The binding statement. */
  node: Node;
  /** `if p is None: p = <literal>` / `p = <literal> if p is None else p`. */
  noneMeans?: PyVal;
  /** `p = sorted(p)` / `list(p)` / `tuple(p)`: a rebinding that keeps the parameter's length. */
  keepsLength?: boolean;
  /** Or the kinds of its items (`p = set(p)`). */
  keepsItems?: boolean;
  /** A rebinding under `if G:` (no `elif`/`else`) in the def's own body: when G is false the parameter keeps its value. */
  guard?: Node;
  /** A local `n = len(p)` of a parameter: `n` stands for the parameter's length. */
  lenOf?: string;
  /** A local bound to `getattr(x, "<an attribute of object>", default)` (the statement is `node`). */
  objectAttr?: true;
}
const BINDERS = [
  'assignment',
  'augmented_assignment',
  'for_statement',
  'for_in_clause',
  'named_expression',
  'as_pattern_target',
  'delete_statement',
  'global_statement',
  'nonlocal_statement',
];

/** `n` lies in a function, lambda or class nested in `def`. */
function inNestedScope(n: Node, def: Node): boolean {
  for (let p = n.parent; p && p.id !== def.id; p = p.parent) if (SCOPES.has(p.type)) return true;
  return false;
}

/** Every binding of a parameter inside `def` (not nested scopes), with the None-replacement patterns recognised. */
export function readAssigns(def: Node, params: Map<string, ParamSpec>, constant: (name: string) => PyVal | undefined): Assign[] {
  const out: Assign[] = [];
  const body = field(def, 'body');
  if (!body) return out;
  // One search of the tree for the binding statements (in document order), then those of nested scopes dropped.
  for (const n of body.descendantsOfType(BINDERS)) {
    if (!n || inNestedScope(n, def)) continue;
    const targets: Node[] = [];
    if (n.type === 'assignment' || n.type === 'augmented_assignment') targets.push(field(n, 'left')!);
    else if (n.type === 'for_statement' || n.type === 'for_in_clause') targets.push(field(n, 'left')!);
    else if (n.type === 'named_expression') targets.push(field(n, 'name')!);
    else if (n.type === 'as_pattern_target' || n.type === 'delete_statement' || n.type === 'global_statement' || n.type === 'nonlocal_statement')
      targets.push(n);
    for (const t of targets) {
      if (!t) continue;
      // `kwargs['k'] = v` and `obj.attr = v` bind no name: only names, and the names in a tuple or list target.
      const ids =
        t.type === 'identifier'
          ? [t]
          : t.type === 'subscript' || t.type === 'attribute'
            ? []
            : t.descendantsOfType('identifier').filter((x): x is Node => !!x && x.parent?.type !== 'subscript' && x.parent?.type !== 'attribute');
      for (const id of ids) {
        if (params.has(id.text))
          out.push({
            name: id.text,
            row: n.startPosition.row,
            node: n,
            noneMeans: noneReplacement(n, id.text, constant),
            keepsLength: keepsLength(n, id.text),
            keepsItems: keepsLength(n, id.text, /^(sorted|list|tuple|set|frozenset)$/),
            guard: guardOf(n, def),
          });
        else
          out.push({
            name: id.text,
            row: n.startPosition.row,
            node: n,
            lenOf: n.type === 'assignment' && t === id ? lenArgument(field(n, 'right')) : undefined,
            objectAttr: n.type === 'assignment' && t === id && objectAttribute(field(n, 'right')) ? true : undefined,
          });
      }
    }
  }
  return out;
}

/** Right-hand sides a test may be read through: what they hold cannot change after the binding (no container, no object). */
const PURE_VALUES = new Set(['identifier', 'comparison_operator', 'boolean_operator', 'not_operator', 'parenthesized_expression', 'call']);
const PURE_CALLS = new Set(['isinstance', 'issubclass', 'len', 'bool', 'callable']);

/**
 * The value `n` (a local, or `self.x`) holds where it is read, when one plain statement in a block
 * that holds `n` binds it, above `n`, and nothing else in the def binds it (for `self.x`: nothing between
 * the binding and `n` hands `self` to a call or calls one of its methods): `binary = "b" in mode`,
 * `self.metadata_encoding = metadata_encoding`. Only values that cannot change after the binding
 * are read through: a parameter, a comparison, a boolean test, `len(...)`, `isinstance(...)`.
 */
export function boundValue(n: Node, def: Node, assigns: Assign[], params: Map<string, ParamSpec>): Node | undefined {
  let stmt: Node | undefined;
  if (n.type === 'identifier') {
    if (params.has(n.text)) return undefined;
    const binds = assigns.filter((a) => a.name === n.text);
    if (binds.length !== 1) return undefined;
    stmt = binds[0]!.node;
  } else if (n.type === 'attribute' && field(n, 'object')?.text === 'self') {
    const binds = (field(def, 'body')?.descendantsOfType(['assignment', 'augmented_assignment']) ?? []).filter(
      (a): a is Node => !!a && field(a, 'left')?.text === n.text,
    );
    if (binds.length !== 1) return undefined;
    stmt = binds[0]!;
  } else return undefined;
  const top = stmt.parent;
  const right = field(stmt, 'right');
  if (stmt.type !== 'assignment' || field(stmt, 'left')?.text !== n.text || top?.type !== 'expression_statement') return undefined;
  // The binding's block holds the test: whenever the test runs, the binding ran before it on that pass.
  if (!top.parent || !contains(top.parent, n) || top.endIndex > n.startIndex || !right || !PURE_VALUES.has(right.type)) return undefined;
  if (right.type === 'identifier' && !params.has(right.text)) return undefined;
  if (right.type === 'call' && !PURE_CALLS.has(field(right, 'function')?.text ?? '') && !keywordRead(right, params)) return undefined;
  if (n.type === 'attribute' && selfEscapes(def, top.endIndex, n.startIndex)) return undefined;
  return right;
}

/**
 * `kwargs.get('k', default)` / `kwargs.pop('k', default)` on the `**kwargs` parameter: the keyword's
 * value, or the default (`constant` resolves a module constant written as the key).
 */
export function keywordRead(
  call: Node,
  params: Map<string, ParamSpec>,
  constant?: (name: string) => PyVal | undefined,
): { kw: Node; key: string; dflt: Node | undefined; pop: boolean } | undefined {
  const fn = field(call, 'function');
  const obj = fn?.type === 'attribute' ? field(fn, 'object') : null;
  const method = fn?.type === 'attribute' ? field(fn, 'attribute')?.text : undefined;
  if (obj?.type !== 'identifier' || params.get(obj.text)?.kind !== 'var-keyword' || (method !== 'get' && method !== 'pop')) return undefined;
  const args = namedChildren(field(call, 'arguments') ?? call).filter((a) => a.type !== 'comment');
  const key = args[0] ? literalOf(args[0], constant) : undefined;
  if (key?.t !== 'str' || args.length > 2 || args.some((a) => a.type === 'keyword_argument' || a.type.endsWith('splat'))) return undefined;
  return { kw: obj, key: key.v, dflt: args[1], pop: method === 'pop' };
}

/** A call between `from` and `to` that may change `self`: one of its methods, or `self` passed on. */
function selfEscapes(def: Node, from: number, to: number): boolean {
  return (field(def, 'body')?.descendantsOfType('call') ?? []).some((c) => {
    if (!c || c.startIndex < from || c.startIndex >= to) return false;
    const fn = field(c, 'function');
    return (fn?.type === 'attribute' && /^self\b/.test(fn.text)) || /\bself\b/.test(field(c, 'arguments')?.text ?? '');
  });
}

/** Whether the binding `a` may run before `use` on one pass through `def`: it is above it, and not in a branch that excludes it (see `exclusive`). */
export function reaches(a: Assign, use: Node, def: Node): boolean {
  return a.row < use.startPosition.row && !exclusive(a.node, use, def) && !leavesFirst(a.node, use);
}

/**
 * Whether every path that runs `n` leaves the def before `use`: a block around `n` (not around `use`)
 * ends with `return` or `raise` and holds no `break` or `continue` (`if w is l is None: w, l = ...;
 * return w, l` does not rebind them for what follows). Not inside a `try` (a handler may go on).
 */
function leavesFirst(n: Node, use: Node): boolean {
  let leaves = false;
  for (let x = n; x.parent; x = x.parent) {
    const s = x.parent;
    if (s.type === 'try_statement') return false;
    if (contains(s, use)) return leaves;
    if (leaves || s.type !== 'block') continue;
    const last = namedChildren(s)
      .filter((c) => c.type !== 'comment')
      .at(-1);
    leaves =
      (last?.type === 'return_statement' || last?.type === 'raise_statement') &&
      !s.descendantsOfType(['break_statement', 'continue_statement']).some((b) => !!b);
  }
  return leaves;
}

/**
 * Whether `n` lies in a branch of an `if`/`elif`/`else` chain whose other branch holds `use`, with no
 * loop around the chain that could run `n` on an earlier pass: in `if p is None: p = -1 elif p < 0:`
 * the test reads the argument.
 */
export function exclusive(n: Node, use: Node, def: Node): boolean {
  let chain = false;
  for (let x = n; x.parent && x.parent.id !== def.id; x = x.parent) {
    const s = x.parent;
    if (chain) {
      if (LOOPS.has(s.type)) return false;
      continue;
    }
    if (s.type !== 'if_statement' || (x.type !== 'block' && x.type !== 'elif_clause' && x.type !== 'else_clause')) continue;
    chain = contains(s, use) && !contains(x, use);
  }
  return chain;
}

const LOOPS = new Set(['for_statement', 'while_statement']);

/** The `if` (no `elif`/`else`) whose body holds the assignment statement directly, and that body. */
function ifAround(a: Node): { ifs: Node; block: Node } | undefined {
  const stmt = a.parent;
  const block = stmt?.parent;
  const ifs = block?.parent;
  if (stmt?.type !== 'expression_statement' || block?.type !== 'block' || ifs?.type !== 'if_statement') return undefined;
  if (namedChildren(ifs).some((c) => c.type === 'elif_clause' || c.type === 'else_clause')) return undefined;
  return { ifs, block };
}

/**
 * The test of the `if` around the assignment, when no loop lies between that `if` and the def (a
 * pass before could have rebound the parameter): a test in the block that holds the `if`, below it,
 * reads the parameter when the guard is false (ExprReader.guards checks the block holds the test).
 */
function guardOf(a: Node, def: Node): Node | undefined {
  const around = ifAround(a);
  if (!around) return undefined;
  for (let p = around.ifs.parent; p && p.id !== def.id; p = p.parent) if (LOOPS.has(p.type) || SCOPES.has(p.type)) return undefined;
  return field(around.ifs, 'condition') ?? undefined;
}

/** `p = sorted(p)`, `p = list(p)`, `p = tuple(p)` (any keyword arguments): the rebinding keeps p's length (`set(p)` too: its items). */
function keepsLength(a: Node, name: string, fns = /^(sorted|list|tuple)$/): boolean {
  if (a.type !== 'assignment' || field(a, 'left')?.text !== name) return false;
  const right = field(a, 'right');
  if (right?.type !== 'call' || !fns.test(field(right, 'function')?.text ?? '')) return false;
  const args = namedChildren(field(right, 'arguments') ?? right).filter((x) => x.type !== 'keyword_argument' && x.type !== 'comment');
  return args.length === 1 && args[0]!.type === 'identifier' && args[0]!.text === name;
}

/** The parameter name `x` of `len(x)`. */
function lenArgument(right: Node | null): string | undefined {
  if (right?.type !== 'call' || field(right, 'function')?.text !== 'len') return undefined;
  const args = namedChildren(field(right, 'arguments') ?? right);
  return args.length === 1 && args[0]!.type === 'identifier' ? args[0]!.text : undefined;
}

/** `if p is None: p = LIT` (the if's only statement, no else) or `p = LIT if p is None else p`. */
function noneReplacement(a: Node, name: string, constant: (name: string) => PyVal | undefined): PyVal | undefined {
  if (a.type !== 'assignment' || field(a, 'left')?.text !== name) return undefined;
  const right = field(a, 'right');
  const isNoneTest = (c: Node | null | undefined) => !!c && c.type === 'comparison_operator' && c.text.replace(/\s+/g, ' ') === `${name} is None`;
  if (right?.type === 'conditional_expression') {
    const [v, test, other] = namedChildren(right);
    if (isNoneTest(test) && other?.text === name) return literalOf(v, constant);
    return undefined;
  }
  const around = ifAround(a);
  if (!around || namedChildren(around.block).length !== 1) return undefined;
  return isNoneTest(field(around.ifs, 'condition')) ? literalOf(right, constant) : undefined;
}

/** Methods that only read a mapping or take keys out of it. */
const SHRINK = new Set(['pop', 'popitem', 'clear', 'get', 'keys', 'items', 'values', 'copy']);

/**
 * `**kwargs` at `n` is what the call passed: before `n`, the def only reads it (`kwargs.get(k)`,
 * `kwargs[k]`, `k in kwargs`, `**kwargs`), never rebinds, mutates (`kwargs.pop(k)`) or hands it to code that could.
 */
export function unchangedMapping(def: Node, n: Node, params: Map<string, ParamSpec>, constant: (name: string) => PyVal | undefined, key?: string): boolean {
  return mappingUsesBefore(def, n, params, constant, key, false);
}

/**
 * `**kwargs` before `n` is only read or shrunk (`kwargs.pop('force', False)`, `del kwargs[k]`): a
 * call that passes no keyword leaves it empty there. Nothing binds it again, stores into it or
 * hands it on (a splat `f(**kwargs)` only reads it).
 */
export function onlyShrunk(def: Node, n: Node): boolean {
  return mappingUsesBefore(def, n, new Map(), () => undefined, undefined, true);
}

/** Every use of the mapping `n` names before `n` reads it, or (`shrinks`) takes keys out of it. */
function mappingUsesBefore(
  def: Node,
  n: Node,
  params: Map<string, ParamSpec>,
  constant: (name: string) => PyVal | undefined,
  key: string | undefined,
  shrinks: boolean,
): boolean {
  const name = n.text;
  for (const use of def.descendantsOfType('identifier')) {
    if (!use || use.text !== name || use.startIndex >= n.startIndex || use.parent?.type === 'dictionary_splat_pattern' || exclusive(use, n, def)) continue;
    const p = use.parent;
    if (p?.type === 'dictionary_splat') continue;
    const method = p?.type === 'attribute' && field(p, 'object')?.id === use.id && p.parent?.type === 'call' ? field(p, 'attribute')?.text : undefined;
    if (method === 'get' || (shrinks && method && SHRINK.has(method))) continue;
    // Another keyword popped (`kwargs.pop('force', False)` before `kwargs.pop('style', '%')`) leaves this one as passed.
    const read = key !== undefined && p?.type === 'attribute' && p.parent?.type === 'call' ? keywordRead(p.parent, params, constant) : undefined;
    if (read && read.kw.id === use.id && read.key !== key) continue;
    if (p?.type === 'comparison_operator' && namedChildren(p).at(-1)?.id === use.id) continue;
    if (p?.type === 'subscript' && field(p, 'value')?.id === use.id) {
      const how = subscriptUse(p);
      if (how !== 'written' && (shrinks || how === 'read')) continue;
    }
    return false;
  }
  return true;
}

/** What a subscript `m[k]` does with `m`: sets an item (assigned or augmented), takes one out (`del m[k]`), or reads one. */
export function subscriptUse(s: Node): 'written' | 'deleted' | 'read' {
  const up = s.parent;
  if ((up?.type === 'assignment' || up?.type === 'augmented_assignment') && field(up, 'left')?.id === s.id) return 'written';
  return up?.type === 'delete_statement' || up?.type === 'expression_list' ? 'deleted' : 'read';
}

/**
 * `if isinstance(message, Warning): category = message.__class__` before the test: the test is
 * read over the parameter, and holds as written only when no such guard does; when one does,
 * the parameter's value is not known there.
 */
export function guardsOf(assigns: Assign[], params: Map<string, ParamSpec>, n: Node, through: string[] = []): Assign[] {
  const row = n.startPosition.row;
  const names = new Set([...through, ...(n.type === 'identifier' ? [n.text] : n.descendantsOfType('identifier').map((x) => x?.text ?? ''))]);
  // The `if` is in a block that holds the test: the test runs after it on every pass that reaches it.
  const holds = (a: Assign) => !!a.guard?.parent?.parent && contains(a.guard.parent.parent, n);
  return assigns.filter((a) => a.guard && !a.noneMeans && a.row < row && names.has(a.name) && params.has(a.name) && holds(a) && !leavesFirst(a.node, n));
}

/**
 * What a guarded rebinding puts in the parameter, when the test can read it: the receiver's own
 * attribute (`if not pwd: pwd = self.pwd`, read as its state: ./state.ts) or a literal.
 */
export function reboundValues(gs: Assign[], constant: (name: string) => PyVal | undefined): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const a of gs) {
    const right = a.node.type === 'assignment' && field(a.node, 'left')?.type === 'identifier' ? field(a.node, 'right') : null;
    // A literal, `self.x`, or the class of a parameter (`category = message.__class__`): what the test reads of it is known (./expr.ts).
    // An attribute of a name (`check_hostname = context.check_hostname`) is data, said as what it is.
    const attr = right?.type === 'attribute' && field(right, 'object')?.type === 'identifier';
    const plain = right && (selfAttr(right) || literalOf(right, constant) || typeArg(right)?.type === 'identifier' || attr);
    if (plain && gs.filter((x) => x.name === a.name).length === 1) out.set(a.name, right);
  }
  return out;
}

/**
 * The sentinel a test compares a parameter with (`x is _MISSING`, `_MISSING` a parameter's
 * default), as that default's text; also through a local bound once above `use` to the instance's
 * copy of it (`marker = self.__marker` in `def pop(self, key, default=__marker)`, OrderedDict.pop).
 */
export function sentinelOf(use: Node, def: Node, assigns: Assign[], params: Map<string, ParamSpec>): string | undefined {
  const isDefault = (text: string | undefined) => !!text && [...params.values()].some((q) => q.defaultText === text);
  if ((use.type === 'identifier' || use.type === 'attribute') && isDefault(use.text)) return use.text;
  const binds = use.type === 'identifier' ? assigns.filter((a) => a.name === use.text) : [];
  const only = binds.length === 1 && binds[0]!.node.type === 'assignment' && reaches(binds[0]!, use, def) ? binds[0]!.node : undefined;
  const right = only ? field(only, 'right') : null;
  const owner = right?.type === 'attribute' ? field(right, 'object')?.text : undefined;
  const attr = owner === 'self' || owner === 'cls' ? field(right!, 'attribute')?.text : undefined;
  return isDefault(attr) ? attr : undefined;
}
