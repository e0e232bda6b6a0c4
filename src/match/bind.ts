/**
 * A call's arguments bound to the raising def's parameters (positional, keyword, the signature's
 * defaults; `*args` / `**kwargs` make what they may fill unknown), with literal values (and module
 * constants assigned once from a literal), and the raise condition judged for them: the call
 * raises (true), cannot raise (false), or may (not known).
 */
import type { Node } from '../parse/parser.js';
import type { Scopes } from '../semantic/scopes.js';
import { localDisplay, localLiteral } from './locals.js';
import { loopItems } from './loops.js';
import { isFunctionValue } from './callables.js';
import { splatSources } from './splats.js';
import { annotatedType } from './annotated.js';
import { namedValue, type Constants } from './refs.js';
import { constantsOf, valueReader } from './constvalues.js';

export { constantsOf };
import { readArgs, type Args } from './args.js';
import { displayItems, displayLength } from './lengths.js';
export { readArgs, type Args } from './args.js';
import { isCoroutineFunction, plainClass } from '../python/defs.js';
import { field } from '../parse/syntax.js';
import { evaluate, stateTouched, residual, type Binding, type Bound, type Kind, type Tri } from '../rules/condition/eval.js';
import { failsOnIndex, onlyLibraryState, onlyTypeTests, paramsOf, testsHeld, testsLoop } from '../rules/condition/simplify.js';
import { stepText } from '../rules/condition/derived.js';
import { ASKS_FOR_ERROR } from '../python/params.js';
import { literalOf, pyRepr, strPrefix, typeOfExpr } from '../rules/condition/literal.js';
import type { Cond, ParamSpec, PyVal, RaiseCondition } from '../rules/condition/types.js';
import { condText, whyTrue, whyUnknown } from '../rules/condition/words.js';

/** What each item of a list or tuple written out (no splat) is known to be: its literal's kind, its syntax's (`main()` of an `async def`). */
function itemKinds(n: Node, scopes: (() => Scopes) | undefined): (Kind | undefined)[] | undefined {
  const items = n.type === 'list' || n.type === 'tuple' ? displayItems(n) : undefined;
  return items?.map((x) => literalOf(x)?.t ?? typeOfExpr(x) ?? argType(x, scopes));
}

/**
 * The type an identifier argument is known to have: `class` when it names a class the code defines
 * (`get_type_hints(Foo)`: a class object, whatever its metaclass), or the builtin type its function's
 * parameter is annotated with (`secret: str`) when nothing in the function rebinds it; `function`
 * for a lambda or a method of an instance of a class of the file (./callables.ts).
 */
function argType(n: Node, scopes: (() => Scopes) | undefined): Kind | undefined {
  // `Foo()` of a class the file defines over `object` and its own such classes: an instance of no library class.
  const fn = n.type === 'call' ? field(n, 'function') : undefined;
  // `f()` of the file's own `async def f()`: a coroutine.
  if (fn?.type === 'identifier' && scopes && isCoroutineFunction(scopes().definitionAt(fn.text, fn))) return 'coroutine';
  if (fn?.type === 'identifier') return scopes && ownClass(fn, scopes(), 0) ? 'instance' : undefined;
  if (n.type !== 'identifier') return scopes && isFunctionValue(n, scopes()) ? 'function' : undefined;
  const annotated = annotatedType(n);
  if (annotated) return annotated;
  const def = scopes?.().definitionAt(n.text, n)?.type;
  return def === 'class_definition' ? 'class' : def === 'function_definition' ? 'function' : undefined;
}

/** `name` read where it is is a class of this file whose bases are `object` or such classes, with no keyword (metaclass). */
function ownClass(name: Node, scopes: Scopes, depth: number): boolean {
  return depth < 8 && plainClass(scopes.definitionAt(name.text, name), (b) => ownClass(b, scopes, depth + 1));
}

const argsByTree = new WeakMap<object, Map<number, Bound>>();

/** The arguments of the tree's calls read so far, by node (never changed once made: bindings copy before they change one). */
function argsOf(node: Node): Map<number, Bound> {
  let m = argsByTree.get(node.tree);
  if (!m) argsByTree.set(node.tree, (m = new Map()));
  return m;
}

