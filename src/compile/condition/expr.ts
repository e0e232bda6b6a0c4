/**
 * A test expression of the raising def (`mode not in ('r', 'w')`, `not seq`, `x is None`,
 * `isinstance(n, int)`, `'key' in kwargs`) as a `Cond` over its parameters; what it cannot read
 * over parameters and literals is `data` (state, a helper's result, a local variable).
 */
import type { Node } from '../../parse/parser.js';
import { contains, field, namedChildren } from '../../parse/syntax.js';
import { literalOf } from '../../rules/condition/literal.js';
import { PATH_METHODS, stepText, prefixArg } from '../../rules/condition/derived.js';
import { and, not, or, truthy } from '../../rules/condition/simplify.js';
import type { CmpOp, Cond, ParamSpec, PyVal } from '../../rules/condition/types.js';
import { boundValue, keywordRead, onlyShrunk, reaches, readAssigns, reboundValues, sentinelOf, unchangedMapping, type Assign } from './assigns.js';
import { keywordsLeft } from './kwpops.js';
import { literalContainer, unknownKeyword } from './locals.js';
import { compare } from '../../rules/condition/eval.js';
import { build, data, defaultMember, FLIP, keyword, kindCall, nonEmpty, OPS } from './atoms.js';
import { ClassState, selfAttr } from './state.js';
import { contextTest, withHeld } from './context.js';
import { unchangedBefore } from './unchanged.js';
import { HARD_KEYWORDS } from '../../python/identifier.js';
import { calleeLibraryName } from './pure.js';
import { convertedParam } from './converts.js';
import { guardedRead, guardsFor } from './libdefault.js';
import { classIdentity, isinstanceOf, type ModuleDefs, throughHelper, twoConstants, typeArg, typeNames } from './helpers.js';

/** `present`: a local bound to an attribute every object has (`getattr(x, "__reduce_ex__", None)`): never None, always true. `kw`: a keyword read from `**kwargs` (`kwargs.pop('style', '%')`): its value when passed, else `dflt` (`raises`: `pop` with no default; undefined: not known). */
type Side =
  | { param: string; len?: boolean; numeric?: true }
  | { value: PyVal }
  | { sentinel: string }
  | { present: true }
  | { kw: string; key: string; dflt: PyVal | 'raises' | undefined }
  | undefined;

export class ExprReader {
  private readonly assigns: Assign[];
  constructor(
    readonly def: Node,
    readonly params: Map<string, ParamSpec>,
    readonly constant: (name: string) => PyVal | undefined,
    /** The keys of a module constant that is a dict with literal keys and computed values (`_STYLES = {'%': PercentStyle, ...}`): all a membership test reads. */
    private readonly keys: (name: string) => PyVal | undefined = () => undefined,
    /** A class the module binds once (`class _empty:`): `x is _empty` compares with a class object. */
    private readonly classOf: (name: string) => PyVal | undefined = () => undefined,
    /** The module's helper predicates and plain classes (./helpers.ts). */
    private readonly defs?: ModuleDefs,
    /** How many helpers deep this reader is (a helper's return read for its caller). */
    private readonly depth = 0,
  ) {
    this.assigns = readAssigns(def, params, constant);
  }

