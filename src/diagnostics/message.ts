/**
 * The record's message as a user reads it: its placeholders (`{address}`, `{s.__class__.__name__}`,
 * `%s`) filled from the call's literal arguments, or written out in words (`the given address`,
 * `the type of s`), never shown raw. A message that is only an expression (`retcode`, the raise
 * passed a variable) says so.
 */
import type { Node } from '../parse/parser.js';
import { readArgs } from '../match/bind.js';
import type { ParamSpec } from '../rules/condition/types.js';
import { BUILTIN_CLASSES, isBuiltinExceptionClass } from '../python/builtins.js';

const LITERALS = new Set(['string', 'integer', 'float', 'true', 'false', 'none', 'concatenated_string']);

/** The call's literal arguments by parameter name (positional ones by the signature's order, up to a `*iterable`), as written. */
export function literalArgumentTexts(call: Node, params: readonly ParamSpec[]): Map<string, string> {
  const out = new Map<string, string>();
  if (call.type !== 'call') return out;
  const a = readArgs(call);
  const positional = params.filter((p) => p.kind === 'positional-only' || p.kind === 'normal');
  a.positional.slice(0, a.splatAt ?? a.positional.length).forEach((n, i) => {
    const p = positional[i];
    if (p && LITERALS.has(n.type)) out.set(p.name, n.text);
    if (p) className(out, p.name, n);
  });
  for (const [name, n] of a.keywords) {
    if (LITERALS.has(n.type)) out.set(name, n.text);
    className(out, name, n);
  }
  return out;
}

/** A built-in class passed as a value (`setLoggerClass(dict)`): `klass.__name__` is its name. */
function className(out: Map<string, string>, param: string, n: Node): void {
  if (n.type === 'identifier' && (BUILTIN_CLASSES.has(n.text) || isBuiltinExceptionClass(n.text))) out.set(`${param}.__name__`, `'${n.text}'`);
}

/** A literal's text as `str()` would show it (`'1.2.3'` → `1.2.3`), or as written when that is not plain. */
function shown(literal: string, repr: boolean): string {
  if (repr) return literal;
  const m = /^(['"])([^'"\\]*)\1$/.exec(literal);
  return m ? m[2]! : literal;
}

/** What a placeholder's expression stands for, in words. */
function words(expr: string): string {
  const e = expr.trim();
  if (!e) return 'a value';
  let m = /^(?:type\(\s*([\w.]+)\s*\)|([\w.]+)\.__class__)\.__(?:qual)?name__$/.exec(e);
  if (m) return `the type of ${m[1] ?? m[2]}`;
  m = /^([\w.]+)\.__(?:qual)?name__$/.exec(e);
  if (m) return `the name of ${m[1]}`;
  m = /^(?:self|cls)\.(_*)(\w+)$/.exec(e);
  if (m) return `the ${m[2]!.replace(/_/g, ' ')}`;
  if (/^[A-Za-z_]\w*$/.test(e)) return `the given ${e}`;
  return 'a value';
}

/** The message with every placeholder filled or written in words. */
export function formatMessage(template: string, args: ReadonlyMap<string, string>, pattern?: string | null): string {
  const t = template.trim();
  // The raise passed an expression, not text (`raise CalledProcessError(retcode, ...)`, `OSError(errno.ENOTSUP)`):
  // its pattern matches any message, or it is a dotted name.
  // A parameter passed as a literal: the message is that argument (`self.skipTest("no network")`).
  if (/^[A-Za-z_]\w*$/.test(t) && args.has(t)) return shown(args.get(t)!, false);
  const anyText = !pattern || /^\^?\.\*\$?$/.test(pattern);
  if (/^[A-Za-z_][\w.]*$/.test(t) && ((anyText && pattern) || /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/.test(t))) return `a message computed at run time (\`${t}\`)`;
  let out = template.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (all, inner: string | undefined) => {
    if (inner === undefined) return all[0]!;
    const m = /^([^!:]*)(?:!([rsa]))?(?::.*)?$/.exec(inner);
    const expr = (m?.[1] ?? inner).trim();
    const lit = args.get(expr);
    return lit !== undefined ? shown(lit, m?.[2] === 'r') : words(expr);
  });
  // %-style: `%s`, `%r`, `%(name)s`, `%d`.
  out = out.replace(/%\((\w+)\)[sdrfi]|%[-#0 +]*\d*(?:\.\d+)?[sdrfixX]/g, (all, name: string | undefined) => {
    if (name) return args.has(name) ? shown(args.get(name)!, all.endsWith('r')) : words(name);
    return 'a value';
  });
  return out;
}