/** The binding of `call` (a `call` node, or an attribute read: no arguments) to `params`, or undefined when they do not fit. */
/** `scopes`: the file's scopes (the model's), to know an argument that names a class. */
/** `constants`: the libraries' public constants by `module:NAME` (records/values.ts): an argument naming one has its value. */
/** A keyword `**kwargs` takes is also bound alone, as a condition reads it (`kwargs.get('stdout')` is `kwargs["stdout"]`), known even when others are not. */
/**
 * An argument of `call` as its syntax and the file say it: its value, else its builtin type when the
 * syntax says it (once per argument node: every rule of the call's name binds it).
 */
function syntaxBound(call: Node, scopes: (() => Scopes) | undefined, constants: Constants | undefined): (n: Node) => Bound {
  const { consts, value } = valueReader(call, scopes, constants);
  const known = argsOf(call);
  return (n) => {
    const had = known.get(n.id);
    if (had) return had;
    // A local bound once to a literal above the call (./locals.ts).
    const v =
      value(n) ??
      (n.type === 'identifier' && scopes ? localLiteral(n, call, scopes(), (name) => consts.get(name)) : undefined) ??
      (scopes ? namedValue(n, call, scopes(), constants) : undefined);
    const prefix = v ? undefined : strPrefix(n);
    // A local bound once to a list or tuple written out (./locals.ts): its length and items.
    const shown = !v && n.type === 'identifier' && scopes ? (localDisplay(n, call, scopes()) ?? n) : n;
    const length = v ? undefined : displayLength(shown);
    const items = v ? undefined : itemKinds(shown, scopes);
    const b: Bound = v
      ? { value: v, given: true, text: n.text }
      : {
          type: typeOfExpr(n) ?? (prefix ? 'str' : argType(n, scopes)),
          given: true,
          text: n.text,
          ...(prefix ? { prefix } : {}),
          ...(length !== undefined ? { length } : {}),
          ...(items ? { items } : {}),
        };
    known.set(n.id, b);
    return b;
  };
}

/** `kinds`: what the semantic model knows of an argument (./argkinds.ts), read when neither its value nor its syntax says it. */
export function bindArguments(
  call: Node,
  params: ParamSpec[],
  scopes?: () => Scopes,
  constants?: Constants,
  loop?: Map<string, PyVal>,
  kinds?: (n: Node) => Kind | undefined,
): Binding | undefined {
  const args = readArgs(call);
  const syntax = syntaxBound(call, scopes, constants);
  const arg = (n: Node): Bound => {
    // One item of a loop around the call (./loops.ts): not kept for other rules.
    const item = loop && n.type === 'identifier' ? loop.get(n.text) : undefined;
    if (item) return { value: item, given: true, text: n.text };
    const b = syntax(n);
    const kind = b.value || b.type ? undefined : kinds?.(n);
    return kind ? { ...b, type: kind } : b;
  };
  const bound = new Map<string, Bound>();
  const positional = params.filter((p) => p.kind === 'positional-only' || p.kind === 'normal');
  const varPos = params.find((p) => p.kind === 'var-positional');
  const varKw = params.find((p) => p.kind === 'var-keyword');
  const fixed = args.splatAt ?? args.positional.length;
  if (args.splatAt === undefined && fixed > positional.length && !varPos) return undefined;
  for (let i = 0; i < Math.min(fixed, positional.length); i++) {
    const a = args.positional[i]!;
    bound.set(positional[i]!.name, arg(a));
  }
  // `*args` with no splat in the call: the extra positional arguments, a tuple (its length known even when its items are not).
  if (varPos && args.splatAt === undefined) {
    const extra = args.positional.slice(positional.length).map(arg);
    const items = extra.map((b) => b.value);
    bound.set(
      varPos.name,
      items.every((x): x is PyVal => !!x) ? { value: { t: 'tuple', items }, given: extra.length > 0 } : { given: true, length: extra.length },
    );
    // Each item, as a condition reads it (`isinstance(args[0], str)`: compile/condition/expr.ts).
    extra.forEach((b, i) => bound.set(`${varPos.name}[${i}]`, b));
  }
  const keywords = new Set<string>();
  const extraKw: [PyVal, PyVal | undefined][] = [];
  for (const [name, node] of args.keywords) {
    const p = params.find((q) => q.name === name && q.kind !== 'positional-only' && q.kind !== 'var-positional' && q.kind !== 'var-keyword');
    if (p) {
      if (bound.has(name)) return undefined;
      bound.set(name, arg(node));
    } else if (varKw) {
      keywords.add(name);
      const kb = arg(node);
      extraKw.push([{ t: 'str', v: name }, kb.value]);
      bound.set(`${varKw.name}${stepText({ key: name })}`, kb);
    } else return undefined;
  }
  // `**kwargs` read whole (`if kwargs:`): the keywords no named parameter takes (a dict when their values are
  // literals), their number known unless the call splats a mapping.
  if (varKw) {
    const entries = extraKw.every((e): e is [PyVal, PyVal] => !!e[1]) ? extraKw : undefined;
    const given = keywords.size > 0;
    bound.set(varKw.name, args.kwSplat ? { given: undefined } : entries ? { value: { t: 'dict', entries }, given } : { given, length: keywords.size });
  }
  const caller = unpassed(args, params, bound, scopes);
  for (const p of params) {
    const b = bound.get(p.name);
    if (p.noneMeans && b?.value?.t === 'none') bound.set(p.name, { ...b, value: p.noneMeans });
  }
  return { params: bound, keywords, kwSplat: args.kwSplat, ...(caller.size ? { caller } : {}) };
}

