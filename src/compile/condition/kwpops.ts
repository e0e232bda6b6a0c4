/**
 * `if kwargs:` after the def took its known keywords out (`force = kwargs.pop('force', False)`,
 * logging.basicConfig's "Unrecognised argument(s)"): which keywords are surely taken out by then,
 * and which may be. A call passing only keywords surely taken out never raises there; one passing
 * a keyword no pop names always does.
 */
import type { Node } from '../../parse/parser.js';
import { contains, field } from '../../parse/syntax.js';
import type { Cond, ParamSpec, PyVal } from '../../rules/condition/types.js';
import { keywordRead, subscriptUse } from './assigns.js';

/** The keys popped from the `**kwargs` mapping `n` names before the test `n`: `must` on every path there, `may` on some; `other`: something else may take keys out. */
interface Pops {
  must: Set<string>;
  may: Set<string>;
  other: boolean;
}

const READS = new Set(['get', 'keys', 'items', 'values', 'copy']);

function popsBefore(def: Node, n: Node, params: Map<string, ParamSpec>, constant: (name: string) => PyVal | undefined): Pops {
  const out: Pops = { must: new Set(), may: new Set(), other: false };
  // What runs before the test: the uses above it, and in a loop around it those of the whole loop (an earlier pass).
  let loop: Node | null = n.parent;
  while (loop && loop.id !== def.id && loop.type !== 'for_statement' && loop.type !== 'while_statement') loop = loop.parent;
  const before = (u: Node) => u.startIndex < n.startIndex || (!!loop && loop.id !== def.id && contains(loop, u));
  for (const use of def.descendantsOfType('identifier')) {
    if (!use || use.text !== n.text || use.id === n.id || use.parent?.type === 'dictionary_splat_pattern' || !before(use)) continue;
    const p = use.parent;
    const call = p?.type === 'attribute' && field(p, 'object')?.id === use.id && p.parent?.type === 'call' ? p.parent : undefined;
    const method = call ? field(p!, 'attribute')?.text : undefined;
    if (method && READS.has(method)) continue;
    const read = call && method === 'pop' ? keywordRead(call, params, constant) : undefined;
    if (!read) {
      // A read that takes nothing out (`'stream' in kwargs`, `kwargs['k']`, `**kwargs` passed on); anything else may.
      const reads = p?.type === 'comparison_operator' || p?.type === 'dictionary_splat' || (p?.type === 'subscript' && subscriptUse(p) === 'read');
      if (!reads) out.other = true;
      continue;
    }
    out.may.add(read.key);
    if (use.startIndex < n.startIndex && dominates(call!, n)) out.must.add(read.key);
  }
  return out;
}

/** The call is a whole statement (or the right side of a plain assignment) in a block that holds `n`: it ran before `n` on every path there. */
function dominates(call: Node, n: Node): boolean {
  let stmt = call.parent;
  if (stmt?.type === 'assignment' && field(stmt, 'right')?.id === call.id) stmt = stmt.parent;
  if (stmt?.type !== 'expression_statement') return false;
  const block = stmt.parent;
  return !!block && contains(block, n) && stmt.endIndex <= n.startIndex;
}

/**
 * The test `if kwargs:` as a condition over the keywords the call passes, when the def only pops
 * known keys from it: a keyword no pop names, true; only keywords popped on every path, false.
 */
export function keywordsLeft(def: Node, n: Node, params: Map<string, ParamSpec>, constant: (name: string) => PyVal | undefined, unknown: Cond): Cond {
  const p = popsBefore(def, n, params, constant);
  const param = n.text;
  const some: Cond = { k: 'given', param, others: [...p.must].sort() };
  const known: Cond = { k: 'and', es: [some, unknown] };
  return p.other ? known : { k: 'or', es: [{ k: 'given', param, others: [...p.may].sort() }, known] };
}
