/**
 * What the record's code fields say about the entry point, for windows that do not show it all:
 * the class of a method whose `class` line is outside the window, or the whole call when the
 * window starts inside the function's body (`try { await db.get(key) }`).
 */
import type * as TS from 'typescript';
import { typescript } from '../../parse/typescript.js';
import type { RaisingFunction } from './source.js';

/** `abstract-level.js` → `abstractlevel`: compared with class names case-insensitively. */
function fileKey(filePath: string): string {
  const base = filePath
    .replace(/\\/g, '/')
    .split('/')
    .pop()!
    .replace(/\.[^.]*$/, '');
  return base.replace(/[-_.]/g, '').toLowerCase();
}

interface SnippetCall {
  kind: 'function' | 'method' | 'static' | 'constructor';
  name: string;
  receiver?: string;
  awaited: boolean;
  inTry: boolean;
  args: string[];
}

function callsOf(code: string): SnippetCall[] {
  const ts = typescript();
  const sf = ts.createSourceFile('s.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: SnippetCall[] = [];
  const visit = (n: TS.Node, inTry: boolean) => {
    const awaited = !!n.parent && ts.isAwaitExpression(n.parent);
    const args = (ts.isCallExpression(n) || ts.isNewExpression(n) ? (n.arguments ?? []) : []).map((a) => a.getText(sf));
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression))
      out.push({ kind: 'constructor', name: n.expression.text, receiver: n.expression.text, awaited, inTry, args });
    else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ts.isIdentifier(n.expression.expression)) {
      const recv = n.expression.expression.text;
      out.push({ kind: /^[A-Z]/.test(recv) ? 'static' : 'method', name: n.expression.name.text, receiver: recv, awaited, inTry, args });
    } else if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text !== 'require')
      out.push({ kind: 'function', name: n.expression.text, awaited, inTry, args });
    ts.forEachChild(n, (c) => visit(c, inTry || (ts.isTryStatement(n) && c === n.tryBlock)));
  };
  visit(sf, false);
  return out;
}

/** Whether any code field calls a function (`kind` 'function') or a method, static or constructor named `name`. */
export function calledIn(codes: string[], name: string, kind: 'function' | 'member'): boolean {
  return codes.some((c) => callsOf(c).some((call) => call.name === name && (call.kind === 'function') === (kind === 'function')));
}

/** Capitalised names the code fields use: `X.prototype.m`, `X.m(...)`, `new X(...)`, `instanceof X`, imports. */
function classNames(codes: string[]): string[] {
  const out: string[] = [];
  for (const c of codes) for (const m of c.matchAll(/\b([A-Z][A-Za-z0-9_$]*)\b/g)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

/** The class of a method or constructor whose `class` line the window does not show. */
export function classFromSnippets(fn: RaisingFunction, codes: string[], filePath: string): string | undefined {
  const text = codes.join('\n');
  // A constructor: the class the protected code constructs (`try { new KeywordCxt(it, def) }`).
  if (fn.kind === 'constructor') {
    const made = codes.flatMap(callsOf).filter((c) => c.kind === 'constructor');
    return (made.find((c) => c.inTry) ?? made[0])?.name;
  }
  const protoOrStatic = new RegExp(`\\b([A-Z][\\w$]*)\\.(?:prototype\\.)?${fn.name.replace(/\$/g, '\\$')}\\b`).exec(text)?.[1];
  if (protoOrStatic) return protoOrStatic;
  // A receiver made in the code fields: `const gen = new CodeGen(scope)` ... `gen.if(...)`.
  const made = new Map<string, string>();
  for (const m of text.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?new\s+([A-Z][\w$]*)\s*[(<]/g)) made.set(m[1]!, m[2]!);
  for (const m of text.matchAll(new RegExp(`\\b([A-Za-z_$][\\w$]*)\\.${fn.name.replace(/\$/g, '\\$')}\\s*\\(`, 'g'))) {
    const cls = made.get(m[1]!);
    if (cls) return cls;
  }
  const key = fileKey(filePath);
  return classNames(codes).find((n) => n.toLowerCase() === key);
}

/** The entry point when no function in the window encloses the raise: the call the record protects. */
export function entryFromSnippets(protectedCodes: string[], codes: string[], filePath: string): RaisingFunction | undefined {
  const calls = protectedCodes.flatMap(callsOf);
  const call = calls.find((c) => c.inTry) ?? calls[0];
  if (!call) return undefined;
  const fn: RaisingFunction = { kind: call.kind, name: call.name, async: call.awaited, always: false, params: call.args };
  if (call.kind === 'static' || call.kind === 'constructor') fn.className = call.receiver;
  else if (call.kind === 'method') {
    fn.className = classFromSnippets(fn, codes, filePath);
    if (!fn.className) {
      // `abstract-level.js` defines `AbstractLevel`: the file's own name as a class name.
      const base = filePath
        .replace(/\\/g, '/')
        .split('/')
        .pop()!
        .replace(/\.[^.]*$/, '');
      if (/[-_]/.test(base) || /^[A-Z]/.test(base))
        fn.className = base
          .split(/[-_]/)
          .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
          .join('');
    }
  }
  return fn;
}
