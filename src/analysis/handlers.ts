/**
 * The analysis stage: handlers. A finding is already handled when the call sits in the body of a
 * `try` whose handler catches the error class or a base (not one that only re-raises), or in a
 * `with contextlib.suppress(...)` / `pytest.raises(...)` / `self.assertRaises(...)` block, or one of the
 * file's own helpers around assertRaises (./expecting.ts).
 * (Guards and early exits are handled by the flow-sensitive types in ../semantic.)
 */
import type { Node } from '../parse/parser.js';
import { contains, dottedName, field, namedChildren, parentOf } from '../parse/syntax.js';
import { caughtExpressions, exceptAlias, exceptClauses, flattenClasses, handlerBody, isBareExcept } from '../python/excepts.js';
import { withItems } from '../python/withitems.js';
import { expectedBy, fileDefs, isRaisesCheck } from './expecting.js';
import type { ExceptionHierarchy } from '../rules/exceptions.js';
import type { FileModel } from '../semantic/model.js';
import type { Finding } from '../match/match.js';

export interface HandledBy {
  kind: 'try' | 'suppress';
  node: Node;
}

/**
 * `lazy`: the raise happens when the iterator (or coroutine) the call returns is iterated (or run), so a
 * call passed as an argument of the checked callable (`self.assertRaises(ValueError, list, summarize(a, b))`,
 * `assertRaises(E, loop.run_until_complete, wait([]))`) raises inside the check.
 */
export function handledBy(node: Node, errorClass: string, model: FileModel, exc: ExceptionHierarchy, lazy = false, depth = 0): HandledBy | undefined {
  const passed = !lazy
    ? undefined
    : node.parent?.type === 'argument_list'
      ? raisesCallable(node, errorClass, model, exc, 2)
      : lazyThroughLocal(node, errorClass, model, exc);
  if (passed) return passed;
  let child: Node = node;
  // Parents asked once: the fix stage climbs from the same calls (../fix/site.ts locate).
  let cur: Node | null = parentOf(node);
  while (cur) {
    // The type read once: each read is a call into the parser.
    const type = cur.type;
    if (type === 'lambda') return raisesCallable(cur, errorClass, model, exc);
    if (type === 'function_definition') return depth < 3 ? localCallsHandled(cur, errorClass, model, exc, depth + 1) : undefined;
    // A class body runs where the class statement is: what handles that statement handles it (a method is a def, above).
    if (type === 'try_statement') {
      const body = field(cur, 'body');
      if (body && contains(body, child)) {
        for (const clause of exceptClauses(cur)) {
          if (catches(clause, errorClass, model, exc) && !onlyReraises(clause)) return { kind: 'try', node: cur };
        }
      }
    } else if (type === 'with_statement') {
      const body = field(cur, 'body');
      if (body && contains(body, child) && withSuppresses(cur, errorClass, model, exc)) return { kind: 'suppress', node: cur };
    }
    child = cur;
    cur = parentOf(cur);
  }
  return undefined;
}

export function filterHandled(findings: Finding[], model: FileModel, exc: ExceptionHierarchy): Finding[] {
  return findings.filter((f) => !handledBy(f.site.node, f.rule.errorClass, model, exc, f.rule.condition.onIteration ?? f.rule.condition.onAwait));
}

/** Certain findings in a block of the file's own context manager (a helper around assertRaises, which may handle the error) become possible. */
export function inOwnContext(findings: Finding[]): Finding[] {
  return findings.map((f) => {
    const own = f.confidence === 'certain' ? ownContextManager(f.site.node) : undefined;
    return own ? { ...f, confidence: 'possible', condition: `${f.condition}; inside \`with ${own}\`, a context manager of this file that may handle it` } : f;
  });
}

/** A `def` or class of the file has this name (decorated too: `@contextmanager def expecting(...)`). */
function definedInFile(name: Node): boolean {
  return fileDefs(name.tree.rootNode).names.has(name.text);
}

