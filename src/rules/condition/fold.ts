/**
 * Constant expressions of literals, as Python computes them (./literal.ts reads `2 ** 32`,
 * `1 << 16`, `'a' + 'b'`, `[0.25] * 4`): integer arithmetic exactly (BigInt), floats for `+ - * /`
 * only, strings, bytes, lists and tuples joined or repeated. Anything else, an operation that raises
 * (division by zero, a negative shift), an integer past 2**53 (a PyVal holds a JS number) or a
 * result over MAX_ITEMS long, is not a literal (undefined).
 */
import type { PyVal } from './types.js';

const MAX_ITEMS = 10_000;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function int(v: PyVal): bigint | undefined {
  if (v.t === 'int' && Number.isSafeInteger(v.v)) return BigInt(v.v);
  if (v.t === 'bool') return v.v ? 1n : 0n;
  return undefined;
}

function fromBig(x: bigint): PyVal | undefined {
  return x <= SAFE && x >= -SAFE ? { t: 'int', v: Number(x) } : undefined;
}

/** Python's floor division and modulo: the quotient rounded down, the remainder with the divisor's sign. */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && a < 0n !== b < 0n) ? q - 1n : q;
}

function intOp(op: string, a: bigint, b: bigint): PyVal | undefined {
  switch (op) {
    case '+':
      return fromBig(a + b);
    case '-':
      return fromBig(a - b);
    case '*':
      return fromBig(a * b);
    case '//':
      return b === 0n ? undefined : fromBig(floorDiv(a, b));
    case '%':
      return b === 0n ? undefined : fromBig(a - b * floorDiv(a, b));
    case '**':
      // A negative exponent gives a float; a huge one is not computed.
      return b < 0n || b > 64n ? undefined : fromBig(a ** b);
    case '<<':
      return b < 0n || b > 64n ? undefined : fromBig(a << b);
    case '>>':
      return b < 0n ? undefined : fromBig(a >> (b > 64n ? 64n : b));
    case '&':
      return fromBig(a & b);
    case '|':
      return fromBig(a | b);
    case '^':
      return fromBig(a ^ b);
    case '/':
      return b === 0n ? undefined : { t: 'float', v: Number(a) / Number(b) };
    default:
      return undefined;
  }
}

function num(v: PyVal): number | undefined {
  return v.t === 'float' || v.t === 'int' ? v.v : v.t === 'bool' ? Number(v.v) : undefined;
}

function floatOp(op: string, a: number, b: number): PyVal | undefined {
  const v = op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : op === '/' && b !== 0 ? a / b : undefined;
  return v !== undefined && Number.isFinite(v) ? { t: 'float', v } : undefined;
}

/** `seq * n` (or `n * seq`): the sequence repeated, empty for n <= 0. */
function repeat(seq: PyVal, n: bigint): PyVal | undefined {
  const times = n < 0n ? 0 : Number(n);
  if (seq.t === 'str' || seq.t === 'bytes') return seq.v.length * times > MAX_ITEMS ? undefined : { t: seq.t, v: seq.v.repeat(times) };
  if (seq.t === 'list' || seq.t === 'tuple') {
    if (seq.items.length * times > MAX_ITEMS) return undefined;
    return { t: seq.t, items: Array.from({ length: times }, () => seq.items).flat() };
  }
  return undefined;
}

/** `a <op> b` of two literals. */
export function foldBinary(op: string, a: PyVal, b: PyVal): PyVal | undefined {
  const ia = int(a);
  const ib = int(b);
  if (ia !== undefined && ib !== undefined) return intOp(op, ia, ib);
  const seq = (v: PyVal) => v.t === 'str' || v.t === 'bytes' || v.t === 'list' || v.t === 'tuple';
  if (op === '*' && ib !== undefined && seq(a)) return repeat(a, ib);
  if (op === '*' && ia !== undefined && seq(b)) return repeat(b, ia);
  if (op === '+' && (a.t === 'str' || a.t === 'bytes') && a.t === b.t) return a.v.length + b.v.length > MAX_ITEMS ? undefined : { t: a.t, v: a.v + b.v };
  if (op === '+' && (a.t === 'list' || a.t === 'tuple') && a.t === b.t)
    return a.items.length + b.items.length > MAX_ITEMS ? undefined : { t: a.t, items: [...a.items, ...b.items] };
  const fa = num(a);
  const fb = num(b);
  if (fa !== undefined && fb !== undefined && (a.t === 'float' || b.t === 'float')) return floatOp(op, fa, fb);
  return undefined;
}

/** `~a` of an integer literal. */
export function foldInvert(a: PyVal): PyVal | undefined {
  const i = int(a);
  return i === undefined ? undefined : fromBig(~i);
}
