/** Raise conditions in words: for `records check`, `explain` and the `condition` of a diagnostic. */
import { boundOf, ctorValue, evaluate, lastChange, lengthOf, type Binding } from './eval.js';
import { pyRepr } from './literal.js';
import { splitPath } from './derived.js';
import { conversionError } from './convert.js';
import { isNonEmpty, mentionsData, onlyData, paramsOf, pushNot, someAtom } from './simplify.js';
import type { Cond, PyVal, RaiseCondition, StateFact } from './types.js';

function list(v: PyVal): string {
  const items = v.t === 'dict' ? v.entries.map(([k]) => k) : 'items' in v ? v.items : undefined;
  return items ? items.map(pyRepr).join(', ') : pyRepr(v);
}

/** A type as the raising module names it, without the private alias's underscores (`_Sequence` is collections.abc's Sequence). */
const shownType = (t: string) => t.replace(/^_+/, '');

/** `type(x) in (list, tuple)` / `type(x) is str`. */
function exactText(c: { param: string; types: string[]; subclass?: true }, op: 'in' | 'not in'): string {
  // A class compared with one class (`klass != Logger`).
  if (c.subclass && c.types.length === 1) return `${c.param} ${op === 'in' ? 'is' : 'is not'} ${c.types[0]}`;
  if (c.types.length === 1) return `type(${c.param}) ${op === 'in' ? 'is' : 'is not'} ${c.types[0]}`;
  return `type(${c.param}) ${op} (${c.types.join(', ')})`;
}

/** A condition as Python-like text. */
export function condText(c: Cond, top = true): string {
  if (top) c = pushNot(c);
  const wrap = (s: string) => (top ? s : `(${s})`);
  switch (c.k) {
    case 'true':
      return 'always';
    case 'false':
      return 'never';
    case 'data':
      return c.loop ? 'an asyncio event loop is running in the calling thread' : c.text;
    case 'not':
      if (c.e.k === 'data' && c.e.loop) return 'no asyncio event loop is running in the calling thread';
      if (c.e.k === 'truthy') return `not ${c.e.param}`;
      if (c.e.k === 'given') return c.e.others?.length ? `no keyword but ${c.e.others.join(', ')} passed` : c.e.key ? `'${c.e.key}' not passed` : `${c.e.param} not passed`;
      if (c.e.k === 'isinstance') return c.e.exact ? exactText(c.e, 'not in') : `not ${condText(c.e, false)}`;
      if (c.e.k === 'len' && isNonEmpty(c.e)) return `${c.e.param} is empty`;
      return `not ${condText(c.e, false)}`;
    case 'and':
      return wrap(c.es.map((e) => condText(e, false)).join(' and '));
    case 'or':
      return wrap(c.es.map((e) => condText(e, false)).join(' or '));
    case 'cmp':
      if (c.op === 'has' || c.op === 'has not') return `${pyRepr(c.value)} ${c.op === 'has' ? 'in' : 'not in'} ${c.param}`;
      return `${c.param} ${c.op} ${pyRepr(c.value)}`;
    case 'len':
      if (c.op === '==' && c.value.t === 'int' && c.value.v === 0) return `${c.param} is empty`;
      return isNonEmpty(c) ? `${c.param} is not empty` : `len(${c.param}) ${c.op} ${pyRepr(c.value)}`;
    case 'truthy':
      return c.param;
    case 'isinstance':
      if (c.items) return `an item of ${c.param} is a ${c.types.join(' or ')}`;
      if (!c.subclass && c.types.join() === 'Callable') return `callable(${c.param})`;
      return c.exact ? exactText(c, 'in') : `${c.subclass ? 'issubclass' : 'isinstance'}(${c.param}, ${c.types.join(' | ')})`;
    case 'given':
      if (c.others?.length) return `a keyword other than ${c.others.join(', ')} passed`;
      return c.key ? `'${c.key}' passed` : `${c.param} passed`;
    case 'fails':
      return `${c.conv === 'index' ? 'operator.index' : c.conv}(${c.param}) raises ${c.caught?.join(' or ') ?? 'an error'}`;
  }
}

/** What a rule's condition says, in a line (`records check`, `explain`). */
export function describeCondition(rc: RaiseCondition | undefined): string {
  if (!rc) return 'always raises';
  // A generator's raise happens when the iterator the call returns is iterated.
  if (rc.onIteration) return `${describeCondition({ ...rc, onIteration: undefined })}; the raise happens when the iterator the call returns is iterated (findings are possible)`;
  if (rc.unknown) return `not known: ${rc.unknown} (findings are possible)`;
  if (rc.when.k === 'true') return 'always raises (on every path through the def)';
  if (rc.when.k === 'false') return 'never reached (the statement is unreachable)';
  if (onlyData(rc.when)) return `depends on data: raises when ${condText(rc.when)} (findings are possible)`;
  const ps = [...paramsOf(rc.when)];
  const by = mentionsData(rc.when) ? `partly decided by the call's ${ps.join(', ')}; the rest depends on data` : `decided by the call's ${ps.join(', ')}`;
  return `raises when ${condText(rc.when)}${ps.length ? ` (${by})` : ''}`;
}

