/**
 * A built-in conversion of a parameter inside a `try` whose handler holds the raise (`try: t =
 * float(date) except ValueError: raise MaildirError(...)`, `try: istart = _index(start) except
 * TypeError:`): the handler runs when the conversion raises what it catches. Python's own rules,
 * for a value the call shows: `operator.index` takes an int (a bool is one) and nothing else
 * literal; `int` and `float` take a number, or a str / bytes written as one (whitespace around,
 * a sign, `_` between digits, any decimal digit; `float` also `inf`, `infinity`, `nan`), and raise
 * ValueError for another str, TypeError for another literal (None, a list, a dict).
 */
import type { PyVal } from './types.js';

export type Conversion = 'int' | 'float' | 'index';

/** The error classes that catch each one a conversion raises. */
const CAUGHT_BY: Record<string, string[]> = {
  ValueError: ['ValueError', 'Exception', 'BaseException'],
  TypeError: ['TypeError', 'Exception', 'BaseException'],
  OverflowError: ['OverflowError', 'ArithmeticError', 'Exception', 'BaseException'],
};

const DIGITS = String.raw`\p{Nd}(?:_?\p{Nd})*`;
/** The whitespace int() and float() strip: what `str.isspace()` says but the ASCII separators \x1c-\x1f (not JavaScript's `\s`). */
const WS = String.raw`[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*`;
const INT_TEXT = new RegExp(String.raw`^${WS}[+-]?${DIGITS}${WS}$`, 'u');
const FLOAT_TEXT = new RegExp(String.raw`^${WS}[+-]?(?:(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf|infinity|nan)${WS}$`, 'iu');

/** The error `conv(v)` raises for a literal, `null` for none, undefined when not known. */
export function conversionError(conv: Conversion, v: PyVal): string | null | undefined {
  if (v.t === 'int' || v.t === 'bool') return null;
  if (conv === 'index') return 'TypeError';
  if (v.t === 'float') return conv === 'float' ? null : Number.isNaN(v.v) ? 'ValueError' : Number.isFinite(v.v) ? null : 'OverflowError';
  if (v.t === 'str' || v.t === 'bytes') {
    // bytes are ASCII text to both.
    if (v.t === 'bytes' && /[^\x00-\x7f]/.test(v.v)) return 'ValueError';
    return (conv === 'int' ? INT_TEXT : FLOAT_TEXT).test(v.v) ? null : 'ValueError';
  }
  // None, a collection, a class object.
  return 'TypeError';
}

/** Whether the handler catching `caught` (bare: every error) runs: `conv` of the bound value raises one of them. */
export function conversionCaught(conv: Conversion, caught: string[] | undefined, value: PyVal | undefined, type: string | undefined): boolean | undefined {
  let err: string | null | undefined;
  if (value) err = conversionError(conv, value);
  // Of a value whose kind alone is known: a number converts (an int always, a float to `float`); a def or class object never does.
  else if (type === 'int' || type === 'bool' || (type === 'float' && conv === 'float')) err = null;
  else if (type === 'function' || type === 'class') err = 'TypeError';
  if (err === undefined) return undefined;
  if (err === null) return false;
  return !caught || caught.some((c) => CAUGHT_BY[err]!.includes(c));
}
