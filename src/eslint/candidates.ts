/**
 * Which rules a call may be checked against: the rules by the name a call ends in, and the names
 * a call's callee may stand for. One reader for the plugin's call listener (./plugin.ts) and for
 * `raiselint check`'s typed prefilter (`mayReport`): a file none of whose calls any rule judges as
 * reaching its throw gets no finding, so ESLint need not parse it.
 */
import ts from 'typescript';
import type { Rule } from '../rules/types.js';
import { judgeCall, setProgram } from './resolve.js';

const indexes = new WeakMap<Rule[], Map<string, Rule[]>>();
/** Rules by the name a call must end in (function, method, static; the class for constructors). */
export function byName(rules: Rule[]): Map<string, Rule[]> {
  let m = indexes.get(rules);
  if (!m) {
    indexes.set(rules, (m = new Map()));
    for (const r of rules) {
      const key = r.js!.kind === 'constructor' ? r.js!.className! : r.js!.name;
      m.set(key, [...(m.get(key) ?? []), r]);
    }
  }
  return m;
}

/** The names a plain identifier callee may stand for: itself, what it aliases (`import { URL as NodeURL }`, `{ parse: lazy }`), its signature's declaration. */
export function calleeNames(id: ts.Identifier, call: ts.CallExpression | ts.NewExpression, checker: ts.TypeChecker, program: ts.Program): string[] {
  const out = [id.text];
  const sym = checker.getSymbolAtLocation(id);
  const d = sym?.declarations?.[0];
  if (sym && sym.flags & ts.SymbolFlags.Alias) out.push(checker.getAliasedSymbol(sym).name);
  if (d && ts.isImportSpecifier(d) && d.propertyName) out.push(d.propertyName.text);
  if (d && ts.isBindingElement(d) && d.propertyName && ts.isIdentifier(d.propertyName)) out.push(d.propertyName.text);
  // Declared only by the language's own library (`new Map()`), or a function or class of the project: its signature names nothing else.
  const own = (x: ts.Declaration) => {
    const f = x.getSourceFile();
    if (program.isSourceFileDefaultLibrary(f)) return true;
    return (ts.isFunctionDeclaration(x) || ts.isClassDeclaration(x)) && !f.isDeclarationFile && !/[\\/]node_modules[\\/]/.test(f.fileName);
  };
  if (sym && !(sym.flags & ts.SymbolFlags.Alias) && sym.declarations?.length && sym.declarations.every(own)) return out;
  try {
    const decl = checker.getResolvedSignature(call)?.declaration;
    const named = decl && ts.isConstructorDeclaration(decl) ? decl.parent : decl;
    if (named && 'name' in named && named.name && ts.isIdentifier(named.name)) out.push(named.name.text);
  } catch {
    // no signature
  }
  return out;
}

/**
 * The names a call may stand for: a member call's property name (`a.get()`, `a?.get()`), a plain
 * identifier's names (calleeNames), none for other callees (`a['get']()`, `this.#get()`, `(f as F)()`).
 * Parentheses are left out, as in ESTree.
 */
export function callNames(call: ts.CallExpression | ts.NewExpression, checker: ts.TypeChecker, program: ts.Program): string[] {
  let names = namesOf.get(call);
  if (!names) namesOf.set(call, (names = readNames(call, checker, program)));
  return names;
}

/** Names by call node: the plugin's rules each look at every call of a file (one rule per record), the names are read once. */
const namesOf = new WeakMap<ts.Node, string[]>();

function readNames(call: ts.CallExpression | ts.NewExpression, checker: ts.TypeChecker, program: ts.Program): string[] {
  let callee: ts.Expression = call.expression;
  while (ts.isParenthesizedExpression(callee)) callee = callee.expression;
  if (ts.isPropertyAccessExpression(callee)) return ts.isIdentifier(callee.name) ? [callee.name.text] : [];
  return ts.isIdentifier(callee) ? calleeNames(callee, call, checker, program) : [];
}

/** The rules a call is a candidate for (by its names), each once. */
export function candidates(call: ts.CallExpression | ts.NewExpression, rules: Rule[], checker: ts.TypeChecker, program: ts.Program): Set<Rule> {
  const index = byName(rules);
  return new Set(callNames(call, checker, program).flatMap((n) => index.get(n) ?? []));
}

/**
 * Whether some call of the file reaches a rule's throw as the rule judges it (before handlers,
 * guards and suppressions, which only take findings away): when none does, linting the file
 * reports nothing. A file with syntax errors is always linted (its errors are reported).
 */
export function mayReport(sf: ts.SourceFile, rules: Rule[], program: ts.Program): boolean {
  if (program.getSyntacticDiagnostics(sf).length) return true;
  const checker = program.getTypeChecker();
  setProgram(checker, program);
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    // A call named by no rule has no candidate (a member call's name is read without the checker).
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      for (const rule of candidates(n, rules, checker, program))
        if (judgeCall(n, rule.js!, checker)) {
          found = true;
          return;
        }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}
