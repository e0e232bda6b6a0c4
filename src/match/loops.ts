/**
 * Loop variables as argument values: `for start, stop in [(-2, 0), (2**60, 2**60 + 2)]:` around a
 * call binds its arguments to each item in turn. The call is then judged once per item
 * (src/match/bind.ts): no item raises, not reported; every item raises, certain.
 */
import type { Node } from '../parse/parser.js';
import { contains, field, namedChildren } from '../parse/syntax.js';
import { literalOf } from '../rules/condition/literal.js';
import type { PyVal } from '../rules/condition/types.js';
import type { Scopes } from '../semantic/scopes.js';
import { isRead, untouchedBy } from './locals.js';

const MAX_ITEMS = 64;

/** The target's names, in order (`x`, `a, b`, `(a, b)`); undefined for any other target. */
function targetNames(t: Node): Node[] | undefined {
  if (t.type === 'identifier') return [t];
  if (t.type !== 'pattern_list' && t.type !== 'tuple_pattern') return undefined;
  const ids = namedChildren(t);
  return ids.every((i) => i.type === 'identifier') ? ids : undefined;
}

/** Every occurrence of the names in the loop's body is a read: nothing there binds them again before (or after) the call. */
function onlyBoundThere(body: Node, names: Node[]): boolean {
  const want = new Set(names.map((n) => n.text));
  for (const id of body.descendantsOfType('identifier')) {
    if (!id || !want.has(id.text)) continue;
    const up = id.parent;
    if ((up?.type === 'attribute' && field(up, 'attribute')?.id === id.id) || (up?.type === 'keyword_argument' && field(up, 'name')?.id === id.id)) continue;
    if (up?.type === 'parameters' || !isRead(id)) return false;
  }
  return true;
}

/**
 * The values the innermost `for` around `call` gives the names its target binds, item by item,
 * when its iterable is a literal list or tuple (or a module constant of one) of at most 64 items
 * and nothing in the loop's body binds those names again. Undefined otherwise, or when `args` (the
 * call's identifier arguments) read none of them.
 */
export function loopItems(call: Node, args: Set<string>, scopes: Scopes, constant: (name: string) => PyVal | undefined): Map<string, PyVal>[] | undefined {
  const fn = scopes.scopesOf(call)[0];
  if (fn?.type !== 'function_definition') return undefined;
  for (let p = call.parent; p && p.id !== fn.id; p = p.parent) {
    const body = p.type === 'for_statement' ? field(p, 'body') : null;
    if (!body || !contains(body, call)) continue;
    const names = targetNames(field(p, 'left') ?? p);
    if (!names || !names.some((n) => args.has(n.text))) continue;
    const seq = literalOf(field(p, 'right'), constant);
    if (!seq || (seq.t !== 'list' && seq.t !== 'tuple') || !seq.items.length || seq.items.length > MAX_ITEMS || !onlyBoundThere(body, names)) return undefined;
    const out: Map<string, PyVal>[] = [];
    for (const item of seq.items) {
      if (names.length === 1) out.push(new Map([[names[0]!.text, item]]));
      else if ((item.t === 'tuple' || item.t === 'list') && item.items.length === names.length)
        out.push(new Map(names.map((n, i) => [n.text, item.items[i]!])));
      else return undefined;
    }
    // A list, dict or set item may be changed before the call: only read as this call's own argument.
    const mutable = new Map(out.flatMap((m) => [...m].filter(([, v]) => MUTABLE.has(v.t))));
    for (const id of body.descendantsOfType('identifier'))
      if (id && mutable.has(id.text) && isRead(id) && !contains(call, id) && !out.every((m) => untouchedBy(id, m.get(id.text)!, scopes))) return undefined;
    return out;
  }
  return undefined;
}

const MUTABLE = new Set<PyVal['t']>(['list', 'dict', 'set']);
