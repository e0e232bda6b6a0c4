/** Inferred value types: a union of atoms. An empty union means "unreachable". */
import type { Node } from '../parse/parser.js';

export type Atom =
  /** A name imported from outside the file, by qualified name: a module, class or function. */
  | { kind: 'ref'; qualname: string }
  /** A class object: a known library class (canonical key) or a class defined in the file. */
  | { kind: 'class'; key: string }
  /** An instance. `fields` holds constructor arguments the class keeps; `exclude` the classes it was narrowed away from. */
  | { kind: 'inst'; key: string; fields?: Record<string, Type>; exclude?: string[] }
  /** A function or method defined in the file. */
  | { kind: 'func'; fn: Node; cls?: string }
  | { kind: 'tuple'; items: Type[] }
  /** Any homogeneous container (list, set, iterable, generator). */
  | { kind: 'seq'; elem: Type }
  | { kind: 'none' }
  /** Not known; `key` `'!none'`: known not to be None (a literal, an operator's result, a value narrowed by `is not None`). */
  | { kind: 'unknown'; key?: '!none' };

export type Type = readonly Atom[];

/**
 * Atoms are made here only, each with every field of every kind (those of other kinds
 * undefined), in one order. An atom of each kind its own object shape gave the model's hot sites
 * (`a.kind`, `a.key`, `a.fields`, read of atoms of any kind) several hidden classes to tell
 * apart, and each one met for the first time threw away the optimised code of the function
 * (V8's "wrong map" deopt), which then compiled again. One shape keeps them monomorphic.
 */
function make(
  kind: Atom['kind'],
  key?: string,
  qualname?: string,
  fields?: Record<string, Type>,
  exclude?: string[],
  fn?: Node,
  cls?: string,
  items?: Type[],
  elem?: Type,
): Atom {
  return { kind, key, qualname, fields, exclude, fn, cls, items, elem } as unknown as Atom;
}
type Of<K extends Atom['kind']> = Extract<Atom, { kind: K }>;
export const refAtom = (qualname: string): Of<'ref'> => make('ref', undefined, qualname) as Of<'ref'>;
export const classAtom = (key: string): Of<'class'> => make('class', key) as Of<'class'>;
export const instAtom = (key: string, fields?: Record<string, Type>, exclude?: string[]): Of<'inst'> =>
  make('inst', key, undefined, fields, exclude) as Of<'inst'>;
export const funcAtom = (fn: Node, cls?: string): Of<'func'> => make('func', undefined, undefined, undefined, undefined, fn, cls) as Of<'func'>;
export const tupleAtom = (items: Type[]): Of<'tuple'> => make('tuple', undefined, undefined, undefined, undefined, undefined, undefined, items) as Of<'tuple'>;
export const seqAtom = (elem: Type): Of<'seq'> => make('seq', undefined, undefined, undefined, undefined, undefined, undefined, undefined, elem) as Of<'seq'>;
export const NONE_ATOM = make('none');
export const UNKNOWN_ATOM = make('unknown');
/** A value not known, except that it is not None. Every test of `kind === 'unknown'` reads it as unknown. */
export const SOME_ATOM = make('unknown', '!none');

export const UNKNOWN: Type = [UNKNOWN_ATOM];
export const NONE: Type = [NONE_ATOM];
export const SOME: Type = [SOME_ATOM];
/** Expressions whose value is never None (an operator's result: no operator of a built-in type gives None). */
export const NOT_NONE_SYNTAX = new Set([
  'integer',
  'float',
  'true',
  'false',
  'binary_operator',
  'unary_operator',
  'comparison_operator',
  'not_operator',
  'dictionary',
]);
/** Built-ins whose call (when the file does not rebind the name) never gives None. */
export const NOT_NONE_CALLS = new Set([
  'str',
  'repr',
  'int',
  'float',
  'bool',
  'bytes',
  'bytearray',
  'list',
  'dict',
  'tuple',
  'set',
  'frozenset',
  'len',
  'sorted',
  'format',
  'abs',
  'round',
  'hex',
  'chr',
  'ord',
]);
/** Empty, of the kind of the other types' arrays (packed, of objects: see parse/fastnodes.ts listOf). */
export const NEVER: Type = (() => {
  const t: Atom[] = [UNKNOWN_ATOM];
  t.pop();
  return t;
})();
const MAX_UNION = 12;

