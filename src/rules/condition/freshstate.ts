/**
 * A method's test of its own object's state (./types.ts StateFact) on a receiver the caller has
 * just constructed (src/semantic/fresh.ts): the value its constructor leaves, until a method that may
 * change it runs; then what that method leaves, when known.
 */
import { truthy } from './simplify.js';
import type { Binding, Cond, CtorArg, CtorArgs, PyVal, StateFact, Tri } from './types.js';

type Fresh = NonNullable<Binding['fresh']>;

/** The fact's test on the fresh receiver; undefined when not known. From a subclass's constructor only a context fact holds (the object is new, whatever its `__init__` leaves). */
export function freshState(s: StateFact, fresh: Fresh): Tri {
  if (fresh.subclass && !s.context) return undefined;
  const first = s.arg ? ctorTest(s.arg, s.fresh, fresh.args) : s.fresh;
  const since = lastChange(s, fresh.seq);
  if (since) return since.dominates && s.after ? s.after[since.name] : agreed(s, fresh.seq!, first);
  if (fresh.called.has(s.attr)) return undefined;
  const ran = s.changedBy.filter((m) => fresh.called.has(m));
  if (!ran.length) return first;
  // In a loop (no order known), any of the methods called may have run last, or none: known when they all leave what the constructor did.
  const after = s.after;
  return !fresh.seq && first !== undefined && after && ran.every((m) => after[m] === first) ? first : undefined;
}

/** The last use since the constructor that may change the fact (a method of `changedBy`, or the attribute itself), when the uses are known in order. */
export function lastChange(s: StateFact, seq: readonly { name: string; dominates: boolean }[] | undefined): { name: string; dominates: boolean } | undefined {
  if (!seq || s.context) return undefined;
  for (let i = seq.length - 1; i >= 0; i--) if (seq[i]!.name === s.attr || s.changedBy.includes(seq[i]!.name)) return seq[i];
  return undefined;
}

/**
 * The state's test after uses of which the last that may change it runs on some passes only (`for
 * ...: zf.writestr(...)`, then `zf.close()`): known when every change back to one that always runs
 * (or to the constructor) leaves the same value.
 */
function agreed(s: StateFact, seq: readonly { name: string; dominates: boolean }[], first: Tri): Tri {
  let out: Tri;
  for (let i = seq.length - 1; i >= 0; i--) {
    const { name, dominates } = seq[i]!;
    if (name === s.attr) return undefined;
    if (!s.changedBy.includes(name)) continue;
    const v = s.after?.[name];
    if (v === undefined || (out !== undefined && v !== out)) return undefined;
    out = v;
    if (dominates) return out;
  }
  return first === out ? out : undefined;
}

/**
 * Some test of the receiver's state in `c` hangs on the caller's own history: the last use since its
 * constructor that may change it is a method whose effect is known (`close()`), called on some
 * passes only (`if done: p.close()`).
 */
export function stateTouched(c: Cond, b: Binding): boolean {
  switch (c.k) {
    case 'data': {
      const since = c.state && lastChange(c.state, b.fresh?.seq);
      return !!since && !since.dominates && c.state?.after?.[since.name] !== undefined;
    }
    case 'not':
      return stateTouched(c.e, b);
    case 'and':
    case 'or':
      return c.es.some((e) => stateTouched(e, b));
    default:
      return false;
  }
}

/** A state fact held by a constructor argument (`Marshaller(allow_none=True)`): its test on what the call passed, or the default. */
function ctorTest(a: CtorArg, holds: boolean, args: CtorArgs | undefined): Tri {
  const v = ctorValue(a, args)?.value;
  if (!v) return undefined;
  if (a.cases) {
    const r = truthy(v) ? a.cases.truthy : a.cases.falsy;
    return r === undefined ? undefined : holds ? r : !r;
  }
  // `float(x)` keeps a number's (or a bool's) truth and is never None; of anything else it is not read here.
  if (a.float && v.t !== 'int' && v.t !== 'float' && v.t !== 'bool') return undefined;
  const t = a.test === 'none' ? !a.float && v.t === 'none' : truthy(v);
  return holds ? t : !t;
}

/** What the constructor call gave the parameter: a literal it passed, or the literal default. */
export function ctorValue(a: CtorArg, args: CtorArgs | undefined): { value: PyVal; passed: boolean } | undefined {
  if (!args) return undefined;
  let v: PyVal | undefined;
  let passed = true;
  if (args.keywords.has(a.name)) v = args.keywords.get(a.name);
  else if (args.splat) return undefined;
  else if (a.index >= 0 && a.index < args.positional.length) v = args.positional[a.index];
  else [v, passed] = [a.default, false];
  return v && { value: v, passed };
}