/** One decided atom with the argument's value: `mode='rw' is not one of 'r', 'w'`. */
function atomWords(c: Cond, b: Binding): string | undefined {
  if (c.k === 'data' && c.loop) return 'the call is in an `async def`, so an asyncio event loop is running in its thread';
  if (c.k === 'not' && c.e.k === 'data' && c.e.loop) return 'the call is in the `if __name__ == "__main__":` block, where no asyncio event loop is running yet';
  if (c.k === 'not') {
    if (c.e.k === 'truthy' || (c.e.k === 'len' && isNonEmpty(c.e))) {
      const v = boundOf(b, c.e.param)?.value;
      return v ? `${c.e.param}=${pyRepr(v)} is ${lengthOf(v) === 0 ? 'empty' : 'false'}` : undefined;
    }
    if (c.e.k === 'given') return condText(c);
    if (c.e.k === 'isinstance') {
      const v = c.e.items ? undefined : boundOf(b, c.e.param)?.value;
      if (v && c.e.types.join() === 'Callable') return `${c.e.param}=${pyRepr(v)} is not callable`;
      return v ? `${c.e.param}=${pyRepr(v)} is not a ${c.e.subclass ? 'subclass of ' : ''}${c.e.types.map(shownType).join(' or ')}` : undefined;
    }
    const inner = atomWords(c.e, b);
    return inner ? `not (${inner})` : undefined;
  }
  if (c.k === 'given') return condText(c);
  if (c.k === 'data' && c.state) return stateWords(c.text, c.state, b);
  if (c.k === 'fails') {
    const v = boundOf(b, c.param)?.value;
    return v ? `${c.conv === 'index' ? 'operator.index' : c.conv}(${pyRepr(v)}) raises ${conversionError(c.conv, v) ?? 'nothing'}` : undefined;
  }
  if (!('param' in c)) return undefined;
  const v = boundOf(b, c.param)?.value;
  if (!v) return undefined;
  const shown = `${c.param}=${pyRepr(v)}`;
  if (c.k === 'truthy') return `${shown} is true`;
  if (c.k === 'isinstance') return `${shown}${c.items ? ' holds' : ' is'} a ${c.subclass ? 'subclass of ' : ''}${c.types.map(shownType).join(' or ')}`;
  if (c.k === 'len' && c.op === '==' && c.value.t === 'int' && c.value.v === 0) return `${shown} is empty`;
  if (c.k === 'len') return isNonEmpty(c) ? `${shown} is not empty` : `len(${c.param})=${lengthOf(v)} ${c.op === 'not in' ? 'is not one of' : c.op === 'in' ? 'is one of' : c.op} ${c.op === 'in' || c.op === 'not in' ? list(c.value) : pyRepr(c.value)}`;
  if (c.op === 'in') return `${shown} is one of ${list(c.value)}`;
  if (c.op === 'not in') return `${shown} is not one of ${list(c.value)}`;
  if (c.op === 'has' || c.op === 'has not') return `${shown} ${c.op === 'has' ? 'holds' : 'does not hold'} ${pyRepr(c.value)}`;
  return `${shown} ${c.op} ${pyRepr(c.value)}`;
}

/** A decided test of the receiver's state: what its constructor left there. */
function stateWords(text: string, s: StateFact, b: Binding): string {
  if (s.context) return `${text}: the object was made by the caller`;
  const since = lastChange(s, b.fresh?.seq);
  if (since) return `${text} after ${since.name}()`;
  const given = s.arg && ctorValue(s.arg, b.fresh?.args);
  if (!given) return `${text} on an object fresh from its constructor`;
  return `${text}: the constructor was given ${s.arg!.name}=${pyRepr(given.value)}${given.passed ? '' : ' (its default)'}`;
}

/** Why a decided-true condition holds for these arguments: the atoms that hold, with the values. */
export function whyTrue(c: Cond, b: Binding): string {
  const parts: string[] = [];
  const visit = (e: Cond) => {
    if (evaluate(e, b) !== true) return;
    if (e.k === 'and') for (const x of e.es) visit(x);
    else if (e.k === 'or') {
      const first = e.es.find((x) => evaluate(x, b) === true);
      if (first) visit(first);
    } else if (e.k !== 'true') {
      const w = atomWords(e, b);
      if (w && !parts.includes(w)) parts.push(w);
    }
  };
  visit(pushNot(c));
  return parts.length ? parts.join(' and ') : `raises for these arguments (${condText(c)})`;
}

/** Why the condition is not decided: what it needs and which arguments are not known. */
export function whyUnknown(rc: RaiseCondition, b: Binding | undefined): string {
  if (rc.unknown) return `not known: ${rc.unknown}`;
  // A value read from a parameter (`name[1:].isdigit()`) is not known because its parameter is not: that one is named.
  const named = (p: string) => {
    if (b?.params.has(p)) return p;
    const path = splitPath(p);
    const first = path?.steps[0];
    // `kwargs["style"]`: the keyword is what the call would pass.
    return first && 'key' in first ? first.key : (path?.base ?? p);
  };
  // A parameter is known when the call decides every atom over it (`fallback not passed` with no `fallback=`).
  const decided = (p: string) => !!b && !someAtom(rc.when, (a) => 'param' in a && a.param === p && evaluate(a, b) === undefined);
  const unknown = [...new Set([...paramsOf(rc.when)].filter((p) => !(b && boundOf(b, p)?.value) && !decided(p)).map(named))];
  const what = condText(rc.when);
  if (onlyData(rc.when)) return `raises when ${what}; that depends on data or state, not on the call`;
  const rest = mentionsData(rc.when) ? 'the rest depends on data or state' : 'not decided for these arguments';
  return `raises when ${what}; ${unknown.length ? `${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not known here` : rest}`;
}
