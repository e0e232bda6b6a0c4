/** Expressions and assignment targets → facts: the names a target binds, whether an expression needs parentheses. */
import type { Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';

const ATOMIC = new Set(['identifier', 'attribute', 'call', 'subscript', 'string', 'concatenated_string', 'integer', 'float', 'true', 'false', 'none', 'list', 'dictionary', 'set', 'tuple', 'parenthesized_expression', 'list_comprehension', 'dictionary_comprehension', 'set_comprehension', 'generator_expression', 'ellipsis']);

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

/** The statements and clauses that bind a target: node type → the field holding the target. */
const TARGET_FIELDS: Record<string, string> = { assignment: 'left', for_statement: 'left', for_in_clause: 'left', as_pattern: 'alias' };
const TARGET_TYPES = Object.keys(TARGET_FIELDS);

/** A binding target that is not a plain name (`self.x`, `a, self.b`, `d[k]`), where it starts and as written. */
export interface CompoundTarget {
  start: number;
  text: string;
}

/**
 * The targets inside `scope` (nested scopes included) bound by assignments, `for` loops and
 * clauses and `with … as`, other than plain names, read in one call into the tree.
 */
export function compoundTargets(scope: Node): CompoundTarget[] {
  const out: CompoundTarget[] = [];
  for (const n of scope.descendantsOfType(TARGET_TYPES)) {
    const t = n ? field(n, TARGET_FIELDS[n.type]!) : null;
    if (t && t.type !== 'identifier') out.push({ start: t.startIndex, text: t.text });
  }
  return out;
}

/** Whether some target starting in [start, end) names `obj` (a superset of those binding `obj.attr`). */
export function mayAssignAttributeOf(targets: CompoundTarget[], start: number, end: number, obj: string): boolean {
  const mention = new RegExp(`(?<![\\w.])${obj.replace(/[^\w]/g, '\\$&')}(?!\\w)`);
  return targets.some((t) => t.start >= start && t.start < end && mention.test(t.text));
}
