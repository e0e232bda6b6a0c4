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

/** A falsy literal (`undefined`, `null`, `false`, `0`, `''`, `void 0`) or no argument at all: what `if (buf)` reads as false. */
export function leftOut(a: TS.Expression | undefined): boolean {
  const ts = typescript();
  if (!a) return true;
  a = unwrapped(a);
  if (a.kind === ts.SyntaxKind.NullKeyword || a.kind === ts.SyntaxKind.FalseKeyword || ts.isVoidExpression(a)) return true;
  if (ts.isIdentifier(a) && a.text === 'undefined') return true;
  return (ts.isNumericLiteral(a) && Number(a.text) === 0) || (ts.isStringLiteralLike(a) && a.text === '');
}

/** The text of a string or number literal argument (`'patch'`, `` `>` ``, `2`), else undefined. */
export function literalText(a: TS.Expression | undefined): string | undefined {
  const ts = typescript();
  if (a) a = unwrapped(a);
  if (a && ts.isStringLiteralLike(a)) return a.text;
  if (a && ts.isNumericLiteral(a)) return String(Number(a.text));
  return undefined;
}

/** A value an expression around a throw has at a call: known (`{ v }`), or not (`undefined`). */
export type Known = { v: unknown } | undefined;

/** The known names (a Map will do), and what the types say of `name instanceof Cls` (true, false or not known). */
export type Env = Pick<ReadonlyMap<string, Known>, 'get' | 'has'> & { instanceOf?: (name: string, cls: string) => boolean | undefined };

/**
 * What `e` is when the names of `env` hold those values (a call's literal arguments, or
 * `undefined` for one it leaves out); undefined when that does not decide it. Literals, `!`, `&&`,
 * `||`, `??`, comparisons, `typeof`, `.length`, array literals, `this.<field>` (`env`'s `this`:
 * the fields known) and a string's `startsWith`/`endsWith`/`includes`.
 */
export function evalKnown(e: TS.Expression, env: Env): Known {
  const ts = typescript();
  e = unwrapped(e);
  if (ts.isStringLiteralLike(e)) return { v: e.text };
  if (ts.isNumericLiteral(e)) return { v: Number(e.text) };
  if (e.kind === ts.SyntaxKind.TrueKeyword) return { v: true };
  if (e.kind === ts.SyntaxKind.FalseKeyword) return { v: false };
  if (e.kind === ts.SyntaxKind.NullKeyword) return { v: null };
  if (ts.isIdentifier(e)) return env.has(e.text) ? env.get(e.text) : e.text === 'undefined' ? { v: undefined } : undefined;
  if (ts.isVoidExpression(e)) return { v: undefined };
  // `this.errors` of a receiver the caller has just constructed: a field `constructedState` knows, else not known.
  if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword) {
    const self = env.get('this')?.v as Record<string, unknown> | undefined;
    return self && Object.hasOwn(self, e.name.text) ? { v: self[e.name.text] } : undefined;
  }
  if (ts.isArrayLiteralExpression(e)) {
    const items = e.elements.map((x) => (ts.isSpreadElement(x) || ts.isOmittedExpression(x) ? undefined : evalKnown(x, env)));
    return items.every((x) => x) ? { v: items.map((x) => x!.v) } : undefined;
  }
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken) {
    const x = evalKnown(e.operand, env);
    return x && { v: !x.v };
  }
  if (ts.isTypeOfExpression(e)) {
    const x = evalKnown(e.expression, env);
    return x && { v: typeof x.v };
  }
  if (ts.isPropertyAccessExpression(e) && e.name.text === 'length') {
    const x = evalKnown(e.expression, env);
    return x && (typeof x.v === 'string' || Array.isArray(x.v)) ? { v: x.v.length } : undefined;
  }
  if (ts.isObjectLiteralExpression(e)) return objectOf(e, env);
  // A property of an object literal the call passes (`{ max: 20 }.max`); one it does not write is undefined.
  if (ts.isPropertyAccessExpression(e) || (ts.isElementAccessExpression(e) && ts.isStringLiteral(e.argumentExpression))) {
    const x = evalKnown(e.expression, env);
    const key = ts.isPropertyAccessExpression(e) ? e.name.text : (e.argumentExpression as TS.StringLiteral).text;
    if (!x || !isPlainObject(x.v)) return undefined;
    return { v: Object.hasOwn(x.v, key) ? x.v[key] : undefined };
  }
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && ['startsWith', 'endsWith', 'includes'].includes(e.expression.name.text)) {
    const self = evalKnown(e.expression.expression, env);
    const arg = e.arguments.length === 1 ? evalKnown(e.arguments[0]!, env) : undefined;
    if (!self || !arg || typeof self.v !== 'string' || typeof arg.v !== 'string') return undefined;
    const m = e.expression.name.text as 'startsWith' | 'endsWith' | 'includes';
    return { v: self.v[m](arg.v) };
  }
  if (ts.isBinaryExpression(e)) return evalBinary(e, env);
  return undefined;
}

