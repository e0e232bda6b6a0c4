/**
 * The value of a local name passed as an argument, when the caller's function shows it: one plain
 * statement `x = <literal>` binds it, in a block that holds the call, above it, and nothing else in
 * the function binds it (no loop target, `+=`, `with ... as`, walrus, `del`, `global`, parameter,
 * nested function reading it). A mutable value (list, dict, set) counts only when the name is not
 * used between its binding and the call, nor on an earlier pass of a loop around the call:
 * `data = []; statistics.median_low(data)` is the literal `[]`.
 *
 * A function's names are read in one pass over its body (per function, memoised by tree): a file's
 * every argument is then a lookup, not a walk of its function.
 */
import type { Node } from '../parse/parser.js';
import { contains, field } from '../parse/syntax.js';
import { literalOf } from '../rules/condition/literal.js';
import type { PyVal } from '../rules/condition/types.js';
import type { Scopes } from '../semantic/scopes.js';

const NESTED = new Set(['function_definition', 'class_definition', 'lambda']);
const LOOPS = new Set(['for_statement', 'while_statement']);
const MUTABLE = new Set<PyVal['t']>(['list', 'dict', 'set']);
const NOT_READS = new Set([
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
  'as_pattern_target',
  'named_expression',
  'delete_statement',
  'global_statement',
  'nonlocal_statement',
  'parameters',
  'default_parameter',
  'typed_parameter',
  'typed_default_parameter',
  'aliased_import',
  'dotted_name',
  'except_clause',
  'lambda_parameters',
]);

/**
 * What a function does with one of its names: its plain `x = v` bindings, its reads, and whether
 * anything else binds it or a nested scope sees it (`other`: a parameter too; `otherInBody`: the body only).
 */
export interface NameUse {
  bindings: Node[];
  reads: Node[];
  other: boolean;
  otherInBody: boolean;
}

/** A plain `x = value` statement binding `id`, else undefined. */
function plainBinding(id: Node): Node | undefined {
  const a = id.parent;
  if (a?.type !== 'assignment' || field(a, 'left')?.id !== id.id || a.parent?.type !== 'expression_statement') return undefined;
  return a;
}

/** Whether `id` is a read of the name (not a binding of it, nor an attribute's or keyword's name). */
export function isRead(id: Node): boolean {
  const up = id.parent;
  if (!up) return false;
  if (up.type === 'attribute' && field(up, 'attribute')?.id === id.id) return false;
  if (up.type === 'keyword_argument' && field(up, 'name')?.id === id.id) return false;
  if (
    (up.type === 'assignment' || up.type === 'augmented_assignment' || up.type === 'for_statement' || up.type === 'for_in_clause') &&
    field(up, 'left')?.id === id.id
  )
    return false;
  return !NOT_READS.has(up.type);
}

/** Builtins that read a container without changing it or giving anything a way to (its items are values: see `untouchedBy`). */
const READERS = new Set(['len', 'bool', 'isinstance', 'repr', 'str', 'sorted', 'sum', 'min', 'max', 'any', 'all', 'tuple', 'list', 'set', 'frozenset']);
/** Expressions whose operand is only read: a test, an operator making a new value, an iteration. */
const READ_ONLY = new Set([
  'comparison_operator',
  'boolean_operator',
  'not_operator',
  'binary_operator',
  'assert_statement',
  'if_statement',
  'while_statement',
]);

/** A value whose items cannot change: no list, dict or set inside it. */
function deepValue(v: PyVal): boolean {
  if (v.t === 'dict') return v.entries.every(([k, x]) => deepValue(k) && deepValue(x));
  if (v.t === 'list' || v.t === 'set' || v.t === 'tuple') return v.items.every((x) => deepValue(x) && !MUTABLE.has(x.t));
  return true;
}

/**
 * A read of a local holding `value` (a list, dict or set of values) that cannot change it: `len(data)`,
 * `data == [...]`, `x in data`, `data[0]`, `data + [x]`, `for x in data`, `if data:` (the builtin not
 * rebound in the file). A method call, an assignment to another name or an argument of any other
 * call may change it.
 */
export function untouchedBy(id: Node, value: PyVal, scopes: Scopes): boolean {
  if (!deepValue(value)) return false;
  let n = id;
  while (n.parent?.type === 'parenthesized_expression') n = n.parent;
  const up = n.parent;
  if (!up) return false;
  if (READ_ONLY.has(up.type)) return up.type !== 'if_statement' && up.type !== 'while_statement' ? true : field(up, 'condition')?.id === n.id;
  if (up.type === 'subscript') return field(up, 'value')?.id === n.id && isRead(up);
  if (up.type === 'for_statement' || up.type === 'for_in_clause') return field(up, 'right')?.id === n.id;
  const fn = up.type === 'argument_list' ? field(up.parent!, 'function') : null;
  return fn?.type === 'identifier' && READERS.has(fn.text) && up.parent?.type === 'call' && !scopes.bindsAround(fn.text, up);
}

const byTree = new WeakMap<object, Map<number, Map<string, NameUse>>>();

