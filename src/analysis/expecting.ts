/**
 * The file's own helpers around assertRaises: `with self.assertAddressError(msg):` where the test
 * class defines
 *
 *     def assertAddressError(self, details, *args):
 *         return self.assertCleanError(ipaddress.AddressValueError, details, *args)
 *
 *     @contextlib.contextmanager
 *     def assertCleanError(self, exc_type, details, *args):
 *         cm = self.assertRaisesRegex(exc_type, details)
 *         with cm as exc:
 *             yield exc
 *
 * A helper is a `def` of the file (a method, for `self.name(...)`; a module-level function, for
 * `name(...)`) that returns `assertRaises(E)` / `assertRaisesRegex(E, ...)` / `pytest.raises(E)`
 * or a call of another helper, or, as a generator, yields inside `with` of one of those (also
 * through a name bound to one above). E is written there, or is a parameter of the helper: then
 * the argument the call passes for it.
 */
import type { Node } from '../parse/parser.js';
import { dottedName, field, kids, namedChildren, parentOf } from '../parse/syntax.js';
import { flattenClasses } from '../python/excepts.js';
import { parameters } from '../python/params.js';
import { withItems } from '../python/withitems.js';

/** How many helpers deep a call is followed. */
const MAX_DEPTH = 3;

/** What the arguments of a helper's call bind its parameters to (nodes of the caller's context, already resolved). */
type Env = Map<string, Node>;

/**
 * The exception classes (class expressions of the file) a `with` item's call of a helper expects,
 * one list per `def` the call may reach; undefined when it is no helper (or one of its defs is not).
 */
export function expectedBy(call: Node, env: Env = new Map(), depth = 0): Node[][] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const fn = field(call, 'function');
  const self = fn?.type === 'attribute' && field(fn, 'object')?.text === 'self';
  const name = self ? field(fn, 'attribute')?.text : fn?.type === 'identifier' ? fn.text : undefined;
  if (!name) return undefined;
  const defs = fileDefs(call.tree.rootNode).helpers.get(`${self ? '.' : ''}${name}`) ?? [];
  if (!defs.length) return undefined;
  const out: Node[][] = [];
  for (const def of defs) {
    const bound = bind(def, call, env, self);
    const classes = bound && expectsOf(def, bound, depth);
    if (!classes?.length) return undefined;
    out.push(classes);
  }
  return out;
}

/** `assertRaises` / `assertRaisesRegex` (on any receiver) or `pytest.raises`: `q` the callee as qualified, `last` its last name. */
export function isRaisesCheck(q: string, last: string | undefined): boolean {
  return q === 'pytest.raises' || last === 'assertRaises' || last === 'assertRaisesRegex';
}

/** The class a call of a raises check with no callable to run (a context manager) expects. */
function raisesContext(call: Node): Node | undefined {
  const fn = field(call, 'function');
  const q = fn ? (dottedName(fn) ?? '') : '';
  // `unittest.TestCase().assertRaises(E)` too: the method's name decides.
  const last = fn?.type === 'attribute' ? field(fn, 'attribute')?.text : q;
  if (!isRaisesCheck(q, last)) return undefined;
  // assertRaisesRegex also takes the pattern; a callable after them would be run, not entered.
  const positional = namedChildren(field(call, 'arguments') ?? call).filter((a) => a.type !== 'keyword_argument');
  return positional.length === (last === 'assertRaisesRegex' ? 2 : 1) ? positional[0] : undefined;
}

/** The defs and classes of a file, read once per tree (asked for each finding in a `with`). */
interface FileDefs {
  /** The names of every def and class, at any depth. */
  names: Set<string>;
  /** Methods of its classes (keyed `.name`) and module-level functions (keyed `name`). */
  helpers: Map<string, Node[]>;
}

const defsOf = new WeakMap<object, FileDefs>();

export function fileDefs(root: Node): FileDefs {
  let out = defsOf.get(root.tree);
  if (out) return out;
  out = { names: new Set(), helpers: new Map() };
  for (const d of root.descendantsOfType(['function_definition', 'class_definition'])) {
    const name = d && field(d, 'name')?.text;
    if (!name) continue;
    out.names.add(name);
    const holder = d.type === 'function_definition' ? outerOf(d) : undefined;
    if (!holder) continue;
    const key = `${holder.type === 'class_definition' ? '.' : ''}${name}`;
    const list = out.helpers.get(key);
    if (list) list.push(d);
    else out.helpers.set(key, [d]);
  }
  defsOf.set(root.tree, out);
  return out;
}

