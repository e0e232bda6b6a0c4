/**
 * Values a condition reads from a parameter through a path written in its name (compile/condition/expr.ts
 * writes them): an item (`name[0]`, `name[-1]`, a keyword of `**kwargs`: `kwargs["style"]`), a slice (`name[1:]`), a string method with no argument
 * or one string (`name[1:].isdigit()`, `version.startswith("HTTP/1.")`). A call's literal argument
 * decides them as Python would; a string method is read on ASCII text only (Unicode's digits, letters
 * and cases are not known here), anything else is not known.
 */
import type { PyVal } from './types.js';
import { IDENTIFIER } from '../../python/identifier.js';

/** String methods a path may call: no argument, or (`startswith`, `endswith`) one string or a tuple of strings. */
export const PATH_METHODS = new Set([
  'isdigit',
  'isdecimal',
  'isnumeric',
  'isalpha',
  'isalnum',
  'isidentifier',
  'isspace',
  'isupper',
  'islower',
  'isascii',
  'lower',
  'upper',
  'strip',
  'lstrip',
  'rstrip',
  'startswith',
  'endswith',
]);

/** One step of a path: an item, a keyword of `**kwargs`, a slice, a string method. */
export type Step = { index: number } | { from?: number; to?: number } | { method: string; arg?: string | string[] } | { key: string };

const LEADING_NAME = new RegExp(`^${IDENTIFIER}`, 'u');
// A method's argument: one JSON string, or a tuple of them as Python writes it (`.startswith(("w","a"))`, `.startswith(("w",))`).
const STEP = /\[(-?\d+)\]|\[(-?\d*):(-?\d*)\]|\.(\w+)\(("(?:[^"\\]|\\.)*"|\((?:"(?:[^"\\]|\\.)*",?)+\))?\)|\[("(?:[^"\\]|\\.)*")\]/y;

/** The argument of `startswith` / `endswith` a path may hold: one string, or a tuple of strings (`mode.startswith(("w", "a", "x"))`). */
export function prefixArg(v: PyVal | undefined): string | string[] | undefined {
  if (v?.t === 'str') return v.v;
  if (v?.t !== 'tuple' || !v.items.length) return undefined;
  const strs = v.items.flatMap((x) => (x.t === 'str' ? [x.v] : []));
  return strs.length === v.items.length ? strs : undefined;
}

/** A step as a path name holds it (compile/condition/expr.ts writes paths with it; `splitPath` reads them back). */
export function stepText(s: Step): string {
  if ('index' in s) return `[${s.index}]`;
  if ('key' in s) return `[${JSON.stringify(s.key)}]`;
  if ('method' in s) return `.${s.method}(${s.arg === undefined ? '' : Array.isArray(s.arg) ? `(${s.arg.map((a) => JSON.stringify(a)).join(',')}${s.arg.length === 1 ? ',' : ''})` : JSON.stringify(s.arg)})`;
  return `[${s.from ?? ''}:${s.to ?? ''}]`;
}

/** A derived name's parameter and steps (undefined: a plain name). */
export function splitPath(name: string): { base: string; steps: Step[] } | undefined {
  const m = LEADING_NAME.exec(name);
  if (!m || m[0].length === name.length) return undefined;
  const steps: Step[] = [];
  STEP.lastIndex = m[0].length;
  while (STEP.lastIndex < name.length) {
    const s = STEP.exec(name);
    if (!s) return undefined;
    if (s[1] !== undefined) steps.push({ index: Number(s[1]) });
    else if (s[6] !== undefined) steps.push({ key: JSON.parse(s[6]) as string });
    else if (s[4] !== undefined)
      steps.push({ method: s[4], ...(s[5] !== undefined ? { arg: JSON.parse(s[5].startsWith('(') ? `[${s[5].slice(1, -1).replace(/,$/, '')}]` : s[5]) as string | string[] } : {}) });
    else steps.push({ ...(s[2] ? { from: Number(s[2]) } : {}), ...(s[3] ? { to: Number(s[3]) } : {}) });
  }
  return { base: m[0], steps };
}

/** The value of `v` after the steps, as Python computes it (undefined: not known, or an error there). */
export function follow(v: PyVal | undefined, steps: Step[]): PyVal | undefined {
  for (const s of steps) {
    if (!v) return undefined;
    v = 'index' in s ? item(v, s.index) : 'key' in s ? entry(v, s.key) : 'method' in s ? method(v, s.method, s.arg) : slice(v, s.from, s.to);
  }
  return v;
}

