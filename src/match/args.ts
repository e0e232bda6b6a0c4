/** A call's arguments as written, before they are bound to a def's parameters (./bind.ts). */
import type { Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';
import { isIdentifier } from '../python/identifier.js';
import { literalOf } from '../rules/condition/literal.js';

/** A call's arguments as written: `*[a, b]` and `**{'k': v}` read as what they hold. */
export interface Args {
  positional: Node[];
  keywords: Map<string, Node>;
  /** Index of the first `*iterable` among the positional arguments, if any. */
  splatAt?: number;
  kwSplat: boolean;
  /** The `*iterable` and `**mapping` arguments not read as what they hold (./splats.ts tells what they can fill). */
  splats: Node[];
}

export function readArgs(call: Node): Args {
  // Every field at once (one hidden class for every Args).
  const out: Args = { positional: [], keywords: new Map(), splatAt: undefined, kwSplat: false, splats: [] };
  const list = call.type === 'call' ? field(call, 'arguments') : null;
  if (!list) return out;
  if (list.type === 'generator_expression') {
    out.positional.push(list);
    return out;
  }
  for (const a of namedChildren(list)) {
    if (a.type === 'keyword_argument') {
      const name = field(a, 'name')?.text;
      const value = field(a, 'value');
      if (name && value) out.keywords.set(name, value);
    } else if (a.type === 'list_splat') {
      const items = literalItems(a);
      if (items) out.positional.push(...items);
      else {
        out.splatAt ??= out.positional.length;
        out.positional.push(a);
        out.splats.push(a);
      }
    } else if (a.type === 'dictionary_splat') {
      const pairs = literalPairs(a);
      if (pairs) for (const [k, v] of pairs) out.keywords.set(k, v);
      else {
        out.kwSplat = true;
        out.splats.push(a);
      }
    } else out.positional.push(a);
  }
  return out;
}

/** The items of `*[a, b]` / `*(a, b)`: a list or tuple written out, with no splat inside. */
function literalItems(splat: Node): Node[] | undefined {
  const v = namedChildren(splat)[0];
  if (v?.type !== 'list' && v?.type !== 'tuple') return undefined;
  const items = namedChildren(v).filter((x) => x.type !== 'comment');
  return items.some((x) => x.type === 'list_splat' || x.type === 'parenthesized_list_splat') ? undefined : items;
}

/** The keywords of `**{'a': x, 'b': y}`: a dict written out with plain string keys and no `**` inside. */
function literalPairs(splat: Node): [string, Node][] | undefined {
  const v = namedChildren(splat)[0];
  if (v?.type !== 'dictionary') return undefined;
  const out: [string, Node][] = [];
  for (const p of namedChildren(v)) {
    if (p.type === 'comment') continue;
    const key = p.type === 'pair' ? field(p, 'key') : null;
    const value = p.type === 'pair' ? field(p, 'value') : null;
    const name = key?.type === 'string' ? literalOf(key) : undefined;
    if (!value || name?.t !== 'str' || !isIdentifier(name.v)) return undefined;
    out.push([name.v, value]);
  }
  return out;
}
