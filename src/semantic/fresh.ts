/**
 * A method call on an object the caller has just constructed: `zf = ZipFile(p, 'w')` or `with
 * ZipFile(p, 'w') as zf:`, then `zf.writestr(...)`, with nothing in between that could change the
 * object but calls of its own methods (which the matcher weighs: a rule's state facts name the
 * methods that change the state it reads, src/compile/condition/state.ts).
 *
 * The receiver is a local name of the call's function (or of the module) that one statement binds
 * to a call, the call it is read from being below that statement in its block (or inside the
 * `with` body). Every other use of the name before the call (and anywhere in a loop around the
 * call that does not hold the binding) must be a method call, an attribute read or an attribute set
 * on it (counted as a call of that name: a property's setter), or a `with x:` statement (a call of
 * `__enter__`, and of `__exit__` for a call below it); an object handed to other code,
 * stored or compared is not fresh. Of several bindings, the last one above the call whose block
 * holds it reaches it, when no other may run between them.
 */
import type { Node } from '../parse/parser.js';
import { contains, field, namedChildren } from '../parse/syntax.js';
import type { Scopes } from './scopes.js';

export interface FreshReceiver {
  /** The constructor as written (`ZipFile`, `zipfile.ZipFile`): the model qualifies it. */
  ctor: Node;
  /** The methods called (or read as attributes) on it before the call: `__enter__` for a `with` target. */
  called: Set<string>;
  /** The constructor call (its arguments decide state `__init__` stores from them). */
  call?: Node;
  /**
   * The uses between the constructor and the call, in order (none in a loop around the call): the
   * method called or attribute read or set, and whether it is a call statement that every pass
   * to the call runs (`zf.close()` in a block that holds the call, above it).
   */
  seq?: { name: string; dominates: boolean }[];
}

const NESTED = new Set(['function_definition', 'class_definition', 'lambda']);
const LOOPS = new Set(['for_statement', 'while_statement']);

/** The binding of `id` when it is one this reader follows: `x = C(...)` as a statement, or `with C(...) as x`. */
function bindingOf(id: Node): { stmt: Node; value: Node; within: Node; later: Node[]; with: boolean } | 'other' | undefined {
  const up = id.parent;
  if (!up) return undefined;
  if (up.type === 'assignment' && field(up, 'left')?.id === id.id) {
    const right = field(up, 'right');
    const stmt = up.parent;
    if (right?.type !== 'call' || stmt?.type !== 'expression_statement' || !stmt.parent) return 'other';
    return { stmt, value: right, within: stmt.parent, later: [], with: false };
  }
  if (up.type === 'as_pattern_target') {
    const as = up.parent;
    const item = as?.parent;
    const value = as ? namedChildren(as)[0] : undefined;
    const ws = item?.parent?.parent;
    const body = ws ? field(ws, 'body') : null;
    if (as?.type !== 'as_pattern' || item?.type !== 'with_item' || value?.type !== 'call' || ws?.type !== 'with_statement' || !body) return 'other';
    // The body, and the items after this one (`with ZipFile(p) as zf, zf.open(n) as f:`).
    const later = namedChildren(item.parent!).filter((x) => x.startIndex > item.endIndex);
    return { stmt: ws, value, within: body, later, with: true };
  }
  const binds =
    ((up.type === 'assignment' || up.type === 'augmented_assignment') && field(up, 'left')?.id === id.id) ||
    up.type === 'pattern_list' ||
    up.type === 'tuple_pattern' ||
    up.type === 'list_pattern' ||
    up.type === 'for_in_clause' ||
    up.type === 'delete_statement' ||
    up.type === 'global_statement' ||
    up.type === 'nonlocal_statement' ||
    up.type === 'aliased_import' ||
    up.type === 'dotted_name' ||
    up.type === 'named_expression' ||
    up.type === 'as_pattern' ||
    up.type === 'except_clause' ||
    (up.type === 'for_statement' && field(up, 'left')?.id === id.id);
  return binds ? 'other' : undefined;
}

