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
  | { kind: 'unknown' };

export type Type = readonly Atom[];

export const UNKNOWN: Type = [{ kind: 'unknown' }];
export const NONE: Type = [{ kind: 'none' }];
export const NEVER: Type = [];
const MAX_UNION = 12;

export function atomKey(a: Atom, depth = 0): string {
  switch (a.kind) {
    case 'ref':
      return `r:${a.qualname}`;
    case 'class':
      return `c:${a.key}`;
    case 'inst': {
      if (depth > 3) return `i:${a.key}`;
      const f = a.fields ? Object.entries(a.fields).map(([n, t]) => `${n}=${typeKey(t, depth + 1)}`).join(',') : '';
      return `i:${a.key}{${f}}-${(a.exclude ?? []).join(',')}`;
    }
    case 'func':
      return `f:${a.fn.id}`;
    case 'tuple':
      return depth > 3 ? 't' : `t(${a.items.map((t) => typeKey(t, depth + 1)).join(';')})`;
    case 'seq':
      return depth > 3 ? 's' : `s[${typeKey(a.elem, depth + 1)}]`;
    default:
      return a.kind;
  }
}

export function typeKey(t: Type, depth = 0): string {
  return t.map((a) => atomKey(a, depth)).sort().join('|');
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
  if (single) return only ?? [];
  const seen = new Map<string, Atom>();
  for (const t of types) for (const a of t) seen.set(atomKey(a), a);
  const out = [...seen.values()];
  if (out.length > MAX_UNION) return [...out.slice(0, MAX_UNION), { kind: 'unknown' }];
  return out;
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
