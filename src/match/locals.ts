/**
 * The value of a local name passed as an argument, when the caller's function shows it: one plain
 * statement `x = <literal>` binds it, in a block that holds the call, above it, and nothing else in
 * the function binds it (no loop target, `+=`, `with ... as`, walrus, `del`, `global`, parameter,
 * nested function reading it). A mutable value (list, dict, set) counts only when the name is not
 * used between its binding and the call, nor on an earlier pass of a loop around the call:
 * `data = []; statistics.median_low(data)` is the literal `[]`.
 */
import type { Node } from '../parse/parser.js';
import { contains, field } from '../parse/syntax.js';
import { literalOf } from '../rules/condition/literal.js';
import type { PyVal } from '../rules/condition/types.js';
import type { Scopes } from '../semantic/scopes.js';

const NESTED = new Set(['function_definition', 'class_definition', 'lambda']);
const LOOPS = new Set(['for_statement', 'while_statement']);
const MUTABLE = new Set<PyVal['t']>(['list', 'dict', 'set']);

/** A plain `x = value` statement binding `id`, else undefined. */
function plainBinding(id: Node): Node | undefined {
  const a = id.parent;
  if (a?.type !== 'assignment' || field(a, 'left')?.id !== id.id || a.parent?.type !== 'expression_statement') return undefined;
  return a;
}

/** Whether `id` is a read of the name (not a binding of it, nor an attribute's or keyword's name). */
function isRead(id: Node): boolean {
  const up = id.parent;
  if (!up) return false;
  if (up.type === 'attribute' && field(up, 'attribute')?.id === id.id) return false;
  if (up.type === 'keyword_argument' && field(up, 'name')?.id === id.id) return false;
  if (
    (up.type === 'assignment' || up.type === 'augmented_assignment' || up.type === 'for_statement' || up.type === 'for_in_clause') &&
    field(up, 'left')?.id === id.id
  )
    return false;
  return ![
    'pattern_list',
    'tuple_pattern',
    'list_pattern',
    'as_pattern_target',
    'named_expression',
    'delete_statement',
    'global_statement',
    'nonlocal_statement',
    'parameters',
    'default_parameter',
    'typed_parameter',
    'typed_default_parameter',
    'aliased_import',
    'dotted_name',
    'except_clause',
    'lambda_parameters',
  ].includes(up.type);
}

/** The literal a local name `n` (an argument of `call`) holds there, per the rules above. */
export function localLiteral(n: Node, call: Node, scopes: Scopes, constant: (name: string) => PyVal | undefined): PyVal | undefined {
  if (n.type !== 'identifier') return undefined;
  const scope = scopes.scopesOf(n)[0];
  if (scope?.type !== 'function_definition') return undefined;
  const body = field(scope, 'body');
  const params = field(scope, 'parameters');
  if (!body || params?.descendantsOfType('identifier').some((p) => p?.text === n.text)) return undefined;
  let binding: Node | undefined;
  const reads: Node[] = [];
  for (const id of body.descendantsOfType('identifier')) {
    if (!id || id.text !== n.text) continue;
    for (let p = id.parent; p && p.id !== body.id; p = p.parent) if (NESTED.has(p.type)) return undefined;
    if (isRead(id)) {
      reads.push(id);
      continue;
    }
    const b = plainBinding(id);
    if (!b || binding) return undefined;
    binding = b;
  }
  const stmt = binding?.parent;
  if (!binding || !stmt?.parent || !contains(stmt.parent, call) || stmt.endIndex > call.startIndex) return undefined;
  const value = literalOf(field(binding, 'right'), constant);
  if (!value || !MUTABLE.has(value.t)) return value;
  // A list, dict or set: not read (and so perhaps changed) before the call, on this pass or an earlier one.
  for (let p = call.parent; p && p.id !== body.id; p = p.parent) if (LOOPS.has(p.type) && !contains(p, stmt)) return undefined;
  return reads.every((r) => r.id === n.id || r.startIndex < stmt.startIndex || r.startIndex >= call.endIndex) ? value : undefined;
}
