/**
 * Type checks → facts: `isinstance(x, C)` calls, `not` around them, and guard functions (a body
 * that returns such a check of a parameter). One meaning of `not`: every `not` flips, parentheses
 * are looked through (`not (not isinstance(x, C))` is a positive check).
 */
import type { Node } from '../parse/parser.js';
import { dottedName, field, namedChildren } from '../parse/syntax.js';
import { parameters } from './params.js';

/** Looks through `not` and parentheses: the inner expression and whether an odd number of `not`s negates it. */
export function unwrapNot(e: Node | null | undefined): { expr: Node | undefined; negated: boolean } {
  let cur = e ?? undefined;
  let negated = false;
  while (cur && (cur.type === 'not_operator' || cur.type === 'parenthesized_expression')) {
    if (cur.type === 'not_operator') negated = !negated;
    cur = cur.type === 'not_operator' ? (field(cur, 'argument') ?? undefined) : namedChildren(cur)[0];
  }
  return { expr: cur, negated };
}

/** `isinstance(subject, classes)`: the two argument nodes. */
export function isinstanceArgs(node: Node | undefined): { subject: Node; classes: Node } | undefined {
  if (node?.type !== 'call' || field(node, 'function')?.text !== 'isinstance') return undefined;
  const args = field(node, 'arguments');
  const [subject, classes] = args ? namedChildren(args) : [];
  return subject && classes ? { subject, classes } : undefined;
}

/** The class expressions of `C` or `(C, D)`. */
export function classList(n: Node): Node[] {
  return n.type === 'tuple' || n.type === 'parenthesized_expression' ? namedChildren(n) : [n];
}

/** `isinstance(x, C)` / `isinstance(x, (C, D))` on a plain variable, with the classes as dotted names. */
export function isinstanceCall(node: Node): { variable: string; classes: string[] } | undefined {
  const a = isinstanceArgs(node);
  if (!a || a.subject.type !== 'identifier') return undefined;
  const classes = classList(a.classes)
    .map((x) => dottedName(x))
    .filter((x): x is string => !!x);
  return classes.length ? { variable: a.subject.text, classes } : undefined;
}

/** A string expression statement: a docstring where it leads a body (comments aside). */
export function isDocstring(s: Node): boolean {
  return s.type === 'expression_statement' && namedChildren(s)[0]?.type === 'string';
}

/**
 * A guard function: its body (docstrings aside) is one `return [not] isinstance(param, C)`.
 * Gives the parameter's index, the class expression and whether the check is negated.
 */
export function guardFunction(fn: Node): { param: number; classes: Node; negated: boolean } | undefined {
  const body = field(fn, 'body');
  const stmts = body ? namedChildren(body).filter((s) => !isDocstring(s)) : [];
  if (stmts.length !== 1 || stmts[0]!.type !== 'return_statement') return undefined;
  const { expr, negated } = unwrapNot(namedChildren(stmts[0]!)[0]);
  const a = isinstanceArgs(expr);
  if (a?.subject.type !== 'identifier') return undefined;
  const param = parameters(fn).findIndex((p) => p.name === a.subject.text);
  return param < 0 ? undefined : { param, classes: a.classes, negated };
}
