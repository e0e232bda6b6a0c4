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
 *   method of an exported class (not in a nested function, not inside a `try`), or in a function of
 *   the package that such a body calls directly by name (`v4` runs `_v4`). A rule aims at the
 *   public call, never at the internal helper: the record's code fields call the public one.
 * - The record's window (37 lines) starts at the raising function's first line when that is at
 *   most 30 lines above the throw, so the compiler reads the function from the window; the code
 *   fields show the public call as a user writes it (`import { parse } from 'semver'`).
 * Deterministic: the same package gives the same bytes.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type * as TS from 'typescript';
import { typescript } from '../../parse/typescript.js';
import { readModule, type ModuleInfo, type Ref } from './npmmodule.js';
import { leftOut, switchClause, switchRulesOut, truthyTests } from '../../parse/jsraise.js';

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

/** `this.parse(comp)`. */
function isThisCall(c: TS.CallExpression): boolean {
  const ts = typescript();
  return ts.isPropertyAccessExpression(c.expression) && c.expression.expression.kind === ts.SyntaxKind.ThisKeyword && ts.isIdentifier(c.expression.name);
}

/**
 * The method of a constructor's own class that `this.name(...)` calls (an instance method of the
 * class itself, not an inherited one): `new Comparator(comp)` runs `this.parse(comp)`. Only from a
 * constructor, whose object is new: what other methods run on `this` depends on the object's state.
 */
function ownMethod(fn: TS.FunctionLikeDeclaration, file: string, sf: TS.SourceFile, c: TS.CallExpression): Decl | undefined {
  const ts = typescript();
  const cls = fn.parent;
  if (!ts.isConstructorDeclaration(fn) || !cls || !ts.isClassLike(cls) || !cls.name) return undefined;
  const name = ((c.expression as TS.PropertyAccessExpression).name as TS.Identifier).text;
  const isStatic = (m: TS.ClassElement) => !!ts.getModifiers(m as TS.MethodDeclaration)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword);
  const m = cls.members.find(
    (x): x is TS.MethodDeclaration => ts.isMethodDeclaration(x) && !isStatic(x) && !!x.body && ts.isIdentifier(x.name) && x.name.text === name,
  );
  return m ? { file, sf, node: m, name: `${cls.name.text}.${name}` } : undefined;
}

