/**
 * A method call on an object the caller has just constructed, of the recorded class itself (not a
 * subclass, whose constructor may set the fields otherwise): `new Document(v).toString()`, or
 * `const doc = new Document(v); ...; doc.toString()` where nothing reads or hands on `doc` in
 * between and no loop around the call runs it on an object used before. The fields the class's
 * constructor sets (JsTarget.thisInit) then hold.
 */
import ts from 'typescript';
import { evalKnown, unwrapped, type Known } from '../parse/jsraise.js';
import type { JsTarget } from '../rules/js/types.js';

/** The constructed receiver's fields, when the call's receiver is fresh from `new <t.className>(...)`. */
export function freshThis(call: ts.CallExpression | ts.NewExpression, t: JsTarget, checker: ts.TypeChecker): Known {
  if (!t.thisInit || !ts.isCallExpression(call)) return undefined;
  const callee = unwrapped(call.expression);
  if (!ts.isPropertyAccessExpression(callee)) return undefined;
  const made = madeBy(unwrapped(callee.expression), call, checker);
  if (!made || !ts.isIdentifier(made.expression) || made.expression.text !== t.className) return undefined;
  // The class as written must be the recorded one (an alias of it is fine; a local class of that name is not).
  const sym = checker.getSymbolAtLocation(made.expression);
  const target = sym && sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
  if (target?.getName() !== t.className) return undefined;
  const fields = Object.create(null) as Record<string, unknown>;
  for (const [name, text] of Object.entries(t.thisInit)) {
    const v = literal(text);
    if (v) fields[name] = v.v;
  }
  return { v: fields };
}

const literals = new Map<string, Known>();

function literal(text: string): Known {
  if (!literals.has(text)) {
    const sf = ts.createSourceFile('v.ts', `(${text});`, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const st = sf.statements[0];
    literals.set(text, st && ts.isExpressionStatement(st) ? evalKnown(st.expression, new Map()) : undefined);
  }
  return literals.get(text);
}

/** The `new` expression `recv` is, or the one a `const` bound it to with no use of the name before `call`. */
function madeBy(recv: ts.Expression, call: ts.Node, checker: ts.TypeChecker): ts.NewExpression | undefined {
  if (ts.isNewExpression(recv)) return recv;
  if (!ts.isIdentifier(recv)) return undefined;
  const sym = checker.getSymbolAtLocation(recv);
  const decl = sym?.valueDeclaration;
  if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer || !(decl.parent.flags & ts.NodeFlags.Const)) return undefined;
  const init = unwrapped(decl.initializer);
  if (!ts.isNewExpression(init)) return undefined;
  const stmt = decl.parent.parent;
  const block = stmt.parent;
  if (!ts.isVariableStatement(stmt) || !(ts.isBlock(block) || ts.isSourceFile(block)) || call.pos < stmt.end) return undefined;
  // A loop around the call that the binding is not in: the call ran on the object before.
  for (let n: ts.Node | undefined = call.parent; n && n !== block; n = n.parent) if (ts.isIterationStatement(n, false)) return undefined;
  if (!within(call, block)) return undefined;
  let used = false;
  const visit = (n: ts.Node) => {
    if (used || n.pos >= call.pos) return;
    if (ts.isIdentifier(n) && n !== decl.name && n !== recv && n.text === recv.text && checker.getSymbolAtLocation(n) === sym) used = true;
    else ts.forEachChild(n, visit);
  };
  visit(block);
  return used ? undefined : init;
}

function within(n: ts.Node, outer: ts.Node): boolean {
  for (let p: ts.Node | undefined = n; p; p = p.parent) if (p === outer) return true;
  return false;
}