/**
 * The parameters the call passes nothing to by name or position: at their defaults, or unknown
 * when a splat may fill them (./splats.ts tells which it can). Returns those only the calling
 * function's own caller can fill, at their defaults (Binding.caller).
 */
function unpassed(args: Args, params: ParamSpec[], bound: Map<string, Bound>, scopes: (() => Scopes) | undefined): Map<string, Bound> {
  const open = args.splatAt !== undefined || args.kwSplat;
  const src = open && scopes ? splatSources(args.splats, scopes()) : undefined;
  const caller = new Map<string, Bound>();
  for (const p of params) {
    if (bound.has(p.name) || p.kind === 'var-positional' || p.kind === 'var-keyword') continue;
    const byPosition = args.splatAt !== undefined && p.kind !== 'keyword-only';
    const fillable = byPosition || (args.kwSplat && p.kind !== 'positional-only');
    const unset: Bound = { value: p.default === 'expr' ? undefined : p.default, given: false };
    if (!open || !fillable || (src && !byPosition && !src.fromCaller && !src.keys.has(p.name))) bound.set(p.name, unset);
    else {
      bound.set(p.name, { given: undefined });
      if (src?.fromCaller && (byPosition || !src.keys.has(p.name))) caller.set(p.name, unset);
    }
  }
  return caller;
}

export interface Verdict {
  raises: Tri;
  /**
   * Not decided here, yet the same on every run: every argument a literal, the path to the raise
   * reading them alone (RaiseCondition.argumentsOnly). Only running the call can say which
   * (analysis/probe.ts); when nothing runs it, it is not reported.
   */
  settled?: true;
  /** One line: why (`always raises`, `mode='rw' is not one of 'r', 'w'`, `raises when seq is empty; seq is not known here`). */
  why: string;
}

/**
 * Whether calling `entry` at `call` reaches the raise. `direct` is false for an indirect path (a
 * library method calling the raising one): the user's arguments are not the raising def's then.
 */
export interface JudgeOptions {
  /** The model's scopes (made on first use): an argument naming a class of the file. */
  scopes?: () => Scopes;
  /** The receiver is fresh from the raising class's constructor (src/semantic/fresh.ts). */
  fresh?: Binding['fresh'];
  /** The rule raises TypeError: a raise that only an argument of another type meets is a type checker's question. */
  typeError?: boolean;
  /** Whether an asyncio event loop runs where the call is (./callcontext.ts), asked only of a rule that tests it. */
  loop?: () => boolean | undefined;
  /** Whether the receiver's lock is held where the call is (./callcontext.ts), asked only of a rule that tests it. */
  held?: () => boolean | undefined;
  /** The libraries' public constants (`asyncio:FIRST_EXCEPTION`), as the grounding interpreter has them. */
  constants?: Constants;
  /** What the semantic model knows of an argument where the call is (./argkinds.ts). */
  kinds?: (n: Node) => Kind | undefined;
}