export function atomKey(a: Atom, depth = 0): string {
  switch (a.kind) {
    case 'ref':
      return `r:${a.qualname}`;
    case 'class':
      return `c:${a.key}`;
    case 'inst': {
      if (depth > 3) return `i:${a.key}`;
      let f = '';
      if (a.fields) for (const n in a.fields) f += `${f ? ',' : ''}${n}=${typeKey(a.fields[n]!, depth + 1)}`;
      return `i:${a.key}{${f}}-${a.exclude ? a.exclude.join(',') : ''}`;
    }
    case 'func':
      return `f:${a.fn.id}`;
    case 'tuple':
      if (depth > 3) return 't';
      let s = '';
      for (let i = 0; i < a.items.length; i++) s += `${i ? ';' : ''}${typeKey(a.items[i]!, depth + 1)}`;
      return `t(${s})`;
    case 'seq':
      return depth > 3 ? 's' : `s[${typeKey(a.elem, depth + 1)}]`;
    case 'unknown':
      return a.key ? 'unknown!' : 'unknown';
    default:
      return a.kind;
  }
}

// Loops, not `map` with an arrow: an arrow made on each call was compiled again for each (V8 optimises closures one by one).
export function typeKey(t: Type, depth = 0): string {
  if (t.length === 1) return atomKey(t[0]!, depth);
  const keys: string[] = [];
  for (const a of t) keys.push(atomKey(a, depth));
  return keys.sort().join('|');
}

export function union(...types: Type[]): Type {
  // One atom in all (or the same one-atom type each time): that type, with no key made.
  let only: Type | undefined;
  let single = true;
  for (const t of types) {
    if (t.length === 0 || t === only) continue;
    if (t.length > 1 || only) {
      single = false;
      break;
    }
    only = t;
  }
  if (single) return only ?? NEVER;
  const seen = new Map<string, Atom>();
  for (const t of types) for (const a of t) seen.set(atomKey(a), a);
  // Not known at all takes in not known but not None.
  if (seen.has('unknown')) seen.delete('unknown!');
  const out = [...seen.values()];
  if (out.length > MAX_UNION) return [...out.slice(0, MAX_UNION), UNKNOWN_ATOM];
  return out;
}

/**
 * Whether a value of this type is never None: each atom an instance, a class or function of the
 * file, a container, or a value known not to be None. A name imported from elsewhere (`ref`: a
 * module's variable, a call's symbolic result) may be None.
 */
export function neverNone(t: Type): boolean {
  if (!t.length) return false;
  for (const a of t) if (a.kind === 'none' || a.kind === 'ref' || (a.kind === 'unknown' && !a.key)) return false;
  return true;
}

/** Not None: what a test that the value is not None (or is true) leaves of it. */
export function notNone(t: Type): Type {
  const out: Atom[] = [];
  for (const a of t) if (a.kind !== 'none') out.push(a.kind === 'unknown' ? SOME_ATOM : a);
  return union(out);
}

export function isUnknown(t: Type): boolean {
  return t.length === 1 && t[0]!.kind === 'unknown';
}

/** Element type when iterating over a value. */
export function elementOf(t: Type): Type {
  const out: Type[] = [];
  for (const a of t) {
    if (a.kind === 'seq') out.push(a.elem);
    else if (a.kind === 'tuple') out.push(union(...a.items));
    else out.push(UNKNOWN);
  }
  return union(...out);
}
