/**
 * What runs a call, as its place in the file shows it: whether an asyncio event loop is running in
 * its thread there, and whether the call's receiver holds its lock (lockHeld). In the body of an `async def` (not in a nested `def` or `lambda`), the
 * coroutine runs in a loop: one is running (unless the file names another event-loop library,
 * trio, curio or anyio, which may run it instead). In the `if __name__ == "__main__":` block of a
 * module, nothing has started one yet; nor in a module function only that block calls (`main()`),
 * nor in a test method or fixture of a `unittest.TestCase` (its runner is synchronous). Anywhere
 * else, who calls it decides.
 */
import type { Node } from '../parse/parser.js';
import { field, flatText, namedChildren, SCOPE_TYPES } from '../parse/syntax.js';
import type { Scopes } from '../semantic/scopes.js';

const OTHER_LOOPS = ['trio', 'curio', 'anyio'];
const MAIN_GUARD = /^__name__\s*==\s*(['"])__main__\1$|^(['"])__main__\2\s*==\s*__name__$/;

export function runningLoop(call: Node, scopes: Scopes): boolean | undefined {
  const scope = scopes.scopesOf(call)[0];
  if (!scope) return undefined;
  if (scope.type === 'module') return mainGuarded(call) ? false : undefined;
  if (scope.type !== 'function_definition') return undefined;
  for (let p = call.parent; p && p.id !== scope.id; p = p.parent) if (p.type === 'lambda') return undefined;
  if (scope.firstChild?.type !== 'async') return calledBySyncRunner(scope, scopes) ? false : undefined;
  return OTHER_LOOPS.some((m) => scopes.mentions(m)) ? undefined : true;
}

/** Whether a module function is called only from the `__main__` block, by tree and def. */
const mainOnly = new WeakMap<object, Map<number, boolean>>();

/** Test methods and fixtures a `unittest` runner calls itself. */
const RUNNER_CALLS = /^(?:test|setUp$|tearDown$|setUpClass$|tearDownClass$)/;

/**
 * A synchronous def that only synchronous code calls: a module function whose every use in the file
 * is a call in its `__main__` block, or a unittest runner's method of a TestCase subclass.
 */
function calledBySyncRunner(def: Node, scopes: Scopes): boolean {
  const name = field(def, 'name')?.text ?? '';
  const holder = def.parent?.type === 'decorated_definition' ? def.parent.parent : def.parent;
  if (holder?.type === 'module') {
    // Read once per def (each call in it asks): every use of its name in the file.
    let m = mainOnly.get(def.tree);
    if (!m) mainOnly.set(def.tree, (m = new Map()));
    let only = m.get(def.id);
    if (only === undefined) {
      const uses = def.tree.rootNode.descendantsOfType('identifier').filter((i) => i?.text === name && i.id !== field(def, 'name')?.id);
      only = uses.length > 0 && uses.every((i) => i!.parent?.type === 'call' && field(i!.parent, 'function')?.id === i!.id && mainGuarded(i!));
      m.set(def.id, only);
    }
    return only;
  }
  const cls = holder?.type === 'block' ? holder.parent : undefined;
  return RUNNER_CALLS.test(name) && cls?.type === 'class_definition' && syncTestCase(cls, scopes, 0);
}

/** The class derives from `unittest.TestCase` (directly or through classes of the file), not from an asyncio test case. */
function syncTestCase(cls: Node, scopes: Scopes, depth: number): boolean {
  const sup = field(cls, 'superclasses');
  if (!sup || depth > 4) return false;
  return namedChildren(sup).some((b) => {
    if (b.type === 'attribute') {
      const mod = field(b, 'object')?.text ?? '';
      return field(b, 'attribute')?.text === 'TestCase' && (scopes.imports.get(`${mod}\0unittest`) ?? scopes.imports.get(mod))?.module === 'unittest';
    }
    if (b.type !== 'identifier') return false;
    const imp = scopes.imports.get(b.text);
    if (imp) return imp.kind === 'from' && imp.module === 'unittest' && imp.name === 'TestCase';
    const own = scopes.definitionAt(b.text, cls);
    return own?.type === 'class_definition' && syncTestCase(own, scopes, depth + 1);
  });
}

/** The call is in the body of a module-level `if __name__ == "__main__":` (not its `else`). */
function mainGuarded(call: Node): boolean {
  for (let p = call.parent; p; p = p.parent) {
    if (p.type !== 'if_statement' || p.parent?.type !== 'module') continue;
    const body = field(p, 'consequence');
    return MAIN_GUARD.test(field(p, 'condition')?.text ?? '') && !!body && body.startIndex <= call.startIndex && call.endIndex <= body.endIndex;
  }
  return false;
}

/** `recv.<method>()` with no argument (a bare `acquire()` blocks until it holds the lock), awaited or not, as a statement. */
function callsOn(stmt: Node, recv: string, method: string): boolean {
  let e = stmt.type === 'expression_statement' ? stmt.firstNamedChild : null;
  if (e?.type === 'await') e = e.firstNamedChild;
  const fn = e?.type === 'call' ? field(e, 'function') : null;
  const args = e && field(e, 'arguments');
  return fn?.type === 'attribute' && field(fn, 'attribute')?.text === method && flatText(field(fn, 'object')) === recv && !!args && !namedChildren(args).length;
}

/**
 * The call's receiver holds its lock where the call is: the call is in the body of `with recv:` /
 * `async with recv:` (a lock's `__enter__` acquires it), or a statement above it in a block that
 * holds it is `recv.acquire()` / `await recv.acquire()`, with no `recv.release(` in a statement between. Only in
 * the call's own function. Undefined: not shown there (who calls the function may hold it).
 */
export function lockHeld(call: Node): boolean | undefined {
  const fn = field(call, 'function');
  const recv = fn?.type === 'attribute' ? flatText(field(fn, 'object')) : '';
  if (!recv) return undefined;
  // Up to the call's function (module-level statements are not followed).
  for (let child: Node = call, p = call.parent; p && p.type !== 'module' && !SCOPE_TYPES.has(p.type); child = p, p = p.parent) {
    if (p.type === 'with_statement' && field(p, 'body')?.id === child.id) {
      const items = p.descendantsOfType('with_item').filter((i): i is Node => !!i && i.startIndex < child.startIndex);
      if (items.some((i) => flatText(field(i, 'value')?.type === 'as_pattern' ? field(i, 'value')!.firstNamedChild : field(i, 'value')) === recv)) return true;
    }
    if (p.type !== 'block') continue;
    // The statements above the one that holds the call, nearest first: an acquire() before anything that may release it.
    for (let s = child.previousNamedSibling; s; s = s.previousNamedSibling) {
      if (flatText(s).includes(`${recv}.release(`)) break;
      if (callsOn(s, recv, 'acquire')) return true;
    }
  }
  return undefined;
}
