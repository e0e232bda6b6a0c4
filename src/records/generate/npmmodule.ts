/**
 * What a module of an npm package binds its names to, read from its JavaScript with TypeScript's
 * parser: top-level declarations, imports and requires, ES exports and re-exports
 * (`export { a } from`, `export *`, `export default v4`), and CommonJS exports (`module.exports =
 * {...}`, `exports.a =`, `module.exports = require(...)`, tsc's `Object.defineProperty(exports,
 * 'a', { get })`, `__exportStar(require(...), exports)`). Read by ./npm.ts, which follows the bindings across modules.
 */
import type * as TS from 'typescript';
import { typescript } from '../../parse/typescript.js';

/** What a module binds a public name to. */
export type Ref =
  | { kind: 'local'; name: string }
  | { kind: 'module'; spec: string }
  | { kind: 'reexport'; spec: string; name: string }
  | { kind: 'decl'; node: TS.Node };

export interface ModuleInfo {
  sf: TS.SourceFile;
  exports: Map<string, Ref>;
  stars: string[];
  /** `module.exports = <expr>`: the module's value. */
  value?: Ref;
  /** Top-level declarations and `const x = require('...')` bindings. */
  locals: Map<string, Ref>;
}

const requireOf = (e: TS.Expression | undefined): string | undefined => {
  const ts = typescript();
  if (!e || !ts.isCallExpression(e) || !ts.isIdentifier(e.expression) || e.expression.text !== 'require') return undefined;
  const a = e.arguments[0];
  return a && ts.isStringLiteralLike(a) ? a.text : undefined;
};

/** An expression's binding: a function or class, a require, a name. */
function refOf(e: TS.Expression | undefined): Ref | undefined {
  const ts = typescript();
  if (!e) return undefined;
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  // `__importStar(require('./x'))`, `tslib_1.__importDefault(...)`: tsc's interop helpers return the module.
  const helper = ts.isCallExpression(e) && e.arguments.length === 1 ? e.expression.getText() : '';
  if (/(^|\.)__import(Star|Default)$/.test(helper)) return refOf((e as TS.CallExpression).arguments[0]);
  const spec = requireOf(e);
  if (spec) return { kind: 'module', spec };
  if (ts.isFunctionExpression(e) || ts.isArrowFunction(e) || ts.isClassExpression(e)) return { kind: 'decl', node: e };
  if (ts.isIdentifier(e)) return { kind: 'local', name: e.text };
  // `x_1.parse` where `x_1 = require('./x')` (tsc's output), `require('./x').parse`.
  if (ts.isPropertyAccessExpression(e)) {
    const inner = requireOf(e.expression);
    if (inner) return { kind: 'reexport', spec: inner, name: e.name.text };
    if (ts.isIdentifier(e.expression)) return { kind: 'local', name: `${e.expression.text}.${e.name.text}` };
  }
  return undefined;
}

