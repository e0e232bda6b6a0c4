/** `with` statements → their items: each context expression and the target its `as` binds. The one reader of with-clause nodes. */
import type { Node } from '../parse/parser.js';
import { field, kids } from '../parse/syntax.js';

export interface WithItem {
  /** The context expression (`open(p)` in `with open(p) as f`). */
  value: Node;
  /** What `as` binds (`f`), when there is an `as`. */
  target?: Node;
}

/** The clause that holds a `with` statement's items (the header between `with` and `:`). */
export function withClause(stmt: Node): Node | undefined {
  return kids(stmt).find((c) => c.type === 'with_clause');
}

/** The items of a `with` statement, in the order they are entered. */
export function withItems(stmt: Node): WithItem[] {
  const clause = withClause(stmt);
  if (!clause) return [];
  const out: WithItem[] = [];
  for (const item of kids(clause)) {
    const v = field(item, 'value');
    if (!v) continue;
    if (v.type !== 'as_pattern') {
      out.push({ value: v });
      continue;
    }
    const [inner] = kids(v);
    const alias = field(v, 'alias');
    if (inner) out.push({ value: inner, target: alias ? kids(alias)[0] : undefined });
  }
  return out;
}
