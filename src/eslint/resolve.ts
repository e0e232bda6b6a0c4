/**
 * Does this call reach the recorded throw? Judged with the TypeScript checker: the resolved
 * signature (only throwing overloads count), the declaring package (`node_modules/<pkg>/`,
 * `@types/<pkg>`, `declare module 'pkg'`, Node's `@types/node/<module>.d.ts`), inheritance without
 * override (the property's declaration is the recorded class's), unions and interfaces a throwing
 * class implements (possible), `typeof Base` values (possible); a workspace package at its real path by
 * its package.json (./owner.ts). Untyped code falls back to the
 * imports: the callee's alias chain is walked one hop at a time to an import of the package.
 */
import ts from 'typescript';
import { evalKnown, leftOut, switchRulesOut, unwrapped, type Known } from '../parse/jsraise.js';
import type { JsTarget } from '../rules/js/types.js';
import { freshThis } from './fresh.js';
import { ownerPackage } from './owner.js';

export interface Judgement {
  /** The receiver or callee is exactly the recorded one (or a subclass that inherits it). */
  exact: boolean;
  /** Why it is only possible, for the message. */
  why?: string;
}

function mangle(pkg: string): string {
  return pkg.startsWith('@') ? pkg.slice(1).replace('/', '__') : pkg;
}

/** The node is declared by the package (or, for `node:x`, Node's core module x). */
export function inPackage(node: ts.Node, pkg: string): boolean {
  const file = node.getSourceFile().fileName.replace(/\\/g, '/');
  const core = pkg.startsWith('node:') ? pkg.slice(5) : undefined;
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    if (ts.isModuleDeclaration(n) && ts.isStringLiteral(n.name)) return core ? n.name.text === core || n.name.text === pkg : n.name.text === pkg;
  }
  if (core) return file.includes('/node_modules/@types/node/') && (file.endsWith(`/${core}.d.ts`) || file.includes(`/@types/node/${core}/`));
  if (file.includes(`/node_modules/${pkg}/`) || file.includes(`/node_modules/@types/${mangle(pkg)}/`)) return true;
  // A workspace or linked package, read at its real path: its shipped declarations or JavaScript, by its package.json.
  return !file.includes('/node_modules/') && /\.(d\.[cm]?ts|[cm]?js)$/.test(file) && ownerPackage(file) === pkg;
}

function className(decl: ts.Node): string | undefined {
  const p = decl.parent;
  if (p && (ts.isClassDeclaration(p) || ts.isClassExpression(p) || ts.isInterfaceDeclaration(p)) && p.name) return p.name.text;
  return undefined;
}

function isStatic(decl: ts.Node): boolean {
  return ts.canHaveModifiers(decl) && !!ts.getModifiers(decl)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
}

/**
 * Which overloads throw: every one, except a callback overload (`cb`, `callback`, `done`, a
 * `...Callback` type: Node-style APIs pass errors to the callback) that none of the record's own
 * example calls use (their argument counts do not fit it).
 */
export function throwingOverload(decl: ts.SignatureDeclaration | undefined, t: JsTarget, checker: ts.TypeChecker): boolean {
  if (!decl || !t.arities.length) return true;
  const sym = decl.name ? checker.getSymbolAtLocation(decl.name) : undefined;
  const sigs = (sym?.declarations ?? []).filter((d) => ts.isFunctionLike(d));
  if (sigs.length <= 1) return true;
  const params = decl.parameters;
  const callback = params.some(
    (p) => (ts.isIdentifier(p.name) && /^(cb|callback|done|next)$/i.test(p.name.text)) || (!!p.type && /Callback\b/.test(p.type.getText())),
  );
  if (!callback) return true;
  const min = params.filter((p) => !p.questionToken && !p.initializer && !p.dotDotDotToken).length;
  const max = params.some((p) => p.dotDotDotToken) ? Infinity : params.length;
  return t.arities.some((a) => a >= min && a <= max);
}

