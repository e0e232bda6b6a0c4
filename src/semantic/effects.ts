/**
 * What a function does with its parameters: it calls a method a rule names on one
 * (`async def snapshot(runtime): return await runtime.save_state()`), or passes it on to a function
 * that does. The call that passes a raising object (`snapshot(worker)`) is then reported where it
 * is written, in the caller's file or another module of the project (./crossfile.ts).
 *
 * Read from the function's text, as a summary: parameters without an annotation (an annotated one
 * is typed in the function, and its calls are reported there), never rebound in the body, used as
 * the receiver of a call outside any `try` (a handler there may catch what it raises: not known
 * here, so not reported) and outside nested functions and classes. Passing on is followed a few
 * calls deep. Plain functions only (a method's parameters shift by its receiver).
 */
import type { Node } from '../parse/parser.js';
import { field, kids } from '../parse/syntax.js';
import { parameters } from '../python/params.js';
import { abbreviate } from '../parse/syntax.js';

export interface ParamEffect {
  /** The parameter's position (-1: keyword-only) and name. */
  index: number;
  name: string;
  /** The method called on it. */
  method: string;
  /** The calls from the function to the one on the parameter (`inner(runtime)`, `runtime.save_state()`). */
  via: string[];
}

/** Nodes a summary does not enter: nested scopes, and `try` blocks (a handler may catch the raise). */
const OPAQUE = new Set(['function_definition', 'class_definition', 'lambda', 'try_statement', 'decorated_definition']);

/**
 * The effects of a function on its parameters. `wants`: a method a rule names; `passed`: the
 * effects of the function a call's callee is, if known (for passing on).
 */
export function paramEffects(fn: Node, wants: (method: string) => boolean, passed: (callee: Node) => ParamEffect[] | undefined): ParamEffect[] {
  const body = field(fn, 'body');
  if (!body) return [];
  const params = new Map<string, number>();
  let position = 0;
  for (const p of parameters(fn)) {
    if (p.kind !== 'plain') {
      position = -1;
      continue;
    }
    if (!p.annotation) params.set(p.name, p.only === 'keyword' || position < 0 ? -1 : position);
    if (position >= 0) position++;
  }
  if (!params.size) return [];
  const out: ParamEffect[] = [];
  const visit = (n: Node): void => {
    if (OPAQUE.has(n.type)) return;
    if (n.type === 'call') callEffects(n, params, wants, passed, out);
    for (const c of kids(n)) visit(c);
  };
  visit(body);
  // A parameter the body rebinds is not what the caller passed (read only for those with an effect: a search of the body's text each).
  const kept = new Map<string, boolean>();
  return out.filter((e) => kept.get(e.name) ?? (kept.set(e.name, !rebinds(body.text, e.name)), kept.get(e.name)!));
}

function callEffects(
  n: Node,
  params: Map<string, number>,
  wants: (m: string) => boolean,
  passed: (callee: Node) => ParamEffect[] | undefined,
  out: ParamEffect[],
): void {
  const callee = field(n, 'function');
  if (!callee) return;
  if (callee.type === 'attribute') {
    const obj = field(callee, 'object');
    const method = field(callee, 'attribute')?.text;
    if (obj?.type === 'identifier' && method && params.has(obj.text) && wants(method))
      out.push({ index: params.get(obj.text)!, name: obj.text, method, via: [`${abbreviate(callee.text)}()`] });
  }
  // Passed on: `inner(runtime)` or `inner(rt=runtime)`, to a function with effects on that parameter.
  const args = field(n, 'arguments');
  if (!args || ![...params.keys()].some((p) => args.text.includes(p))) return;
  const effects = passed(callee);
  if (!effects?.length) return;
  let pos = 0;
  for (const a of kids(args)) {
    let name: string | undefined;
    let keyword: string | undefined;
    if (a.type === 'identifier') name = a.text;
    else if (a.type === 'keyword_argument' && field(a, 'value')?.type === 'identifier') {
      name = field(a, 'value')!.text;
      keyword = field(a, 'name')?.text;
    }
    if (a.type !== 'keyword_argument' && a.type !== 'list_splat' && a.type !== 'dictionary_splat') pos++;
    if (!name || !params.has(name)) continue;
    for (const e of effects)
      if (keyword ? e.name === keyword : e.index === pos - 1)
        out.push({ index: params.get(name)!, name, method: e.method, via: [`${abbreviate(callee.text)}()`, ...e.via] });
  }
}

/** Whether the body binds the name anew (an assignment, a loop, `as`, a walrus, `del`, `global`). */
function rebinds(body: string, name: string): boolean {
  const n = name.replace(/[^\w]/g, '');
  return new RegExp(`(^|[^\\w.])${n}\\s*(=[^=]|:=|\\+=|-=)|\\b(for|as|del|global|nonlocal)\\s+${n}\\b|,\\s*${n}\\s*(=[^=]|,|\\bin\\b)`, 'm').test(body);
}

/** The argument a parameter receives: by position (none of `*args` before it), or by keyword. */
export function argumentNode(list: readonly Node[], index: number, name: string): { node: Node; keyword: boolean } | undefined {
  let pos = 0;
  for (const a of list) {
    const type = a.type;
    if (type === 'keyword_argument') {
      const v = field(a, 'value');
      if (field(a, 'name')?.text === name && v) return { node: v, keyword: true };
      continue;
    }
    if (type === 'list_splat' || type === 'dictionary_splat') return undefined;
    if (pos++ === index) return { node: a, keyword: false };
  }
  return undefined;
}
