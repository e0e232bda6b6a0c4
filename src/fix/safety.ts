/**
 * Fix planning: how safe a planned fix is, in Ruff's meaning. A safe fix keeps what the program
 * does. Every record-pattern fix runs the record's alternative, which is third-party data, and
 * changes what the program does when the call raises: it is at most unsafe. It is shown only
 * (display-only) when applying it would leave code that cannot work:
 *   - the alternative runs code or reaches the system in a way the user's statement does not
 *     (`__import__()`, `eval()`, `os.system()`, `open()`: python/risky.ts);
 *   - it turns the error into `None` where what follows needs a real value: unpacking, an
 *     attribute, item or call of the name next, a `return` in a function annotated otherwise;
 *   - the call asks for the error on purpose (`check=True`, `strict=True`).
 */
import type { Node } from '../parse/parser.js';
import { field, namedChildren, parentOf } from '../parse/syntax.js';
import type { Pattern } from '../rules/types.js';
import { ASKS_FOR_ERROR } from '../python/params.js';
import { abbrev, type FixSite } from './site.js';

export interface Safety {
  unsafe: string[];
  display?: string;
}

/** The alternative's value, when it is the literal `None` (`x = None`, `return None`) or nothing at all (`pass`). */
export function swallowedAs(p: Pattern): 'None' | 'pass' | undefined {
  const alt = p.alt;
  if (alt.sink && alt.text.slice(alt.sink.value.start, alt.sink.value.end).trim() === 'None') return 'None';
  if (alt.statements.length && alt.statements.every((s) => s.type === 'pass_statement')) return 'pass';
  if (
    alt.statements.length === 1 &&
    alt.statements[0]!.type === 'return_statement' &&
    !alt.text
      .slice(alt.statements[0]!.start, alt.statements[0]!.end)
      .replace(/^return\b/, '')
      .trim()
  )
    return 'None';
  return undefined;
}

/** What in the statement's text names `what` (a dotted name or a builtin) as a word. */
function statementUses(stmtText: string, what: string): boolean {
  const name = what
    .replace(/^\./, '')
    .replace(/\(\).*$/, '')
    .replace(/ with a computed name$/, '')
    .replace(/\(\)$/, '');
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\./g, '\\s*\\.\\s*');
  return new RegExp(`(^|[^\\w.])${esc}(?!\\w)`).test(stmtText);
}

/** The record code of a site that runs what the user's statement does not. */
export function riskyCode(s: FixSite, stmt: Node): string[] {
  const p = s.pattern;
  if (!p) return [];
  return (p.alt.risky ?? []).filter((r) => !statementUses(stmt.text, r));
}

/** A keyword argument by which the call asks for the error (`check=True`). */
export function asksForError(call: Node): string | undefined {
  const args = field(call, 'arguments');
  for (const a of args ? namedChildren(args) : []) {
    if (a.type !== 'keyword_argument') continue;
    const name = field(a, 'name')?.text;
    const value = field(a, 'value');
    if (name && ASKS_FOR_ERROR.has(name) && value?.type === 'true') return `${name}=True`;
  }
  return undefined;
}

/** The statements after `stmt` in its block, up to one that binds `name` again. */
function following(stmt: Node, name: string): Node[] {
  const block = parentOf(stmt);
  if (!block) return [];
  const out: Node[] = [];
  let after = false;
  for (const c of namedChildren(block)) {
    if (c.id === stmt.id) {
      after = true;
      continue;
    }
    if (!after || c.type === 'comment') continue;
    const e = c.type === 'expression_statement' ? namedChildren(c)[0] : undefined;
    if (e?.type === 'assignment' && field(e, 'left')?.type === 'identifier' && field(e, 'left')?.text === name) {
      // `x = f(x)` reads it first.
      const right = field(e, 'right');
      if (right) out.push(right);
      break;
    }
    out.push(c);
  }
  return out;
}

/** Builtins that raise TypeError for `None`. */
const REJECT_NONE = new Set([
  'round',
  'len',
  'int',
  'float',
  'complex',
  'abs',
  'sum',
  'sorted',
  'min',
  'max',
  'iter',
  'next',
  'list',
  'tuple',
  'set',
  'frozenset',
  'dict',
  'divmod',
  'pow',
  'bytes',
  'bytearray',
  'enumerate',
  'zip',
  'map',
  'filter',
  'reversed',
  'ord',
  'chr',
  'hex',
  'oct',
  'bin',
  'any',
  'all',
]);
const ORDERING = new Set(['<', '>', '<=', '>=', 'in', 'not in']);

/**
 * How the value at `n` is used where `None` always raises: an attribute, item or call of it,
 * arithmetic, an ordering, iteration, `with`, unpacking, or a builtin that rejects `None`.
 */
export function breaksOnNone(n: Node): string | undefined {
  const p = parentOf(n);
  if (!p) return undefined;
  const is = (x: Node | null | undefined) => !!x && x.id === n.id;
  const t = abbrev(n.text);
  switch (p.type) {
    case 'parenthesized_expression':
      return breaksOnNone(p);
    case 'attribute':
      return is(field(p, 'object')) ? `${t}.${field(p, 'attribute')?.text ?? ''}` : undefined;
    case 'subscript':
      return is(field(p, 'value')) ? `${t}[...]` : undefined;
    case 'call':
      return is(field(p, 'function')) ? `${t}(...)` : undefined;
    case 'binary_operator':
    case 'unary_operator':
    case 'augmented_assignment':
      return `arithmetic on ${t}`;
    case 'comparison_operator': {
      const ops = p.children.filter((c) => !!c && !c.isNamed).map((c) => c.type);
      return ops.some((o) => ORDERING.has(o)) ? `a comparison with ${t}` : undefined;
    }
    case 'for_statement':
    case 'for_in_clause':
      return is(field(p, 'right')) ? `for ... in ${t}` : undefined;
    case 'with_item':
      return `with ${t}`;
    case 'list_splat':
    case 'dictionary_splat':
      return `*${t}`;
    case 'assignment': {
      const left = field(p, 'left');
      return is(field(p, 'right')) && left && /pattern|tuple|list/.test(left.type) ? `unpacking ${t}` : undefined;
    }
    case 'argument_list': {
      const call = parentOf(p);
      const fn = call ? field(call, 'function') : null;
      return fn?.type === 'identifier' && REJECT_NONE.has(fn.text) ? `${fn.text}(${t})` : undefined;
    }
  }
  return undefined;
}

/** Where the statements after the assignment use `name` so that `None` always raises (breaksOnNone). */
export function usedAsObject(stmt: Node, name: string): string | undefined {
  for (const n of following(stmt, name)) {
    const ids = n.type === 'identifier' ? [n] : n.descendantsOfType('identifier');
    for (const id of ids) {
      if (!id || id.text !== name) continue;
      const use = breaksOnNone(id);
      if (use) return use;
    }
  }
  return undefined;
}

/** The enclosing function's return annotation, when it rules out `None`. */
export function annotatedNotNone(stmt: Node): string | undefined {
  let fn: Node | null = parentOf(stmt);
  while (fn && fn.type !== 'function_definition') {
    if (fn.type === 'lambda' || fn.type === 'class_definition') return undefined;
    fn = parentOf(fn);
  }
  const ret = fn ? field(fn, 'return_type') : null;
  if (!ret) return undefined;
  const t = ret.text.replace(/[\s"']+/g, '');
  if (/(^|[^\w])(None|Optional|Any|object|NoReturn|Never)\b/.test(t)) return undefined;
  return ret.text;
}
