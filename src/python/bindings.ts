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

/** A place where a value can reach a name: the text that may be bound (`lhs`) and the text its value comes from (`rhs`). */
export interface ValueFlow {
  lhs: [number, number][];
  rhs: [number, number];
  /** A `return`: `lhs` is its function's name, which carries what a call of it returns. */
  returns?: true;
}

/** Node type → the fields bound (`lhs`) and the fields read (`rhs`); `*` is the whole node. */
const FLOWS: Record<string, { lhs: string; rhs: string[] }> = {
  assignment: { lhs: 'left', rhs: ['right', 'type'] },
  augmented_assignment: { lhs: 'left', rhs: ['right'] },
  named_expression: { lhs: 'name', rhs: ['value'] },
  for_statement: { lhs: 'left', rhs: ['right'] },
  for_in_clause: { lhs: 'left', rhs: ['right'] },
  as_pattern: { lhs: 'alias', rhs: ['*'] },
  import_statement: { lhs: '*', rhs: ['*'] },
  import_from_statement: { lhs: '*', rhs: ['*'] },
  match_statement: { lhs: '*', rhs: ['*'] },
  // A class's name carries what its bases carry (the constructor and class attributes it inherits).
  class_definition: { lhs: 'name', rhs: ['superclasses'] },
};
const FLOW_TYPES = [...Object.keys(FLOWS), 'function_definition', 'return_statement', 'decorated_definition'];

/**
 * Every place in the tree where a value can flow into a name, as source ranges: assignments,
 * loops and comprehensions, `with … as`, walrus, imports, `match`, a class's bases into its
 * name, a `return` into its function's name, and a class into a classmethod's first parameter.
 * A superset of what the semantic model binds: each name it binds is inside some `lhs`, and the
 * value it binds comes from that flow's `rhs`.
 */
export function valueFlows(root: Node): ValueFlow[] {
  const out: ValueFlow[] = [];
  const range = (n: Node, name: string): [number, number] | undefined => {
    if (name === '*') return [n.startIndex, n.endIndex];
    const c = field(n, name);
    return c ? [c.startIndex, c.endIndex] : undefined;
  };
  const nodes = root.descendantsOfType(FLOW_TYPES).filter((n): n is Node => !!n);
  nodes.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  // The enclosing `def`s and `class`es of the node at hand (the nodes come outermost first).
  const open: { node: Node; end: number }[] = [];
  for (const n of nodes) {
    while (open.length && open[open.length - 1]!.end <= n.startIndex) open.pop();
    if (n.type === 'function_definition' || n.type === 'class_definition') open.push({ node: n, end: n.endIndex });
    if (n.type === 'return_statement') {
      const fn = [...open].reverse().find((o) => o.node.type === 'function_definition')?.node;
      const name = fn ? range(fn, 'name') : undefined;
      if (name) out.push({ lhs: [name], rhs: [n.startIndex, n.endIndex], returns: true });
      continue;
    }
    if (n.type === 'decorated_definition') {
      classMethodFlow(n, open, range, out);
      continue;
    }
    const spec = FLOWS[n.type];
    if (!spec) continue;
    const lhs = range(n, spec.lhs);
    const rs = spec.rhs.map((f) => range(n, f)).filter((r): r is [number, number] => !!r);
    if (!lhs || !rs.length) continue;
    out.push({ lhs: [lhs], rhs: [Math.min(...rs.map((r) => r[0])), Math.max(...rs.map((r) => r[1]))] });
  }
  return out;
}

/** `@classmethod def m(cls, …)` in `class C(Base)`: `cls` is the class, so it carries what the bases carry. */
function classMethodFlow(n: Node, open: { node: Node }[], range: (n: Node, f: string) => [number, number] | undefined, out: ValueFlow[]): void {
  const def = field(n, 'definition');
  const cls = open[open.length - 1]?.node;
  if (def?.type !== 'function_definition' || cls?.type !== 'class_definition' || !/classmethod/.test(n.text.slice(0, def.startIndex - n.startIndex))) return;
  const bases = range(cls, 'superclasses');
  const first = field(def, 'parameters');
  if (bases && first) out.push({ lhs: [[first.startIndex, first.endIndex]], rhs: bases });
}
