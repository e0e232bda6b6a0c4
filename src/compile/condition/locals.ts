/**
 * Literal containers a test reads through: a local of the raising def bound once to a literal
 * (`modes = {"r": "rb", "w": "wb"}` then `if mode not in modes:`), and the keys of such a dict or
 * of a module constant through `.keys()` (`compress not in compress_ext.keys()`).
 */
import type { Node } from '../../parse/parser.js';
import { contains, field, namedChildren } from '../../parse/syntax.js';
import { literalOf } from '../../rules/condition/literal.js';
import type { ParamSpec, PyVal } from '../../rules/condition/types.js';
import { subscriptUse, type Assign } from './assigns.js';

/** Methods of a literal container that only read it. */
const READ_METHODS = new Set(['keys', 'get', 'values', 'items', 'copy', 'count', 'index']);

/** A use of the local container `id` that only reads it: an operand of a comparison, an item read, a reading method's receiver. */
function readsOnly(id: Node): boolean {
  const up = id.parent;
  if (up?.type === 'comparison_operator') return true;
  if (up?.type === 'subscript' && field(up, 'value')?.id === id.id) return subscriptUse(up) === 'read';
  if (up?.type === 'attribute' && field(up, 'object')?.id === id.id) return READ_METHODS.has(field(up, 'attribute')?.text ?? '') && up.parent?.type === 'call';
  return false;
}

/**
 * The value of a local that one plain statement binds to a literal, above `n` in a block that holds
 * it, and that the def only reads (`modes = {"r": "rb", "w": "wb"}` then `if mode not in modes:`):
 * nothing else binds it, stores into it, calls a method that changes it or hands it on.
 */
function literalLocal(n: Node, def: Node, assigns: Assign[], params: Map<string, ParamSpec>, constant: (name: string) => PyVal | undefined): PyVal | undefined {
  if (n.type !== 'identifier' || params.has(n.text)) return undefined;
  const binds = assigns.filter((a) => a.name === n.text);
  const stmt = binds.length === 1 ? binds[0]!.node : undefined;
  const left = stmt?.type === 'assignment' ? field(stmt, 'left') : null;
  const top = stmt?.parent;
  if (left?.type !== 'identifier' || top?.type !== 'expression_statement' || !top.parent || !contains(top.parent, n) || top.endIndex > n.startIndex)
    return undefined;
  const value = literalOf(field(stmt!, 'right'), constant);
  if (!value) return undefined;
  for (const use of def.descendantsOfType('identifier')) if (use && use.text === n.text && use.id !== left.id && !readsOnly(use)) return undefined;
  return value;
}

/** The literal container `n` stands for: a local as above, or a dict's keys through `.keys()` (the local or a module constant the def does not shadow). */
export function literalContainer(
  n: Node,
  def: Node,
  assigns: Assign[],
  params: Map<string, ParamSpec>,
  constant: (name: string) => PyVal | undefined,
): PyVal | undefined {
  const fn = n.type === 'call' && !namedChildren(field(n, 'arguments') ?? n).length ? field(n, 'function') : null;
  if (fn?.type !== 'attribute' || field(fn, 'attribute')?.text !== 'keys') return literalLocal(n, def, assigns, params, constant);
  const obj = field(fn, 'object');
  if (obj?.type !== 'identifier') return undefined;
  const d = literalLocal(obj, def, assigns, params, constant) ?? (assigns.some((a) => a.name === obj.text) ? undefined : literalOf(obj, constant));
  return d?.t === 'dict' ? { t: 'tuple', items: d.entries.map(([k]) => k) } : undefined;
}