  /** A bare parameter readable at `row`: not rebound before it (a None replaced by a literal is kept, see ParamSpec.noneMeans). */
  private param(n: Node): string | undefined {
    // `args[0]` of `*args`: the call's first extra positional argument (match/bind.ts binds `args[0]`).
    if (n.type === 'subscript') {
      const v = field(n, 'value');
      const i = field(n, 'subscript');
      const own = v?.type === 'identifier' && this.params.get(v.text)?.kind === 'var-positional';
      if (own && i?.type === 'integer' && /^\d+$/.test(i.text) && !this.assigns.some((a) => a.name === v.text && reaches(a, n, this.def)))
        return `${v.text}[${i.text}]`;
      return undefined;
    }
    if (n.type !== 'identifier' || this.hidden.has(n.text)) return undefined;
    const p = this.params.get(n.text);
    // `*args` is a tuple of what the call passes positionally (match/bind.ts binds it); `**kwargs` is read
    // by key, or whole (`if kwargs:`, bound to the keywords the call passes) while nothing before can change it.
    if (!p || (p.kind === 'var-keyword' && !unchangedMapping(this.def, n, this.params, this.constant))) return undefined;
    // Guarded rebindings are read by `cond` (the test holds on the parameter when no guard does).
    const before = this.assigns.filter((a) => a.name === n.text && reaches(a, n, this.def) && !(this.guarded && a.guard && !a.noneMeans));
    if (!before.length) return n.text;
    if (before.length === 1 && before[0]!.noneMeans) {
      p.noneMeans = before[0]!.noneMeans;
      return n.text;
    }
    return undefined;
  }
  private classState: ClassState | null | undefined;

  /**
   * `self.<attr>` tested at `whole` (`truthy`: `if not self.fp:`; `none`: `self.fp is None`) as data
   * that says its value on an object fresh from its constructor (./state.ts), when the class says it.
   * Its text says what the fact tests (`x is None` for `x is not None` too: the caller negates both).
   */
  private stateTest(attr: Node, whole: Node, test: 'truthy' | 'none'): Cond | undefined {
    const name = selfAttr(attr);
    if (!name) return undefined;
    if (this.classState === undefined) this.classState = ClassState.of(this.def, this.constant) ?? null;
    const fact = this.classState?.fact(name, test);
    if (!fact || !unchangedBefore(this.def, whole, fact)) return undefined;
    return { k: 'data', text: (test === 'none' ? `${attr.text} is None` : whole.text).replace(/\s+/g, ' ').slice(0, 80), state: fact };
  }

  /** While a test is read under its guards (see `cond`): guarded rebindings do not hide the parameter. */
  private guarded = false;

  /** A guarded rebinding's value read in place of the parameter (assigns.ts `reboundValues`), else the node itself. */
  private through(n: Node): Node {
    return (n.type === 'identifier' && this.substitute.get(n.text)) || n;
  }

  private substitute = new Map<string, Node>();
  /** Parameters read as data (not known) while a test is read under the guards that rebind them. */
  private hidden = new Set<string>();

  /** A parameter whose length (`items`: its items' kinds) is known at `row`: not rebound before it, or rebound only by `sorted`/`list`/`tuple` (`set`) of itself. */
  private readonly itemsParam = (name: string, row: number) => this.lengthParam(name, row, true);
  private lengthParam(name: string, row: number, items = false): string | undefined {
    const p = this.hidden.has(name) ? undefined : this.params.get(name);
    if (!p || p.kind === 'var-keyword') return undefined;
    return this.assigns.every((a) => a.name !== name || a.row >= row || (items ? a.keepsItems : a.keepsLength)) ? name : undefined;
  }