function resolvedDecl(call: ts.CallExpression | ts.NewExpression, checker: ts.TypeChecker): ts.SignatureDeclaration | undefined {
  try {
    return checker.getResolvedSignature(call)?.declaration as ts.SignatureDeclaration | undefined;
  } catch {
    return undefined;
  }
}

const parsedTests = new Map<string, ts.Expression | undefined>();

/** A test of the throw's window, parsed once. */
function testOf(expr: string): ts.Expression | undefined {
  if (!parsedTests.has(expr)) {
    const sf = ts.createSourceFile('test.ts', `(${expr});`, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const st = sf.statements[0];
    parsedTests.set(expr, sf.statements.length === 1 && st && ts.isExpressionStatement(st) ? st.expression : undefined);
  }
  return parsedTests.get(expr);
}

/**
 * What the call's literal arguments, and the ones it leaves out (`undefined`), make of the tests
 * around the throw: `out` when one goes the other way (`inc('patch')`: `release.startsWith('pre')`
 * is false), `holds` when each goes the way to the throw, else undefined.
 */
export function testsVerdict(t: JsTarget, call: ts.CallExpression | ts.NewExpression, checker: ts.TypeChecker): 'out' | 'holds' | undefined {
  const { tests } = t;
  const params = t.params ?? [];
  const args = call.arguments ?? ts.factory.createNodeArray();
  if (!tests) return undefined;
  // `range instanceof Range` where the call passes a value typed as the package's Range (or a subclass): true; a primitive: false.
  const instanceOf = (name: string, cls: string): boolean | undefined => {
    const i = params.indexOf(name);
    const arg = i >= 0 && placed(args, i) ? args[i] : undefined;
    if (!arg) return undefined;
    // The value's own type, not what a cast says (`doc as never`).
    const type = checker.getTypeAtLocation(unwrapped(arg));
    if (type.isUnion() || type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
    if (type.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.Null | ts.TypeFlags.Undefined)) return false;
    const decl = (b: ts.Type) => b.getSymbol()?.declarations?.[0];
    return baseChain(type, checker).some((b) => b.getSymbol()?.name === cls && !!decl(b) && inPackage(decl(b)!, t.package)) ? true : undefined;
  };
  const env = Object.assign(new Map<string, Known>(), { instanceOf });
  const self = freshThis(call, t, checker);
  if (self) env.set('this', self);
  for (let i = 0; i < params.length; i++) {
    if (!placed(args, i)) break;
    const name = params[i];
    if (!name) continue;
    const known = i < args.length ? evalKnown(args[i]!, new Map()) : { v: undefined };
    if (known) env.set(name, known);
  }
  // `read({ prompt: 'OK?', default: 'yes' })` for `function read({ default: def, prompt } = {})`: def is 'yes'.
  for (const [name, [i, key, emptyDefault]] of Object.entries(t.fields ?? {})) {
    if (!placed(args, i)) continue;
    const given = i < args.length ? evalKnown(args[i]!, new Map()) : { v: undefined };
    if (!given) continue;
    const obj = given.v === undefined && emptyDefault ? Object.create(null) : given.v;
    if (typeof obj === 'object' && obj !== null && Object.getPrototypeOf(obj) === null)
      env.set(name, { v: Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined });
  }
  const results = tests.map(({ expr, want }) => {
    const e = testOf(expr);
    const r = e && evalKnown(e, env);
    return r ? !!r.v === want : undefined;
  });
  return results.includes(false) ? 'out' : results.every((r) => r === true) ? 'holds' : undefined;
}

/** Whether argument `i` is where it is written: no spread at or before it (a spread may give anything). */
function placed(args: readonly ts.Expression[], i: number): boolean {
  return !args.slice(0, i + 1).some(ts.isSpreadElement);
}

export function judgeCall(call: ts.CallExpression | ts.NewExpression, t: JsTarget, checker: ts.TypeChecker): Judgement | undefined {
  // The throw needs an argument the call leaves out (`v4()` and `if (buf) { ... throw }`); a spread may give it.
  const args = call.arguments ?? ts.factory.createNodeArray();
  if (t.needs?.some((i) => placed(args, i) && leftOut(args[i]))) return undefined;
  // `v.inc('patch')` where the throw is the `default:` of `switch (release)`.
  if (t.switchOn && placed(args, t.switchOn.arg) && switchRulesOut(t.switchOn, args[t.switchOn.arg])) return undefined;
  if (testsVerdict(t, call, checker) === 'out') return undefined;
  if (t.kind === 'constructor') return ts.isNewExpression(call) ? judgeNew(call, t, checker) : undefined;
  if (!ts.isCallExpression(call)) return undefined;
  if (t.kind === 'function') return judgeFunction(call, t, checker);
  const callee = skipParens(call.expression);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== t.name) return undefined;
  return t.kind === 'static' ? judgeStatic(call, callee, t, checker) : judgeMethod(call, callee, t, checker);
}

