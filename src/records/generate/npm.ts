/**
 * `raiselint records generate <npm package folder>`: records (upstream format, schemaVersion 2) for
 * the `throw new X(...)` sites of an installed npm package's public API, read from its shipped
 * JavaScript with TypeScript's parser (no type check).
 *
 * - The public API is what the package's entry points export (`exports` conditions `node`,
 *   `import`, `require`, `default`; else `main`; subpaths too), followed through ES re-exports
 *   (`export { a } from`, `export *`), CommonJS (`module.exports = {...}`, `exports.a =`,
 *   `module.exports = require(...)`) and tsc's `Object.defineProperty(exports, 'a', { get })`.
 * - A site is a throw in the body of an exported function, or of a constructor, method or static
 *   method of an exported class (not in a nested function, not inside a `try`). A throw in an
 *   internal helper is not a record: a rule aims at the public call.
 * - The record's window (37 lines) starts at the raising function's first line when that is at
 *   most 30 lines above the throw, so the compiler reads the function from the window; the code
 *   fields show the public call as a user writes it (`import { parse } from 'semver'`).
 * Deterministic: the same package gives the same bytes.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type * as TS from 'typescript';
import { typescript } from '../../parse/typescript.js';

// `require` before `import`: a dual package's ES entry is often a wrapper of its CommonJS build (commander's esm.mjs).
const CONDITIONS = ['node', 'require', 'import', 'default'];
const JS_FILE = /\.(?:[cm]?js)$/;

export interface NpmPackage {
  dir: string;
  name: string;
  version: string;
}

/** The folder is an npm package (a package.json with a name): read as JavaScript. */
export function npmPackageAt(dir: string): NpmPackage | undefined {
  const p = join(dir, 'package.json');
  if (!existsSync(p) || existsSync(join(dir, '__init__.py'))) return undefined;
  try {
    const pkg = JSON.parse(readFileSync(p, 'utf8')) as { name?: unknown; version?: unknown };
    if (typeof pkg.name !== 'string') return undefined;
    return { dir: resolve(dir), name: pkg.name, version: typeof pkg.version === 'string' ? pkg.version : '0' };
  } catch {
    return undefined;
  }
}

/** The JS file a condition tree points at (first matching condition, depth first). */
function pick(target: unknown): string | undefined {
  if (typeof target === 'string') return JS_FILE.test(target) ? target : undefined;
  if (Array.isArray(target)) return target.map(pick).find(Boolean);
  if (target && typeof target === 'object') {
    const o = target as Record<string, unknown>;
    for (const c of CONDITIONS) if (c in o) return pick(o[c]) ?? undefined;
  }
  return undefined;
}

/** Entry points: import specifier → file (absolute). */
export function entryPoints(pkg: NpmPackage): Map<string, string> {
  const json = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as { exports?: unknown; main?: unknown };
  const out = new Map<string, string>();
  const add = (spec: string, rel: string | undefined) => {
    if (!rel) return;
    const f = resolveFile(join(pkg.dir, rel));
    if (f) out.set(spec, f);
  };
  const ex = json.exports;
  if (typeof ex === 'string' || Array.isArray(ex)) add(pkg.name, pick(ex));
  else if (ex && typeof ex === 'object') {
    const keys = Object.keys(ex);
    if (keys.some((k) => k.startsWith('.'))) {
      for (const k of keys.sort()) {
        if (k.includes('*') || k === './package.json' || !k.startsWith('.')) continue;
        add(k === '.' ? pkg.name : `${pkg.name}/${k.slice(2)}`, pick((ex as Record<string, unknown>)[k]));
      }
    } else add(pkg.name, pick(ex));
  } else add(pkg.name, typeof json.main === 'string' ? json.main : 'index.js');
  return out;
}

function resolveFile(p: string): string | undefined {
  for (const c of [p, `${p}.js`, `${p}.cjs`, `${p}.mjs`, join(p, 'index.js')]) {
    try {
      if (statSync(c).isFile()) return c;
    } catch {
      // next
    }
  }
  return undefined;
}