  side(n: Node): Side {
    if (n.type === 'parenthesized_expression' && namedChildren(n).length === 1) return this.side(namedChildren(n)[0]!);
    const p = this.param(n) ?? this.path(n);
    if (p) return { param: p };
    const kw = n.type === 'call' ? keywordRead(n, this.params, this.constant) : undefined;
    if (kw && unchangedMapping(this.def, kw.kw, this.params, this.constant, kw.key)) {
      const dflt = kw.dflt ? literalOf(kw.dflt, this.constant) : kw.pop ? 'raises' : { t: 'none' as const };
      return { kw: kw.kw.text, key: kw.key, dflt };
    }
    if (n.type === 'call' && field(n, 'function')?.text === 'len') {
      const args = namedChildren(field(n, 'arguments') ?? n);
      const q = args.length === 1 && args[0]!.type === 'identifier' ? this.lengthParam(args[0]!.text, n.startPosition.row) : undefined;
      if (q) return { param: q, len: true };
    }
    // `n = len(data)` once before the test: `n` is the parameter's length.
    if (n.type === 'identifier' && !this.params.has(n.text)) {
      const before = this.assigns.filter((a) => a.name === n.text && reaches(a, n, this.def));
      const only = before.length === 1 ? before[0]! : undefined;
      const q = only?.lenOf ? this.lengthParam(only.lenOf, only.row) : undefined;
      if (q && this.assigns.every((a) => a.name !== n.text || a === only)) return { param: q, len: true };
      // The binding the test reads: the last one before it, in a block that holds the test (no branch skips it).
      const last = before.length ? before[before.length - 1]! : undefined;
      const block = last?.objectAttr ? last.node.parent?.parent : undefined;
      if (
        last?.objectAttr &&
        block?.type === 'block' &&
        contains(block, n) &&
        !this.assigns.some((a) => a.name === n.text && a.row > last.row && a.row <= n.startPosition.row)
      )
        return { present: true };
    }
    const converted = convertedParam(n, this.assigns, this.params);
    if (converted) return { param: converted, numeric: true };
    const bound = boundValue(n, this.def, this.assigns, this.params);
    if (bound) return this.side(bound);
    const v = literalContainer(n, this.def, this.assigns, this.params, this.constant) ?? literalOf(n, this.constant);
    if (v) return { value: v };
    const sentinel = sentinelOf(n, this.def, this.assigns, this.params);
    if (sentinel) return { sentinel };
    const cls = n.type === 'identifier' && !this.assigns.some((a) => a.name === n.text) ? this.classOf(n.text) : undefined;
    return cls ? { value: cls } : undefined;
  }

  /** A value read from a parameter (`name[0]`, `name[1:]`, `name.isdigit()`), named by its path (rules/condition/derived.ts). */
  private path(n: Node): string | undefined {
    if (n.type === 'subscript') {
      const base = this.pathBase(field(n, 'value'));
      const sub = field(n, 'subscript')?.text.replace(/\s+/g, '') ?? '';
      const index = /^-?\d+$/.test(sub) ? { index: Number(sub) } : undefined;
      const range = /^(-?\d*):(-?\d*)$/.exec(sub);
      const step = index ?? (range && { ...(range[1] ? { from: Number(range[1]) } : {}), ...(range[2] ? { to: Number(range[2]) } : {}) });
      return base && step ? base + stepText(step) : undefined;
    }
    const fn = n.type === 'call' ? field(n, 'function') : null;
    const name = fn?.type === 'attribute' ? (field(fn, 'attribute')?.text ?? '') : '';
    const base = PATH_METHODS.has(name) ? this.pathBase(field(fn!, 'object')) : undefined;
    if (!base) return undefined;
    const args = namedChildren(field(n, 'arguments') ?? n).filter((a) => a.type !== 'comment');
    const withArg = name === 'startswith' || name === 'endswith';
    if (!args.length) return withArg ? undefined : base + stepText({ method: name });
    const arg = withArg && args.length === 1 ? prefixArg(literalOf(args[0], this.constant)) : undefined;
    return arg !== undefined ? base + stepText({ method: name, arg }) : undefined;
  }

  private pathBase(n: Node | null): string | undefined {
    if (!n) return undefined;
    if (n.type === 'parenthesized_expression' && namedChildren(n).length === 1) return this.pathBase(namedChildren(n)[0]!);
    return this.param(n) ?? this.path(n);
  }

  /** The condition that `n` is true. */
  cond(n: Node): Cond {
    if (this.guarded) return this.read(n);
    const gs = guardsFor(n, this.def, this.assigns, this.params);
    if (!gs.length) return this.read(n);
    this.guarded = true;
    try {
      return guardedRead(gs, this.params, this.assigns, (a) => this.read(a.guard!), this.readRebound.bind(this, n));
    } finally {
      this.guarded = false;
      this.hidden = new Set();
      this.substitute = new Map();
    }
  }

