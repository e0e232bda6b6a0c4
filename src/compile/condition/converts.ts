/**
 * A handler around one built-in conversion of a parameter (`try: t = float(date) except
 * ValueError:`, `try: istart = _index(start) except TypeError:` with `from operator import index as
 * _index`): it runs when the conversion raises what it catches, which the call's value decides
 * (../../rules/condition/convert.ts). The `try` body must be that one statement (an assignment, an
 * expression or a return of the conversion, no other call): nothing else in it raises.
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import type { Cond, ParamSpec } from '../../rules/condition/types.js';
import type { Assign } from './assigns.js';
import type { Conversion } from '../../rules/condition/convert.js';
import { calleeLibraryName } from './pure.js';

const CLASSES = new Set(['ValueError', 'TypeError', 'OverflowError', 'ArithmeticError', 'Exception', 'BaseException']);

/** The condition under which `clause` (an except clause) runs, when it is such a handler; else undefined. */
export function conversionFails(clause: Node, sideOf: (n: Node) => { param?: string; len?: boolean } | undefined): Cond | undefined {
  const body = clause.parent?.type === 'try_statement' ? field(clause.parent, 'body') : null;
  const stmts = body ? namedChildren(body).filter((s) => s.type !== 'comment') : [];
  const stmt = stmts.length === 1 ? stmts[0]! : undefined;
  if (stmt?.type !== 'expression_statement' && stmt?.type !== 'return_statement') return undefined;
  const calls = stmt.descendantsOfType('call');
  const call = calls.length === 1 ? calls[0]! : undefined;
  const top = namedChildren(stmt)[0];
  // `x = conv(p)` or `self.x = conv(p)`: storing the value raises nothing.
  const left = top?.type === 'assignment' ? field(top, 'left') : null;
  const plain = left?.type === 'identifier' || (left?.type === 'attribute' && field(left, 'object')?.type === 'identifier');
  const value = top?.type === 'assignment' ? (plain && !field(top, 'type') ? field(top, 'right') : null) : top;
  if (!call || value?.id !== call.id) return undefined;
  const c = conversionOf(call);
  const side = c?.arg.type === 'identifier' ? sideOf(c.arg) : undefined;
  if (!c || !side?.param || side.len) return undefined;
  // The classes it catches: `except ValueError`, `except (ValueError, TypeError) as e`; none named: every one.
  const what = namedChildren(clause).find((c) => c.type !== 'block' && c.type !== 'comment');
  const types = what ? (what.type === 'as_pattern' ? namedChildren(what)[0] : what) : undefined;
  const names = !types ? undefined : types.type === 'tuple' || types.type === 'parenthesized_expression' ? namedChildren(types) : [types];
  if (names?.some((n) => n.type !== 'identifier' || !CLASSES.has(n.text))) return undefined;
  return { k: 'fails', param: side.param, conv: c.conv, caught: names?.map((n) => n.text) };
}

/** The conversion a call is (`int(p)`, `float(p)`, `operator.index(p)` through the module's imports), and its one argument. */
function conversionOf(call: Node | null): { conv: Conversion; arg: Node } | undefined {
  const fn = call?.type === 'call' ? field(call, 'function') : null;
  if (!fn) return undefined;
  const library = calleeLibraryName(fn);
  const conv: Conversion | undefined = library === 'operator.index' ? 'index' : !library && (fn.text === 'int' || fn.text === 'float') ? fn.text : undefined;
  const args = namedChildren(field(call!, 'arguments') ?? call!).filter((a) => a.type !== 'comment');
  return conv && args.length === 1 ? { conv, arg: args[0]! } : undefined;
}

/**
 * A local every binding of which converts one parameter the def never rebinds (`istep = _index(step)`,
 * and `istep = int(step)` in its handler): the parameter's number, when the call passes a number
 * (a comparison built on it holds for numbers only: `Cond` cmp `numeric`).
 */
export function convertedParam(n: Node, assigns: readonly Assign[], params: ReadonlyMap<string, ParamSpec>): string | undefined {
  if (n.type !== 'identifier' || params.has(n.text)) return undefined;
  const binds = assigns.filter((a) => a.name === n.text);
  let param: string | undefined;
  for (const a of binds) {
    const c = a.node.type === 'assignment' && field(a.node, 'left')?.type === 'identifier' ? conversionOf(field(a.node, 'right')) : undefined;
    if (c?.arg.type !== 'identifier' || !params.has(c.arg.text) || (param && param !== c.arg.text)) return undefined;
    param = c.arg.text;
  }
  return param && !assigns.some((a) => a.name === param) ? param : undefined;
}
