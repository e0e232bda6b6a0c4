/** JS/TS syntax read the same way by rule compilation (snippets.ts) and by checking (../../eslint/handled.ts). */
import type * as TS from 'typescript';
import { typescript } from '../../parse/typescript.js';

/** A condition without its parentheses and one leading `!`: `!(e instanceof X)` is `e instanceof X`, negated. */
export function unNegate(cond: TS.Expression): { e: TS.Expression; negated: boolean } {
  const ts = typescript();
  let e = cond;
  let negated = false;
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken) {
    negated = true;
    e = e.operand;
    while (ts.isParenthesizedExpression(e)) e = e.expression;
  }
  return { e, negated };
}