  /** Under guards that held, the rebound parameters are not known (but a plain value put there is read); the test's other parts still are (`hardlink_dupes and len(optimize) < 2`). */
  private readRebound(n: Node, held: Assign[]): Cond {
    [this.hidden, this.substitute] = [new Set(held.map((a) => a.name)), reboundValues(held, this.constant)];
    const c = this.read(n);
    [this.hidden, this.substitute] = [new Set(), new Map()];
    return c;
  }

  private read(n: Node): Cond {
    switch (n.type) {
      case 'parenthesized_expression':
        return namedChildren(n).length === 1 ? this.cond(namedChildren(n)[0]!) : data(n);
      case 'not_operator': {
        const arg = field(n, 'argument');
        return arg ? not(this.cond(arg)) : data(n);
      }
      case 'boolean_operator': {
        const l = field(n, 'left');
        const r = field(n, 'right');
        if (!l || !r) return data(n);
        const op = field(n, 'operator')?.text;
        return op === 'and' ? and([this.cond(l), this.cond(r)]) : or([this.cond(l), this.cond(r)]);
      }
      case 'comparison_operator':
        return this.comparison(n);
      case 'call':
        return withHeld(this.call(n), n, this.def);
      default: {
        if (this.through(n) !== n) return this.read(this.through(n));
        const bound = boundValue(n, this.def, this.assigns, this.params);
        if (bound) return this.cond(bound);
        const s = this.side(n);
        if (s && 'kw' in s) return keyword(s, (q) => ({ k: 'truthy', param: q }), truthy, n);
        if (s && 'param' in s) return s.len ? nonEmpty(s.param) : { k: 'truthy', param: s.param };
        if (s && 'value' in s) return truthy(s.value) ? { k: 'true' } : { k: 'false' };
        if (s && 'present' in s) return { k: 'true' };
        return withHeld(this.stateTest(n, n, 'truthy') ?? this.shrunk(n) ?? data(n), n, this.def);
      }
    }
  }

  private comparison(n: Node): Cond {
    const operands = namedChildren(n);
    const ops = n.children.filter((c): c is Node => !!c && !c.isNamed && OPS.has(c.type)).map((c) => c.type as CmpOp);
    if (ops.length !== operands.length - 1 || !ops.length) return data(n);
    const parts: Cond[] = [];
    for (let i = 0; i < ops.length; i++) parts.push(this.pair(operands[i]!, ops[i]!, operands[i + 1]!, n));
    return and(parts);
  }

