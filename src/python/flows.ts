/**
 * Where values flow into names, read from a whole file in one walk of the tree: the facts the
 * semantic model's analysis on demand (src/semantic/demand.ts) and its class fields
 * (src/semantic/members.ts) start from.
 *   - value flows: assignments, loops and comprehensions, `with … as`, walrus, imports (one flow
 *     per name bound, from the name imported), `match`,
 *     a class's bases into its name, a `return` into its function's name, a class into a
 *     classmethod's first parameter, as source ranges (what may be bound, what it comes from);
 *   - compound targets: binding targets other than a plain name (`self.x`, `a, self.b`, `d[k]`);
 *   - inert text: comments and plain string literals (not f-strings, which hold code).
 * Each is a superset of what the model binds: every name it binds is inside some flow's `lhs`,
 * and the value comes from that flow's `rhs`.
 */
import type { Node } from '../parse/parser.js';
import { interpolatingPrefix } from '../parse/nodecache.js';
import { descendantsIn, field } from '../parse/syntax.js';
import { importedNames } from './imports.js';

/** A place where a value can reach a name: the text that may be bound (`lhs`) and the text its value comes from (`rhs`). */
export interface ValueFlow {
  lhs: [number, number][];
  rhs: [number, number];
  /** A `return`: `lhs` is its function's name, which carries what a call of it returns. */
  returns?: true;
}

/** A binding target that is not a plain name (`self.x`, `a, self.b`, `d[k]`), where it starts and as written. */
export interface CompoundTarget {
  start: number;
  text: string;
}

/**
 * Where a `def` or a class body binds names of its own: a `def` from its parameters to its end
 * (its name and decorators are bound and read in the scope around it), a class from its body on.
 * `parent` is the index of the innermost region around it (-1: the module).
 */
export interface ScopeRegion {
  kind: 'def' | 'class';
  start: number;
  end: number;
  parent: number;
}

export interface FileFlows {
  flows: ValueFlow[];
  /** Every `def` and class body, in source order (outer before inner). */
  scopes: ScopeRegion[];
  targets: CompoundTarget[];
  /** Comments and string literals other than f- and t-strings (nested ones inside them included), in source order, possibly overlapping. */
  inert: [number, number][];
}

/** Node type → the field bound (`lhs`) and the fields read (`rhs`); `*` is the whole node. */
const FLOWS: Record<string, { lhs: string; rhs: string[] }> = {
  assignment: { lhs: 'left', rhs: ['right', 'type'] },
  augmented_assignment: { lhs: 'left', rhs: ['right'] },
  named_expression: { lhs: 'name', rhs: ['value'] },
  for_statement: { lhs: 'left', rhs: ['right'] },
  for_in_clause: { lhs: 'left', rhs: ['right'] },
  as_pattern: { lhs: 'alias', rhs: ['*'] },
  match_statement: { lhs: '*', rhs: ['*'] },
  // A class's name carries what its bases carry (the constructor and class attributes it inherits).
  class_definition: { lhs: 'name', rhs: ['superclasses'] },
};
/** The flows whose `lhs` is a binding target (the model's `bind`). */
const TARGETS = new Set(['assignment', 'for_statement', 'for_in_clause', 'as_pattern']);
const TYPES = new Set([
  ...Object.keys(FLOWS),
  'import_statement',
  'import_from_statement',
  'function_definition',
  'return_statement',
  'decorated_definition',
  'string',
  'comment',
]);

type Range = [number, number];