/**
 * The `with` item around `node` (in its own function) whose context manager this file defines: a
 * call of `self.<method>` or of a name the file binds to a `def` or class. Library context
 * managers are known (above) or do not handle errors; the file's own may (`assertAddressError`).
 */
function ownContextManager(node: Node): string | undefined {
  let child: Node = node;
  for (let cur = parentOf(node); cur; child = cur, cur = parentOf(cur)) {
    if (cur.type === 'function_definition' || cur.type === 'class_definition' || cur.type === 'lambda') return undefined;
    const body = cur.type === 'with_statement' ? field(cur, 'body') : null;
    if (!body || !contains(body, child)) continue;
    for (const { value: v } of withItems(cur)) {
      const fn = v.type === 'call' ? field(v, 'function') : null;
      const self = fn?.type === 'attribute' && field(fn, 'object')?.text === 'self';
      const local = fn?.type === 'identifier' && definedInFile(fn);
      if (self || local) return `${fn!.text}(...)`;
    }
  }
  return undefined;
}

function classMatches(n: Node, errorClass: string, model: FileModel, exc: ExceptionHierarchy): boolean {
  const written = dottedName(n);
  if (!written) return false;
  // What the name refers to in this file (an import, a local class); only a name the file does not bind is taken as written.
  // A local alias first (it shadows an import or a builtin of the same name).
  const q = (n.type === 'identifier' ? aliasOf(n, model) : undefined) ?? model.qualify(n) ?? written;
  if (q.startsWith('<local>')) return false;
  if (exc.isSubclass(errorClass, q)) return true;
  // An error class the rule could not qualify: compare by class name.
  if (!errorClass.includes('.') && !exc.isKnown(errorClass)) return q.split('.').pop() === errorClass;
  return false;
}

/**
 * A local name bound to an exception class (`SE = statistics.StatisticsError`, then `except SE` or
 * `assertRaises(SE)`): the class, from the last such assignment before the use in the enclosing
 * function or module.
 */
function aliasOf(n: Node, model: FileModel): string | undefined {
  let scope: Node | null = parentOf(n);
  while (scope && scope.type !== 'function_definition' && scope.type !== 'module') scope = parentOf(scope);
  if (!scope) return undefined;
  let best: Node | undefined;
  for (const a of scope.descendantsOfType('assignment')) {
    if (!a || a.startIndex >= n.startIndex) continue;
    const left = field(a, 'left');
    const right = field(a, 'right');
    if (left?.type !== 'identifier' || left.text !== n.text || !right || (right.type !== 'attribute' && right.type !== 'identifier')) continue;
    best = right;
  }
  return best ? (model.qualify(best) ?? dottedName(best)) : undefined;
}

function catches(clause: Node, errorClass: string, model: FileModel, exc: ExceptionHierarchy): boolean {
  if (isBareExcept(clause)) return true;
  return caughtExpressions(clause).some((n) => classMatches(n, errorClass, model, exc));
}

/** `except E: raise` / `except E as e: log(e); raise e`: the handler always ends by re-raising the error. */
function onlyReraises(clause: Node): boolean {
  const alias = exceptAlias(clause);
  const block = handlerBody(clause);
  const stmts = block ? namedChildren(block) : [];
  const r = stmts[stmts.length - 1];
  if (!r || r.type !== 'raise_statement') return false;
  const arg = namedChildren(r)[0];
  return !arg || (alias !== undefined && arg.text === alias);
}

/**
 * `self.assertRaises(E, lambda: call())` / `pytest.raises(E, lambda: ...)`: the lambda runs inside
 * the check for E (an argument at `from` or later: the callable's own arguments from 2).
 */
