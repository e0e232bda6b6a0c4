/**
 * What the JavaScript around a throw says about the arguments it needs, read from the TypeScript
 * tree of the raising function. One owner for the record generator (records/generate/npm.ts, which
 * reads the installed package) and the compiler (compile/js/source.ts, which reads a record's window).
 */
import type * as TS from 'typescript';
import { typescript } from './typescript.js';

/** Whether the function assigns the parameter (`buf = buf || new Uint8Array(16)`): its value is then not the argument's. */
export function reassigned(fn: TS.FunctionLikeDeclaration, name: string): boolean {
  const ts = typescript();
  let found = false;
  const visit = (n: TS.Node) => {
    if (found) return;
    if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      n.operatorToken.kind <= ts.SyntaxKind.LastAssignment &&
      ts.isIdentifier(n.left) &&
      n.left.text === name
    )
      found = true;
    else ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return found;
}

/** The parameters an `if` around the raise tests for truthiness (`if (buf)`, `if (buf && x)`), the raise in its `then`. */
export function truthyTests(raise: TS.Node, fn: TS.FunctionLikeDeclaration, params: string[]): string[] {
  const ts = typescript();
  const out: string[] = [];
  const conjuncts = (e: TS.Expression): TS.Expression[] => {
    while (ts.isParenthesizedExpression(e)) e = e.expression;
    return ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
  };
  for (let n: TS.Node = raise; n.parent && n !== fn; n = n.parent) {
    const p = n.parent;
    if (!ts.isIfStatement(p) || p.thenStatement !== n) continue;
    for (const c of conjuncts(p.expression))
      if (ts.isIdentifier(c) && params.includes(c.text) && !out.includes(c.text) && !reassigned(fn, c.text)) out.push(c.text);
  }
  return out;
}

/**
 * The raise is in a clause of a switch on a parameter whose cases are all string or number
 * literals: in `default:`, a call that passes one of the case literals does not reach it
 * (`only: false`); in `case 'pre':` (and the cases that fall into it), only a call that passes one
 * of those does (`only: true`).
 */
export function switchClause(raise: TS.Node, fn: TS.FunctionLikeDeclaration, params: string[]): { param: string; values: string[]; only: boolean } | undefined {
  const ts = typescript();
  for (let n: TS.Node = raise; n.parent && n !== fn; n = n.parent) {
    if (!ts.isDefaultClause(n) && !ts.isCaseClause(n)) continue;
    const sw = n.parent.parent;
    if (!ts.isSwitchStatement(sw) || !ts.isIdentifier(sw.expression) || !params.includes(sw.expression.text) || reassigned(fn, sw.expression.text))
      return undefined;
    const clauses = sw.caseBlock.clauses;
    const label = (c: TS.CaseClause) => literalText(c.expression);
    if (clauses.some((c) => ts.isCaseClause(c) && label(c) === undefined)) return undefined;
    if (ts.isDefaultClause(n)) return { param: sw.expression.text, values: clauses.flatMap((c) => (ts.isCaseClause(c) ? [label(c)!] : [])), only: false };
    // This clause and those before it that fall into it (no statements, or not ending in break, return, throw or continue).
    const values: string[] = [];
    for (let i = clauses.indexOf(n); i >= 0; i--) {
      const c = clauses[i]!;
      if (c !== n) {
        const last = c.statements[c.statements.length - 1];
        const ends = !!last && (ts.isBreakStatement(last) || ts.isReturnStatement(last) || ts.isThrowStatement(last) || ts.isContinueStatement(last));
        if (ends) break;
      }
      if (ts.isDefaultClause(c)) return undefined;
      values.unshift(label(c)!);
    }
    return { param: sw.expression.text, values, only: true };
  }
  return undefined;
}

/** Whether a call that passes `arg` where the switch reads its parameter cannot reach the raise: a literal the clause does not take. */
export function switchRulesOut(sw: { values: string[]; only: boolean }, arg: TS.Expression | undefined): boolean {
  const v = literalText(arg);
  return v !== undefined && sw.values.includes(v) !== sw.only;
}

/** The expression under parentheses and type-only wrappers (`(x)`, `x as T`, `x satisfies T`, `x!`, `<T>x`). */
export function unwrapped(a: TS.Expression): TS.Expression {
  const ts = typescript();
  while (ts.isParenthesizedExpression(a) || ts.isAsExpression(a) || ts.isSatisfiesExpression(a) || ts.isNonNullExpression(a) || ts.isTypeAssertionExpression(a))
    a = a.expression;
  return a;
}

/** The text of a string or number literal argument (`'patch'`, `` `>` ``, `2`), else undefined. */
export function literalText(a: TS.Expression | undefined): string | undefined {
  const ts = typescript();
  if (a) a = unwrapped(a);
  if (a && ts.isStringLiteralLike(a)) return a.text;
  if (a && ts.isNumericLiteral(a)) return String(Number(a.text));
  return undefined;
}
