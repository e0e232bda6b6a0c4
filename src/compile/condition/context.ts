/**
 * The receiver compared with what runs the caller (`self is current_thread()`): a fact of the
 * receiver's identity that holds for any object the caller constructs (./state.ts facts' kin).
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { not } from '../../rules/condition/simplify.js';
import type { Cond, StateFact } from '../../rules/condition/types.js';
import type { Assign } from './assigns.js';

/** Getters of what runs the caller: its thread, asyncio task or running loop, process. */
const CONTEXT = new Set(['current_thread', 'currentThread', 'main_thread', 'current_task', 'get_running_loop', '_get_running_loop', 'current_process']);

/** `self is current_thread()` (either way round): the receiver compared with what runs the caller (StateFact.context). */
export function contextIdentity(a: Node, b: Node): StateFact | undefined {
  const call = a.type === 'identifier' && a.text === 'self' ? b : b.type === 'identifier' && b.text === 'self' ? a : undefined;
  const args = call?.type === 'call' ? field(call, 'arguments') : null;
  if (!args || namedChildren(args).length) return undefined;
  const fn = field(call!, 'function');
  const name = fn?.type === 'identifier' ? fn.text : fn?.type === 'attribute' ? field(fn, 'attribute')?.text : undefined;
  return name && CONTEXT.has(name) ? { attr: `${name}()`, fresh: false, changedBy: [], context: true } : undefined;
}

/** A local bound once, above the test, to a call (`loop = _get_running_loop()`): that call; else the node itself. */
function boundCall(n: Node, assigns: readonly Assign[]): Node {
  if (n.type !== 'identifier') return n;
  const mine = assigns.filter((a) => a.name === n.text);
  const a = mine.length === 1 ? mine[0]!.node : undefined;
  const as = a?.type === 'expression_statement' ? a.firstNamedChild : a;
  const right = as?.type === 'assignment' && field(as, 'left')?.text === n.text ? field(as, 'right') : null;
  return right?.type === 'call' && as!.endIndex <= n.startIndex ? right : n;
}

/** `_get_running_loop() is None` (either way round, any receiver): the atom "a loop is running in the caller's thread". */
function runningLoopTest(a: Node, b: Node): Cond | undefined {
  const call = a.type === 'none' ? b : b.type === 'none' ? a : undefined;
  const args = call?.type === 'call' ? field(call, 'arguments') : null;
  const fn = call && field(call, 'function');
  const name = fn?.type === 'identifier' ? fn.text : fn?.type === 'attribute' ? field(fn, 'attribute')?.text : undefined;
  if (!args || namedChildren(args).length || name !== '_get_running_loop') return undefined;
  return { k: 'data', text: `${call!.text} is not None`, loop: true };
}

/** `self is current_thread()` / `is not`: the receiver's identity with what runs the caller, as a context fact. */
export function contextTest(ln: Node, op: string, rn: Node, assigns: readonly Assign[] = []): Cond | undefined {
  const loop = op === 'is' || op === 'is not' ? runningLoopTest(boundCall(ln, assigns), boundCall(rn, assigns)) : undefined;
  if (loop) return op === 'is not' ? loop : not(loop);
  const ctx = op === 'is' || op === 'is not' ? contextIdentity(ln, rn) : undefined;
  if (!ctx) return undefined;
  const c: Cond = { k: 'data', text: `${ln.text} is ${rn.text}`, state: ctx };
  return op === 'is' ? c : not(c);
}

/** Tests of a lock's own state: held or not. */
const LOCK_TESTS = /^self\.(locked\(\)|_is_owned\(\)|_locked)$/;

/**
 * `self.locked()`, `self._is_owned()` or `self._locked`, in a class with an `acquire` (a lock, a
 * condition: `with` acquires it): the atom "the receiver's lock is held" (Cond `held`), which the
 * call's place may show (src/match/callcontext.ts). Keeps what `c` says of a fresh object (`_locked` is
 * False after `__init__`). Else `c` itself.
 */
export function withHeld(c: Cond, n: Node, def: Node): Cond {
  if (!LOCK_TESTS.test(n.text.replace(/\s+/g, ''))) return c;
  let cls = def.parent;
  while (cls && cls.type !== 'class_definition') cls = cls.parent;
  if (!cls || !/\bdef\s+acquire\b|\bacquire\s*=/.test(cls.text)) return c;
  return c.k === 'data' ? { ...c, held: true } : { k: 'data', text: n.text, held: true };
}
