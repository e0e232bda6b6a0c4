/**
 * Literal containers a test reads through: a local of the raising def bound once to a literal
 * (`modes = {"r": "rb", "w": "wb"}` then `if mode not in modes:`), the keys of such a dict or of a
 * module constant through `.keys()` (`compress not in compress_ext.keys()`), a class-level literal
 * (`self.default_options`), and the keywords of a `**` parameter a loop iterates.
 */
import type { Node } from '../../parse/parser.js';
import { contains, field, namedChildren } from '../../parse/syntax.js';
import { literalOf } from '../../rules/condition/literal.js';
import type { Cond, ParamSpec, PyVal } from '../../rules/condition/types.js';
import { subscriptUse, unchangedMapping, type Assign } from './assigns.js';

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

/**
 * The `**` parameter a loop of the def iterates by key, when `n` is that loop's target: `for opt in
 * options:`, `options.keys()`, `for key, value in options.items():`, the loop in the def itself, the
 * mapping unchanged before it and the name bound nowhere else.
 */
function keywordLoop(n: Node, def: Node, assigns: Assign[], params: Map<string, ParamSpec>, constant: (name: string) => PyVal | undefined): string | undefined {
  if (n.type !== 'identifier' || params.has(n.text)) return undefined;
  // The nearest loop around `n` that binds it, and nothing in its body binding it again.
  const loop = assigns.find((a) => a.name === n.text && a.node.type === 'for_statement' && contains(field(a.node, 'body')!, n))?.node;
  const body = loop && field(loop, 'body');
  if (!loop || !body || assigns.some((a) => a.name === n.text && a.node.id !== loop.id && contains(body, a.node))) return undefined;
  return keywordsIterated(loop, n.text, params, def, constant);
}

/** The `**` parameter a `for` loop iterates by key (its target, or the first name of `k, v` over `.items()`, being `name` when given). */
export function keywordsIterated(
  loop: Node,
  name: string | undefined,
  params: Map<string, ParamSpec>,
  def: Node,
  constant: (name: string) => PyVal | undefined,
): string | undefined {
  const left = field(loop, 'left');
  let right = field(loop, 'right');
  let method = '';
  if (right?.type === 'call' && !namedChildren(field(right, 'arguments') ?? right).length && field(right, 'function')?.type === 'attribute') {
    method = field(field(right, 'function')!, 'attribute')?.text ?? '';
    right = field(field(right, 'function')!, 'object');
  }
  const target = method === 'items' && left?.type === 'pattern_list' ? namedChildren(left)[0] : left;
  const ok = method === '' || method === 'keys' ? left?.type === 'identifier' : method === 'items' && target?.type === 'identifier';
  if (!ok || !right || right.type !== 'identifier' || (name !== undefined && target?.text !== name)) return undefined;
  return params.get(right.text)?.kind === 'var-keyword' && unchangedMapping(def, right, params, constant) ? right.text : undefined;
}

const MUTATORS = new Set(['update', 'pop', 'popitem', 'clear', 'setdefault', 'append', 'extend', 'insert', 'remove', 'add', 'discard']);

/** A class-level name of the def's class bound once to a literal (`default_options = {...}`), that no method of the class assigns through `self`. */
export function classLiteral(attr: Node, def: Node): PyVal | undefined {
  const name = attr.type === 'attribute' && field(attr, 'object')?.text === 'self' ? field(attr, 'attribute')?.text : undefined;
  const body = def.parent?.type === 'block' && def.parent.parent?.type === 'class_definition' ? def.parent : undefined;
  if (!name || !body) return undefined;
  let value: PyVal | undefined;
  let count = 0;
  for (const st of namedChildren(body)) {
    const a = st.type === 'expression_statement' ? namedChildren(st)[0] : undefined;
    if (a?.type === 'assignment' && field(a, 'left')?.text === name) {
      count++;
      value = literalOf(field(a, 'right'));
    }
  }
  // `self.default_options = ...`, `self.default_options[k] = ...`, `self.default_options.update(...)`: not what the class line says.
  const written = body.descendantsOfType('attribute').some((x) => {
    if (!x || x.text !== `self.${name}`) return false;
    const up = x.parent;
    const mutates = up?.type === 'attribute' && MUTATORS.has(field(up, 'attribute')?.text ?? '');
    return (up?.type === 'assignment' && field(up, 'left')?.id === x.id) || (up?.type === 'subscript' && subscriptUse(up) !== 'read') || mutates;
  });
  return count === 1 && !written ? value : undefined;
}

/**
 * `for opt in options: if opt not in self.default_options: raise` (`ln not in rn`): a keyword of
 * `**options` that none of the container's str keys names was passed.
 */
export function unknownKeyword(
  ln: Node,
  rn: Node,
  def: Node,
  assigns: Assign[],
  params: Map<string, ParamSpec>,
  constant: (name: string) => PyVal | undefined,
): Cond | undefined {
  const kw = keywordLoop(ln, def, assigns, params, constant);
  const allowed = kw ? (literalContainer(rn, def, assigns, params, constant) ?? classLiteral(rn, def)) : undefined;
  const names = allowed?.t === 'dict' ? allowed.entries.map(([k]) => k) : allowed && 'items' in allowed ? allowed.items : undefined;
  if (!kw || !names?.every((k): k is { t: 'str'; v: string } => k.t === 'str')) return undefined;
  return { k: 'given', param: kw, others: names.map((k) => k.v).sort() };
}