/** Objects made by `objectOf`: plain data, no prototype to read a property from. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === null;
}

/** `{ max: 20, name: 'x' }` when every property is a plain `key: value` whose value is known. */
function objectOf(e: TS.ObjectLiteralExpression, env: Env): Known {
  const ts = typescript();
  const out = Object.create(null) as Record<string, unknown>;
  for (const p of e.properties) {
    if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) || ts.isNumericLiteral(p.name))) return undefined;
    const v = evalKnown(p.initializer, env);
    if (!v) return undefined;
    out[p.name.text] = v.v;
  }
  return { v: out };
}

function evalBinary(e: TS.BinaryExpression, env: Env): Known {
  const ts = typescript();
  const op = e.operatorToken.kind;
  const l = evalKnown(e.left, env);
  if (op === ts.SyntaxKind.AmpersandAmpersandToken)
    return l ? (l.v ? evalKnown(e.right, env) : l) : evalKnown(e.right, env)?.v === false ? { v: false } : undefined;
  if (op === ts.SyntaxKind.BarBarToken) return l ? (l.v ? l : evalKnown(e.right, env)) : evalKnown(e.right, env)?.v === true ? { v: true } : undefined;
  if (op === ts.SyntaxKind.QuestionQuestionToken) return l ? (l.v === null || l.v === undefined ? evalKnown(e.right, env) : l) : undefined;
  if (op === ts.SyntaxKind.InstanceOfKeyword && ts.isIdentifier(unwrapped(e.left)) && ts.isIdentifier(e.right)) {
    const is = env.instanceOf?.((unwrapped(e.left) as TS.Identifier).text, e.right.text);
    return is === undefined ? undefined : { v: is };
  }
  const r = evalKnown(e.right, env);
  if (!l || !r) return undefined;
  const [a, b] = [l.v, r.v];
  switch (op) {
    case ts.SyntaxKind.EqualsEqualsEqualsToken:
      return { v: a === b };
    case ts.SyntaxKind.ExclamationEqualsEqualsToken:
      return { v: a !== b };
    case ts.SyntaxKind.EqualsEqualsToken:
      return { v: a == b };
    case ts.SyntaxKind.ExclamationEqualsToken:
      return { v: a != b };
  }
  if (typeof a !== 'number' || typeof b !== 'number') return undefined;
  if (op === ts.SyntaxKind.LessThanToken) return { v: a < b };
  if (op === ts.SyntaxKind.GreaterThanToken) return { v: a > b };
  if (op === ts.SyntaxKind.LessThanEqualsToken) return { v: a <= b };
  if (op === ts.SyntaxKind.GreaterThanEqualsToken) return { v: a >= b };
  return undefined;
}

/** The tests of the `if`s around the raise, each with the result that leads to it (`then`: true, `else`: false). */
export function enclosingTests(raise: TS.Node, fn: TS.FunctionLikeDeclaration): { test: TS.Expression; want: boolean }[] {
  const ts = typescript();
  const out: { test: TS.Expression; want: boolean }[] = [];
  for (let n: TS.Node = raise; n.parent && n !== fn; n = n.parent) {
    const p = n.parent;
    if (ts.isIfStatement(p) && (p.thenStatement === n || p.elseStatement === n)) out.push({ test: p.expression, want: p.thenStatement === n });
  }
  return out;
}

/** `this.<name>` reads in these expressions. */
function thisReads(es: TS.Node[]): Set<string> {
  const ts = typescript();
  const out = new Set<string>();
  const visit = (n: TS.Node) => {
    if (ts.isPropertyAccessExpression(n) && n.expression.kind === ts.SyntaxKind.ThisKeyword) out.add(n.name.text);
    ts.forEachChild(n, visit);
  };
  for (const e of es) visit(e);
  return out;
}