export function judge(rc: RaiseCondition, call: Node, entry: string, direct: boolean, o: JudgeOptions = {}): Verdict {
  const v = judgeCall(rc, call, entry, direct, o);
  // A generator raises when the iterator the call returns is iterated: not at the call itself.
  if (rc.onIteration && v.raises !== false && !v.settled)
    return { raises: undefined, why: `${v.why} (the raise happens when the iterator the call returns is iterated)` };
  return v;
}

function judgeCall(rc: RaiseCondition, call: Node, entry: string, direct: boolean, o: JudgeOptions): Verdict {
  if (rc.unknown) return { raises: undefined, why: whyUnknown(rc, undefined) };
  if (rc.when.k === 'true' && (rc.entries.includes(entry) || !direct)) return { raises: true, why: 'always raises' };
  // Another public method that calls the raising one (`ZipFile.read()` calls `open()`): the raise's
  // condition is over the raising def's own arguments and state, which the record does not show this
  // caller passing. Only a raise on every path is known to reach the caller's call.
  if (direct && rc.callers?.includes(entry) && !rc.entries.includes(entry) && rc.when.k !== 'true')
    return {
      raises: false,
      why: `${entry}() reaches ${rc.entries[0] ?? 'the raising def'}() through code the record does not show, and the raise there depends on what that code passes`,
    };
  if (!rc.entries.includes(entry) || !direct) {
    const shown = (e: string) => (e.startsWith('<') ? `the ${e.slice(1, -1)}` : `${e}()`);
    const through = direct
      ? `${shown(entry)} reaches ${rc.entries[0] ?? 'the raising def'}() through code the record does not show`
      : 'reached through a library call';
    return {
      raises: undefined,
      why: `${
        rc.when.k === 'true'
          ? 'always raises'
          : `raises when ${
              whyUnknown(rc, undefined)
                .replace(/^raises when /, '')
                .split(';')[0]
            }`
      } once reached; ${through}`,
    };
  }
  return loopVerdict(rc, call, o) ?? judgeBinding(rc, bindArguments(call, rc.params, o.scopes, o.constants, undefined, o.kinds), o);
}

/** Judged once per item of a literal sequence a `for` around the call binds its arguments from (./loops.ts): when every item agrees. */
function loopVerdict(rc: RaiseCondition, call: Node, o: JudgeOptions): Verdict | undefined {
  if (!o.scopes) return undefined;
  const a = readArgs(call);
  const names = new Set([...a.positional, ...a.keywords.values()].filter((n) => n.type === 'identifier').map((n) => n.text));
  const consts = constantsOf(call);
  const items = names.size ? loopItems(call, names, o.scopes(), (n) => consts.get(n)) : undefined;
  if (!items) return undefined;
  const vs = items.map((it) => judgeBinding(rc, bindArguments(call, rc.params, o.scopes, o.constants, it, o.kinds), o));
  if (vs.every((v) => v.raises === false)) return { raises: false, why: `does not raise for any of the ${vs.length} items of the loop around it` };
  if (vs.every((v) => v.raises === true)) return { raises: true, why: `${vs[0]!.why} (each of the ${vs.length} items of the loop around it)` };
  const hits = vs.filter((v) => v.raises === true);
  if (hits.length && vs.every((v) => v.raises !== undefined))
    return { raises: undefined, why: `raises for ${hits.length} of the ${vs.length} items of the loop around it: ${hits[0]!.why}` };
  return undefined;
}

