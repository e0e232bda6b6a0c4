/** Atoms of the conditions ./expr.ts reads: a keyword from `**kwargs`, a comparison, a data atom. */
import type { Node } from '../../parse/parser.js';
import { stepText } from '../../rules/condition/derived.js';
import { and, not, or } from '../../rules/condition/simplify.js';
import type { CmpOp, Cond, ParamSpec, PyVal } from '../../rules/condition/types.js';
import { field, namedChildren } from '../../parse/syntax.js';

/** A test of a keyword read from `**kwargs`: over the keyword when it was passed, over the default when not. */
export function keyword(
  s: { kw: string; key: string; dflt: PyVal | 'raises' | undefined },
  passed: (param: string) => Cond,
  byDefault: (v: PyVal) => boolean | undefined,
  whole: Node,
): Cond {
  const given: Cond = { k: 'given', param: s.kw, key: s.key };
  const d = s.dflt === 'raises' ? false : s.dflt === undefined ? undefined : byDefault(s.dflt);
  const absent: Cond = d === true ? { k: 'true' } : d === false ? { k: 'false' } : data(whole);
  return or([and([given, passed(s.kw + stepText({ key: s.key }))]), and([not(given), absent])]);
}

export function build(s: { param: string; len?: boolean; numeric?: true }, op: CmpOp, v: PyVal): Cond {
  if (s.len) return op !== 'is' && op !== 'is not' ? { k: 'len', param: s.param, op, value: v } : { k: 'data', text: `len(${s.param}) ${op} ${v.t}` };
  return { k: 'cmp', param: s.param, op, value: v, ...(s.numeric ? { numeric: true as const } : {}) };
}

/** Calls that test a value's kind, as the abstract class they test (`callable(x)`: `isinstance(x, Callable)`); asyncio's and inspect's predicates by their last name. */
const KIND_CALLS = new Map([
  ['callable', 'Callable'],
  ['iscoroutine', 'Coroutine'],
  ['isawaitable', 'Awaitable'],
  ['isfuture', 'Future'],
]);

/**
 * `callable(x)`, `iscoroutine(x)` of a parameter (`param` reads it): an instance of that abstract
 * class; `any(iscoroutine(f) for f in fs)`: some item of the parameter (`items` reads it) is one.
 */
export function kindCall(
  call: Node,
  param: (n: Node) => string | undefined,
  items: (name: string, row: number) => string | undefined,
): Extract<Cond, { k: 'isinstance' }> | undefined {
  const fn = field(call, 'function')?.text;
  const list = field(call, 'arguments');
  const args = list ? namedChildren(list).filter((a) => a.type !== 'comment') : [];
  const abc = args.length === 1 && list?.type === 'argument_list' && fn ? KIND_CALLS.get(fn.slice(fn.lastIndexOf('.') + 1)) : undefined;
  const p = abc && param(args[0]!);
  if (p) return { k: 'isinstance', param: p, types: [abc] };
  if (fn !== 'any' || list?.type !== 'generator_expression') return undefined;
  const clauses = args.filter((c) => c.type === 'for_in_clause' || c.type === 'if_clause');
  const clause = clauses.length === 1 && clauses[0]!.type === 'for_in_clause' ? clauses[0]! : undefined;
  const item = clause ? field(clause, 'left') : null;
  const body = field(list, 'body');
  const inner =
    item?.type === 'identifier' && body?.type === 'call'
      ? kindCall(
          body,
          (a) => (a.type === 'identifier' && a.text === item.text ? a.text : undefined),
          () => undefined,
        )
      : undefined;
  const right = clause ? field(clause, 'right') : null;
  const over = inner && !inner.items && right?.type === 'identifier' ? items(right.text, right.startPosition.row) : undefined;
  return over ? { ...inner!, param: over, items: true } : undefined;
}

export const nonEmpty = (param: string): Cond => ({ k: 'len', param, op: '!=', value: { t: 'int', v: 0 } });

export function data(n: Node): Cond {
  return { k: 'data', text: n.text.replace(/\s+/g, ' ').slice(0, 80) };
}

/**
 * A test of a parameter against its own default constant (an UPPER_CASE name, maybe dotted): `in` /
 * `==` hold when it is not passed, `not in` / `!=` do not; when it is passed, the data decides.
 */
export function defaultMember(
  params: Map<string, ParamSpec>,
  s: { param: string; len?: boolean } | object | undefined,
  op: CmpOp,
  other: Node,
): ((whole: Node) => Cond) | undefined {
  if (!s || !('param' in s) || ('len' in s && s.len)) return undefined;
  const d = params.get(s.param)?.defaultText;
  if (!d || !/^(?:[A-Za-z_]\w*\.)*_*[A-Z][A-Z0-9_]*$/.test(d)) return undefined;
  const member =
    (op === 'in' || op === 'not in') && ['tuple', 'list', 'set'].includes(other.type)
      ? namedChildren(other).some((e) => e.text === d)
      : (op === '==' || op === '!=') && other.text === d;
  if (!member) return undefined;
  const given: Cond = { k: 'given', param: s.param };
  const holds = op === 'in' || op === '==';
  return (whole) => (holds ? or([not(given), and([given, data(whole)])]) : and([given, data(whole)]));
}

/** A comparison read with its sides swapped (the parameter on the left). */
export const FLIP: Partial<Record<CmpOp, CmpOp>> = {
  '<': '>',
  '>': '<',
  '<=': '>=',
  '>=': '<=',
  '==': '==',
  '!=': '!=',
  is: 'is',
  'is not': 'is not',
  in: 'has',
  'not in': 'has not',
};
/** The comparison operators a test is read through. */
export const OPS = new Set<string>(['==', '!=', '<', '<=', '>', '>=', 'in', 'not in', 'is', 'is not']);
