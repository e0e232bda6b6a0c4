/** Building conditions with constant folding: `and([true, c])` is `c`, `not(not(c))` is `c`. */
import { negatedText } from './negate.js';
import type { Cond, PyVal, StateFact } from './types.js';

export function and(cs: Cond[]): Cond {
  return junction('and', cs);
}

export function or(cs: Cond[]): Cond {
  return junction('or', cs);
}

/** `and`/`or` of `cs`, flattened: the neutral constant drops out, the absorbing one is the result. */
function junction(k: 'and' | 'or', cs: Cond[]): Cond {
  const neutral = k === 'and' ? 'true' : 'false';
  const out: Cond[] = [];
  for (const c of cs) {
    if (c.k === neutral) continue;
    if (c.k === 'true' || c.k === 'false') return c;
    if (c.k === k) out.push(...c.es);
    else out.push(c);
  }
  if (contradicts(out)) return { k: k === 'and' ? 'false' : 'true' };
  resolve(k, out);
  return out.length === 0 ? { k: neutral } : out.length === 1 ? out[0]! : { k, es: out };
}

/**
 * A test on the call's arguments beside its negation (`isinstance(m, W) and not isinstance(m, W)`):
 * an `and` of them never holds, an `or` always does. Data tests are left alone: two reads of the
 * same text may see different states.
 */
function contradicts(cs: readonly Cond[]): boolean {
  const negated = cs.filter((c): c is Extract<Cond, { k: 'not' }> => c.k === 'not' && c.e.k !== 'data');
  if (!negated.length) return false;
  const keys = new Set(cs.filter((c) => c.k !== 'not' && c.k !== 'data').map((c) => JSON.stringify(c)));
  return negated.some((c) => keys.has(JSON.stringify(c.e)));
}

/**
 * `(A or R) and (not A or R)` is `R` (and the dual for `or`), A a test on the call's arguments: a
 * parameter rebound under a test (`if isinstance(path, bytes): path = fsdecode(path)`) gives one
 * copy of the later test per branch. Merges in place.
 */
function resolve(k: 'and' | 'or', out: Cond[]): void {
  const dual = k === 'and' ? 'or' : 'and';
  const key = (c: Cond) => JSON.stringify(c);
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    if (a.k !== dual) continue;
    for (let j = i + 1; j < out.length; j++) {
      const b = out[j]!;
      if (b.k !== dual || b.es.length !== a.es.length) continue;
      const bk = new Set(b.es.map(key));
      const ak = new Set(a.es.map(key));
      const onlyA = a.es.filter((e) => !bk.has(key(e)));
      const onlyB = b.es.filter((e) => !ak.has(key(e)));
      if (onlyA.length !== 1 || onlyB.length !== 1) continue;
      const [x, y] = [onlyA[0]!, onlyB[0]!];
      const complementary = (x.k === 'not' && x.e.k !== 'data' && key(x.e) === key(y)) || (y.k === 'not' && y.e.k !== 'data' && key(y.e) === key(x));
      if (!complementary) continue;
      const rest = a.es.filter((e) => e !== x);
      out[i] = rest.length === 1 ? rest[0]! : { k: dual, es: rest };
      out.splice(j, 1);
      i = -1;
      break;
    }
  }
}

export function not(c: Cond): Cond {
  if (c.k === 'true') return { k: 'false' };
  if (c.k === 'false') return { k: 'true' };
  if (c.k === 'not') return c.e;
  // Read where the call is (src/match/callcontext.ts): kept whole, not as negated text.
  if (c.k === 'data' && (c.loop || c.held)) return { k: 'not', e: c };
  if (c.k === 'data') {
    // Python's own text reads negated as Python would write it; the compiler's words (`an earlier branch did not return`) get a `not`.
    const text = (!SYNTHETIC.test(c.text) && negatedText(c.text)) || (c.text.startsWith('not ') ? c.text.slice(4) : `not ${c.text}`);
    return c.state ? { k: 'data', text, state: negateState(c.state) } : { k: 'data', text };
  }
  return { k: 'not', e: c };
}

/** The condition mentions nothing but data: no call's arguments can decide any part of it. */
export function onlyData(c: Cond): boolean {
  if (c.k === 'data') return true;
  if (c.k === 'not') return onlyData(c.e);
  if (c.k === 'and' || c.k === 'or') return c.es.every(onlyData);
  return false;
}

/** The parameters a condition reads. */
export function paramsOf(c: Cond, out = new Set<string>()): Set<string> {
  if (c.k === 'not') paramsOf(c.e, out);
  else if (c.k === 'and' || c.k === 'or') for (const e of c.es) paramsOf(e, out);
  else if ('param' in c) out.add(c.param);
  return out;
}

