/**
 * The receiver compared with what runs the caller (`self is current_thread()`): a fact of the
 * receiver's identity that holds for any object the caller constructs (./state.ts facts' kin).
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { not } from '../../rules/condition/simplify.js';
import type { Cond, StateFact } from '../../rules/condition/types.js';

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

/** `self is current_thread()` / `is not`: the receiver's identity with what runs the caller, as a context fact. */
export function contextTest(ln: Node, op: string, rn: Node): Cond | undefined {
  const ctx = op === 'is' || op === 'is not' ? contextIdentity(ln, rn) : undefined;
  if (!ctx) return undefined;
  const c: Cond = { k: 'data', text: `${ln.text} is ${rn.text}`, state: ctx };
  return op === 'is' ? c : not(c);
}
