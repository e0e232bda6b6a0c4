/**
 * Literal calls run, for JS/TS (the twin of src/analysis/probe.ts): a possible finding of a pure
 * package's function, class or static called with literal arguments only (`new URL('https://a.b')`,
 * `new SemVer('1.2.3')`, `semver.inc('1.2.3', 'patch')`) throws on every run or on none. The
 * installed package (resolved from the checked file, as Node would) runs the call, in a fresh V8
 * context with a one-second limit: no throw, no finding; the recorded error (its class, and a
 * message its pattern matches), certain; another error, not this record's finding.
 *
 * Only the packages and names below run: their exports compute from their arguments alone (no I/O,
 * no global state). Anything that fails (an ES-module-only package, a missing export, a timeout)
 * leaves the finding as it was.
 */
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import type { JsTarget } from '../rules/js/types.js';
import { compileMessagePattern } from '../records/pattern.js';

/** Pure exports by package (`*`: every export). */
const PURE: Record<string, string[]> = {
  'node:url': ['URL', 'URLSearchParams', 'fileURLToPath', 'pathToFileURL', 'domainToASCII', 'domainToUnicode'],
  'node:querystring': ['parse', 'stringify', 'escape', 'unescape'],
  'node:path': ['join', 'normalize', 'relative', 'parse', 'format', 'basename', 'dirname', 'extname'],
  semver: ['*'],
  uuid: ['*'],
  yaml: ['parse', 'parseDocument', 'parseAllDocuments', 'stringify'],
  'smol-toml': ['parse', 'stringify'],
  'tough-cookie': ['Cookie', 'parse', 'canonicalDomain', 'permuteDomain', 'getPublicSuffix', 'parseDate', 'formatDate'],
  minimatch: ['minimatch', 'Minimatch', 'makeRe', 'escape', 'unescape'],
  ajv: ['Name'],
  // The option and argument objects commander's program is built from: their constructors read only the flags string.
  commander: ['Option', 'Argument'],
  // Constructors of in-memory structures: a cache and a stream buffer (no I/O until used).
  'lru-cache': ['LRUCache'],
  minipass: ['Minipass'],
  json5: ['parse', 'stringify'],
  'js-yaml': ['load', 'loadAll', 'dump'],
  ms: ['*'],
  bytes: ['*'],
  'content-type': ['parse', 'format'],
  cookie: ['parse', 'serialize'],
  qs: ['parse', 'stringify'],
  punycode: ['*'],
};

const UNDEFINED = Symbol('undefined');
type Lit = string | number | boolean | null | typeof UNDEFINED | Lit[] | { [k: string]: Lit };

/** The value of a literal expression (strings, numbers, booleans, null, undefined, arrays and objects of them), or undefined. */
function literal(e: ts.Expression, depth = 0): { v: Lit } | undefined {
  if (depth > 8) return undefined;
  if (ts.isParenthesizedExpression(e)) return literal(e.expression, depth + 1);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return { v: e.text };
  if (ts.isNumericLiteral(e)) return { v: Number(e.text) };
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand)) return { v: -Number(e.operand.text) };
  if (e.kind === ts.SyntaxKind.TrueKeyword) return { v: true };
  if (e.kind === ts.SyntaxKind.FalseKeyword) return { v: false };
  if (e.kind === ts.SyntaxKind.NullKeyword) return { v: null };
  if (ts.isIdentifier(e) && e.text === 'undefined') return { v: UNDEFINED };
  if (ts.isArrayLiteralExpression(e)) {
    const out: Lit[] = [];
    for (const x of e.elements) {
      const v = ts.isSpreadElement(x) || ts.isOmittedExpression(x) ? undefined : literal(x, depth + 1);
      if (!v) return undefined;
      out.push(v.v);
    }
    return { v: out };
  }
  if (ts.isObjectLiteralExpression(e)) {
    const out: { [k: string]: Lit } = {};
    for (const p of e.properties) {
      if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return undefined;
      const v = literal(p.initializer, depth + 1);
      if (!v || p.name.text === '__proto__') return undefined;
      out[p.name.text] = v.v;
    }
    return { v: out };
  }
  return undefined;
}