function skipParens(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return e;
}

function judgeFunction(call: ts.CallExpression, t: JsTarget, checker: ts.TypeChecker): Judgement | undefined {
  const d = resolvedDecl(call, checker);
  if (d && d.name && ts.isIdentifier(d.name) && d.name.text === t.name && !className(d) && inPackage(d, t.package))
    return throwingOverload(d, t, checker) ? { exact: true } : undefined;
  if (d && !d.getSourceFile().isDeclarationFile && d.name) return undefined;
  // Untyped: the callee's alias chain to an import of the package.
  return importedFrom(skipParens(call.expression), t, checker, [t.name]) ? { exact: true } : undefined;
}

/**
 * For untyped code: the callee's path inside the package it is imported from (`['parse']` for
 * `import { parse as p } from 'yaml'; p()` or `import * as Y from 'yaml'; Y.parse()`, `['ESLint',
 * 'fromOptionsModule']` for `const { ESLint } = require('eslint'); ESLint.fromOptionsModule()`),
 * following aliases one hop at a time (named, default, namespace, `import x = require`, `require()`,
 * destructuring, dynamic `import()`); undefined when it is not imported from the package.
 */
function importPath(callee: ts.Expression, pkg: string, checker: ts.TypeChecker): string[] | undefined {
  const members: string[] = [];
  let base = callee;
  while (ts.isPropertyAccessExpression(base)) {
    members.unshift(base.name.text);
    base = skipParens(base.expression);
  }
  if (!ts.isIdentifier(base)) return undefined;
  let sym = checker.getSymbolAtLocation(base);
  for (let hop = 0; sym && hop < 8; hop++) {
    const d = sym.declarations?.[0];
    if (!d) return undefined;
    const spec = moduleOf(d);
    if (spec !== undefined) {
      if (!samePackage(spec, pkg)) return undefined;
      const named = ts.isImportSpecifier(d)
        ? (d.propertyName ?? d.name).text
        : ts.isBindingElement(d)
          ? ((d.propertyName as ts.Identifier | undefined) ?? (d.name as ts.Identifier)).text
          : undefined;
      return named ? [named, ...members] : members;
    }
    if (!(sym.flags & ts.SymbolFlags.Alias)) return undefined;
    sym = checker.getImmediateAliasedSymbol(sym);
  }
  return undefined;
}

function importedFrom(callee: ts.Expression, t: JsTarget, checker: ts.TypeChecker, want: string[]): boolean {
  const path = importPath(callee, t.package, checker);
  return !!path && path.join('.') === want.join('.');
}

function samePackage(spec: string, pkg: string): boolean {
  return spec === pkg || spec.startsWith(`${pkg}/`) || (pkg.startsWith('node:') && spec === pkg.slice(5));
}

