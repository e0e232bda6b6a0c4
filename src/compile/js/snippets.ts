/**
 * Reads a JS/TS record's code fields (`validationCode`, `typeGuard`, `tryCatchPattern`,
 * `exampleFix`, code spans of `triggerScenarios`): the packages they import, the argument counts
 * of their calls to the raising function, and guard calls (`if (URL.canParse(input)) new URL(input)`).
 */
import type * as TS from 'typescript';
import { typescript } from '../../parse/typescript.js';
import { unNegate } from './syntax.js';
import type { JsGuard } from '../../rules/js/types.js';

export interface JsSnippetFacts {
  /** Module specifiers imported or required (`yaml`, `node:url`), relative ones left out. */
  imports: string[];
  /** Argument counts of calls to `name`. */
  arities: number[];
  guards: JsGuard[];
}

/** The part of an exampleFix before `// after` (the code that throws). */
export function jsBeforePart(fix: string): string {
  const m = /^\s*\/\/\s*after\b/im.exec(fix);
  return m ? fix.slice(0, m.index) : fix;
}

export function readJsSnippets(codes: string[], name: string): JsSnippetFacts {
  const facts: JsSnippetFacts = { imports: [], arities: [], guards: [] };
  for (const code of codes) {
    const ts = typescript();
    const sf = ts.createSourceFile('snippet.tsx', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const calls: CallOrNew[] = [];
    const conds: Cond[] = [];
    const visit = (n: TS.Node) => {
      if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
        addImport(facts, n.moduleSpecifier.text);
      if (ts.isCallExpression(n) && (n.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(n.expression) && n.expression.text === 'require'))) {
        const a = n.arguments[0];
        if (a && ts.isStringLiteral(a)) addImport(facts, a.text);
      }
      if ((ts.isCallExpression(n) || ts.isNewExpression(n)) && calleeName(n.expression) === name) calls.push(n);
      if (ts.isIfStatement(n) || ts.isConditionalExpression(n)) {
        const g = guardCall(ts.isIfStatement(n) ? n.expression : n.condition);
        if (g) conds.push({ ...g, then: ts.isIfStatement(n) ? n.thenStatement : n.whenTrue });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    for (const c of calls) {
      const n = c.arguments?.length ?? 0;
      if (!facts.arities.includes(n)) facts.arities.push(n);
    }
    addGuards(facts, conds, calls, sf);
  }
  return facts;
}

function addImport(facts: JsSnippetFacts, spec: string): void {
  if (spec.startsWith('.') || spec.startsWith('/')) return;
  const pkg = spec.startsWith('node:') ? spec : spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
  if (!facts.imports.includes(pkg)) facts.imports.push(pkg);
}

function calleeName(e: TS.Expression): string | undefined {
  const ts = typescript();
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

type CallOrNew = TS.CallExpression | TS.NewExpression;

interface Cond {
  call: TS.CallExpression;
  negated: boolean;
  then: TS.Node;
}

function guardCall(c: TS.Expression): { call: TS.CallExpression; negated: boolean } | undefined {
  const { e, negated } = unNegate(c);
  return typescript().isCallExpression(e) ? { call: e, negated } : undefined;
}

/** A condition's call is a guard when one of its arguments is written as an argument of a call to the raising function. */
function addGuards(facts: JsSnippetFacts, conds: Cond[], calls: CallOrNew[], sf: TS.SourceFile): void {
  for (const { call, negated, then } of conds) {
    // `if (g(x)) { f(x) }`: true is safe; `if (!g(x)) return; f(x)`: true is safe too; `if (bad(x)) throw ...; f(x)`: false is.
    const inside = calls.some((c) => c.pos >= then.pos && c.end <= then.end);
    const safeWhenTrue = inside ? !negated : negated;
    const callee = call.expression.getText(sf);
    call.arguments.forEach((a, gi) => {
      for (const c of calls) {
        const ci = (c.arguments ?? []).findIndex((x) => x.getText(sf) === a.getText(sf));
        if (ci >= 0 && !facts.guards.some((g) => g.callee === callee && g.guardArg === gi))
          facts.guards.push({ callee, guardArg: gi, callArg: ci, safeWhenTrue });
      }
    });
  }
}
