/**
 * A lookup the call site shows will find its key: the raise is a lookup failure (the library
 * catches the `KeyError` of its own lookup by a parameter and raises, or raises `KeyError` itself),
 * and the call's arguments up to that key were taken from, or checked against, the same receiver:
 *
 * - under `if cfg.has_option(section, option):` or `if key in d:` (the call's leading arguments,
 *   as written, on the receiver as written), or right of it in `and`;
 * - in a loop over what the receiver lists: `for s in cfg.sections(): cfg.items(s)`,
 *   `for o in cfg.options(s): cfg.get(s, o)`, `for k in d: d.pop(k)`, `for k in list(d): ...`,
 *   or over a name bound once to a comprehension of those (`keys = [k for k in d if ...]`);
 * - after `if not cfg.has_section(s): cfg.add_section(s)` in a block that holds the call.
 *
 * Nothing between the check and the call is read: what the maintainer wrote says the key is there.
 */
import type { Node } from '../parse/parser.js';
import { field, flatText, namedChildren } from '../parse/syntax.js';
import type { Rule } from '../rules/types.js';
import { someAtom } from '../rules/condition/simplify.js';

const SCOPES = new Set(['function_definition', 'lambda', 'class_definition', 'module']);
/** Methods that list a mapping's keys (or, with arguments, the keys under them: `options(section)`). */
const LISTS = new Set(['keys', 'sections', 'options', 'namelist', 'getnames']);

/**
 * The argument (0-based) a failed lookup of the rule is keyed by, the furthest when there are
 * several: a `KeyError` handler's lookup by a parameter (Cond `lookup`), or the first argument of a
 * def that raises `KeyError` itself (`pop(key)`). Undefined: the raise is not such a lookup.
 */
export function lookupArgument(rule: Rule): number | undefined {
  const c = rule.condition;
  if (!c) return undefined;
  const keys: string[] = [];
  someAtom(c.when, (a) => {
    if (a.k === 'data' && a.lookup) keys.push(a.lookup);
    return false;
  });
  const at = keys.map((k) => c.params.findIndex((p) => p.name === k && p.kind !== 'var-keyword' && p.kind !== 'var-positional'));
  if (at.length) return at.some((i) => i < 0) ? undefined : Math.max(...at);
  return rule.errorClass === 'KeyError' || rule.errorClass === 'builtins.KeyError' ? 0 : undefined;
}

const unparen = (n: Node | null | undefined): Node | undefined => (n?.type === 'parenthesized_expression' ? unparen(namedChildren(n)[0]) : (n ?? undefined));
const same = (a: Node | undefined, b: string) => !!a && flatText(a) === b;

/** The call's receiver and positional arguments as written (up to a keyword or splat), and the key's argument. */
interface Parts {
  recv: string;
  args: string[];
  key: number;
}

function partsOf(call: Node, key: number): Parts | undefined {
  const fn = field(call, 'function');
  const recv = fn?.type === 'attribute' ? field(fn, 'object') : null;
  if (!recv) return undefined;
  const args: string[] = [];
  for (const a of namedChildren(field(call, 'arguments') ?? call)) {
    if (a.type === 'comment') continue;
    if (a.type === 'keyword_argument' || a.type.endsWith('splat')) break;
    args.push(flatText(a));
  }
  return args.length > key ? { recv: flatText(recv), args, key } : undefined;
}

/** `recv.m(a1, ..., ak)` with a1..ak the call's first arguments (k ≥ `min`): its method name. */
function methodOnPrefix(n: Node | undefined, p: Parts, min: number): string | undefined {
  if (n?.type !== 'call') return undefined;
  const fn = field(n, 'function');
  if (fn?.type !== 'attribute' || !same(field(fn, 'object') ?? undefined, p.recv)) return undefined;
  const args = namedChildren(field(n, 'arguments') ?? n).filter((a) => a.type !== 'comment');
  if (args.length < min || args.length > p.args.length || args.some((a, i) => a.type === 'keyword_argument' || !same(a, p.args[i]!))) return undefined;
  return field(fn, 'attribute')?.text;
}

/** A test that holds only when the key is there: `recv.has_*(args)` (up to the key's argument), `key in recv`, or a conjunct of `and` that is. */
function checks(test: Node | undefined, p: Parts): boolean {
  test = unparen(test);
  if (!test) return false;
  if (test.type === 'boolean_operator' && field(test, 'operator')?.text === 'and')
    return checks(field(test, 'left') ?? undefined, p) || checks(field(test, 'right') ?? undefined, p);
  if (test.type === 'comparison_operator') {
    const [l, r, more] = namedChildren(test);
    const op = test.children.find((c) => !!c && !c.isNamed)?.type;
    return !more && op === 'in' && p.key === 0 && same(l, p.args[0]!) && same(r, p.recv);
  }
  return /^has_/.test(methodOnPrefix(test, p, p.key + 1) ?? '');
}