function materialize(v: Lit): unknown {
  if (v === UNDEFINED) return undefined;
  if (Array.isArray(v)) return v.map(materialize);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, materialize(x)]));
  return v;
}

const MAX_TEXT = 4000;

export type LiteralOutcome = { throws: false } | { throws: true; names: string[]; message: string };

const memo = new Map<string, LiteralOutcome | undefined>();

/** The pure export a target names, loaded from where `file` would import it (undefined: not pure, not loadable). */
function callable(t: JsTarget, file: string): { fn: (...a: unknown[]) => unknown; self: unknown; key: string } | undefined {
  const allowed = PURE[t.package];
  const exported = t.kind === 'function' ? t.name : t.className;
  if (!allowed || !exported || (!allowed.includes('*') && !allowed.includes(exported))) return undefined;
  let mod: Record<string, unknown>;
  let entry: string;
  try {
    const req = createRequire(file);
    entry = t.package.startsWith('node:') ? t.package : req.resolve(t.package);
    mod = req(entry) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const top = (mod[exported] ?? (mod.default as Record<string, unknown> | undefined)?.[exported]) as ((...a: unknown[]) => unknown) | undefined;
  const fn = t.kind === 'static' ? ((top as unknown as Record<string, unknown> | undefined)?.[t.name] as typeof top) : top;
  return typeof fn === 'function' ? { fn, self: t.kind === 'static' ? top : undefined, key: `${entry}\0${t.kind}\0${exported}\0${t.name}` } : undefined;
}

/**
 * What running the call does, when it is a pure export called with literal arguments only
 * (undefined: not run). A method's call is never run (its receiver's state is not known).
 */
export function runLiteralCall(call: ts.CallExpression | ts.NewExpression, t: JsTarget, file: string): LiteralOutcome | undefined {
  if (t.async || t.kind === 'method' || !PURE[t.package]) return undefined;
  const args: Lit[] = [];
  for (const a of call.arguments ?? []) {
    const v = ts.isSpreadElement(a) ? undefined : literal(a);
    if (!v) return undefined;
    args.push(v.v);
  }
  const text = (call.arguments ?? []).reduce((n, a) => n + a.getText().length, 0);
  if (text > MAX_TEXT) return undefined;
  const target = callable(t, file);
  if (!target) return undefined;
  const key = `${target.key}\0${(call.arguments ?? []).map((a) => a.getText()).join('\0')}`;
  if (memo.has(key)) return memo.get(key);
  let out: LiteralOutcome | undefined;
  try {
    // A fresh context's watchdog stops a call that runs too long (a pathological pattern).
    runInNewContext(
      t.kind === 'constructor' ? 'new fn(...args)' : 'fn.apply(self, args)',
      { fn: target.fn, self: target.self, args: args.map(materialize) },
      { timeout: 1000 },
    );
    out = { throws: false };
  } catch (e) {
    if (e instanceof Error && (e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') out = undefined;
    else out = { throws: true, names: errorNames(e), message: String((e as { message?: unknown } | null)?.message ?? e) };
  }
  if (memo.size > 20_000) memo.clear();
  memo.set(key, out);
  return out;
}

/** The constructor names of a thrown value's prototype chain (`['SyntaxError', 'Error', 'Object']`). */
function errorNames(e: unknown): string[] {
  const out: string[] = [];
  for (let p = e !== null && typeof e === 'object' ? Object.getPrototypeOf(e) : null; p && out.length < 20; p = Object.getPrototypeOf(p)) {
    const name = (p as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === 'string') out.push(name);
  }
  return out;
}

/** The outcome is the recorded throw: its class (or a subclass), and a message the record's pattern matches when it has one. */
export function isRecordedThrow(o: Extract<LiteralOutcome, { throws: true }>, errorClass: string, pattern: unknown): boolean {
  if (!o.names.includes(errorClass)) return false;
  if (typeof pattern !== 'string' || !pattern || pattern.length > 500) return true;
  // The message starts with what the pattern matches; a linear-time engine (the pattern is a record's: untrusted).
  const re = compileMessagePattern(`^(?:${pattern})`);
  return typeof re === 'string' || re.test(o.message.slice(0, 1000));
}
