/**
 * Reads a JS/TS record's `sourceCode` window with the TypeScript compiler's parser: the function,
 * method, static method or constructor around the raise, its class, whether it is async, whether
 * the raise is unconditional, and the error classes the window defines (with their bases).
 *
 * A window often starts inside a class body or halfway through a function: it is parsed as it is,
 * then inside a class wrapper, then from later lines, until a function encloses the raise line.
 */
import type * as TS from 'typescript';
import type { JsKind } from '../../rules/js/types.js';
import { typescript } from '../../parse/typescript.js';
import { constructedState, enclosingTests, reassigned, switchClause, truthyTests } from '../../parse/jsraise.js';

export interface RaisingFunction {
  kind: JsKind;
  name: string;
  className?: string;
  async: boolean;
  always: boolean;
  /** Parameters (by name, in order) of the raising function, or the argument texts of the code fields' call. */
  params?: string[];
  /** Parameters the raise needs given and truthy: it sits under `if (buf)` / `if (buf && ...)`. */
  needs?: string[];
  /** The tests of the `if`s around the raise that read a parameter, and the result that leads to it. */
  tests?: { expr: string; want: boolean }[];
  /** Names a parameter's object pattern binds (`read({ default: def, prompt } = {})`): name → [argument index, property, the pattern's default is `{}`]. */
  fields?: Record<string, [number, string, boolean]>;
  /** Those tests are all that stands before the raise: no other condition around it, no statement before it that can leave. */
  testsDecide?: boolean;
  /** The raise is in a clause of a switch on a parameter (parse/jsraise.ts `switchClause`). */
  switchOn?: { param: string; values: string[]; only: boolean };
  /** Fields of `this` the tests read, as the constructor leaves them (parse/jsraise.ts `constructedState`). */
  thisInit?: Record<string, string>;
}

export interface SourceFacts {
  fn?: RaisingFunction;
  /** Classes the window declares: name → base names (`class NotOpenError extends ModuleError`). */
  classes: Map<string, string[]>;
}

const WRAP = 'class __RaiselintWindow__ {\n';

/** Facts of the window; `row` is the raise's 0-based line in it. `whole`: the code is a whole file (parsed once, as it is). */
export function readJsSource(code: string, row: number, tsx: boolean, whole = false): SourceFacts {
  const lines = code.split(/\r?\n/);
  let classes = new Map<string, string[]>();
  for (let start = 0; start <= (whole ? 0 : Math.min(row, lines.length - 1)); start++) {
    const text = lines.slice(start).join('\n');
    for (const wrapped of whole ? [false] : [false, true]) {
      const sf = parse(wrapped ? `${WRAP}${text}\n}` : text, tsx);
      const r = row - start + (wrapped ? 1 : 0);
      if (start === 0 && !wrapped) classes = declaredClasses(sf);
      const fn = raisingFunction(sf, r);
      if (fn) {
        if (fn.className === '__RaiselintWindow__') {
          delete fn.className;
          if (fn.kind === 'constructor') fn.name = '';
        }
        return { fn, classes };
      }
    }
  }
  return { classes };
}