/** The call `site` (a method call `name.m(...)`) on a receiver that is fresh from its constructor, else undefined. */
export function freshReceiver(call: Node, scopes: Scopes): FreshReceiver | undefined {
  const fn = call.type === 'call' ? field(call, 'function') : null;
  const obj = fn?.type === 'attribute' ? field(fn, 'object') : null;
  // `NormalDist(0, 0).zscore(x)`: called on the constructor's result itself.
  if (obj?.type === 'call') {
    const ctor = field(obj, 'function');
    return ctor && field(obj, 'arguments')?.type === 'argument_list' ? { ctor, called: new Set(), call: obj } : undefined;
  }
  if (obj?.type !== 'identifier') return undefined;
  const name = obj.text;
  const scope = scopes.scopesOf(call)[0];
  if (!scope || scope.type === 'class_definition') return undefined;
  if (scope.type === 'function_definition' && isParameter(scope, name)) return undefined;
  const body = scope.type === 'module' ? scope : field(scope, 'body');
  if (!body) return undefined;
  const all = scanOf(body, name);
  if (!all) return undefined;
  const bindings = all.filter((x) => x.id.id !== obj.id);
  // The binding that reaches the call: the last one above it whose block (or `with` body) holds it.
  let binding: Exclude<ReturnType<typeof bindingOf>, 'other' | undefined> | undefined;
  for (const { b } of bindings)
    if (
      b &&
      b !== 'other' &&
      (contains(b.within, call) || b.later.some((x) => contains(x, call))) &&
      (b.with || call.startIndex >= b.stmt.endIndex) &&
      (!binding || b.stmt.startIndex > binding.stmt.startIndex)
    )
      binding = b;
  if (!binding) return undefined;
  // A loop around the call that the binding is not in: a use anywhere in it may run before the call.
  let loop: Node | undefined;
  for (let p = call.parent; p && p.id !== body.id; p = p.parent) if (LOOPS.has(p.type) && !contains(p, binding.stmt)) loop = p;
  const between = (u: Node) => (u.startIndex > binding.stmt.startIndex && u.startIndex < call.endIndex) || (!!loop && contains(loop, u));
  const uses: Node[] = [];
  for (const { id, b } of bindings) {
    if (!b) uses.push(id);
    // Another binding that may run between the binding and the call.
    else if (b === 'other' ? between(id) : b.stmt.id !== binding.stmt.id && between(b.stmt)) return undefined;
  }
  const called = new Set<string>(binding.with ? ['__enter__', '__aenter__'] : []);
  // In a loop the call itself ran on the passes before.
  const own = fn ? field(fn, 'attribute')?.text : undefined;
  if (loop && own) called.add(own);
  const seq: { at: number; name: string; dominates: boolean }[] = [];
  for (const u of uses) {
    if (!between(u)) continue;
    const up = u.parent;
    // `with proc:` runs `proc.__enter__()`, and `__exit__()` when the call is below the statement.
    const entered = up?.type === 'with_item' && field(up, 'value')?.id === u.id ? up.parent?.parent : undefined;
    if (entered?.type === 'with_statement') {
      const names = entered.text.startsWith('async') ? ['__aenter__', '__aexit__'] : ['__enter__', '__exit__'];
      for (const name of contains(entered, call) ? names.slice(0, 1) : names) {
        called.add(name);
        seq.push({ at: u.startIndex, name, dominates: false });
      }
      continue;
    }
    if (up?.type !== 'attribute' || field(up, 'object')?.id !== u.id) return undefined;
    const attr = field(up, 'attribute')?.text;
    const host = up.parent;
    if (!attr || host?.type === 'delete_statement' || host?.type === 'pattern_list' || host?.type === 'tuple_pattern') return undefined;
    // An attribute set (`zf.comment = c`) counts as a call of its name: a property's setter, or the state itself (the matcher: src/rules/condition/eval.ts).
    called.add(attr);
    seq.push({ at: u.startIndex, name: attr, dominates: !loop && host?.type === 'call' && runsBefore(host, call) });
  }
  const ctorCall = binding.value.type === 'call' ? binding.value : null;
  const order = loop ? undefined : seq.sort((a, b) => a.at - b.at).map(({ name, dominates }) => ({ name, dominates }));
  return { ctor: field(binding.value, 'function') ?? binding.value, called, ...(ctorCall ? { call: ctorCall } : {}), ...(order ? { seq: order } : {}) };
}

type Scan = { id: Node; b: ReturnType<typeof bindingOf> }[];
const scans = new WeakMap<object, Map<string, Scan | null>>();

/**
 * The name's identifiers in a scope's body, each with the binding it is (if any), read once per body
 * and name (a module of thousands of calls on `subprocess` walks it once, not once per call); null
 * when a nested scope uses the name.
 */
