/** The length of a sequence an argument's syntax shows: a display, `+` and `*` of displays, `range()` of integers, a list comprehension over such (./bind.ts). */
import type { Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';

/** `[x, f(y)]`, `(a, b)`, `{k: v}`: a list, tuple, set or dict written out, with no splat, has as many items as it shows (whatever they are). */
/** `[a] * 5 + [b, c]`: lists (or tuples) written out, joined with `+` and repeated by an integer literal, have the length that makes. */
export function displayLength(n: Node, depth = 0): number | undefined {
  if (n.type === 'call' && field(n, 'function')?.text === 'range') return rangeLength(n);
  // `[f(i) for i in range(501)]`: one `for` over a sequence of known length, no `if`.
  if (n.type === 'list_comprehension' && depth < 8) {
    const clauses = namedChildren(n).filter((c) => c.type === 'for_in_clause' || c.type === 'if_clause');
    const only = clauses.length === 1 && clauses[0]!.type === 'for_in_clause' && !clauses[0]!.text.startsWith('async') ? clauses[0]! : undefined;
    const over = only && only.childrenForFieldName('right').length === 1 ? field(only, 'right') : null;
    return over && (over.type === 'call' || over.type === 'list' || over.type === 'tuple') ? displayLength(over, depth + 1) : undefined;
  }
  if (n.type === 'parenthesized_expression' && depth < 8) return sequenceLength(namedChildren(n)[0], depth + 1);
  if (n.type === 'binary_operator' && depth < 8) {
    const op = n.children.find((c) => c && !c.isNamed)?.type;
    const [l, r] = [field(n, 'left'), field(n, 'right')];
    const int = (x: Node | null) => (x?.type === 'integer' && /^\d+$/.test(x.text) ? Number(x.text) : undefined);
    if (op === '+') {
      const a = sequenceLength(l, depth + 1);
      const b = a === undefined ? undefined : sequenceLength(r, depth + 1);
      return b === undefined ? undefined : a! + b;
    }
    if (op !== '*') return undefined;
    const [seq, times] = int(r) !== undefined ? [l, int(r)!] : [r, int(l)];
    const len = times === undefined ? undefined : sequenceLength(seq, depth + 1);
    return len === undefined ? undefined : len * times!;
  }
  return displayItems(n)?.length;
}

/** The items of a list, tuple, set or dict written out (undefined: another node, or a `*`/`**` splat among them). */
export function displayItems(n: Node): Node[] | undefined {
  if (n.type !== 'list' && n.type !== 'tuple' && n.type !== 'set' && n.type !== 'dictionary') return undefined;
  const items = namedChildren(n).filter((x) => x.type !== 'comment');
  return items.some((x) => x.type === 'list_splat' || x.type === 'dictionary_splat' || x.type === 'parenthesized_list_splat') ? undefined : items;
}

/** `range(0, 101)`, `range(10, 0, -2)` of integers written out: its length (as Python's `len(range(...))`). */
function rangeLength(call: Node): number | undefined {
  const list = field(call, 'arguments');
  const args = list?.type === 'argument_list' ? namedChildren(list).filter((x) => x.type !== 'comment') : [];
  const ints = args.map((a) => (/^-?\s*\d+$/.test(a.text) && (a.type === 'integer' || a.type === 'unary_operator') ? Number(a.text.replace(/\s+/g, '')) : NaN));
  if (!ints.length || ints.length > 3 || ints.some((x) => !Number.isSafeInteger(x))) return undefined;
  const [start, stop, step] = ints.length === 1 ? [0, ints[0]!, 1] : [ints[0]!, ints[1]!, ints[2] ?? 1];
  if (step === 0) return undefined;
  return Math.max(0, Math.ceil((stop - start) / step));
}

/** The length of a list or tuple written out, or made of such with `+` and `*` (./displayLength). */
function sequenceLength(n: Node | null | undefined, depth: number): number | undefined {
  return n && (n.type === 'list' || n.type === 'tuple' || n.type === 'binary_operator' || n.type === 'parenthesized_expression')
    ? displayLength(n, depth)
    : undefined;
}