function judgeBinding(rc: RaiseCondition, b: Binding | undefined, o: JudgeOptions): Verdict {
  if (b && o.fresh) b.fresh = o.fresh;
  if (b && o.loop && testsLoop(rc.when)) b.loop = o.loop();
  if (b && o.held && testsHeld(rc.when)) b.held = o.held();
  // `PrettyPrinter(4, 40, 5, stream, True)` (compact is keyword-only), `rmtree(p, onexc=f)` (a keyword of
  // another Python version): the call raises TypeError before the def's body runs, so never this raise.
  if (!b) return { raises: false, why: "the call's arguments do not fit the def's signature: a TypeError at the call, before the raise" };
  const v = evaluate(rc.when, b);
  // `subprocess.run(cmd, check=True)`: the raise needs a flag the call sets to ask for the error.
  const asked = [...b.params].find(([n, x]) => ASKS_FOR_ERROR.has(n) && x.given && x.value?.t === 'bool' && x.value.v && requiresTruthy(rc.when, n));
  if (asked && v !== false) return { raises: false, why: `the call asks for the error (${asked[0]}=True)` };
  if (v === true) return { raises: true, why: whyTrue(rc.when, b) };
  // `Thread.start()`'s `not self._initialized`, Popen's `not _can_fork_exec`: nothing at the call decides it, nothing there to act on.
  if (v === undefined && (onlyLibraryState(rc.when) || onlyLibraryState(residual(rc.when, b), true)) && !stateTouched(rc.when, b))
    return { raises: false, why: "depends only on the library's own state (its invariants), not on the call" };
  if (v === false && evaluate(rc.when, { ...b, fresh: undefined }) !== false)
    return { raises: false, why: `does not raise on an object fresh from its constructor (${describeArgs(b) || 'these arguments'})` };
  if (v === false) return { raises: false, why: `does not raise for ${describeArgs(b) || 'these arguments'}` };
  // `namedtuple('Point', 'x y')`, `ip_network('10.0.0.0/8')`: every argument a literal, a condition over them alone.
  if (v === undefined && rc.argumentsOnly && allKnown(b))
    return {
      raises: undefined,
      settled: true,
      why: `the call's literal arguments decide it (${describeArgs(b) || 'the defaults'}): it raises on every run or on none, whatever the program's data`,
    };
  // `BZ2File(self.filename)`, `get_type_hints(obj)`: a TypeError that only an argument of another type meets, its type not known here.
  // `def spawn(cmd, **kw): Popen(cmd, **kw)`: what only spawn's caller can pass is judged where it passes it.
  if (v === undefined && b.caller && evaluate(rc.when, { ...b, params: new Map([...b.params, ...b.caller]) }) === false) {
    const named = [...paramsOf(residual(rc.when, b))].filter((n) => b.caller!.has(n));
    return {
      raises: false,
      why: `raises only for ${named.join(', ') || 'arguments'} passed through from the calling function's own caller (the defaults here do not raise)`,
    };
  }
  // Also a raise of another class under a failed `operator.index()` (random's "non-integer arg 1"): a type checker's question too.
  // Of an argument whose value the call shows (`asdict({...})`), the type is known: not the type checker's question.
  const typeTest =
    v === undefined && (o.typeError || failsOnIndex(rc.when))
      ? onlyTypeTests(residual(rc.when, b), new Set(rc.params.map((p) => p.name).filter((n) => b.params.get(n)?.value === undefined)), o.typeError)
      : undefined;
  if (typeTest) return { raises: false, why: `raises only when ${condText(typeTest)} (a type checker's question: the argument's type is not known here)` };
  return { raises: undefined, why: whyUnknown(rc, b) };
}

/** Every parameter is known: a literal argument, or a literal default. */
function allKnown(b: Binding): boolean {
  if (b.kwSplat) return false;
  for (const x of b.params.values()) if (x.given === undefined || x.value === undefined) return false;
  return true;
}

/** The raise needs `param` to be true: it is a conjunct of the condition. */
function requiresTruthy(c: Cond, param: string): boolean {
  if (c.k === 'truthy') return c.param === param;
  if (c.k === 'and') return c.es.some((e) => requiresTruthy(e, param));
  return false;
}

function describeArgs(b: Binding): string {
  return [...b.params]
    .filter(([, x]) => x.given && x.value)
    .map(([n, x]) => `${n}=${pyRepr(x.value!)}`)
    .join(', ');
}