function scanOf(body: Node, name: string): Scan | null {
  let byName = scans.get(body.tree);
  if (!byName) scans.set(body.tree, (byName = new Map()));
  const key = `${body.id}:${name}`;
  const known = byName.get(key);
  if (known !== undefined) return known;
  let out: Scan | null = [];
  for (const id of body.descendantsOfType('identifier')) {
    if (!id || id.text !== name) continue;
    let nested = false;
    for (let p = id.parent; p && p.id !== body.id && !nested; p = p.parent) nested = NESTED.has(p.type);
    if (nested) {
      out = null;
      break;
    }
    out.push({ id, b: bindingOf(id) });
  }
  byName.set(key, out);
  return out;
}

/** `x.m(...)` is a statement of its own (`zf.close()`, `await w.aclose()`) in a block that holds `call`, above it: every pass to the call runs it first. */
function runsBefore(use: Node, call: Node): boolean {
  let stmt = use.parent;
  if (stmt?.type === 'await') stmt = stmt.parent;
  if (stmt?.type !== 'expression_statement' || stmt.endIndex > call.startIndex) return false;
  return !!stmt.parent && contains(stmt.parent, call);
}

function isParameter(def: Node, name: string): boolean {
  const params = field(def, 'parameters');
  return !!params && params.descendantsOfType('identifier').some((p) => p?.text === name);
}

const DISPLAYS = new Set(['list', 'tuple', 'set']);
const COMPREHENSIONS = new Set(['list_comprehension', 'set_comprehension', 'generator_expression']);

/** The identifiers named `name` in `body`, and whether a nested scope may rebind it (`global` / `nonlocal`). */
function namesIn(body: Node, name: string): { ids: Node[]; declared: boolean } {
  const ids = body.descendantsOfType('identifier').filter((x): x is Node => !!x && x.text === name);
  return { ids, declared: ids.some((i) => i.parent?.type === 'global_statement' || i.parent?.type === 'nonlocal_statement') };
}

/** The calls a local bound only to displays or comprehensions of calls holds, when it is only ever iterated or measured; else undefined. */
function callsOfLocalCollection(body: Node, list: Node): Node[] | undefined {
  const { ids, declared } = namesIn(body, list.text);
  if (declared) return undefined;
  let calls: Node[] | undefined;
  for (const id of ids) {
    const up = id.parent;
    if (!up) return undefined;
    if (up.type === 'assignment' && field(up, 'left')?.id === id.id && up.parent?.type === 'expression_statement') {
      const right = field(up, 'right');
      const items = !right ? [] : DISPLAYS.has(right.type) ? namedChildren(right) : COMPREHENSIONS.has(right.type) ? [field(right, 'body')] : [];
      if (!items.length || !items.every((i) => i?.type === 'call')) return undefined;
      calls = [...(calls ?? []), ...(items as Node[])];
      continue;
    }
    const iterated = (up.type === 'for_statement' || up.type === 'for_in_clause') && field(up, 'right')?.id === id.id;
    const measured = up.type === 'argument_list' && up.parent?.type === 'call' && field(up.parent, 'function')?.text === 'len';
    if (!iterated && !measured) return undefined;
  }
  return calls;
}

/**
 * The constructor calls an object the call's receiver names came from, when every binding of that
 * local in its function is one (`t = Thread(...)`, `with C() as t`, `for t in threads` over a
 * local `threads = [Thread(...) for ...]` that is only iterated): the object was made by this
 * function, whatever happened to it since. Weaker than `freshReceiver` (its state is not known),
 * enough to know it is not what runs the caller (a thread, a task).
 */
export function constructedHere(call: Node, scopes: Scopes): Node[] | undefined {
  const fn = call.type === 'call' ? field(call, 'function') : null;
  const obj = fn?.type === 'attribute' ? field(fn, 'object') : null;
  const scope = obj?.type === 'identifier' ? scopes.scopesOf(call)[0] : undefined;
  if (!obj || !scope || scope.type === 'class_definition' || (scope.type === 'function_definition' && isParameter(scope, obj.text))) return undefined;
  const body = scope.type === 'module' ? scope : field(scope, 'body');
  if (!body) return undefined;
  const { ids, declared } = namesIn(body, obj.text);
  if (declared) return undefined;
  const ctors: Node[] = [];
  for (const id of ids) {
    const b = bindingOf(id);
    if (b && b !== 'other') {
      ctors.push(b.value);
      continue;
    }
    const up = id.parent;
    if (up?.type === 'for_statement' && field(up, 'left')?.id === id.id) {
      const over = field(up, 'right');
      const calls = over?.type === 'identifier' ? callsOfLocalCollection(body, over) : undefined;
      if (!calls) return undefined;
      ctors.push(...calls);
      continue;
    }
    if (b === 'other') return undefined;
  }
  return ctors.length ? ctors.map((c) => field(c, 'function') ?? c) : undefined;
}