/** The class or module a def is written in (through a decorator); undefined inside another def. */
function outerOf(def: Node): Node | undefined {
  let n = parentOf(def);
  if (n?.type === 'decorated_definition') n = parentOf(n);
  if (n?.type === 'block') n = parentOf(n);
  return n?.type === 'class_definition' || n?.type === 'module' ? n : undefined;
}

/** The helper's parameters bound to the call's arguments (as resolved in `env`); undefined when a splat hides which is which. */
function bind(def: Node, call: Node, env: Env, method: boolean): Env | undefined {
  const params = parameters(def).slice(method ? 1 : 0);
  const args = namedChildren(field(call, 'arguments') ?? call);
  const out: Env = new Map();
  let i = 0;
  for (const a of args) {
    if (a.type === 'list_splat' || a.type === 'dictionary_splat') {
      // `*args` passed on: the parameters it fills are unknown from here on (what came before is bound).
      if (a.type === 'list_splat') i = params.length;
      continue;
    }
    if (a.type === 'keyword_argument') {
      const k = field(a, 'name')?.text;
      const v = field(a, 'value');
      if (k && v && params.some((p) => p.name === k && p.kind === 'plain')) out.set(k, resolved(v, env));
      continue;
    }
    const p = params[i++];
    if (p?.kind === 'plain') out.set(p.name, resolved(a, env));
  }
  return out;
}

/** A name the caller bound as a parameter: what it was passed. */
function resolved(n: Node, env: Env): Node {
  return (n.type === 'identifier' && env.get(n.text)) || n;
}

/**
 * The classes a helper's body expects: from what it returns, or the `with` it yields in. Its only
 * `return` or `yield` (nested defs aside) must be that one: another path may hand out something else.
 */
function expectsOf(def: Node, env: Env, depth: number): Node[] | undefined {
  const body = field(def, 'body');
  if (!body) return undefined;
  const exits = ownNodes(body, ['return_statement', 'yield']);
  for (const stmt of namedChildren(body)) {
    const v = stmt.type === 'return_statement' ? namedChildren(stmt)[0] : undefined;
    if (v?.type === 'call') return exits.length === 1 ? contextClasses(v, env, depth) : undefined;
    const inner = stmt.type === 'with_statement' ? field(stmt, 'body') : null;
    const yields = inner ? ownNodes(inner, ['yield']) : [];
    if (!yields.length) continue;
    if (yields.length !== exits.length) return undefined;
    for (const { value } of withItems(stmt)) {
      const made = value.type === 'identifier' ? boundAbove(body, value.text, stmt) : value;
      const classes = made?.type === 'call' ? contextClasses(made, env, depth) : undefined;
      if (classes) return classes;
    }
  }
  return undefined;
}

/** The nodes of these types under `n`, not inside a nested def, lambda or class. */
function ownNodes(n: Node, types: string[]): Node[] {
  return n.descendantsOfType(types).filter((x): x is Node => {
    for (let p = x ? parentOf(x) : null; p && p.id !== n.id; p = parentOf(p)) if (NESTED.has(p.type)) return false;
    return !!x;
  });
}

const NESTED = new Set(['function_definition', 'lambda', 'class_definition']);

/** The classes a context-manager call expects: assertRaises and the like directly, or another helper (every def of it). */
function contextClasses(call: Node, env: Env, depth: number): Node[] | undefined {
  const first = raisesContext(call);
  if (first) return flattenClasses(resolved(first, env)).map((n) => resolved(n, env));
  const inner = expectedBy(call, env, depth + 1);
  // Another helper: only classes every one of its defs expects would do; one def is the common case.
  return inner?.length === 1 ? inner[0] : undefined;
}

/** `cm = <call>` as a statement of the helper's body before `at` (the only binding of the name there). */
function boundAbove(body: Node, name: string, at: Node): Node | undefined {
  let found: Node | undefined;
  for (const stmt of namedChildren(body)) {
    if (stmt.startIndex >= at.startIndex) break;
    const a = stmt.type === 'expression_statement' ? kids(stmt)[0] : undefined;
    if (a?.type !== 'assignment' || field(a, 'left')?.text !== name) continue;
    if (found) return undefined;
    found = field(a, 'right') ?? undefined;
  }
  return found;
}
