/**
 * Calls already handled: inside a `try` whose `catch` does not just rethrow (or rethrows only what
 * is not `instanceof` the recorded class or a base), also from a callback the call in the `try`
 * runs in place (`items.map(cb)`, a promise executor when awaited); an awaited call for a rejection; a promise
 * with `.catch(h)` / `.then(_, h)` (rejections only: a synchronous throw escapes a chained
 * `.catch`); the record's guard (`if (URL.canParse(input))`) before the call.
 */
import ts from 'typescript';
import type { JsGuard, JsTarget } from '../rules/js/types.js';
import { unNegate } from '../compile/index.js';
import { inPackage } from './resolve.js';

export function isHandled(call: ts.CallExpression | ts.NewExpression, t: JsTarget, classes: string[], checker?: ts.TypeChecker): boolean {
  return inTry(call, t, classes) || (t.async && promiseCaught(call)) || guarded(call, t, checker);
}

/** Array methods (and `Array.from`) that call their callback before they return: a throw in it escapes the call. */
const SYNC_CALLBACKS = new Set([
  'map',
  'forEach',
  'filter',
  'reduce',
  'reduceRight',
  'some',
  'every',
  'find',
  'findIndex',
  'findLast',
  'findLastIndex',
  'flatMap',
  'sort',
  'toSorted',
  'from',
]);

/**
 * A function the enclosing call runs before it returns, so that a `try` around that call sees its
 * throws: a non-async callback of `items.map(cb)` and the like, or a `new Promise(executor)`'s
 * executor (its throw rejects the promise: seen by a `try` only when the promise is awaited there).
 */
function calledInPlace(fn: ts.Node): 'sync' | 'executor' | undefined {
  if (!(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) return undefined;
  const call = fn.parent;
  if (ts.isNewExpression(call) && call.arguments?.[0] === fn && ts.isIdentifier(call.expression) && call.expression.text === 'Promise') return 'executor';
  if (ts.isCallExpression(call) && call.arguments.includes(fn as ts.Expression) && ts.isPropertyAccessExpression(call.expression))
    return SYNC_CALLBACKS.has(call.expression.name.text) ? 'sync' : undefined;
  return undefined;
}

function inTry(call: ts.Node, t: JsTarget, classes: string[]): boolean {
  let awaited = false;
  let rejects = t.async;
  for (let n: ts.Node = call; n.parent; n = n.parent) {
    const p = n.parent;
    if (ts.isAwaitExpression(p)) awaited = true;
    if (ts.isFunctionLike(p)) {
      const how = calledInPlace(p);
      if (!how || (how === 'sync' && rejects)) return false;
      // Inside the executor, a throw rejects the promise: from here on, only an awaited promise is caught.
      if (how === 'executor') {
        rejects = true;
        awaited = false;
      }
      continue;
    }
    if (ts.isTryStatement(p) && n === p.tryBlock && p.catchClause) {
      // A rejection is caught only when the promise is awaited inside the try.
      if ((!rejects || awaited) && catchHandles(p.catchClause, classes)) return true;
    }
  }
  return false;
}

function isRethrow(s: ts.Statement, param: string | undefined): boolean {
  return ts.isThrowStatement(s) && !!param && ts.isIdentifier(s.expression) && s.expression.text === param;
}

function exits(s: ts.Statement): boolean {
  if (ts.isBlock(s)) return s.statements.some(exits);
  return ts.isReturnStatement(s) || ts.isThrowStatement(s) || ts.isBreakStatement(s) || ts.isContinueStatement(s);
}

/** `e instanceof X` (or `!(e instanceof X)`): X's name, and whether it is negated. */
function instanceofTest(cond: ts.Expression, param: string): { cls: string; negated: boolean } | undefined {
  const { e, negated } = unNegate(cond);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword && ts.isIdentifier(e.left) && e.left.text === param) {
    const cls = e.right.getText().split('.').pop()!;
    return { cls, negated };
  }
  return undefined;
}

