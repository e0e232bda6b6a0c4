/**
 * A parameter the caller left out, which the def rebinds to an object of the library's own making
 * (`if context is None: context = ssl._create_default_https_context()`): what a test then reads of
 * it (`context.verify_mode == ssl.CERT_NONE`, through `will_verify = ...`) is the library's own
 * state, no value the call shows or feeds. Such data atoms are marked `lib` (rules/condition/simplify.ts
 * `onlyLibraryState`): a call that leaves the parameter out, and whose other arguments decide the
 * rest, cannot be acted on there.
 */
import type { Node } from '../../parse/parser.js';
import { field } from '../../parse/syntax.js';
import { and, not, or, rootNames } from '../../rules/condition/simplify.js';
import type { Cond, ParamSpec } from '../../rules/condition/types.js';
import { boundValue, guardsOf, type Assign } from './assigns.js';

/** The names a test reads through the locals it names (`will_verify` for `context`): one binding deep. */
export function namesThroughLocals(n: Node, def: Node, assigns: Assign[], params: Map<string, ParamSpec>): string[] {
  const ids = n.type === 'identifier' ? [n] : n.descendantsOfType('identifier').filter((x): x is Node => !!x);
  return ids.flatMap((id) => {
    const right = params.has(id.text) ? undefined : boundValue(id, def, assigns, params);
    return right ? (right.type === 'identifier' ? [right.text] : right.descendantsOfType('identifier').map((x) => x?.text ?? '')) : [];
  });
}

/**
 * The guarded rebindings that put the library's own object in the parameter: a call that reads no
 * parameter, no local of the def (`repeat(1, n)` with `n = len(data)` reads the data) and not `self`.
 */
export function libraryDefaults(gs: Assign[], params: Map<string, ParamSpec>, assigns: Assign[]): Set<string> {
  const out = new Set<string>();
  for (const a of gs) {
    const right = a.node.type === 'assignment' && field(a.node, 'left')?.type === 'identifier' ? field(a.node, 'right') : null;
    if (right?.type !== 'call' || gs.filter((x) => x.name === a.name).length !== 1) continue;
    const names = right.descendantsOfType('identifier').map((x) => x?.text ?? '');
    if (!names.some((x) => params.has(x) || x === 'self' || x === 'cls' || assigns.some((l) => l.name === x))) out.add(a.name);
  }
  return out;
}

/**
 * The guards of a test (assigns.ts `guardsOf`), and those of a parameter it reads through a local
 * (`will_verify = context.verify_mode != ssl.CERT_NONE`) when the guard puts the library's own
 * object there.
 */
export function guardsFor(n: Node, def: Node, assigns: Assign[], params: Map<string, ParamSpec>): Assign[] {
  const direct = guardsOf(assigns, params, n);
  const through = guardsOf(assigns, params, n, namesThroughLocals(n, def, assigns, params)).filter((a) => !direct.includes(a));
  const made = libraryDefaults(through, params, assigns);
  return [...direct, ...through.filter((a) => made.has(a.name))];
}

/** The condition with its data atoms over those names marked as the library's own state. */
export function markLibrary(c: Cond, names: Set<string>): Cond {
  if (!names.size) return c;
  if (c.k === 'not') return { ...c, e: markLibrary(c.e, names) };
  if (c.k === 'and' || c.k === 'or') return { ...c, es: c.es.map((e) => markLibrary(e, names)) };
  if (c.k !== 'data' || c.state) return c;
  return rootNames(c.text).some((r) => names.has(r)) ? { ...c, lib: true } : c;
}

/**
 * A test under guarded rebindings of its parameters (`guardsFor`). When one puts the library's own
 * object in its parameter: one branch per set of guards that held, each read with those parameters
 * rebound (`under`), the others as the caller passed them (up to three parameters). Otherwise one
 * branch for "some guard held", all rebound.
 */
export function guardedRead(
  gs: Assign[],
  params: Map<string, ParamSpec>,
  assigns: Assign[],
  guard: (a: Assign) => Cond,
  under: (held: Assign[]) => Cond,
): Cond {
  const names = [...new Set(gs.map((a) => a.name))];
  const test = (name: string) => or(gs.filter((a) => a.name === name).map(guard));
  // No library object among them, or too many: one branch for "some guard held", all rebound.
  if (names.length > 3 || !libraryDefaults(gs, params, assigns).size) {
    const g = or(names.map(test));
    return or([and([not(g), under([])]), and([g, under(gs)])]);
  }
  const out: Cond[] = [];
  for (let mask = 0; mask < 1 << names.length; mask++) {
    const held = gs.filter((a) => mask & (1 << names.indexOf(a.name)));
    const branch = markLibrary(under(held), libraryDefaults(held, params, assigns));
    out.push(and([...names.map((nm) => (held.some((a) => a.name === nm) ? test(nm) : not(test(nm)))), branch]));
  }
  return or(out);
}