/** The function's names (one pass over its body and parameters). */
export function namesOf(fn: Node): Map<string, NameUse> {
  let trees = byTree.get(fn.tree);
  if (!trees) byTree.set(fn.tree, (trees = new Map()));
  let names = trees.get(fn.id);
  if (names) return names;
  names = new Map();
  const use = (name: string) => {
    let u = names!.get(name);
    if (!u) names!.set(name, (u = { bindings: [], reads: [], other: false, otherInBody: false }));
    return u;
  };
  for (const p of field(fn, 'parameters')?.descendantsOfType('identifier') ?? []) if (p) use(p.text).other = true;
  const body = field(fn, 'body');
  for (const id of body?.descendantsOfType('identifier') ?? []) {
    if (!id) continue;
    const u = use(id.text);
    let nested = false;
    for (let p = id.parent; p && p.id !== body!.id && !nested; p = p.parent) nested = NESTED.has(p.type);
    if (nested) u.other = u.otherInBody = true;
    else if (isRead(id)) u.reads.push(id);
    else {
      const b = plainBinding(id);
      if (b) u.bindings.push(b);
      else u.other = u.otherInBody = true;
    }
  }
  trees.set(fn.id, names);
  return names;
}

/** The one plain binding of local `n` above `call`, in a block that holds the call (per the rules above). */
function bindingAbove(n: Node, call: Node, scopes: Scopes): { right: Node; stmt: Node; use: NameUse; scope: Node } | undefined {
  if (n.type !== 'identifier') return undefined;
  const scope = scopes.scopesOf(n)[0];
  if (scope?.type !== 'function_definition') return undefined;
  const use = namesOf(scope).get(n.text);
  const binding = use && !use.other && use.bindings.length === 1 ? use.bindings[0]! : undefined;
  const stmt = binding?.parent;
  const right = binding ? field(binding, 'right') : null;
  if (!right || !stmt?.parent || !contains(stmt.parent, call) || stmt.endIndex > call.startIndex) return undefined;
  return { right, stmt, use: use!, scope };
}

/** A list, dict or set a local holds: not read (and so perhaps changed) before the call, on this pass or an earlier one. */
function unchangedUntil(n: Node, call: Node, b: { stmt: Node; use: NameUse; scope: Node }, value: PyVal, scopes: Scopes): boolean {
  const body = field(b.scope, 'body');
  for (let p = call.parent; p && p.id !== body?.id; p = p.parent) if (LOOPS.has(p.type) && !contains(p, b.stmt)) return false;
  return b.use.reads.every((r) => r.id === n.id || r.startIndex < b.stmt.startIndex || r.startIndex >= call.endIndex || untouchedBy(r, value, scopes));
}

/** The literal a local name `n` (an argument of `call`) holds there, per the rules above. */
export function localLiteral(n: Node, call: Node, scopes: Scopes, constant: (name: string) => PyVal | undefined): PyVal | undefined {
  const b = bindingAbove(n, call, scopes);
  const value = b && literalOf(b.right, constant);
  if (!value || !MUTABLE.has(value.t)) return value;
  return unchangedUntil(n, call, b, value, scopes) ? value : undefined;
}

/** The list or tuple written out (or list comprehension) that local `n` holds at `call`, the list unchanged since (`args = [range(0), dict(a=1)]`): its length, its items. */
export function localDisplay(n: Node, call: Node, scopes: Scopes): Node | undefined {
  const b = bindingAbove(n, call, scopes);
  if (b?.right.type === 'tuple') return b.right;
  const list = b?.right.type === 'list' || b?.right.type === 'list_comprehension';
  return list && unchangedUntil(n, call, b!, { t: 'list', items: [] }, scopes) ? b!.right : undefined;
}

/**
 * The right side of the one plain `x = <dotted name>` statement that binds local `n` above `call`
 * (`P = inspect.Parameter`), per the rules above: what `n` stands for there. Undefined otherwise.
 */
export function localAlias(n: Node, call: Node, scopes: Scopes): Node | undefined {
  if (n.type !== 'identifier') return undefined;
  const scope = scopes.scopesOf(n)[0];
  if (scope?.type !== 'function_definition') return undefined;
  const u = namesOf(scope).get(n.text);
  const binding = u && !u.other && u.bindings.length === 1 ? u.bindings[0]! : undefined;
  const stmt = binding?.parent;
  if (!binding || !stmt?.parent || !contains(stmt.parent, call) || stmt.endIndex > call.startIndex) return undefined;
  const right = field(binding, 'right');
  return right && /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/.test(right.text) ? right : undefined;
}

/**
 * The right side of the plain `x = <value>` statement whose value local `n` holds at `at`, when
 * every binding of the name is such a statement of the function's own body (not under `if`, a
 * loop, `try` or `with`): the last one above `at` then holds on every path (`ip1 = ip_address('1.1.1.0')`,
 * later `ip1 = ip_address('1::')`). Whatever ran in between may have changed a mutable value: the
 * caller says what it accepts. Undefined otherwise.
 */
export function reachingValue(n: Node, at: Node, scopes: Scopes): Node | undefined {
  if (n.type !== 'identifier') return undefined;
  const scope = scopes.scopesOf(n)[0];
  const body = scope?.type === 'function_definition' ? field(scope, 'body') : undefined;
  const u = body && namesOf(scope!).get(n.text);
  if (!u || u.other || !u.bindings.length || !contains(body!, at)) return undefined;
  let last: Node | undefined;
  for (const b of u.bindings) {
    const stmt = b.parent!;
    if (stmt.parent?.id !== body!.id) return undefined;
    if (stmt.endIndex <= at.startIndex && (!last || stmt.startIndex > last.startIndex)) last = b;
  }
  return (last && field(last, 'right')) ?? undefined;
}
