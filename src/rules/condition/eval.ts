/** Three-valued evaluation of a raise condition over a call's bound arguments: true, false or undefined (not known). */
import { and, not, or, truthy } from './simplify.js';
import type { Binding, Bound, CmpOp, Cond, Kind, PyVal, Tri } from './types.js';
import { BUILTIN_CLASSES, isBuiltinExceptionClass } from '../../python/builtins.js';
import { builtinHasAttr } from '../../python/builtinattrs.js';

import { follow, followPrefix, splitPath } from './derived.js';
import { conversionCaught } from './convert.js';
import { freshState } from './freshstate.js';

export { ctorValue, lastChange, stateTouched } from './freshstate.js';

export type { Binding, Bound, CtorArgs, Kind, Tri } from './types.js';

/** `hasattr(p, 'name')` or its negation, as a data atom's text. */
const HASATTR = /^(not )?hasattr\((\w+), *(['"])(\w+)\3\)$/;

/** What a call gives a parameter, or a value read from one through a path (`name[0]`, `name[1:].isdigit()`: ./derived.ts). */
export function boundOf(b: Binding, name: string): Bound | undefined {
  const own = b.params.get(name);
  if (own) return own;
  const path = splitPath(name);
  const base = path && b.params.get(path.base);
  if (!path || !base) return undefined;
  const value = !base.value && base.prefix ? followPrefix(base.prefix, path.steps) : follow(base.value, path.steps);
  return { value, given: base.given, text: base.text };
}

const BUILTIN_TYPES: Record<string, Kind[]> = {
  int: ['int', 'bool'],
  bool: ['bool'],
  float: ['float'],
  str: ['str'],
  bytes: ['bytes'],
  tuple: ['tuple'],
  list: ['list'],
  set: ['set'],
  dict: ['dict'],
  frozenset: [],
  bytearray: [],
  type: ['class'],
  complex: [],
  'type(None)': ['none'],
  NoneType: ['none'],
  'types.NoneType': ['none'],
  // collections.abc, as the raising module imports them (`from collections.abc import Sequence as _Sequence`).
  Sequence: ['tuple', 'list', 'str', 'bytes'],
  MutableSequence: ['list'],
  Set: ['set'],
  MutableSet: ['set'],
  Mapping: ['dict'],
  MutableMapping: ['dict'],
  Sized: ['tuple', 'list', 'str', 'bytes', 'set', 'dict'],
  Iterable: ['tuple', 'list', 'str', 'bytes', 'set', 'dict'],
  Collection: ['tuple', 'list', 'str', 'bytes', 'set', 'dict'],
  Container: ['tuple', 'list', 'str', 'bytes', 'set', 'dict'],
  Hashable: ['none', 'bool', 'int', 'float', 'str', 'bytes', 'tuple'],
  // A class object or a def's function is callable; no literal is.
  Callable: ['class', 'function'],
  Coroutine: ['coroutine'], // what calling an `async def` gives (`iscoroutine`, `isawaitable`); no literal, class or function is one
  Awaitable: ['coroutine'],
  // asyncio's `isfuture(x)` (a Future by duck typing): no literal, coroutine, class or function is one.
  Future: [],
};

/** A type as written (`_Sequence`, `collections.abc.Sequence`, `builtins.str`) → its key in BUILTIN_TYPES. */
function typeKey(t: string): string {
  if (t in BUILTIN_TYPES) return t;
  const last = t.replace(/^(builtins|collections\.abc|typing)\./, '');
  return last.replace(/^_+/, '');
}

function num(v: PyVal): number | undefined {
  return v.t === 'int' || v.t === 'float' ? v.v : v.t === 'bool' ? Number(v.v) : undefined;
}

export function pyEquals(a: PyVal, b: PyVal): Tri {
  const x = num(a);
  const y = num(b);
  if (x !== undefined && y !== undefined) return x === y;
  if (a.t !== b.t) return a.t === 'none' || b.t === 'none' || x !== undefined || y !== undefined || a.t === 'str' || b.t === 'str' ? false : undefined;
  if (a.t === 'class' && b.t === 'class') return a.name === b.name;
  if (a.t === 'none') return true;
  if ((a.t === 'str' || a.t === 'bytes') && (b.t === 'str' || b.t === 'bytes')) return a.v === b.v;
  if ((a.t === 'tuple' || a.t === 'list' || a.t === 'set') && 'items' in b) {
    if (a.t === 'set') return undefined;
    if (a.items.length !== b.items.length) return false;
    let all: Tri = true;
    for (let i = 0; i < a.items.length; i++) {
      const e = pyEquals(a.items[i]!, b.items[i]!);
      if (e === false) return false;
      if (e === undefined) all = undefined;
    }
    return all;
  }
  return undefined;
}

function contains(container: PyVal, item: PyVal): Tri {
  if (container.t === 'str' || container.t === 'bytes') return item.t === container.t ? container.v.includes(item.v) : undefined;
  const items = container.t === 'dict' ? container.entries.map(([k]) => k) : 'items' in container ? container.items : undefined;
  if (!items) return undefined;
  let out: Tri = false;
  for (const i of items) {
    const e = pyEquals(i, item);
    if (e) return true;
    if (e === undefined) out = undefined;
  }
  return out;
}

export function compare(a: PyVal, op: CmpOp, b: PyVal): Tri {
  switch (op) {
    case '==':
      return pyEquals(a, b);
    case '!=': {
      const e = pyEquals(a, b);
      return e === undefined ? undefined : !e;
    }
    case 'is':
    case 'is not': {
      // A literal is never a class object (`'spam' is _empty`); two classes are one when named alike; CPython
      // keeps one object for each int from -5 to 256 (`step is not _ONE`, `_ONE = 1`, with `step=_ONE` as its default).
      const same =
        b.t === 'none' || a.t === 'none'
          ? a.t === b.t
          : a.t === 'bool' && b.t === 'bool'
            ? a.v === b.v
            : a.t === 'int' && b.t === 'int' && smallInt(a.v) && smallInt(b.v)
              ? a.v === b.v
            : a.t === 'class' && b.t === 'class'
              ? a.name === b.name || undefined
              : a.t === 'class' || b.t === 'class'
                ? false
                : undefined;
      return same === undefined ? undefined : op === 'is' ? same : !same;
    }
    case 'in':
      return contains(b, a);
    case 'not in': {
      const c = contains(b, a);
      return c === undefined ? undefined : !c;
    }
    // `a has b` is `b in a`.
    case 'has':
    case 'has not':
      return compare(b, op === 'has' ? 'in' : 'not in', a);
    default: {
      const x = num(a) ?? (a.t === 'str' ? a.v : undefined);
      const y = num(b) ?? (b.t === 'str' ? b.v : undefined);
      if (x === undefined || y === undefined || typeof x !== typeof y) return undefined;
      return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
    }
  }
}

const smallInt = (v: number) => Number.isInteger(v) && v >= -5 && v <= 256;

export function lengthOf(v: PyVal): number | undefined {
  if (v.t === 'str' || v.t === 'bytes') return [...v.v].length;
  if (v.t === 'dict') return v.entries.length;
  return 'items' in v ? v.items.length : undefined;
}

/** Built-in classes that are not subclasses of `Exception` (but of BaseException). */
const BASE_ONLY = new Set(['SystemExit', 'KeyboardInterrupt', 'GeneratorExit', 'BaseExceptionGroup']);

/** `issubclass(v, T)` for a built-in class value against built-in bases; unknown past them. */
function isSubclass(v: PyVal, types: string[], plain?: string[]): Tri {
  if (v.t !== 'class') return undefined;
  const exc = isBuiltinExceptionClass(v.name);
  const builtin = exc || BUILTIN_CLASSES.has(v.name);
  let out: Tri = false;
  for (const raw of types) {
    const t = raw.replace(/^builtins\./, '');
    if (t === v.name || t === 'object') return true;
    // A built-in class has only built-in bases: no plain class of the library (no ABC that could register it) is one.
    if (builtin && plain?.includes(raw)) continue;
    if (t === 'Warning') {
      if (v.name.endsWith('Warning')) return true;
    } else if (t === 'BaseException') {
      if (exc || BASE_ONLY.has(v.name)) return true;
    } else if (t === 'Exception') {
      if (exc && !BASE_ONLY.has(v.name)) return true;
    } else out = undefined;
  }
  // A class value that is not an exception is no subclass of the exception bases above.
  return out;
}

/** Built-in classes whose instances `type(x) in (T, ...)` tests exactly. */
const EXACT = new Set<string>(['int', 'bool', 'float', 'str', 'bytes', 'tuple', 'list', 'set', 'dict']);
/** Concrete built-in classes: an instance of a class of the user's over `object` is none of them (an ABC's `__subclasshook__` may say otherwise). */
const CONCRETE = new Set<string>([...EXACT, 'frozenset', 'bytearray', 'complex', 'type', 'NoneType', 'type(None)', 'types.NoneType']);

/** `isinstance(v, types)` (`exact`: `type(v) in types`) for a value of a known kind. */
function isInstance(v: { t: Kind }, c: { types: string[]; exact?: true; plain?: string[] }): Tri {
  let out: Tri = false;
  for (const t of c.types) {
    // A plain class of the library (no metaclass, no ABC) has no built-in value, class object or function among its instances.
    if (c.plain?.includes(t)) continue;
    const key = typeKey(t);
    if (v.t === 'instance') {
      if (!CONCRETE.has(key) && !isBuiltinExceptionClass(t.replace(/^builtins\./, ''))) out = undefined;
      continue;
    }
    const kinds = c.exact ? (EXACT.has(key) ? [key] : t === 'NoneType' || t === 'type(None)' ? ['none'] : undefined) : BUILTIN_TYPES[key];
    // A literal (or a class object) is never an instance of an exception class.
    if (!kinds && isBuiltinExceptionClass(t.replace(/^builtins\./, ''))) continue;
    if (!kinds) out = undefined;
    else if (kinds.includes(v.t)) return true;
  }
  return out;
}

/** A condition over a value of which only the kind is known: `isinstance` and `is None` are decided, and a function is true. */
function byType(c: Cond, t: Kind): Tri {
  // Hashability of a tuple depends on its items; of an `object` (not None), only `is None` is known.
  if (c.k === 'isinstance' && !c.subclass) return t === 'object' || c.types.some((x) => typeKey(x) === 'Hashable') ? undefined : isInstance({ t }, c);
  if (c.k === 'cmp' && (c.op === 'is' || c.op === 'is not') && c.value.t === 'none') return (t === 'none') === (c.op === 'is');
  if (c.k === 'truthy' && (t === 'function' || t === 'coroutine')) return true;
  return undefined;
}

/** Three-valued `and` (`decisive` false) or `or` (`decisive` true): one decisive part decides; an unknown part leaves the rest unknown. */
function junction(es: Cond[], b: Binding, decisive: boolean): Tri {
  let out: Tri = !decisive;
  for (const e of es) {
    const v = evaluate(e, b);
    if (v === decisive) return decisive;
    if (v === undefined) out = undefined;
  }
  return out;
}

export function evaluate(c: Cond, b: Binding): Tri {
  switch (c.k) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'data': {
      // `events._get_running_loop() is not None`: what the call's place shows (src/match/callcontext.ts).
      if (c.loop) return b.loop;
      // `hasattr(query, "items")` of a literal argument: its built-in type's attributes.
      const has = HASATTR.exec(c.text);
      const held = has ? boundOf(b, has[2]!)?.value : undefined;
      if (held && held.t !== 'class') {
        const h = builtinHasAttr(held.t, has![4]!);
        if (h !== undefined) return has![1] ? !h : h;
      }
      // `not self.locked()` in `with cond:` (src/match/callcontext.ts); elsewhere, whoever holds the lock decides.
      if (c.held && b.held) return true;
      // The receiver's own state, on an object fresh from its constructor that no call (nor a use of the attribute itself) has changed since.
      // From a subclass's constructor only a context fact holds (the object is new, whatever its `__init__` leaves).
      return c.state && b.fresh ? freshState(c.state, b.fresh) : undefined;
    }
    case 'not': {
      const e = evaluate(c.e, b);
      return e === undefined ? undefined : !e;
    }
    case 'and':
      return junction(c.es, b, false);
    case 'or':
      return junction(c.es, b, true);
    case 'given': {
      if (c.others) return [...b.keywords].some((k) => !c.others!.includes(k)) ? true : b.kwSplat ? undefined : false;
      if (c.key === undefined) return b.params.get(c.param)?.given;
      if (b.keywords.has(c.key)) return true;
      return b.kwSplat ? undefined : false;
    }
    case 'fails': {
      const bound = boundOf(b, c.param);
      return conversionCaught(c.conv, c.caught, bound?.value, bound?.type);
    }
    default: {
      const bound = boundOf(b, c.param);
      // `any(iscoroutine(f) for f in fs)`: some item of the argument is one.
      if (c.k === 'isinstance' && c.items) return c.subclass ? undefined : someItem(bound, (t) => isInstance({ t }, c));
      const v = bound?.value;
      if (!v && bound?.length !== undefined && (c.k === 'truthy' || c.k === 'len')) return c.k === 'truthy' ? bound.length > 0 : compare({ t: 'int', v: bound.length }, c.op, c.value);
      if (!v && bound?.prefix && (c.k === 'truthy' || c.k === 'len')) {
        // At least as long as what is known of it: true, and longer than anything shorter.
        if (c.k === 'truthy') return true;
        const n = [...bound.prefix].length;
        const k = c.value.t === 'int' ? c.value.v : undefined;
        if (k !== undefined && k < n && (c.op === '==' || c.op === '<' || c.op === '<=')) return false;
        if (k !== undefined && k < n && (c.op === '!=' || c.op === '>' || c.op === '>=')) return true;
      }
      if (!v) return bound?.type ? byType(c, bound.type) : undefined;
      if (c.k === 'truthy') return truthy(v);
      // `klass is Logger` (subclass and exact): a value that is no class is not that class.
      if (c.k === 'isinstance') return c.subclass ? (c.exact && v.t !== 'class' ? false : isSubclass(v, c.types, c.plain)) : isInstance(v, c);
      if (c.k === 'len') {
        const n = lengthOf(v);
        return n === undefined ? undefined : compare({ t: 'int', v: n }, c.op, c.value);
      }
      // A converted parameter (`istep = _index(step)`): its number is the argument's only when that is one.
      if (c.numeric && v.t !== 'int' && v.t !== 'float' && v.t !== 'bool') return undefined;
      return compare(v, c.op, c.value);
    }
  }
}

/** Whether some item of a list, tuple or set (a literal, or one written out whose items' kinds are known) passes `test`. */
function someItem(bound: Bound | undefined, test: (t: Kind) => Tri): Tri {
  const v = bound?.value;
  const kinds = v && (v.t === 'list' || v.t === 'tuple' || v.t === 'set') ? v.items.map((x) => x.t) : bound?.items;
  if (!kinds) return undefined;
  let out: Tri = false;
  for (const k of kinds) {
    const r = k === undefined ? undefined : test(k);
    if (r === true) return true;
    if (r === undefined) out = undefined;
  }
  return out;
}

/** What is left of `c` once the call's arguments decide what they can: decided parts fold away. */
export function residual(c: Cond, b: Binding): Cond {
  const v = evaluate(c, b);
  if (v !== undefined) return { k: v ? 'true' : 'false' };
  if (c.k === 'and') return and(c.es.map((e) => residual(e, b)));
  if (c.k === 'or') return or(c.es.map((e) => residual(e, b)));
  if (c.k === 'not') return not(residual(c.e, b));
  return c;
}