/** A loop target that is the call's argument i, over what the receiver lists under the arguments before it. */
function listsKey(left: Node | undefined, right: Node | undefined, p: Parts): boolean {
  const target = left?.type === 'pattern_list' || left?.type === 'tuple_pattern' ? namedChildren(left)[0] : left;
  const i = target?.type === 'identifier' ? p.args.indexOf(target.text) : -1;
  // The loop lists the keys of argument i: it says the key is there up to that argument.
  if (i < p.key) return false;
  let it = unparen(right);
  // `keys = [k for k in d if ...]` or `options = cfg.options(s)` bound once in the function, then `for k in keys:`.
  if (it?.type === 'identifier') it = unparen(keysBound(it)) ?? it;
  // `list(d)`, `sorted(d.keys())`: the same keys.
  if (it?.type === 'call' && ['list', 'sorted', 'tuple'].includes(field(it, 'function')?.text ?? '')) it = namedChildren(field(it, 'arguments') ?? it)[0];
  if (i === 0 && same(it, p.recv)) return true;
  const m = methodOnPrefix(it, { ...p, args: p.args.slice(0, i) }, i);
  return !!m && LISTS.has(m) && namedChildren(field(it!, 'arguments') ?? it!).length === i;
}

/**
 * What a name of the function bound once above `use`, and not named between, lists: the iterable
 * of a comprehension that yields its own loop target (`[k for k in d if len(k) < n]`), or a call
 * (`cfg.options(s)`, read as the loop's iterable).
 */
function keysBound(use: Node): Node | undefined {
  let scope = use.parent;
  while (scope && !SCOPES.has(scope.type)) scope = scope.parent;
  if (!scope) return undefined;
  const binds = scope.descendantsOfType('assignment').filter((a) => !!a && field(a, 'left')?.text === use.text);
  const a = binds.length === 1 ? binds[0]! : undefined;
  const right = a && a.endIndex <= use.startIndex ? unparen(field(a, 'right')) : undefined;
  if (!right) return undefined;
  // Nothing between may change it (`options.append(x)`).
  const between = scope.descendantsOfType('identifier').some((i) => !!i && i.text === use.text && i.startIndex >= a!.endIndex && i.startIndex < use.startIndex);
  if (between) return undefined;
  if (right.type === 'call') return right;
  const clauses = /comprehension|generator_expression/.test(right.type) ? namedChildren(right).filter((c) => c.type === 'for_in_clause') : [];
  const target = clauses.length === 1 ? field(clauses[0]!, 'left') : null;
  const over = clauses.length === 1 ? field(clauses[0]!, 'right') : null;
  if (target?.type !== 'identifier' || !over || field(right, 'body')?.text !== target.text) return undefined;
  return over;
}

/** `if not recv.has_*(args): ... recv.add_*(args) ...` as a statement before `n` in its block. */
function ensuredBefore(n: Node, p: Parts): boolean {
  const block = n.parent;
  if (!block) return false;
  for (const st of namedChildren(block)) {
    if (st.startIndex >= n.startIndex) break;
    if (st.type !== 'if_statement' || namedChildren(st).some((c) => c.type === 'elif_clause' || c.type === 'else_clause')) continue;
    const test = unparen(field(st, 'condition'));
    if (test?.type !== 'not_operator' || !checks(field(test, 'argument') ?? undefined, p)) continue;
    const adds = (field(st, 'consequence')?.descendantsOfType('call') ?? []).some((c) => /^add_/.test((c && methodOnPrefix(c, p, 1)) ?? ''));
    if (adds) return true;
  }
  return false;
}

/** The call site shows the lookup's key (argument `key`, and those before it) is there (see the file comment). */
export function membershipShown(call: Node, key: number): boolean {
  const p = partsOf(call, key);
  if (!p) return false;
  for (let n: Node = call, up = call.parent; up && !SCOPES.has(up.type); n = up, up = up.parent) {
    if ((up.type === 'if_statement' || up.type === 'elif_clause') && field(up, 'consequence')?.id === n.id && checks(field(up, 'condition') ?? undefined, p))
      return true;
    if (up.type === 'conditional_expression' && namedChildren(up)[0]?.id === n.id && checks(namedChildren(up)[1], p)) return true;
    // `cfg.has_option(s, o) and cfg.get(s, o)`: the right side runs only when the left holds.
    if (up.type === 'boolean_operator' && field(up, 'operator')?.text === 'and' && field(up, 'right')?.id === n.id && checks(field(up, 'left') ?? undefined, p))
      return true;
    if (up.type === 'for_statement' && field(up, 'body')?.id === n.id && listsKey(field(up, 'left') ?? undefined, field(up, 'right') ?? undefined, p))
      return true;
    if (/comprehension|generator_expression/.test(up.type) && field(up, 'body')?.id === n.id) {
      for (const c of namedChildren(up).filter((x) => x.type === 'for_in_clause'))
        if (listsKey(field(c, 'left') ?? undefined, field(c, 'right') ?? undefined, p)) return true;
    }
    if (up.type === 'block' && ensuredBefore(n, p)) return true;
  }
  return false;
}