function parse(text: string, tsx: boolean): TS.SourceFile {
  const ts = typescript();
  return ts.createSourceFile(tsx ? 'window.tsx' : 'window.ts', text, ts.ScriptTarget.Latest, true, tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

function declaredClasses(sf: TS.SourceFile): Map<string, string[]> {
  const ts = typescript();
  const out = new Map<string, string[]>();
  const visit = (n: TS.Node) => {
    if ((ts.isClassDeclaration(n) || ts.isClassExpression(n)) && n.name) {
      const ext = n.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
      out.set(n.name.text, ext ? [ext.expression.getText(sf)] : []);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** The raise on line `row`: a `throw`, a `Promise.reject(...)` / `reject(...)`, or (native raises) any call on the line. */
function raiseAt(sf: TS.SourceFile, row: number): TS.Node | undefined {
  const ts = typescript();
  let found: TS.Node | undefined;
  let call: TS.Node | undefined;
  const visit = (n: TS.Node) => {
    if (found) return;
    const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
    const endLine = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
    if (endLine < row || line > row) return;
    if (line === row && ts.isThrowStatement(n)) found = n;
    else if (line === row && ts.isCallExpression(n) && /(^|\.)reject$/.test(n.expression.getText(sf))) found = n;
    else if (line === row && !call && (ts.isCallExpression(n) || ts.isNewExpression(n))) call = n;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found ?? call;
}

const STATEMENT_KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'do', 'return', 'try', 'else', 'function']);

type FnLike = TS.FunctionDeclaration | TS.MethodDeclaration | TS.ConstructorDeclaration | TS.FunctionExpression | TS.ArrowFunction | TS.GetAccessorDeclaration;

function raisingFunction(sf: TS.SourceFile, row: number): RaisingFunction | undefined {
  const ts = typescript();
  const raise = raiseAt(sf, row);
  if (!raise) return undefined;
  let fn: TS.Node | undefined = raise.parent;
  while (fn && !ts.isFunctionLike(fn)) fn = fn.parent;
  if (!fn || !('body' in fn) || !fn.body) return undefined;
  const f = fn as FnLike;
  const named = nameOf(f, sf);
  if (!named) return undefined;
  const isAsync =
    !!f.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) || (ts.isCallExpression(raise) && /reject$/.test(raise.expression.getText(sf)));
  const fnNode = f as TS.FunctionLikeDeclaration;
  // A parameter with a default, a rest parameter, a pattern or one the body assigns: what the call passes does not say its value.
  const params = f.parameters.map((p) =>
    ts.isIdentifier(p.name) && !p.initializer && !p.dotDotDotToken && !reassigned(fnNode, p.name.text) ? p.name.text : '',
  );
  const fields = destructured(fnNode);
  const paramNames = new Set([...params.filter(Boolean), ...Object.keys(fields)]);
  const mentions = (e: TS.Node): boolean => (ts.isIdentifier(e) && paramNames.has(e.text)) || !!ts.forEachChild(e, (c) => mentions(c) || undefined);
  const enclosing = enclosingTests(raise, fnNode);
  // A field the constructor sets (`this.errors = []`): decided for a receiver the caller has just constructed.
  const thisInit = constructedState(
    fnNode,
    enclosing.map((t) => t.test),
  );
  const ownField = (e: TS.Node): boolean =>
    (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword && !!thisInit && Object.hasOwn(thisInit, e.name.text)) ||
    !!ts.forEachChild(e, (c) => ownField(c) || undefined);
  const tests = enclosing.filter((t) => mentions(t.test) || ownField(t.test)).map((t) => ({ expr: t.test.getText(sf), want: t.want }));
  return {
    ...named,
    async: isAsync,
    always: unconditional(raise, f),
    params,
    fields: Object.keys(fields).length ? fields : undefined,
    needs: truthyTests(raise, fnNode, params),
    switchOn: switchClause(raise, fnNode, params),
    tests,
    testsDecide: tests.length > 0 && tests.length === enclosing.length && onlyIfsBefore(raise, f),
    ...(thisInit ? { thisInit } : {}),
  };
}

function nameOf(f: FnLike, sf: TS.SourceFile): { kind: JsKind; name: string; className?: string } | undefined {
  const ts = typescript();
  const isStatic = !!(ts.canHaveModifiers(f) && ts.getModifiers(f)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword));
  const cls = f.parent && (ts.isClassDeclaration(f.parent) || ts.isClassExpression(f.parent)) ? f.parent.name?.text : undefined;
  if (ts.isConstructorDeclaration(f)) return cls ? { kind: 'constructor', name: cls, className: cls } : undefined;
  if ((ts.isMethodDeclaration(f) || ts.isGetAccessorDeclaration(f)) && f.name && !ts.isComputedPropertyName(f.name)) {
    // A window that starts inside a body, read in the class wrapper: `if (!m) {` parses as a method named `if`.
    if (ts.isObjectLiteralExpression(f.parent) || STATEMENT_KEYWORDS.has(f.name.getText(sf))) return undefined;
    return { kind: isStatic ? 'static' : 'method', name: f.name.getText(sf), className: cls };
  }
  if (ts.isFunctionDeclaration(f)) return f.name ? { kind: 'function', name: f.name.text } : undefined;
  // `const parse = (...) => {}`, `exports.parse = function`, `A.prototype.m = function`, `A.m = function`.
  const p = f.parent;
  if (ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return { kind: 'function', name: p.name.text };
  if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const parts = p.left.getText(sf).split('.');
    const last = parts.pop()!;
    if (parts.length >= 2 && parts[parts.length - 1] === 'prototype') return { kind: 'method', name: last, className: parts[parts.length - 2] };
    if (parts.length === 1 && ['exports', 'module'].includes(parts[0]!)) return { kind: 'function', name: last };
    if (parts.length === 2 && parts.join('.') === 'module.exports') return { kind: 'function', name: last };
    if (parts.length === 1 && /^[A-Z]/.test(parts[0]!)) return { kind: 'static', name: last, className: parts[0] };
  }
  return undefined;
}

/** No condition between the function and the raise, and no earlier statement that can return. */
function unconditional(raise: TS.Node, fn: FnLike): boolean {
  const ts = typescript();
  if (!ts.isThrowStatement(raise) && !(ts.isCallExpression(raise) && ts.isReturnStatement(raise.parent))) return false;
  let n: TS.Node = raise;
  while (n.parent && n.parent !== fn.body) {
    const p = n.parent;
    if (
      ts.isIfStatement(p) ||
      ts.isConditionalExpression(p) ||
      ts.isSwitchStatement(p) ||
      ts.isCaseClause(p) ||
      ts.isCatchClause(p) ||
      ts.isTryStatement(p) ||
      ts.isIterationStatement(p, false)
    )
      return false;
    if (
      ts.isBinaryExpression(p) &&
      [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(p.operatorToken.kind)
    )
      return false;
    n = p;
  }
  const body = fn.body;
  if (!body || !ts.isBlock(body)) return true;
  for (const s of body.statements) {
    if (s === n) break;
    if (canExit(s)) return false;
  }
  return true;
}

/**
 * The names the parameters' object patterns bind, each to its argument and property: only a plain
 * `{ a, b: c }` (no nested pattern, no element default, no rest), with no default or `= {}`, and a
 * name the body does not assign.
 */
function destructured(fn: TS.FunctionLikeDeclaration): Record<string, [number, string, boolean]> {
  const ts = typescript();
  const out: Record<string, [number, string, boolean]> = {};
  fn.parameters.forEach((p, i) => {
    if (!ts.isObjectBindingPattern(p.name) || p.dotDotDotToken) return;
    const init = p.initializer;
    const emptyDefault = !!init && ts.isObjectLiteralExpression(init) && init.properties.length === 0;
    if (init && !emptyDefault) return;
    if (p.name.elements.some((e) => e.dotDotDotToken)) return;
    for (const e of p.name.elements) {
      const key = e.propertyName ?? e.name;
      if (!ts.isIdentifier(e.name) || e.initializer || !(ts.isIdentifier(key) || ts.isStringLiteral(key)) || reassigned(fn, e.name.text)) continue;
      out[e.name.text] = [i, key.text, emptyDefault];
    }
  });
  return out;
}

/** Between the function and the raise only `if`s (and blocks), and no statement before it on the way that can leave (return, throw). */
function onlyIfsBefore(raise: TS.Node, fn: FnLike): boolean {
  const ts = typescript();
  if (!ts.isThrowStatement(raise)) return false;
  for (let n: TS.Node = raise; n !== fn.body; n = n.parent) {
    const p = n.parent;
    if (!p) return false;
    if (ts.isBlock(p) || ts.isSourceFile(p)) {
      for (const s of p.statements) {
        if (s === n) break;
        if (canExit(s)) return false;
      }
    } else if (!ts.isIfStatement(p) || p.expression === n) return false;
  }
  return true;
}

function canExit(s: TS.Node): boolean {
  const ts = typescript();
  let exits = false;
  const visit = (n: TS.Node) => {
    if (exits || ts.isFunctionLike(n)) return;
    if (ts.isReturnStatement(n) || ts.isThrowStatement(n)) exits = true;
    else ts.forEachChild(n, visit);
  };
  visit(s);
  return exits;
}