function item(v: PyVal, i: number): PyVal | undefined {
  const seq = v.t === 'str' || v.t === 'bytes' ? [...v.v] : v.t === 'tuple' || v.t === 'list' ? v.items : undefined;
  if (!seq) return undefined;
  const at = i < 0 ? seq.length + i : i;
  // Out of range: IndexError, another error than the record's.
  if (at < 0 || at >= seq.length) return undefined;
  const x = seq[at]!;
  if (v.t === 'str') return { t: 'str', v: x as string };
  if (v.t === 'bytes') return { t: 'int', v: (x as string).charCodeAt(0) };
  return x as PyVal;
}

/** A dict's value at a string key (`kwargs["style"]`); undefined when it is not there. */
function entry(v: PyVal, key: string): PyVal | undefined {
  if (v.t !== 'dict') return undefined;
  return v.entries.find(([k]) => k.t === 'str' && k.v === key)?.[1];
}

function slice(v: PyVal, from: number | undefined, to: number | undefined): PyVal | undefined {
  if (v.t === 'str' || v.t === 'bytes') return { t: v.t, v: [...v.v].slice(from, to).join('') };
  if (v.t === 'tuple' || v.t === 'list') return { t: v.t, items: v.items.slice(from, to) };
  return undefined;
}

const bool = (b: boolean): PyVal => ({ t: 'bool', v: b });

function method(v: PyVal, name: string, arg: string | string[] | undefined): PyVal | undefined {
  if (v.t !== 'str') return undefined;
  const s = v.v;
  // A tuple: true when one of its strings is (`mode.startswith(("w", "a", "x"))`).
  if (name === 'startswith' || name === 'endswith')
    return arg === undefined ? undefined : bool([arg].flat().some((a) => (name === 'startswith' ? s.startsWith(a) : s.endsWith(a))));
  if (name === 'isascii') return bool(/^[\x00-\x7f]*$/.test(s));
  if (!/^[\x00-\x7f]*$/.test(s)) return undefined;
  switch (name) {
    case 'isdigit':
    case 'isdecimal':
    case 'isnumeric':
      return bool(/^[0-9]+$/.test(s));
    case 'isalpha':
      return bool(/^[A-Za-z]+$/.test(s));
    case 'isalnum':
      return bool(/^[A-Za-z0-9]+$/.test(s));
    case 'isidentifier':
      return bool(/^[A-Za-z_][A-Za-z0-9_]*$/.test(s));
    case 'isspace':
      return bool(/^[ \t\n\r\x0b\x0c\x1c-\x1f]+$/.test(s));
    case 'isupper':
      return bool(/[A-Z]/.test(s) && !/[a-z]/.test(s));
    case 'islower':
      return bool(/[a-z]/.test(s) && !/[A-Z]/.test(s));
    case 'lower':
      return { t: 'str', v: s.toLowerCase() };
    case 'upper':
      return { t: 'str', v: s.toUpperCase() };
    case 'strip':
      return { t: 'str', v: s.replace(/^[ \t\n\r\x0b\x0c\x1c-\x1f]+|[ \t\n\r\x0b\x0c\x1c-\x1f]+$/g, '') };
    case 'lstrip':
      return { t: 'str', v: s.replace(/^[ \t\n\r\x0b\x0c\x1c-\x1f]+/, '') };
    case 'rstrip':
      return { t: 'str', v: s.replace(/[ \t\n\r\x0b\x0c\x1c-\x1f]+$/, '') };
    default:
      return undefined;
  }
}

/** What the steps give of a str known only by its first characters (`strPrefix`); undefined when they read past them. */
export function followPrefix(prefix: string, steps: Step[]): PyVal | undefined {
  const [s, ...rest] = steps;
  const chars = [...prefix];
  let v: PyVal | undefined;
  if (!s || 'key' in s) return undefined;
  if ('index' in s) v = s.index >= 0 && s.index < chars.length ? { t: 'str', v: chars[s.index]! } : undefined;
  else if ('method' in s) {
    if (s.method !== 'startswith' || s.arg === undefined) return undefined;
    // Longer than what is known: false unless it goes on from it. A tuple: true when one is, false when each is.
    const each = [s.arg].flat().map((a) => ([...a].length <= chars.length ? prefix.startsWith(a) : a.startsWith(prefix) ? undefined : false));
    v = each.includes(true) ? bool(true) : each.every((x) => x === false) ? bool(false) : undefined;
  } else {
    const from = s.from ?? 0;
    v = from >= 0 && s.to !== undefined && s.to >= 0 && s.to <= chars.length ? { t: 'str', v: chars.slice(from, s.to).join('') } : undefined;
  }
  return rest.length ? follow(v, rest) : v;
}