/** The module an import-like declaration reads from. */
function moduleOf(d: ts.Declaration): string | undefined {
  let n: ts.Node | undefined = d;
  while (
    n &&
    (ts.isImportSpecifier(n) ||
      ts.isNamedImports(n) ||
      ts.isNamespaceImport(n) ||
      ts.isImportClause(n) ||
      ts.isBindingElement(n) ||
      ts.isObjectBindingPattern(n))
  )
    n = n.parent;
  if (n && ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) return n.moduleSpecifier.text;
  if (n && ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference) && ts.isStringLiteral(n.moduleReference.expression))
    return n.moduleReference.expression.text;
  if (n && ts.isVariableDeclaration(n) && n.initializer) {
    let init: ts.Expression = n.initializer;
    while (ts.isAwaitExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
    if (
      ts.isCallExpression(init) &&
      (init.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(init.expression) && init.expression.text === 'require'))
    ) {
      const a = init.arguments[0];
      if (a && ts.isStringLiteral(a)) return a.text;
    }
  }
  return undefined;
}

function judgeMethod(call: ts.CallExpression, callee: ts.PropertyAccessExpression, t: JsTarget, checker: ts.TypeChecker): Judgement | undefined {
  const d = resolvedDecl(call, checker);
  if (d && className(d) === t.className && inPackage(d, t.package) && !throwingOverload(d, t, checker)) return undefined;
  const type = checker.getTypeAtLocation(callee.expression);
  const parts = type.isUnion() ? type.types : [type];
  let raises = 0;
  let maybe = 0;
  for (const part of parts) {
    const prop = checker.getPropertyOfType(checker.getApparentType(part), t.name);
    const decls = prop?.declarations ?? [];
    if (decls.some((x) => !isStatic(x) && className(x) === t.className && x.parent && ts.isClassLike(x.parent) && inPackage(x, t.package))) raises++;
    else if (
      decls.length &&
      decls.every((x) => x.parent && (ts.isInterfaceDeclaration(x.parent) || ts.isTypeLiteralNode(x.parent))) &&
      implementedBy(part, t, checker)
    )
      maybe++;
  }
  if (!raises && !maybe) return undefined;
  if (raises === parts.length) return { exact: true };
  const shown = t.className!;
  return {
    exact: false,
    why: type.isUnion() ? `when the receiver is a ${shown}` : `when the receiver is a ${shown} (it implements ${checker.typeToString(type)})`,
  };
}

/** The recorded class's instance type is assignable to `type` (it implements the interface). */
function implementedBy(type: ts.Type, t: JsTarget, checker: ts.TypeChecker): boolean {
  const cls = recordedClass(type, t, checker);
  return !!cls && checker.isTypeAssignableTo(checker.getDeclaredTypeOfSymbol(cls), type);
}

const classCache = new WeakMap<ts.TypeChecker, Map<string, ts.Symbol | null>>();

/** The recorded class's symbol, found among the program's declarations of the package. */
function recordedClass(near: ts.Type, t: JsTarget, checker: ts.TypeChecker): ts.Symbol | undefined {
  let cache = classCache.get(checker);
  if (!cache) classCache.set(checker, (cache = new Map()));
  const key = `${t.package}\0${t.className}`;
  if (cache.has(key)) return cache.get(key) ?? undefined;
  let found: ts.Symbol | undefined;
  const files = programs.get(checker)?.getSourceFiles() ?? near.symbol?.declarations?.map((d) => d.getSourceFile()) ?? [];
  const visit = (n: ts.Node) => {
    if (found) return;
    if (ts.isClassDeclaration(n) && n.name && n.name.text === t.className && inPackage(n, t.package)) found = checker.getSymbolAtLocation(n.name);
    else if (ts.isSourceFile(n) || ts.isModuleDeclaration(n) || ts.isModuleBlock(n)) ts.forEachChild(n, visit);
  };
  for (const f of files) if (f.isDeclarationFile || inPackage(f, t.package)) visit(f);
  cache.set(key, found ?? null);
  return found;
}

