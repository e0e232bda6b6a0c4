/**
 * How a def binds a name: `__init__` storing its parameters (./state.ts), a name bound again (./caught.ts).
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';

/** A parameter stored as it is (`self.allow_none = allow_none`) or as a float (`self._sigma = float(sigma)`). */
export function storedParam(right: Node): { name: string; float?: true } | undefined {
  if (right.type === 'identifier') return { name: right.text };
  const args = right.type === 'call' && field(right, 'function')?.text === 'float' ? namedChildren(field(right, 'arguments') ?? right) : [];
  return args.length === 1 && args[0]!.type === 'identifier' ? { name: args[0]!.text, float: true } : undefined;
}

const BINDERS = new Set([
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
  'for_in_clause',
  'as_pattern_target',
  'global_statement',
  'nonlocal_statement',
  'delete_statement',
]);

/** The identifier is a target some statement binds (an assignment's left side, a loop target, `global`...). */
export function binds(i: Node): boolean {
  const up = i.parent;
  if (!up) return false;
  if (BINDERS.has(up.type)) return true;
  const left =
    up.type === 'assignment' || up.type === 'augmented_assignment' || up.type === 'for_statement' || up.type === 'named_expression'
      ? field(up, up.type === 'named_expression' ? 'name' : 'left')
      : null;
  return left?.id === i.id;
}

/** The def binds `name` again somewhere in its body (`timeout = timeout or 10`, `for x in ...`, `del x`). */
export function rebinds(def: Node, name: string): boolean {
  return (field(def, 'body')?.descendantsOfType('identifier') ?? []).some((i) => i?.text === name && binds(i));
}