/** Whether `n` mentions `this.<name>`, hands `this` on (`f(this)`) or calls a method of `this` whose body mentions it (one level). */
function touches(n: TS.Node, name: string, methods: Map<string, TS.Node>, depth = 0): boolean {
  const ts = typescript();
  let hit = false;
  const visit = (x: TS.Node) => {
    if (hit) return;
    if (ts.isPropertyAccessExpression(x) && x.expression.kind === ts.SyntaxKind.ThisKeyword) {
      if (x.name.text === name) hit = true;
      const m = ts.isCallExpression(x.parent) && x.parent.expression === x ? methods.get(x.name.text) : undefined;
      if (m && (depth > 0 || touches(m, name, methods, depth + 1))) hit = true;
    } else if (x.kind === ts.SyntaxKind.ThisKeyword && !ts.isPropertyAccessExpression(x.parent) && !definesOther(x, name)) hit = true;
    ts.forEachChild(x, visit);
  };
  visit(n);
  return hit;
}

/** `Object.defineProperty(this, key, ...)` with a key that is not `name` written out (a symbol, another name). */
function definesOther(self: TS.Node, name: string): boolean {
  const ts = typescript();
  const call = self.parent;
  if (!ts.isCallExpression(call) || call.arguments[0] !== self || call.expression.getText() !== 'Object.defineProperty') return false;
  const key = call.arguments[1];
  return !!key && !(ts.isStringLiteralLike(key) && key.text === name) && !ts.isIdentifier(key);
}

/**
 * What an object of `fn`'s class holds in the fields `tests` read when its constructor has just
 * returned (`this.errors = []`): JavaScript source of a literal, by field. Only what the class says
 * plainly: a field initializer or a top-level assignment of the constructor (before any `return`),
 * with nothing after it in the constructor that mentions the field, hands `this` on, or calls a
 * method of `this` that mentions it; no accessor of that name. The ESLint plugin reads it for a
 * receiver the caller has just constructed (`new Document(v).toString()`).
 */
export function constructedState(fn: TS.FunctionLikeDeclaration, tests: TS.Expression[]): Record<string, string> | undefined {
  const ts = typescript();
  const cls = fn.parent;
  if (!ts.isMethodDeclaration(fn) || !(ts.isClassDeclaration(cls) || ts.isClassExpression(cls))) return undefined;
  if (ts.getModifiers(fn)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) return undefined;
  const wanted = thisReads(tests);
  if (!wanted.size) return undefined;
  const methods = new Map<string, TS.Node>();
  const out: Record<string, string> = {};
  let ctor: TS.ConstructorDeclaration | undefined;
  for (const m of cls.members) {
    const name = m.name && (ts.isIdentifier(m.name) || ts.isPrivateIdentifier(m.name)) ? m.name.text : undefined;
    if (ts.isConstructorDeclaration(m)) ctor = m;
    else if (name && (ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m))) wanted.delete(name);
    else if (name && ts.isMethodDeclaration(m)) methods.set(name, m);
    else if (name && ts.isPropertyDeclaration(m) && wanted.has(name) && m.initializer && evalKnown(m.initializer, new Map()))
      out[name] = m.initializer.getText();
  }
  // The constructor's top-level statements in order, up to one that can return early.
  const stmts = ctor?.body?.statements ?? [];
  const known = new Map(Object.entries(out).map(([name, text]) => [name, { text, at: -1 }]));
  const stop = stmts.findIndex((st) => returns(st));
  for (let i = 0; i < (stop < 0 ? stmts.length : stop); i++)
    for (const name of wanted) {
      const right = assigned(stmts[i]!, name);
      if (!right) continue;
      if (evalKnown(right, new Map())) known.set(name, { text: right.getText(), at: i });
      else known.delete(name);
    }
  for (const [name, k] of known) if (!wanted.has(name) || stmts.some((st, i) => i > k.at && touches(st, name, methods))) known.delete(name);
  return known.size ? Object.fromEntries([...known].map(([name, k]) => [name, k.text])) : undefined;
}

/** A `return` in the statement (not in a function inside it). */
function returns(st: TS.Node): boolean {
  const ts = typescript();
  return ts.isReturnStatement(st) || (!ts.isFunctionLike(st) && !!ts.forEachChild(st, (c) => returns(c) || undefined));
}

/** The value of `this.<name> = <value>;` when the statement is that assignment. */
function assigned(s: TS.Statement, name: string): TS.Expression | undefined {
  const ts = typescript();
  const e = ts.isExpressionStatement(s) ? s.expression : undefined;
  if (!e || !ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return undefined;
  const l = e.left;
  return ts.isPropertyAccessExpression(l) && l.expression.kind === ts.SyntaxKind.ThisKeyword && l.name.text === name ? e.right : undefined;
}
