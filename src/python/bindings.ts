/** Expressions and assignment targets → facts: the names a target binds, whether an expression needs parentheses. */
import type { Node } from '../parse/parser.js';
import { namedChildren } from '../parse/syntax.js';

const ATOMIC = new Set([
  'identifier',
  'attribute',
  'call',
  'subscript',
  'string',
  'concatenated_string',
  'integer',
  'float',
  'true',
  'false',
  'none',
  'list',
  'dictionary',
  'set',
  'tuple',
  'parenthesized_expression',
  'list_comprehension',
  'dictionary_comprehension',
  'set_comprehension',
  'generator_expression',
  'ellipsis',
]);

export function isAtomic(type: string): boolean {
  return ATOMIC.has(type);
}

/** Names bound by an assignment target (`a`, `a, b`, `[a, *b]`); attributes and subscripts bind none. */
export function targetNames(t: Node, into: Set<string>): void {
  switch (t.type) {
    case 'identifier':
      into.add(t.text);
      return;
    case 'pattern_list':
    case 'tuple_pattern':
    case 'list_pattern':
    case 'tuple':
    case 'list':
    case 'expression_list':
    case 'parenthesized_expression':
    case 'list_splat_pattern':
    case 'list_splat':
      for (const c of namedChildren(t)) targetNames(c, into);
      return;
    default:
      return;
  }
}