export function catchHandles(cc: ts.CatchClause, classes: string[]): boolean {
  const param = cc.variableDeclaration && ts.isIdentifier(cc.variableDeclaration.name) ? cc.variableDeclaration.name.text : undefined;
  const body = cc.block.statements;
  for (const s of body) {
    if (isRethrow(s, param)) return false; // reached: everything not handled above is rethrown
    if (param && ts.isIfStatement(s)) {
      const test = instanceofTest(s.expression, param);
      const rethrows = (x: ts.Statement | undefined) => !!x && (isRethrow(x, param) || (ts.isBlock(x) && x.statements.some((y) => isRethrow(y, param))));
      // `if (!(e instanceof X)) throw e`: handled when X is the class or a base.
      if (test?.negated && rethrows(s.thenStatement)) return classes.includes(test.cls);
      // `if (e instanceof X) { handle; return }` before a rethrow.
      if (test && !test.negated && !rethrows(s.thenStatement) && classes.includes(test.cls) && (exits(s.thenStatement) || s.elseStatement)) return true;
      if (test && !test.negated && rethrows(s.elseStatement)) return classes.includes(test.cls);
    }
  }
  return true;
}

/** `p.catch(h)`, `p.then(ok, h)`, through `.then(ok)` / `.finally(f)` links. */
function promiseCaught(call: ts.Node): boolean {
  let n: ts.Node = call;
  for (;;) {
    while (n.parent && ts.isParenthesizedExpression(n.parent)) n = n.parent;
    const p = n.parent;
    if (!p || !ts.isPropertyAccessExpression(p) || p.expression !== n || !p.parent || !ts.isCallExpression(p.parent) || p.parent.expression !== p) return false;
    const args = p.parent.arguments.length;
    if (p.name.text === 'catch' && args >= 1) return true;
    if (p.name.text === 'then' && args >= 2) return true;
    if (p.name.text !== 'then' && p.name.text !== 'finally') return false;
    n = p.parent;
  }
}

function guardCall(cond: ts.Expression): { callee: ts.Expression; args: string[]; negated: boolean } | undefined {
  const { e, negated } = unNegate(cond);
  return ts.isCallExpression(e) ? { callee: e.expression, args: e.arguments.map((a) => a.getText()), negated } : undefined;
}

/**
 * The guard the record names, under any import binding: `semver.valid(x)` in the record and an
 * imported `valid(x)` (or `isValid`, `import { valid as isValid }`) are one function when the
 * checker resolves the call's callee to a declaration of that name in the record's package. A
 * class's static (`URL.canParse`) is matched as written.
 */
function sameGuard(callee: ts.Expression, g: JsGuard, t: JsTarget, checker: ts.TypeChecker | undefined): boolean {
  if (callee.getText() === g.callee) return true;
  const parts = g.callee.split('.');
  const name = parts.pop()!;
  if (!checker || parts.some((p) => /^[A-Z]/.test(p))) return false;
  const id = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : undefined;
  let sym = id && checker.getSymbolAtLocation(id);
  if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
  return !!sym && sym.name === name && !!sym.declarations?.some((d) => inPackage(d, t.package));
}

/** The condition holds the guard with the argument the call has, with a result that protects it (`want` true: a true condition protects). */
function protects(cond: ts.Expression, g: JsGuard, argText: string, want: boolean, t: JsTarget, checker: ts.TypeChecker | undefined): boolean {
  const c = guardCall(cond);
  if (!c || c.args[g.guardArg] !== argText || !sameGuard(c.callee, g, t, checker)) return false;
  return (g.safeWhenTrue !== c.negated) === want;
}

function guarded(call: ts.CallExpression | ts.NewExpression, t: JsTarget, checker: ts.TypeChecker | undefined): boolean {
  const guards = t.guards;
  const holds = (cond: ts.Expression, g: JsGuard, text: string, want: boolean) => protects(cond, g, text, want, t, checker);
  for (const g of guards) {
    const arg = call.arguments?.[g.callArg];
    if (!arg) continue;
    const text = arg.getText();
    for (let n: ts.Node = call; n.parent && !ts.isFunctionLike(n); n = n.parent) {
      const p = n.parent;
      if (ts.isIfStatement(p) && (n === p.thenStatement ? holds(p.expression, g, text, true) : n === p.elseStatement && holds(p.expression, g, text, false)))
        return true;
      if (ts.isConditionalExpression(p) && (n === p.whenTrue ? holds(p.condition, g, text, true) : n === p.whenFalse && holds(p.condition, g, text, false)))
        return true;
      if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && n === p.right && holds(p.left, g, text, true))
        return true;
      // `if (!URL.canParse(input)) return;` earlier in an enclosing block.
      if ((ts.isBlock(p) || ts.isSourceFile(p)) && ts.isStatement(n)) {
        for (const s of p.statements) {
          if (s === n) break;
          if (ts.isIfStatement(s) && exits(s.thenStatement) && holds(s.expression, g, text, false)) return true;
        }
      }
    }
  }
  return false;
}
