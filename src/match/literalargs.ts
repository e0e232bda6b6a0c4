/**
 * A call's arguments as the literal-call runner reads them (src/analysis/probe.ts): each is Python
 * literal source (`'10.0.0.1'`, `[1, 2]`, a module constant's or a local literal's value), a named
 * value (`ref:inspect:Parameter.KEYWORD_ONLY`, `builtins:int`), or, built from those, a call of a
 * library function or built-in class (`call:{"f": "ipaddress:ip_address", "a": ["'1.1.1.0'"], "k": []}`),
 * directly or through the local it was bound to, and a list or tuple display holding such calls
 * (`list:[...]`, `tuple:[...]`). The runner runs a nested call only when it is one of its pure
 * callables; a value a local held since its binding must be immutable there (`h`: other code ran
 * between the binding and the call).
 */
import type { Node } from '../parse/parser.js';
import type { Scopes } from '../semantic/scopes.js';
import { field, namedChildren } from '../parse/syntax.js';
import { literalOf, pyRepr } from '../rules/condition/literal.js';
import type { PyVal } from '../rules/condition/types.js';
import { constantsOf, readArgs } from './bind.js';
import { localLiteral, reachingValue } from './locals.js';
import { builtinClassReference, moduleReference } from './refs.js';
import { classStandIn, heldInstance, instanceStandIn } from './standin.js';

/** A call's arguments in the runner's forms, when every one has one; `*`/`**` arguments: undefined. */
export interface LiteralArgs {
  args: string[];
  kwargs: [string, string][];
}

const MAX_LITERAL_TEXT = 4000;
/** Calls within calls (`IPv4Network((ip_address(...), 24))`): a few levels. */
const MAX_DEPTH = 3;

interface Ctx {
  size: number;
  constant: (name: string) => PyVal | undefined;
  scopes?: Scopes;
}

export function literalArguments(call: Node, scopes?: Scopes): LiteralArgs | undefined {
  if (call.type !== 'call') return undefined;
  const consts = constantsOf(call);
  return callArguments(call, call, { size: 0, constant: (x) => consts.get(x), scopes }, 0);
}

/** `call:{...}` for a constructor (or any library call) of literal arguments, in the runner's forms: the receiver a method call runs on. */
export function receiverText(call: Node, scopes: Scopes): string | undefined {
  const consts = constantsOf(call);
  return callText(call, call, { size: 0, constant: (x) => consts.get(x), scopes }, 1, false);
}

function callArguments(call: Node, at: Node, ctx: Ctx, depth: number): LiteralArgs | undefined {
  const a = readArgs(call);
  if (a.kwSplat || a.splatAt !== undefined) return undefined;
  const args: string[] = [];
  for (const n of a.positional) {
    const t = n.type === 'generator_expression' ? undefined : argText(n, at, ctx, depth);
    if (t === undefined) return undefined;
    args.push(t);
  }
  const kwargs: [string, string][] = [];
  for (const [k, n] of a.keywords) {
    const t = argText(n, at, ctx, depth);
    if (t === undefined) return undefined;
    kwargs.push([k, t]);
  }
  return { args, kwargs };
}

/** One argument (read at `at`) in the runner's forms, else undefined. */
function argText(n: Node, at: Node, ctx: Ctx, depth: number): string | undefined {
  const own = literalOf(n);
  // A class passed as a value (`DeprecationWarning`) is no literal: named for the runner.
  // A constant expression (`2 ** 32`) is written as its value: the runner reads literals only.
  const folded =
    own && n.descendantsOfType(['binary_operator', 'unary_operator']).some((x) => x && (x.type === 'binary_operator' || field(x, 'operator')?.text === '~'));
  const t = own?.t === 'class' ? `builtins:${own.name}` : own ? (folded ? pyRepr(own) : n.text) : other(n, at, ctx, depth);
  ctx.size += t?.length ?? 0;
  return ctx.size > MAX_LITERAL_TEXT ? undefined : t;
}

function other(n: Node, at: Node, ctx: Ctx, depth: number): string | undefined {
  const { scopes } = ctx;
  // A module constant, or a local bound once to a literal above the call (./locals.ts), as Python writes it.
  const v = literalOf(n, ctx.constant) ?? (scopes ? localLiteral(n, at, scopes, ctx.constant) : undefined);
  if (v) return v.t !== 'class' ? pyRepr(v) : undefined;
  if (!scopes) return undefined;
  // A value of an imported module (`inspect.Parameter.POSITIONAL_ONLY`): the runner looks it up.
  const ref = moduleReference(n, at, scopes);
  if (ref) return `ref:${ref}`;
  const builtin = builtinClassReference(n, at, scopes);
  if (builtin || depth >= MAX_DEPTH) return builtin;
  // A class of the file, or an instance of one (./standin.ts): the runner builds a stand-in.
  if (n.type === 'call') return callText(n, at, ctx, depth + 1, false) ?? instanceStandIn(n, scopes);
  if (n.type === 'identifier') {
    const standIn = classStandIn(n, scopes) ?? heldInstance(n, at, scopes);
    if (standIn) return standIn;
  }
  if (n.type === 'list' || n.type === 'tuple') {
    const items: string[] = [];
    for (const x of namedChildren(n)) {
      const t = x.type === 'comment' ? '' : argText(x, at, ctx, depth + 1);
      if (t === undefined) return undefined;
      if (t) items.push(t);
    }
    return `${n.type}:${JSON.stringify(items)}`;
  }
  if (n.type === 'parenthesized_expression') {
    const inner = namedChildren(n).filter((x) => x.type !== 'comment');
    return inner.length === 1 ? argText(inner[0]!, at, ctx, depth) : undefined;
  }
  // A local holding a call's value (`ip1 = ipaddress.ip_address('1.1.1.0')`), read where it was bound.
  const right = reachingValue(n, at, scopes);
  return right?.type === 'call' ? callText(right, right, ctx, depth + 1, true) : undefined;
}

/** `call:{...}` for a call of a library callable or a built-in class (the runner runs it if pure); `held`: a local's value. */
function callText(n: Node, at: Node, ctx: Ctx, depth: number, held: boolean): string | undefined {
  const fn = field(n, 'function');
  if (!fn || !ctx.scopes) return undefined;
  const target = builtinClassReference(fn, at, ctx.scopes) ?? moduleReference(fn, at, ctx.scopes);
  const inner = target && callArguments(n, at, ctx, depth);
  return inner && `call:${JSON.stringify({ f: target, a: inner.args, k: inner.kwargs, ...(held ? { h: 1 } : {}) })}`;
}