/** Some atom of `c` (under its `not`, `and` and `or`) meets `test`. */
export function someAtom(c: Cond, test: (atom: Cond) => boolean): boolean {
  if (c.k === 'not') return someAtom(c.e, test);
  if (c.k === 'and' || c.k === 'or') return c.es.some((e) => someAtom(e, test));
  return test(c);
}

/** Some part of the condition depends on data or state (a call's arguments can at most rule it out). */
export function mentionsData(c: Cond): boolean {
  return someAtom(c, (x) => x.k === 'data');
}

/** Words of the data atoms the compiler writes for control flow (`an earlier branch did not return`): neither state nor arguments. */
const SYNTHETIC = /^(an earlier (branch|statement) did not return|the block runs|a loop body runs|no handler of the surrounding try catches it|.+ was raised and caught|the def is defined)\b/;
/** Names that are no object's state: keywords, builtins a test calls. */
const NEUTRAL = new Set(['not', 'and', 'or', 'is', 'in', 'None', 'True', 'False', 'isinstance', 'len', 'bool', 'type', 'hasattr', 'getattr', 'callable', 'str', 'int', 'bytes', 'tuple', 'list', 'dict']);

/**
 * The condition depends on the library's own private state only: no atom is over the call's
 * parameters, and every data atom reads private attributes of the receiver (`self._initialized`,
 * `self.__state`) or the module's private names (`_can_fork_exec`). Such a raise guards the
 * library's invariants (a subclass that skipped `__init__`, a platform without fork): nothing at
 * the call decides it. Public state (`self.buffer`, `self.fp`) is state the caller feeds: judged as data.
 * An object the library made in place of a parameter the call left out (a `lib` atom) is its state
 * too. `made`: only such objects count (the match judges what is left of a condition once a call's
 * arguments are bound with it: a private attribute there may be one the caller's earlier calls set).
 */
