/** `except` clauses → the classes they name and the name they bind. The one reader of handler nodes. */
import type { Node } from '../parse/parser.js';
import { dottedName, field, namedChildren } from '../parse/syntax.js';

/** `except` and `except*` clauses of a `try` statement, in order. */
export function exceptClauses(tryStmt: Node): Node[] {
  return namedChildren(tryStmt).filter((c) => c.type === 'except_clause' || c.type === 'except_group_clause');
}

/** The clause's value: what follows `except` (`E`, `(E, F)`, `E as e`); undefined for a bare `except:`. */
function clauseValue(clause: Node): Node | undefined {
  return namedChildren(clause).find((c) => c.type !== 'block');
}

/** Class expressions of an `except` value or a `suppress(...)` argument, flattened (`(A, (B, C)) as e` → A, B, C). */
export function flattenClasses(n: Node | undefined): Node[] {
  if (!n) return [];
  if (n.type === 'as_pattern') return flattenClasses(namedChildren(n)[0]);
  if (n.type === 'tuple' || n.type === 'parenthesized_expression' || n.type === 'expression_list') return namedChildren(n).flatMap(flattenClasses);
  return [n];
}

/** The class expressions a clause names, flattened; none for a bare `except:`. */
export function caughtExpressions(clause: Node): Node[] {
  return flattenClasses(clauseValue(clause));
}

/** A bare `except:` (it catches everything). */
export function isBareExcept(clause: Node): boolean {
  return !clauseValue(clause);
}

/** The dotted class names a clause writes (`io.UnsupportedOperation`); expressions that are not names are left out. */
export function caughtNames(clause: Node): string[] {
  return caughtExpressions(clause)
    .map((n) => dottedName(n))
    .filter((x): x is string => !!x);
}

/** `except E as e:` → `e`. */
export function exceptAlias(clause: Node): string | undefined {
  const v = clauseValue(clause);
  if (v?.type !== 'as_pattern') return undefined;
  const alias = field(v, 'alias');
  const target = alias ? (namedChildren(alias)[0] ?? alias) : undefined;
  return target?.type === 'identifier' ? target.text : undefined;
}

/** The handler's body. */
export function handlerBody(clause: Node): Node | null {
  return namedChildren(clause).find((c) => c.type === 'block') ?? null;
}