function raisesCallable(lambda: Node, errorClass: string, model: FileModel, exc: ExceptionHierarchy, from = 1): HandledBy | undefined {
  const args = lambda.parent;
  const call = args?.type === 'argument_list' ? args.parent : null;
  const fn = call?.type === 'call' ? field(call, 'function') : null;
  if (!call || !fn || !args) return undefined;
  const q = model.qualify(fn) ?? dottedName(fn) ?? '';
  const last = q.split('.').pop();
  if (!isRaisesCheck(q, last)) return undefined;
  const positional = namedChildren(args).filter((a) => a.type !== 'keyword_argument');
  if (positional.findIndex((a) => a.id === lambda.id) < from) return undefined;
  const classes = positional[0] ? flattenClasses(positional[0]) : [];
  return classes.some((n) => classMatches(n, errorClass, model, exc)) ? { kind: 'suppress', node: call } : undefined;
}

/** `coro = wait(...)`, then `assertRaises(E, loop.run_until_complete, coro)`: a lazy call bound to a local whose one use is an argument of the checked callable. */
function lazyThroughLocal(node: Node, errorClass: string, model: FileModel, exc: ExceptionHierarchy): HandledBy | undefined {
  const a = node.parent;
  const name = a?.type === 'assignment' && field(a, 'right')?.id === node.id ? field(a, 'left') : null;
  if (name?.type !== 'identifier' || a!.parent?.type !== 'expression_statement') return undefined;
  let scope: Node | null = a!.parent;
  while (scope && scope.type !== 'function_definition' && scope.type !== 'module') scope = scope.parent;
  const uses = (scope ?? a!).descendantsOfType('identifier').filter((i): i is Node => !!i && i.text === name.text && i.id !== name.id);
  return uses.length === 1 && uses[0]!.startIndex > a!.endIndex ? raisesCallable(uses[0]!, errorClass, model, exc, 2) : undefined;
}

function withSuppresses(w: Node, errorClass: string, model: FileModel, exc: ExceptionHierarchy): boolean {
  for (const { value: v } of withItems(w)) {
    if (v.type !== 'call') continue;
    const fn = field(v, 'function');
    if (!fn) continue;
    const q = model.qualify(fn) ?? dottedName(fn) ?? '';
    const last = q.split('.').pop();
    const isSuppress = q === 'contextlib.suppress' || q === 'suppress' || q === 'raises' || isRaisesCheck(q, last);
    if (!isSuppress) {
      // The file's own helper around assertRaises (`with self.assertAddressError(msg):`): each def it may reach expects the class.
      const expected = expectedBy(v);
      if (expected?.every((classes) => classes.some((n) => classMatches(n, errorClass, model, exc)))) return true;
      continue;
    }
    const args = field(v, 'arguments');
    const first = args ? namedChildren(args).filter((a) => a.type !== 'keyword_argument') : [];
    const classes = q === 'contextlib.suppress' || q === 'suppress' ? first : first.slice(0, 1);
    if (classes.flatMap(flattenClasses).some((n) => classMatches(n, errorClass, model, exc))) return true;
  }
  return false;
}

/**
 * A local function (a `def` in a function's body, not decorated) whose every use in that function
 * is handled: `async def main(): asyncio.run(coro)` used only as `asyncio.run(main())` inside `with
 * self.assertRaises(RuntimeError):`. Its body runs only there. No use, or any use that is not
 * handled (returned, passed on outside the block), leaves it unhandled.
 */
function localCallsHandled(def: Node, errorClass: string, model: FileModel, exc: ExceptionHierarchy, depth: number): HandledBy | undefined {
  const name = field(def, 'name')?.text;
  const outer = def.parent?.type === 'block' ? def.parent.parent : null;
  if (!name || outer?.type !== 'function_definition') return undefined;
  const uses = (field(outer, 'body')?.descendantsOfType('identifier') ?? []).filter((n): n is Node => !!n && n.text === name && !contains(def, n));
  let by: HandledBy | undefined;
  for (const u of uses) if (!(by = handledBy(u, errorClass, model, exc, false, depth))) return undefined;
  return by;
}