const programs = new WeakMap<ts.TypeChecker, ts.Program>();
/** The program a checker belongs to (to find the recorded class among its declarations). */
export function setProgram(checker: ts.TypeChecker, program: ts.Program): void {
  programs.set(checker, program);
}

function judgeStatic(call: ts.CallExpression, callee: ts.PropertyAccessExpression, t: JsTarget, checker: ts.TypeChecker): Judgement | undefined {
  const prop = checker.getSymbolAtLocation(callee.name);
  const decls = prop?.declarations ?? [];
  if (!decls.some((x) => isStatic(x) && className(x) === t.className && inPackage(x, t.package))) {
    return !decls.length && importedFrom(callee, t, checker, [t.className!, t.name]) ? { exact: true } : undefined;
  }
  if (!throwingOverload(resolvedDecl(call, checker), t, checker)) return undefined;
  // `C.m()` on the class itself (or a subclass) is exact; a value typed `typeof C` may hold a subclass that overrides it.
  let sym =
    ts.isIdentifier(skipParens(callee.expression)) || ts.isPropertyAccessExpression(skipParens(callee.expression))
      ? checker.getSymbolAtLocation(skipParens(callee.expression))
      : undefined;
  if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
  const isClass = !!sym?.declarations?.some((x) => ts.isClassLike(x));
  return isClass
    ? { exact: true }
    : { exact: false, why: `when ${callee.expression.getText()} is ${t.className} itself or a subclass that does not override ${t.name}` };
}

/**
 * Node's web-compatible globals (`URL`, `TextDecoder`, ...) are typed by TypeScript's DOM library in
 * projects that load it: `declare var URL: { new(...): URL }` there is Node's class at run time.
 */
function webGlobal(d: ts.SignatureDeclaration, t: JsTarget): boolean {
  const v = d.parent?.parent;
  return (
    t.package.startsWith('node:') &&
    !!v &&
    ts.isTypeLiteralNode(d.parent) &&
    ts.isVariableDeclaration(v) &&
    ts.isIdentifier(v.name) &&
    v.name.text === t.className &&
    /\/typescript\/lib\/lib\.[\w.]+\.d\.ts$/.test(d.getSourceFile().fileName.replace(/\\/g, '/'))
  );
}

function judgeNew(call: ts.NewExpression, t: JsTarget, checker: ts.TypeChecker): Judgement | undefined {
  const d = resolvedDecl(call, checker);
  if (d && ((className(d) === t.className && inPackage(d, t.package)) || webGlobal(d, t))) return throwingOverload(d, t, checker) ? { exact: true } : undefined;
  // A subclass's constructor calls the recorded one through super(): it throws too when the record
  // always throws (a data-dependent throw depends on the arguments the subclass passes).
  if (d && !t.always) return undefined;
  const type = checker.getTypeAtLocation(call);
  for (const base of baseChain(type, checker)) {
    const decl = base.symbol?.declarations?.find((x) => ts.isClassLike(x));
    if (decl && base.symbol.name === t.className && inPackage(decl, t.package)) return { exact: true };
  }
  return !d && importedFrom(skipParens(call.expression), t, checker, [t.className!]) ? { exact: true } : undefined;
}

/** The type and its base classes, nearest first. */
export function baseChain(type: ts.Type, checker: ts.TypeChecker): ts.Type[] {
  const out: ts.Type[] = [];
  let cur: ts.Type | undefined = type;
  for (let i = 0; cur && i < 20; i++) {
    out.push(cur);
    const bases: ts.Type[] = cur.isClassOrInterface()
      ? checker.getBaseTypes(cur)
      : cur.symbol
        ? checker.getBaseTypes(checker.getDeclaredTypeOfSymbol(cur.symbol) as ts.InterfaceType)
        : [];
    cur = bases[0];
  }
  return out;
}
