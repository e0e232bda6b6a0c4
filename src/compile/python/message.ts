/**
 * The message a raise builds from a local, read from the raising def: `msg = ("the 'package'
 * argument is required ... for {!r}")` then `raise TypeError(msg.format(name))`. A record whose
 * message is that expression (`msg.format(name)`, `msg`) is shown with the local's text as its
 * template, the arguments of `.format` / `%` written into its placeholders (`{name!r}`), which
 * src/diagnostics/message.ts fills from the call's literals or writes in words. An error number
 * first (`OSError(errno.EBADF, "...")`) is followed by the text.
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { methodsOf, moduleClass } from '../condition/handed.js';

/** The text of a string literal (several, concatenated or parenthesized), as written between its quotes; undefined for anything else. */
function stringText(n: Node | null | undefined): string | undefined {
  if (!n) return undefined;
  if (n.type === 'parenthesized_expression') {
    const inner = namedChildren(n).filter((c) => c.type !== 'comment');
    return inner.length === 1 ? stringText(inner[0]) : undefined;
  }
  if (n.type === 'concatenated_string') {
    const parts = namedChildren(n)
      .filter((c) => c.type !== 'comment')
      .map(stringText);
    return parts.every((p) => p !== undefined) ? parts.join('') : undefined;
  }
  if (n.type !== 'string') return undefined;
  const m = /^[A-Za-z]*("""|'''|"|')([\s\S]*)\1$/.exec(n.text);
  return m?.[2];
}

/** The string the nearest assignment above `at` in `def` binds to `name`, when it is a literal. */
function localString(def: Node, name: string, at: Node): string | undefined {
  let nearest: Node | undefined;
  for (const a of def.descendantsOfType('assignment')) {
    if (!a || a.endIndex > at.startIndex || field(a, 'left')?.text !== name) continue;
    if (!nearest || a.startIndex > nearest.startIndex) nearest = a;
  }
  return nearest ? templateOf(field(nearest, 'right')) : undefined;
}

/** A string literal, or one formatted in place (`'... %s' % type(val).__name__`, `'...{}'.format(x)`), as a template. */
function templateOf(n: Node | null): string | undefined {
  const lit = stringText(n);
  if (lit !== undefined || !n) return lit;
  if (n.type === 'parenthesized_expression') {
    const inner = namedChildren(n).filter((c) => c.type !== 'comment');
    return inner.length === 1 ? templateOf(inner[0]!) : undefined;
  }
  if (n.type === 'binary_operator' && field(n, 'operator')?.text === '%') {
    const template = stringText(field(n, 'left'));
    const right = field(n, 'right');
    const passed = right?.type === 'tuple' ? namedChildren(right).filter((c) => c.type !== 'comment') : right ? [right] : [];
    return template === undefined ? undefined : percentInto(template, passed.map(plain));
  }
  const fn = n.type === 'call' ? field(n, 'function') : null;
  const obj = fn?.type === 'attribute' && field(fn, 'attribute')?.text === 'format' ? field(fn, 'object') : null;
  const template = stringText(obj);
  const passed = namedChildren(field(n, 'arguments') ?? n).filter((c) => c.type !== 'comment');
  return template === undefined || passed.some((p) => p.type === 'keyword_argument' || p.type.includes('splat'))
    ? undefined
    : formatInto(template, passed.map(plain));
}

/** `{}`, `{!r}`, `{0}` of a `.format` template, written as the argument each stands for (`{name!r}`). */
function formatInto(template: string, args: string[]): string {
  let next = 0;
  return template.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (all, inner: string | undefined) => {
    if (inner === undefined) return all;
    const m = /^(\d*)((?:![rsa])?(?::.*)?)$/.exec(inner);
    if (!m) return all;
    const arg = args[m[1] ? Number(m[1]) : next++];
    return arg === undefined ? all : `{${arg}${m[2]}}`;
  });
}

/** `%s`, `%r`, `%d` of a `%` template, written as the argument each stands for. */
function percentInto(template: string, args: string[]): string {
  let next = 0;
  return template.replace(/%%|%[-#0 +]*\d*(?:\.\d+)?([sdrfixX])/g, (all, conv: string | undefined) => {
    if (!conv) return all;
    const arg = args[next++];
    return arg === undefined ? all : `{${arg}${conv === 'r' ? '!r' : ''}}`;
  });
}

/** A placeholder's expression as formatMessage reads it (no braces inside). */
const plain = (n: Node) => (/[{}]/.test(n.text) ? '' : n.text.replace(/\s+/g, ' '));

/**
 * The message the raise on `row` of `def` passes, when it is built from a local string (`msg`,
 * `msg.format(...)`, `msg % ...`): the expression as written, and the template it makes.
 */
export function raiseMessage(def: Node, row: number): { expr: string; template: string } | undefined {
  const raise = def.descendantsOfType('raise_statement').find((r) => r?.startPosition.row === row);
  const made = raise ? namedChildren(raise)[0] : undefined;
  const args = made?.type === 'call' ? namedChildren(field(made, 'arguments') ?? made).filter((c) => c.type !== 'comment') : [];
  const arg = args[0];
  if (!raise || !arg) return undefined;
  const out = (template: string | undefined) => (template === undefined ? undefined : { expr: arg.text, template });
  // `raise NoOptionError(option, section)`: the class of the module builds its message in `__init__`.
  const own = made?.type === 'call' ? classTemplate(made, args) : undefined;
  if (own !== undefined) return out(own);
  if (arg.type === 'identifier') return out(localString(def, arg.text, raise));
  // `OSError(errno.EBADF, "read() on write-only GzipFile object")`: the text is the second argument.
  if (arg.type === 'attribute' && field(arg, 'object')?.text === 'errno') return out(templateOf(args[1] ?? null));
  if (arg.type === 'call') {
    const fn = field(arg, 'function');
    const obj = fn?.type === 'attribute' && field(fn, 'attribute')?.text === 'format' ? field(fn, 'object') : null;
    const template = obj?.type === 'identifier' ? localString(def, obj.text, raise) : undefined;
    const passed = namedChildren(field(arg, 'arguments') ?? arg).filter((c) => c.type !== 'comment');
    if (template === undefined || passed.some((p) => p.type !== 'identifier' && p.type !== 'attribute' && p.type !== 'call')) return undefined;
    return out(formatInto(template, passed.map(plain)));
  }
  if (arg.type === 'binary_operator' && field(arg, 'operator')?.text === '%') {
    const left = field(arg, 'left');
    const right = field(arg, 'right');
    const template = left?.type === 'identifier' ? localString(def, left.text, raise) : undefined;
    const passed = right?.type === 'tuple' ? namedChildren(right).filter((c) => c.type !== 'comment') : right ? [right] : [];
    return out(template === undefined ? undefined : percentInto(template, passed.map(plain)));
  }
  return undefined;
}

/**
 * The message an exception class of the module builds in its `__init__` (`Error.__init__(self, "No
 * option %r in section: %r" % (option, section))`, or through `super().__init__(...)`), its
 * parameters written as the raise's arguments (`{option!r}`).
 */
function classTemplate(made: Node, args: Node[]): string | undefined {
  const fn = field(made, 'function');
  if (fn?.type !== 'identifier' || args.some((a) => a.type === 'keyword_argument' || a.type.includes('splat'))) return undefined;
  const cls = moduleClass(made, fn.text);
  const init = cls?.parent?.type === 'module' ? methodsOf(cls).find((d) => d.parent?.type === 'block' && field(d, 'name')?.text === '__init__') : undefined;
  if (!init) return undefined;
  const params = namedChildren(field(init, 'parameters') ?? init);
  if (params.some((p) => p.type !== 'identifier')) return undefined;
  const names = params.slice(1).map((p) => p.text);
  for (const st of namedChildren(field(init, 'body') ?? init)) {
    const call = st.type === 'expression_statement' ? namedChildren(st)[0] : undefined;
    const callee = call?.type === 'call' ? field(call, 'function')?.text.replace(/\s/g, '') : undefined;
    if (!callee || !/^(?:[A-Za-z_][\w.]*|super\(\))\.__init__$/.test(callee)) continue;
    const passed = namedChildren(field(call!, 'arguments') ?? call!).filter((c) => c.type !== 'comment');
    const message = callee.startsWith('super()') ? passed[0] : passed[0]?.text === 'self' ? passed[1] : undefined;
    const template = message ? templateOf(message) : undefined;
    if (template === undefined) return undefined;
    const given = new Map(names.map((n, i) => [n, args[i] ? plain(args[i]!) : '']));
    return template.replace(/\{(\w+)([^{}]*)\}/g, (all, name: string, rest: string) => (given.has(name) ? `{${given.get(name)}${rest}}` : all));
  }
  return undefined;
}