  private pair(lw: Node, op: CmpOp, rw: Node, whole: Node): Cond {
    const ln = this.through(lw);
    const rn = this.through(rw);
    // `type(x) in (list, tuple)`, `type(x) is str`: the exact class.
    const ofType = this.typeOf(ln);
    const exactTypes =
      ofType && (op === 'in' || op === 'not in' ? rn.type === 'tuple' : op !== '<' && op !== '>' && op !== '<=' && op !== '>=' && rn.type !== 'binary_operator')
        ? typeNames(rn)
        : undefined;
    if (ofType && exactTypes) {
      const c = isinstanceOf(ofType, exactTypes, { exact: true }, this.defs);
      return op === 'in' || op === 'is' || op === '==' ? c : not(c);
    }
    // `klass != Logger`: the parameter is (or is not) a plain class of the module itself.
    const sameClass = (p: Node, c: Node) => (this.assigns.some((a) => a.name === c.text) ? undefined : classIdentity(this.param(p), c, this.defs));
    const cls = op === '==' || op === '!=' || op === 'is' || op === 'is not' ? (sameClass(ln, rn) ?? sameClass(rn, ln)) : undefined;
    if (cls) return op === '==' || op === 'is' ? cls : not(cls);
    const unknownKw = op === 'not in' && unknownKeyword(ln, rn, this.def, this.assigns, this.params, this.constant);
    if (unknownKw) return unknownKw;
    const l = this.side(ln);
    const keys = (op === 'in' || op === 'not in') && rn.type === 'identifier' && !this.assigns.some((a) => a.name === rn.text) ? this.keys(rn.text) : undefined;
    const r = this.side(rn) ?? (keys && { value: keys });
    // `'key' in kwargs`: keyword presence.
    if ((op === 'in' || op === 'not in') && l && 'value' in l && l.value.t === 'str' && rn.type === 'identifier') {
      const kw = this.params.get(rn.text);
      if (kw?.kind === 'var-keyword' && !this.assigns.some((a) => a.name === rn.text)) {
        const given: Cond = { k: 'given', param: rn.text, key: l.value.v };
        return op === 'in' ? given : not(given);
      }
    }
    // `kwargs.get('key') is not None`: the keyword was passed, and not as None.
    const got = this.kwargsGet(ln) ?? this.kwargsGet(rn);
    const other = got && this.kwargsGet(ln) ? rn : ln;
    if (got && other.type === 'none' && (op === 'is' || op === 'is not' || op === '==' || op === '!=')) return op === 'is not' || op === '!=' ? got : not(got);
    // `x is MISSING` where MISSING is x's own default: whether x was passed.
    const sentinel = (s: Side, o: Side): string | undefined =>
      s && 'param' in s && !s.len && o && 'sentinel' in o && this.params.get(s.param)?.defaultText === o.sentinel ? s.param : undefined;
    const sp = sentinel(l, r) ?? sentinel(r, l);
    if (sp && (op === 'is' || op === 'is not' || op === '==' || op === '!=')) {
      const given: Cond = { k: 'given', param: sp };
      return op === 'is not' || op === '!=' ? given : not(given);
    }
    // `x not in (A, B, C)` / `x == C` where the constant C is x's own default (`return_when=ALL_COMPLETED`):
    // decided when x is not passed, whatever C's value (another module's constant).
    const byDefault = defaultMember(this.params, l, op, rn) ?? (FLIP[op] && (op === '==' || op === '!=') ? defaultMember(this.params, r, op, ln) : undefined);
    if (byDefault) return byDefault(whole);
    // A local bound to an attribute every object has is never None.
    const present = (l && 'present' in l && rn.type === 'none') || (r && 'present' in r && ln.type === 'none');
    if (present && (op === 'is' || op === '==')) return { k: 'false' };
    if (present && (op === 'is not' || op === '!=')) return { k: 'true' };
    const rk = r && 'value' in r ? r.value : keys ? keys : undefined;
    if (l && 'kw' in l && rk)
      return keyword(
        l,
        (q) => build({ param: q }, op, rk),
        (v) => compare(v, op, rk),
        whole,
      );
    if (r && 'kw' in r && l && 'value' in l && FLIP[op])
      return keyword(
        r,
        (q) => build({ param: q }, FLIP[op]!, l.value),
        (v) => compare(v, FLIP[op]!, l.value),
        whole,
      );
    // Another parameter's sentinel that is a class of the module (`name is _empty`, `_empty` the default of `default=`).
    const lv = this.sentinelClass(l, ln);
    const rv = this.sentinelClass(r, rn);
    if (l && 'param' in l && rv) return build(l, op, rv);
    if (r && 'param' in r && lv && FLIP[op]) return build(r, FLIP[op]!, lv);
    if (l && 'value' in l && r && 'value' in r) return twoConstants(ln, op, rn, whole, this.constant);
    // `self.fp is None`: the receiver's state (./state.ts).
    const attr = !l && rn.type === 'none' ? ln : !r && ln.type === 'none' ? rn : undefined;
    const st = attr && (op === 'is' || op === 'is not' || op === '==' || op === '!=') ? this.stateTest(attr, whole, 'none') : undefined;
    if (st) return op === 'is' || op === '==' ? st : not(st);
    // `self is current_thread()`: never an object the caller has just constructed (./state.ts).
    return contextTest(ln, op, rn, this.assigns) ?? data(whole);
  }