/** What a module binds a public name to. */
type Ref =
  | { kind: 'local'; name: string }
  | { kind: 'module'; spec: string }
  | { kind: 'reexport'; spec: string; name: string }
  | { kind: 'decl'; node: TS.Node };

interface ModuleInfo {
  sf: TS.SourceFile;
  exports: Map<string, Ref>;
  stars: string[];
  /** `module.exports = <expr>`: the module's value. */
  value?: Ref;
  /** Top-level declarations and `const x = require('...')` bindings. */
  locals: Map<string, Ref>;
}

export type Decl = { file: string; sf: TS.SourceFile; node: TS.FunctionLikeDeclaration | TS.ClassLikeDeclaration; name: string };

export class NpmModules {
  private readonly infos = new Map<string, ModuleInfo | null>();

  info(file: string): ModuleInfo | undefined {
    let i = this.infos.get(file);
    if (i === undefined) {
      let text: string | undefined;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        text = undefined;
      }
      i = text === undefined ? null : readModule(file, text);
      this.infos.set(file, i);
    }
    return i ?? undefined;
  }

  /** The declaration a module's export `name` ends at (`default` for the module's value). */
  resolveExport(file: string, name: string, depth = 0): Decl | undefined {
    const m = this.info(file);
    if (!m || depth > 12) return undefined;
    const ref = name === 'default' && m.value ? m.value : m.exports.get(name);
    if (ref) return this.resolveRef(file, m, ref, depth);
    if (m.value) {
      // `module.exports = { parse, ... }` read as exports already; `module.exports = require('./x')` forwards.
      if (m.value.kind === 'module') return this.resolveExport(this.target(file, m.value.spec) ?? '', name, depth + 1);
    }
    for (const s of m.stars) {
      const t = this.target(file, s);
      const d = t && this.resolveExport(t, name, depth + 1);
      if (d) return d;
    }
    return undefined;
  }

  /** Every name a module exports (stars followed). */
  exportNames(file: string, depth = 0): string[] {
    const m = this.info(file);
    if (!m || depth > 12) return [];
    const out = new Set(m.exports.keys());
    if (m.value?.kind === 'module') for (const n of this.exportNames(this.target(file, m.value.spec) ?? '', depth + 1)) out.add(n);
    for (const s of m.stars) for (const n of this.exportNames(this.target(file, s) ?? '', depth + 1)) if (n !== 'default') out.add(n);
    return [...out].sort();
  }

  private resolveRef(file: string, m: ModuleInfo, ref: Ref, depth: number): Decl | undefined {
    if (ref.kind === 'decl') return declOf(file, m.sf, ref.node);
    if (ref.kind === 'local') {
      const l = m.locals.get(ref.name);
      return l && l.kind !== 'local' ? this.resolveRef(file, m, l, depth + 1) : undefined;
    }
    const t = this.target(file, ref.spec);
    if (!t) return undefined;
    return this.resolveExport(t, ref.kind === 'module' ? 'default' : ref.name, depth + 1);
  }

  private target(from: string, spec: string): string | undefined {
    return spec.startsWith('.') ? resolveFile(resolve(dirname(from), spec)) : undefined;
  }
}

function declOf(file: string, sf: TS.SourceFile, node: TS.Node): Decl | undefined {
  const ts = typescript();
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isClassExpression(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node)
  ) {
    const name = node.name?.text ?? (ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : undefined);
    return name ? { file, sf, node, name } : undefined;
  }
  return undefined;
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