/** A function of the package that a public one calls by name, and those calls. */
type Helper = Decl & { node: TS.FunctionLikeDeclaration; calls: TS.CallExpression[] };

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

  /**
   * The package's functions `fn` calls directly by name (`_v4(options, buf, offset)`, an imported
   * `v35(...)`), not from a nested function nor inside a `try`: the public call reaches their throws.
   */
  helpersOf(file: string, fn: TS.FunctionLikeDeclaration): Helper[] {
    const ts = typescript();
    const m = this.info(file);
    if (!m || !fn.body) return [];
    const params = new Set(fn.parameters.flatMap((p) => (ts.isIdentifier(p.name) ? [p.name.text] : [])));
    const out: Helper[] = [];
    const visit = (n: TS.Node) => {
      if (n !== fn && (ts.isFunctionLike(n) || ts.isClassLike(n) || ts.isTryStatement(n))) return;
      if (ts.isCallExpression(n) && (ts.isIdentifier(n.expression) ? !params.has(n.expression.text) : isThisCall(n))) {
        const d = ts.isIdentifier(n.expression) ? this.resolveLocal(file, m, n.expression.text) : ownMethod(fn, file, m.sf, n);
        const known = d && out.find((o) => o.node === d.node);
        if (known) known.calls.push(n);
        else if (d && d.node !== fn && !ts.isClassLike(d.node)) out.push({ ...d, node: d.node as TS.FunctionLikeDeclaration, calls: [n] });
      }
      ts.forEachChild(n, visit);
    };
    visit(fn.body);
    return out;
  }

  /**
   * `if (!validate(uuid)) throw ...` in `fn`: the package's public function that says the argument
   * is good (its name under `entry`) and which of `fn`'s parameters it checks.
   */
  guardOf(file: string, entry: string, fn: TS.FunctionLikeDeclaration, t: TS.ThrowStatement): { name: string; param: string } | undefined {
    const ts = typescript();
    const m = this.info(file);
    let at: TS.Node = t;
    if (ts.isBlock(at.parent) && at.parent.statements.length === 1) at = at.parent;
    const test = ts.isIfStatement(at.parent) && at.parent.thenStatement === at ? at.parent.expression : undefined;
    if (!m || !test || !ts.isPrefixUnaryExpression(test) || test.operator !== ts.SyntaxKind.ExclamationToken) return undefined;
    const call = test.operand;
    if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression) || call.arguments.length !== 1) return undefined;
    const arg = call.arguments[0]!;
    if (!ts.isIdentifier(arg) || !fn.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === arg.text)) return undefined;
    const ref = m.locals.get(call.expression.text);
    const d = ref && this.resolveRef(file, m, ref, 0);
    const name = d && this.exportNames(entry).find((n) => this.resolveExport(entry, n)?.node === d.node);
    return name ? { name, param: arg.text } : undefined;
  }

  private resolveLocal(file: string, m: ModuleInfo, name: string): Decl | undefined {
    const ref = m.locals.get(name);
    return ref && this.resolveRef(file, m, ref, 0);
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

/**
 * The class a throw makes: `throw new RangeError(...)`, or an error class called without `new`
 * (`throw TypeError('Invalid UUID')`, which makes the same error).
 */
export function thrownClass(t: TS.ThrowStatement): string | undefined {
  const ts = typescript();
  const e = t.expression;
  if (e && ts.isNewExpression(e) && ts.isIdentifier(e.expression)) return e.expression.text;
  if (e && ts.isCallExpression(e) && ts.isIdentifier(e.expression) && /^[A-Z]\w*(?:Error|Exception)$/.test(e.expression.text)) return e.expression.text;
  return undefined;
}

/** The file's throw sites in `fn`'s own body (not nested functions, not inside a `try`). */
export function throwsIn(fn: TS.FunctionLikeDeclaration): TS.ThrowStatement[] {
  const ts = typescript();
  const out: TS.ThrowStatement[] = [];
  const visit = (n: TS.Node) => {
    if (n !== fn && (ts.isFunctionLike(n) || ts.isClassLike(n))) return;
    if (ts.isTryStatement(n)) return;
    if (ts.isThrowStatement(n) && thrownClass(n)) out.push(n);
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

/**
 * Whether every call of the helper rules its throw out with what it passes: `outside(version,
 * range, '>', options)` never reaches `default: throw` of `switch (hilo)`; a call that leaves out
 * the `buf` of `if (buf) { ... throw }` never reaches that throw.
 */
function ruledOut(h: Helper, t: TS.ThrowStatement): boolean {
  const ts = typescript();
  const params = h.node.parameters.map((p) => (ts.isIdentifier(p.name) ? p.name.text : ''));
  const sw = switchClause(t, h.node, params);
  const needs = truthyTests(t, h.node, params).map((p) => params.indexOf(p));
  return h.calls.every((c) => {
    if (c.arguments.some(ts.isSpreadElement)) return false;
    if (sw && switchRulesOut(sw, c.arguments[params.indexOf(sw.param)])) return true;
    return needs.some((i) => leftOut(c.arguments[i]));
  });
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
  /** The public function or method the call goes through when `fn` is a helper it calls (`v4` of `_v4`). */
  via?: TS.FunctionLikeDeclaration;
  /** That helper's name. */
  helper?: string;
  /** `if (!validate(uuid)) throw`: the public function that rules the throw out, and the parameter it checks. */
  guard?: { name: string; param: string };
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
        const call = { kind, spec, exportName: name, className: kind === 'function' ? undefined : d.name, method };
        for (const t of throwsIn(fn)) out.push({ file: d.file, sf: d.sf, fn, throwNode: t, ...call, guard: mods.guardOf(d.file, entry, fn, t) });
        // A throw in a helper the public call runs (not one that throws what it is told: that is the caller's decision).
        for (const h of mods.helpersOf(d.file, fn))
          if (!isThrowHelper(h.node))
            for (const t of throwsIn(h.node))
              if (!ruledOut(h, t)) out.push({ file: h.file, sf: h.sf, fn: h.node, via: fn, helper: h.name, throwNode: t, ...call });
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