export function onlyLibraryState(c: Cond, made = false): boolean {
  let state = 0;
  const visit = (x: Cond): boolean => {
    if (x.k === 'true' || x.k === 'false') return true;
    if (x.k === 'not') return visit(x.e);
    if (x.k === 'and' || x.k === 'or') return x.es.every(visit);
    if (x.k !== 'data' || x.loop) return false;
    if (SYNTHETIC.test(x.text)) return true;
    if (x.lib) return ++state > 0;
    if (made) return false;
    const code = x.text.replace(/(['"]).*?\1/g, '');
    const roots = rootNames(x.text).filter((n) => !NEUTRAL.has(n));
    if (!roots.length || !roots.every((n) => n === 'self' || n === 'cls' || n.startsWith('_'))) return false;
    // Private state only (`self._started`, `self.__state`): public attributes (`self.buffer`) are state the caller feeds.
    if (![...code.matchAll(/(?<![\w.])(?:self|cls)\s*\.\s*(\w+)/g)].every((m) => m[1]!.startsWith('_'))) return false;
    state++;
    return true;
  };
  return visit(c) && state > 0;
}

/** The roots of a data atom's names: those not after a `.`, outside string literals (`self` and `ssl` in `self.fp.mode == ssl.X`). */
export function rootNames(text: string): string[] {
  return [...text.replace(/(['"]).*?\1/g, '').matchAll(/(?<![\w.])([A-Za-z_]\w*)/g)].map((m) => m[1]!);
}

/**
 * `not hasattr(p, "name")` / `not callable(p)` of a parameter, as a data atom's text; also of its
 * class, by a constant's name (dataclasses' `not hasattr(type(obj), _FIELDS)`).
 */
const FAILED_TYPE_TEST = /^not (?:hasattr\((?:type\((\w+)\)|(\w+)), *(?:(['"])\w+\3|_*[A-Z][A-Z0-9_]*)\)|callable\((\w+)\))$/;
/**
 * A library's kind predicate of a parameter, either way (`futures.isfuture(fs)`, `not isframe(frame)`,
 * `inspect.ismethod(func)`): in a TypeError's condition, a test of what kind of object the argument is.
 */
const KIND_PREDICATE = /^(?:not )?(?:[A-Za-z_]\w*\.)*is_?[a-z]\w*\((\w+)\)$/;
/** asyncio's and inspect's kind predicates the compiler reads as `isinstance` (`iscoroutine(x)`: compile/condition/atoms.ts). */
const PREDICATE_TYPES = new Set(['Coroutine', 'Awaitable', 'Future']);

/**
 * The condition needs a parameter to fail a type test (`not isinstance(p, T)`, `not
 * issubclass(p, T)`, `not hasattr(p, "read")`, `not callable(p)`): one of its conjuncts is made of
 * such failed tests alone, so an argument of the type the test wants never raises. With `kinds`
 * (a TypeError's condition), a condition made of nothing but the arguments' kinds, a library's
 * kind predicates among them, either way (`isfuture(fs) or iscoroutine(fs)`: an iterable of
 * futures never raises; `not isframe(frame)`) is such a part too. Returns that part, else undefined. (A test that must pass, `callable(function)` before a raise about another
 * argument, is no such part.)
 */
const indexMemo = new WeakMap<Cond, boolean>();

/** The condition holds an `operator.index(p)` failure (./convert.ts): memoised per condition object. */
export function failsOnIndex(c: Cond): boolean {
  let v = indexMemo.get(c);
  if (v === undefined) {
    v = someAtom(c, (x) => x.k === 'fails' && x.conv === 'index');
    indexMemo.set(c, v);
  }
  return v;
}

export function onlyTypeTests(c: Cond, params: ReadonlySet<string>, kinds = false): Cond | undefined {
  const failed = (x: Cond): boolean => {
    if (x.k === 'not') return x.e.k === 'isinstance';
    // `operator.index(p)` fails for what is no int: the argument's type.
    if (x.k === 'fails') return x.conv === 'index' && params.has(x.param);
    if (x.k === 'and' || x.k === 'or') return x.es.every(failed);
    if (x.k !== 'data') return false;
    const m = FAILED_TYPE_TEST.exec(x.text);
    return !!m && params.has(m[1] ?? m[2] ?? m[4] ?? '');
  };
  // Nothing but the argument's kind, either way (`isfuture(fs) or iscoroutine(fs)`, `not isframe(frame)`).
  const kind = (x: Cond): boolean => {
    if (x.k === 'isinstance') return params.has(x.param);
    if (x.k === 'not') return kind(x.e);
    if (x.k === 'and' || x.k === 'or') return x.es.every(kind);
    return x.k === 'data' && params.has(KIND_PREDICATE.exec(x.text)?.[1] ?? '');
  };
  if (kinds && kind(c) && someAtom(c, (x) => x.k === 'data' || (x.k === 'isinstance' && PREDICATE_TYPES.has(x.types.join())))) return c;
  const pushed = pushNot(c);
  return (pushed.k === 'and' ? pushed.es : [pushed]).find(failed);
}

const NEGATED: Record<string, string> = { '==': '!=', '!=': '==', '<': '>=', '>=': '<', '>': '<=', '<=': '>', in: 'not in', 'not in': 'in', has: 'has not', 'has not': 'has', is: 'is not', 'is not': 'is' };

/** The condition with `not` pushed down to its atoms (`not (a or b)` is `not a and not b`; `not x < 1` is `x >= 1`). */
export function pushNot(c: Cond, negate = false): Cond {
  if (c.k === 'not') return pushNot(c.e, !negate);
  if (c.k === 'and' || c.k === 'or') {
    const es = c.es.map((e) => pushNot(e, negate));
    return (c.k === 'and') !== negate ? and(es) : or(es);
  }
  if (!negate) return c;
  if (c.k === 'cmp' || c.k === 'len') return { ...c, op: NEGATED[c.op] as typeof c.op };
  return not(c);
}

/** `len(p) != 0`, the truthiness of a sized value. */
export function isNonEmpty(c: Cond): boolean {
  return c.k === 'len' && c.op === '!=' && c.value.t === 'int' && c.value.v === 0;
}

/** Python's truth value of a literal. */
export function truthy(v: PyVal): boolean {
  switch (v.t) {
    case 'none':
      return false;
    case 'bool':
      return v.v;
    case 'int':
    case 'float':
      return v.v !== 0;
    case 'str':
    case 'bytes':
      return v.v.length > 0;
    case 'dict':
      return v.entries.length > 0;
    case 'class':
      return true;
    default:
      return v.items.length > 0;
  }
}

/** A state fact of the negated test: every value it knows flips. */
function negateState(s: StateFact): StateFact {
  const after = s.after && Object.fromEntries(Object.entries(s.after).map(([m, b]) => [m, !b]));
  return { ...s, fresh: !s.fresh, ...(after ? { after } : {}) };
}

/** Some atom of `c` tests whether the receiver's lock is held. */
export function testsHeld(c: Cond): boolean {
  return someAtom(c, (x) => x.k === 'data' && !!x.held);
}

/** Some atom of `c` tests whether an asyncio event loop runs in the caller's thread. */
export function testsLoop(c: Cond): boolean {
  return someAtom(c, (x) => x.k === 'data' && !!x.loop);
}