export function readFlows(root: Node, source: string): FileFlows {
  const out: FileFlows = { flows: [], scopes: [], targets: [], inert: [] };
  // In document order, outer before inner: a preorder walk (descendantsIn), so no sort is needed.
  const nodes = descendantsIn(root, TYPES);
  // The enclosing `def`s and `class`es of the node at hand (the nodes come outermost first).
  const open: Node[] = [];
  // The scope region of each open node (-1: none, for a `def` or class without its part).
  const regions: number[] = [];
  const innermost = () => {
    for (let i = regions.length - 1; i >= 0; i--) if (regions[i]! >= 0) return regions[i]!;
    return -1;
  };
  const enter = (n: Node, kind: ScopeRegion['kind']) => {
    const from = field(n, kind === 'def' ? 'parameters' : 'body');
    const parent = innermost();
    regions.push(from ? out.scopes.push({ kind, start: from.startIndex, end: n.endIndex, parent }) - 1 : -1);
    open.push(n);
  };
  for (const n of nodes) {
    while (open.length && open[open.length - 1]!.endIndex <= n.startIndex) {
      open.pop();
      regions.pop();
    }
    switch (n.type) {
      case 'string':
        // Code only in f- and t-strings (the model reads their interpolations: src/semantic/expressions.ts).
        if (!interpolatingPrefix(source, n.startIndex)) out.inert.push([n.startIndex, n.endIndex]);
        continue;
      case 'comment':
        out.inert.push([n.startIndex, n.endIndex]);
        continue;
      case 'function_definition':
        enter(n, 'def');
        continue;
      case 'return_statement': {
        let fn: Node | undefined;
        for (let i = open.length - 1; i >= 0 && !fn; i--) if (open[i]!.type === 'function_definition') fn = open[i];
        const name = fn ? range(fn, 'name') : undefined;
        if (name) out.flows.push({ lhs: [name], rhs: [n.startIndex, n.endIndex], returns: true });
        continue;
      }
      case 'decorated_definition':
        classMethodFlow(n, open[open.length - 1], out.flows);
        continue;
      case 'import_statement':
      case 'import_from_statement':
        importFlows(n, out.flows);
        continue;
      case 'class_definition':
        enter(n, 'class');
    }
    const spec = FLOWS[n.type];
    if (!spec) continue;
    const lhs = range(n, spec.lhs);
    const rs = spec.rhs.map((f) => range(n, f)).filter((r): r is Range => !!r);
    if (lhs && TARGETS.has(n.type)) {
      const t = field(n, spec.lhs);
      if (t && t.type !== 'identifier') out.targets.push({ start: lhs[0], text: source.slice(lhs[0], lhs[1]) });
    }
    if (!lhs || !rs.length) continue;
    out.flows.push({ lhs: [lhs], rhs: [Math.min(...rs.map((r) => r[0])), Math.max(...rs.map((r) => r[1]))] });
  }
  return out;
}

/**
 * An import's flows, one per name it binds (src/python/imports.ts reads them): from the name
 * imported (`x` in `from m import x as y`, `a.b` in `import a.b [as c]`) into the name bound (`y`,
 * `a` or `c`). The value a from-import binds is `m.x` (or the class it resolves to, known by `x`),
 * so the module's own path is no source; a `*` import binds nothing the model knows.
 */
function importFlows(n: Node, out: ValueFlow[]): void {
  for (const i of importedNames(n)) out.push({ lhs: [[i.localAt[0], i.localAt[1]]], rhs: [i.sourceAt[0], i.sourceAt[1]] });
}

function range(n: Node, name: string): Range | undefined {
  if (name === '*') return [n.startIndex, n.endIndex];
  const c = field(n, name);
  return c ? [c.startIndex, c.endIndex] : undefined;
}

/** `@classmethod def m(cls, …)` in `class C(Base)`: `cls` is the class, so it carries what the bases carry. */
function classMethodFlow(n: Node, cls: Node | undefined, out: ValueFlow[]): void {
  const def = field(n, 'definition');
  if (def?.type !== 'function_definition' || cls?.type !== 'class_definition' || !/classmethod/.test(n.text.slice(0, def.startIndex - n.startIndex))) return;
  const bases = range(cls, 'superclasses');
  const params = field(def, 'parameters');
  if (bases && params) out.push({ lhs: [[params.startIndex, params.endIndex]], rhs: bases });
}

/** Whether some target starting in [start, end) names `obj` (a superset of those binding `obj.attr`). */
export function mayAssignAttributeOf(targets: CompoundTarget[], start: number, end: number, obj: string): boolean {
  const mention = new RegExp(`(?<![\\w.])${obj.replace(/[^\w]/g, '\\$&')}(?!\\w)`);
  return targets.some((t) => t.start >= start && t.start < end && mention.test(t.text));
}