function readModule(file: string, text: string): ModuleInfo {
  const ts = typescript();
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const m: ModuleInfo = { sf, exports: new Map(), stars: [], locals: new Map() };
  const exported = (n: TS.Node) => !!(ts.canHaveModifiers(n) && ts.getModifiers(n)?.some((x) => x.kind === ts.SyntaxKind.ExportKeyword));
  const setExport = (name: string, ref: Ref | undefined) => ref && !m.exports.has(name) && m.exports.set(name, ref);
  for (const st of sf.statements) {
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) {
      m.locals.set(st.name.text, { kind: 'decl', node: st });
      if (exported(st)) setExport(st.name.text, { kind: 'decl', node: st });
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
  for (const [k, v] of [...m.locals, ...m.exports]) {
    if (v.kind !== 'local' || !v.name.includes('.')) continue;
    const [base, prop] = v.name.split('.') as [string, string];
    const b = m.locals.get(base);
    if (b?.kind === 'module') (m.locals.has(k) ? m.locals : m.exports).set(k, { kind: 'reexport', spec: b.spec, name: prop });
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

/** The file's throw sites in `fn`'s own body (not nested functions, not inside a `try`). */
export function throwsIn(fn: TS.FunctionLikeDeclaration): TS.ThrowStatement[] {
  const ts = typescript();
  const out: TS.ThrowStatement[] = [];
  const visit = (n: TS.Node) => {
    if (n !== fn && (ts.isFunctionLike(n) || ts.isClassLike(n))) return;
    if (ts.isTryStatement(n)) return;
    if (ts.isThrowStatement(n) && n.expression && ts.isNewExpression(n.expression) && ts.isIdentifier(n.expression.expression)) out.push(n);
    ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return out;
}

/**
 * A function whose whole body throws what its arguments say (`static x(message, ctx) { throw new
 * TomlError(message, ...) }`): a helper that raises on purpose, called by the package where it has
 * decided to fail. Not a record (a stub that throws a constant message, "not implemented", is one).
 */
function isThrowHelper(fn: TS.FunctionLikeDeclaration): boolean {
  const ts = typescript();
  const body = fn.body;
  if (!body || !ts.isBlock(body) || body.statements.length !== 1 || !ts.isThrowStatement(body.statements[0]!)) return false;
  const params = new Set(fn.parameters.flatMap((p) => (ts.isIdentifier(p.name) ? [p.name.text] : [])));
  let uses = false;
  const visit = (n: TS.Node) => {
    if (ts.isIdentifier(n) && params.has(n.text)) uses = true;
    else ts.forEachChild(n, visit);
  };
  visit(body.statements[0]!);
  return uses;
}

export interface NpmSite {
  file: string;
  sf: TS.SourceFile;
  fn: TS.FunctionLikeDeclaration;
  throwNode: TS.ThrowStatement;
  kind: 'function' | 'method' | 'static' | 'constructor';
  /** The import specifier and the exported name the call goes through. */
  spec: string;
  exportName: string;
  className?: string;
  method?: string;
}

/** Every throw site of the package's public API, in entry, export and source order. */
export function npmSites(pkg: NpmPackage, mods = new NpmModules()): NpmSite[] {
  const ts = typescript();
  const out: NpmSite[] = [];
  const seen = new Set<TS.Node>();
  for (const [spec, entry] of entryPoints(pkg)) {
    // `module.exports = picomatch`: the package's value is the call (`import picomatch from 'picomatch'`).
    const value = mods.resolveExport(entry, 'default');
    for (const name of [...(value ? ['default'] : []), ...mods.exportNames(entry)]) {
      if (name.startsWith('_')) continue;
      const d = name === 'default' ? value : mods.resolveExport(entry, name);
      if (!d || seen.has(d.node)) continue;
      seen.add(d.node);
      const push = (fn: TS.FunctionLikeDeclaration, kind: NpmSite['kind'], method?: string) => {
        if (isThrowHelper(fn)) return;
        for (const t of throwsIn(fn))
          out.push({ file: d.file, sf: d.sf, fn, throwNode: t, kind, spec, exportName: name, className: kind === 'function' ? undefined : d.name, method });
      };
      if (ts.isClassLike(d.node)) {
        for (const mem of d.node.members) {
          const isPrivate = ts.getCombinedModifierFlags(mem as TS.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected);
          if (ts.isConstructorDeclaration(mem)) push(mem, 'constructor');
          else if (ts.isMethodDeclaration(mem) && ts.isIdentifier(mem.name) && !mem.name.text.startsWith('_') && !isPrivate) {
            const isStatic = !!ts.getModifiers(mem)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword);
            push(mem, isStatic ? 'static' : 'method', mem.name.text);
          }
        }
      } else push(d.node, 'function');
    }
  }
  return out;
}