  /** `if kwargs:` after `kwargs.pop(...)`s (./assigns.ts onlyShrunk): over the keywords the call passes and those popped (./kwpops.ts). */
  private shrunk(n: Node): Cond | undefined {
    const p = n.type === 'identifier' && !this.hidden.has(n.text) ? this.params.get(n.text) : undefined;
    if (p?.kind !== 'var-keyword' || !onlyShrunk(this.def, n)) return undefined;
    return keywordsLeft(this.def, n, this.params, this.constant, data(n));
  }

  /** A side's value; a sentinel's when it is a class the module binds once. */
  private sentinelClass(s: Side, n: Node): PyVal | undefined {
    if (s && 'value' in s) return s.value;
    if (!s || !('sentinel' in s) || n.type !== 'identifier' || this.assigns.some((a) => a.name === n.text)) return undefined;
    return this.classOf(n.text);
  }

  private typeOf(n: Node): string | undefined {
    const x = typeArg(n);
    return x ? this.param(x) : undefined;
  }

  /** `kwargs.get('key')` (or `kwargs.get('key', None)`) on the `**kwargs` parameter: passed, and not as None. */
  private kwargsGet(n: Node): Cond | undefined {
    const r = n.type === 'call' ? keywordRead(n, this.params, this.constant) : undefined;
    if (!r || r.pop || (r.dflt && r.dflt.type !== 'none') || this.assigns.some((a) => a.name === r.kw.text && reaches(a, n, this.def))) return undefined;
    const passed = `${r.kw.text}${stepText({ key: r.key })}`;
    return and([
      { k: 'given', param: r.kw.text, key: r.key },
      { k: 'cmp', param: passed, op: 'is not', value: { t: 'none' } },
    ]);
  }

  private call(n: Node): Cond {
    const fn = field(n, 'function')?.text;
    const args = namedChildren(field(n, 'arguments') ?? n).filter((a) => a.type !== 'comment');
    if ((fn === 'isinstance' || fn === 'issubclass') && args.length === 2) {
      const what = this.through(args[0]!);
      const types = typeNames(args[1]!);
      // A class of something is a class: `isinstance(type(x), type)`.
      if (fn === 'isinstance' && types?.length === 1 && types[0] === 'type' && typeArg(what)) return { k: 'true' };
      // `issubclass(type(x), T)` is `isinstance(x, T)` (mock's `_is_instance_mock`).
      const ofType = fn === 'issubclass' ? this.typeOf(what) : undefined;
      const p = ofType ?? this.param(what);
      if (p && types) return isinstanceOf(p, types, fn === 'issubclass' && !ofType ? { subclass: true } : {}, this.defs);
    }
    const kindTest = kindCall(n, (a) => this.param(this.through(a)), this.itemsParam);
    if (kindTest) return kindTest;
    // `keyword.iskeyword(name)` (any import of it): whether the name is one of Python's keywords.
    const callee = field(n, 'function');
    if (args.length === 1 && callee && calleeLibraryName(callee) === 'keyword.iskeyword') {
      const p = this.param(args[0]!) ?? this.path(args[0]!);
      if (p) return { k: 'cmp', param: p, op: 'in', value: { t: 'tuple', items: HARD_KEYWORDS.map((v) => ({ t: 'str', v })) } };
    }
    const helper = field(n, 'function')?.type === 'identifier' && fn && this.depth < 3 ? this.defs?.helper(fn) : undefined;
    if (helper) {
      const child = (params: Map<string, ParamSpec>) => new ExprReader(helper.def, params, this.constant, this.keys, this.classOf, this.defs, this.depth + 1);
      const c = throughHelper(
        helper,
        n,
        args,
        (a) => this.param(a) ?? this.path(a),
        (params, e) => child(params).cond(e),
      );
      if (c) return c;
    }
    if (fn === 'len' || fn === 'bool') {
      const s = this.side(n);
      if (s && 'param' in s && s.len) return nonEmpty(s.param);
      const q = fn === 'bool' && args.length === 1 ? this.param(args[0]!) : undefined;
      if (q) return { k: 'truthy', param: q };
    }
    const path = this.path(n);
    return path ? { k: 'truthy', param: path } : data(n);
  }
}