export function readModule(file: string, text: string): ModuleInfo {
  const ts = typescript();
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const m: ModuleInfo = { sf, exports: new Map(), stars: [], locals: new Map() };
  const exported = (n: TS.Node) => !!(ts.canHaveModifiers(n) && ts.getModifiers(n)?.some((x) => x.kind === ts.SyntaxKind.ExportKeyword));
  const setExport = (name: string, ref: Ref | undefined) => ref && !m.exports.has(name) && m.exports.set(name, ref);
  for (const st of sf.statements) {
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) {
      m.locals.set(st.name.text, { kind: 'decl', node: st });
      // `export default function v4() {}` is the module's default export, not `v4`.
      const isDefault = ts.getModifiers(st)?.some((x) => x.kind === ts.SyntaxKind.DefaultKeyword);
      if (exported(st)) setExport(isDefault ? 'default' : st.name.text, { kind: 'decl', node: st });
    } else if (ts.isExportAssignment(st) && !st.isExportEquals) {
      // `export default v4;` (uuid's modules, re-exported as `export { default as v4 } from './v4.js'`).
      setExport('default', refOf(st.expression));
    } else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) {
          const r = refOf(d.initializer);
          if (r) m.locals.set(d.name.text, r);
          if (exported(st) && r) setExport(d.name.text, r);
        } else if (ts.isObjectBindingPattern(d.name)) {
          // `const { parse } = require('./x')`; `export const { Command } = commander` (a default import of a CommonJS module).
          const from = requireOf(d.initializer) ?? (d.initializer && ts.isIdentifier(d.initializer) ? m.locals.get(d.initializer.text) : undefined);
          const spec = typeof from === 'string' ? from : from?.kind === 'module' ? from.spec : undefined;
          if (!spec) continue;
          for (const el of d.name.elements) {
            if (!ts.isIdentifier(el.name)) continue;
            const ref: Ref = { kind: 'reexport', spec, name: el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName.text : el.name.text };
            m.locals.set(el.name.text, ref);
            if (exported(st)) setExport(el.name.text, ref);
          }
        }
      }
    } else if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const spec = st.moduleSpecifier.text;
      const c = st.importClause;
      if (c?.name) m.locals.set(c.name.text, { kind: 'module', spec });
      const nb = c?.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) m.locals.set(nb.name.text, { kind: 'module', spec });
      else if (nb) for (const el of nb.elements) m.locals.set(el.name.text, { kind: 'reexport', spec, name: (el.propertyName ?? el.name).text });
    } else if (ts.isExportDeclaration(st)) {
      const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      if (!st.exportClause) {
        if (spec) m.stars.push(spec);
      } else if (ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          const local = (el.propertyName ?? el.name).text;
          setExport(el.name.text, spec ? { kind: 'reexport', spec, name: local } : { kind: 'local', name: local });
        }
      }
    } else if (ts.isExpressionStatement(st)) readCommonJs(st.expression, m);
  }
  // Names bound to `x.y` (tsc's `x_1.parse`): resolved through `x`'s require.
  // Each map on its own: `exports.Document = Document.Document` beside `var Document = require('./doc/Document.js')`.
  const requires = new Map(m.locals);
  for (const map of [m.locals, m.exports])
    for (const [k, v] of map) {
      if (v.kind !== 'local' || !v.name.includes('.')) continue;
      const [base, prop] = v.name.split('.') as [string, string];
      const b = requires.get(base);
      if (b?.kind === 'module') map.set(k, { kind: 'reexport', spec: b.spec, name: prop });
    }
  return m;
}

/** `module.exports = ...`, `exports.a = ...`, `module.exports.a = ...`, `Object.defineProperty(exports, 'a', { get() { return x.a } })`. */
function readCommonJs(e: TS.Expression, m: ModuleInfo): void {
  const ts = typescript();
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const left = e.left.getText(m.sf);
    if (left === 'module.exports') {
      const r = ts.isObjectLiteralExpression(e.right) ? undefined : refOf(e.right);
      if (r) m.value = r;
      if (ts.isObjectLiteralExpression(e.right))
        for (const p of e.right.properties) {
          if (ts.isShorthandPropertyAssignment(p)) m.exports.set(p.name.text, { kind: 'local', name: p.name.text });
          else if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) {
            const r2 = refOf(p.initializer);
            if (r2) m.exports.set(p.name.text, r2);
          }
        }
      return;
    }
    const mm = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)$/.exec(left);
    if (mm) {
      const r = refOf(e.right);
      if (r && !(r.kind === 'local' && r.name === 'void 0')) m.exports.set(mm[1]!, r);
      // `exports.a = exports.b = void 0` chains: the inner assignment too.
      if (ts.isBinaryExpression(e.right)) readCommonJs(e.right, m);
    }
    return;
  }
  // `__exportStar(require('./schemas.cjs'), exports)` (tsc), `tslib_1.__exportStar(...)`: `export * from`.
  const star = ts.isCallExpression(e) && /(^|\.)__exportStar$/.test(e.expression.getText(m.sf)) ? requireOf(e.arguments[0]) : undefined;
  if (star) m.stars.push(star);
  if (ts.isCallExpression(e) && e.expression.getText(m.sf) === 'Object.defineProperty' && e.arguments[0]?.getText(m.sf) === 'exports') {
    const name = e.arguments[1];
    const desc = e.arguments[2];
    if (!name || !ts.isStringLiteral(name) || !desc || !ts.isObjectLiteralExpression(desc)) return;
    for (const p of desc.properties) {
      const body = ts.isPropertyAssignment(p) && (ts.isFunctionExpression(p.initializer) || ts.isArrowFunction(p.initializer)) ? p.initializer.body : undefined;
      const fnBody = ts.isMethodDeclaration(p) ? p.body : body;
      const ret = fnBody && ts.isBlock(fnBody) ? fnBody.statements.find(ts.isReturnStatement)?.expression : (fnBody as TS.Expression | undefined);
      const r = refOf(ret);
      if (r) m.exports.set(name.text, r);
    }
  }
}
