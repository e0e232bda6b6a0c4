/**
 * The record's fix patterns bound to the user's code, as ESLint suggestions (editor quick fixes):
 * a try/catch around the statement that rethrows what is not the recorded error class, and the
 * record's guard around the call (`URL.canParse(input) ? new URL(input) : undefined`). Neither is
 * applied by `--fix`: both change what the code does when the call would throw.
 */
import ts from 'typescript';
import type { JsTarget } from '../rules/js/types.js';

export interface SuggestionText {
  messageId: 'wrapTryCatch' | 'addGuard';
  data: Record<string, string>;
  /** [start, end) of the original text and its replacement. */
  range: [number, number];
  text: string;
}

const GLOBAL_ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError']);

/** The error class as the file can name it: itself when it is a global or in scope, else its nearest such base. */
function catchableClass(call: ts.Node, t: JsTarget, bases: string[], checker: ts.TypeChecker | undefined): string {
  for (const c of [t.errorClass, ...bases]) {
    if (GLOBAL_ERRORS.has(c)) return c;
    if (checker?.resolveName(c, call, ts.SymbolFlags.Value, false)) return c;
  }
  return 'Error';
}

function statementOf(call: ts.Node): ts.Statement | undefined {
  for (let n: ts.Node = call; n.parent; n = n.parent) {
    if (ts.isFunctionLike(n) || ts.isClassLike(n)) return undefined;
    if (ts.isStatement(n) && (ts.isBlock(n.parent) || ts.isSourceFile(n.parent) || ts.isCaseClause(n.parent))) return n;
  }
  return undefined;
}

function indentOf(sf: ts.SourceFile, pos: number): string {
  const line = sf.getLineAndCharacterOfPosition(pos).line;
  const start = sf.getPositionOfLineAndCharacter(line, 0);
  return /^[ \t]*/.exec(sf.text.slice(start, pos))![0];
}

export function trySuggestion(
  call: ts.CallExpression | ts.NewExpression,
  t: JsTarget,
  bases: string[],
  checker: ts.TypeChecker | undefined,
  isTs: boolean,
): SuggestionText | undefined {
  const stmt = statementOf(call);
  if (!stmt) return undefined;
  if (t.async && !hasAwait(call, stmt)) return undefined;
  const sf = call.getSourceFile();
  const ind = indentOf(sf, stmt.getStart(sf));
  const cls = catchableClass(call, t, bases, checker);
  let head = '';
  let inner = stmt.getText(sf);
  if (ts.isVariableStatement(stmt)) {
    const list = stmt.declarationList;
    const d = list.declarations[0];
    if (list.declarations.length !== 1 || !d || !ts.isIdentifier(d.name) || !d.initializer) return undefined;
    // `const x = f()` becomes `let x; try { x = f() } ...`: x stays visible after the try.
    const type = isTs && checker ? `: ${checker.typeToString(checker.getTypeAtLocation(d.name), stmt, ts.TypeFormatFlags.NoTruncation)}` : '';
    head = `let ${d.name.text}${type};\n${ind}`;
    inner = `${d.name.text} = ${d.initializer.getText(sf)};`;
  } else if (!ts.isExpressionStatement(stmt) && !ts.isReturnStatement(stmt)) return undefined;
  const errVar = 'error';
  const note = cls === t.errorClass ? '' : ` // ${t.errorClass}`;
  const text = `${head}try {\n${ind}  ${inner}\n${ind}} catch (${errVar}) {\n${ind}  if (!(${errVar} instanceof ${cls})) throw ${errVar};${note}\n${ind}  // handle the ${t.errorClass} here\n${ind}}`;
  return { messageId: 'wrapTryCatch', data: { errorClass: cls }, range: [stmt.getStart(sf), stmt.getEnd()], text };
}

function hasAwait(call: ts.Node, stop: ts.Node): boolean {
  for (let n: ts.Node = call; n && n !== stop; n = n.parent) if (ts.isAwaitExpression(n.parent)) return true;
  return false;
}

export function guardSuggestion(call: ts.CallExpression | ts.NewExpression, t: JsTarget): SuggestionText | undefined {
  const g = t.guards[0];
  const arg = g && call.arguments?.[g.callArg];
  if (!g || !arg) return undefined;
  const sf = call.getSourceFile();
  const callee = localGuard(sf, t.package, g.callee) ?? g.callee;
  const args = Array.from({ length: g.guardArg + 1 }, (_, i) => (i === g.guardArg ? arg.getText(sf) : 'undefined'));
  const test = `${g.safeWhenTrue ? '' : '!'}${callee}(${args.join(', ')})`;
  const text = `(${test} ? ${call.getText(sf)} : undefined)`;
  return { messageId: 'addGuard', data: { guard: callee }, range: [call.getStart(sf), call.getEnd()], text };
}

/**
 * The guard as this file names it, when it imports the package (`import { validate as ok }`:
 * `ok`; `import * as Y` or a default import `Y`: `Y.validate`); undefined: write it as the record
 * does (`URL.canParse`). The suggestion is type-checked either way (./verify.ts).
 */
function localGuard(sf: ts.SourceFile, pkg: string, recorded: string): string | undefined {
  const name = recorded.split('.').pop()!;
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || st.importClause?.isTypeOnly) continue;
    const spec = st.moduleSpecifier.text;
    if (spec !== pkg && !spec.startsWith(`${pkg}/`) && `node:${spec}` !== pkg) continue;
    const nb = st.importClause?.namedBindings;
    if (nb && ts.isNamedImports(nb)) {
      const el = nb.elements.find((e) => !e.isTypeOnly && (e.propertyName ?? e.name).text === name);
      if (el) return el.name.text;
    }
    if (nb && ts.isNamespaceImport(nb)) return `${nb.name.text}.${name}`;
    if (st.importClause?.name && recorded.includes('.')) return `${st.importClause.name.text}.${name}`;
  }
  return undefined;
}
