/**
 * A test expression of the raising def (`mode not in ('r', 'w')`, `not seq`, `x is None`,
 * `isinstance(n, int)`, `'key' in kwargs`) as a `Cond` over its parameters; what it cannot read
 * over parameters and literals is `data` (state, a helper's result, a local variable).
 */
import type { Node } from '../../parse/parser.js';
import { contains, dottedName, field, namedChildren, stringValue } from '../../parse/syntax.js';
import { literalOf } from '../../rules/condition/literal.js';
import { and, not, or, truthy } from '../../rules/condition/simplify.js';
import type { CmpOp, Cond, ParamSpec, PyVal } from '../../rules/condition/types.js';

const SCOPES = new Set(['function_definition', 'lambda', 'class_definition']);
const FLIP: Partial<Record<CmpOp, CmpOp>> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=', '==': '==', '!=': '!=', is: 'is', 'is not': 'is not' };
const OPS = new Set<string>(['==', '!=', '<', '<=', '>', '>=', 'in', 'not in', 'is', 'is not']);

/** `present`: a local bound to an attribute every object has (`getattr(x, "__reduce_ex__", None)`): never None, always true. */
type Side = { param: string; len?: boolean } | { value: PyVal } | { sentinel: string } | { present: true } | undefined;

/**
 * Attributes of `object` itself, which every Python object has and which are never None (`__hash__`
 * and `__doc__` may be None, so they are not here): `getattr(x, "__reduce_ex__", None)` is never the default.
 */
const OBJECT_ATTRIBUTES = new Set([
  '__class__',
  '__delattr__',
  '__dir__',
  '__eq__',
  '__format__',
  '__ge__',
  '__getattribute__',
  '__gt__',
  '__init__',
  '__init_subclass__',
  '__le__',
  '__lt__',
  '__ne__',
  '__new__',
  '__reduce__',
  '__reduce_ex__',
  '__repr__',
  '__setattr__',
  '__sizeof__',
  '__str__',
  '__subclasshook__',
]);

/** `getattr(<any>, "<an attribute of object>", <default>)`. */
function objectAttribute(n: Node | null): boolean {
  if (n?.type !== 'call' || field(n, 'function')?.text !== 'getattr') return false;
  const args = namedChildren(field(n, 'arguments') ?? n).filter((a) => a.type !== 'comment');
  const name = args[1]?.type === 'string' ? stringValue(args[1]) : undefined;
  return args.length >= 2 && !!name && OBJECT_ATTRIBUTES.has(name);
}

interface Assign {
  name: string;
  row: number;
  /** `if p is None: p = <literal>` / `p = <literal> if p is None else p`. */
  noneMeans?: PyVal;
  /** `p = sorted(p)` / `list(p)` / `tuple(p)`: a rebinding that keeps the parameter's length. */
  keepsLength?: boolean;
  /** A rebinding under `if G:` (no `elif`/`else`) in the def's own body: when G is false the parameter keeps its value. */
  guard?: Node;
  /** A local `n = len(p)` of a parameter: `n` stands for the parameter's length. */
  lenOf?: string;
  /** A local bound to `getattr(x, "<an attribute of object>", default)`: the assignment statement. */
  objectAttr?: Node;
}

export class ExprReader {
  private readonly assigns: Assign[];

  constructor(
    def: Node,
    private readonly params: Map<string, ParamSpec>,
    private readonly constant: (name: string) => PyVal | undefined,
    /** The keys of a module constant that is a dict with literal keys and computed values (`_STYLES = {'%': PercentStyle, ...}`): all a membership test reads. */
    private readonly keys: (name: string) => PyVal | undefined = () => undefined,
  ) {
    this.assigns = readAssigns(def, params, constant);
  }

  /** A bare parameter readable at `row`: not rebound before it (a None replaced by a literal is kept, see ParamSpec.noneMeans). */
  private param(n: Node): string | undefined {
    if (n.type !== 'identifier') return undefined;
    const p = this.params.get(n.text);
    // `*args` is a tuple of what the call passes positionally (match/bind.ts binds it); `**kwargs` is read by key only.
    if (!p || p.kind === 'var-keyword') return undefined;
    // Guarded rebindings are read by `cond` (the test holds on the parameter when no guard does).
    const before = this.assigns.filter((a) => a.name === n.text && a.row < n.startPosition.row && !(this.guarded && a.guard && !a.noneMeans));
    if (!before.length) return n.text;
    if (before.length === 1 && before[0]!.noneMeans) {
      p.noneMeans = before[0]!.noneMeans;
      return n.text;
    }
    return undefined;
  }

  /** While a test is read under its guards (see `cond`): guarded rebindings do not hide the parameter. */
  private guarded = false;

  /**
   * `if isinstance(message, Warning): category = message.__class__` before the test: the test is
   * read over the parameter, and holds as written only when no such guard does; when one does,
   * the parameter's value is not known there.
   */
  private guards(n: Node): Node[] {
    const row = n.startPosition.row;
    const names = new Set(n.type === 'identifier' ? [n.text] : n.descendantsOfType('identifier').map((x) => x?.text ?? ''));
    return this.assigns.filter((a) => a.guard && !a.noneMeans && a.row < row && names.has(a.name) && this.params.has(a.name)).map((a) => a.guard!);
  }

  /** A parameter whose length is known at `row`: not rebound before it, or rebound only by `sorted`/`list`/`tuple` of itself. */
  private lengthParam(name: string, row: number): string | undefined {
    const p = this.params.get(name);
    if (!p || p.kind === 'var-keyword') return undefined;
    return this.assigns.every((a) => a.name !== name || a.row >= row || a.keepsLength) ? name : undefined;
  }

  private side(n: Node): Side {
    if (n.type === 'parenthesized_expression' && namedChildren(n).length === 1) return this.side(namedChildren(n)[0]!);
    const p = this.param(n);
    if (p) return { param: p };
    if (n.type === 'call' && field(n, 'function')?.text === 'len') {
      const args = namedChildren(field(n, 'arguments') ?? n);
      const q = args.length === 1 && args[0]!.type === 'identifier' ? this.lengthParam(args[0]!.text, n.startPosition.row) : undefined;
      if (q) return { param: q, len: true };
    }
    // `n = len(data)` once before the test: `n` is the parameter's length.
    if (n.type === 'identifier' && !this.params.has(n.text)) {
      const before = this.assigns.filter((a) => a.name === n.text && a.row < n.startPosition.row);
      const only = before.length === 1 ? before[0]! : undefined;
      const q = only?.lenOf ? this.lengthParam(only.lenOf, only.row) : undefined;
      if (q && this.assigns.every((a) => a.name !== n.text || a === only)) return { param: q, len: true };
      // The binding the test reads: the last one before it, in a block that holds the test (no branch skips it).
      const last = before.length ? before[before.length - 1]! : undefined;
      const block = last?.objectAttr?.parent?.parent;
      if (
        last?.objectAttr &&
        block?.type === 'block' &&
        contains(block, n) &&
        !this.assigns.some((a) => a.name === n.text && a.row > last.row && a.row <= n.startPosition.row)
      )
        return { present: true };
    }
    const v = literalOf(n, this.constant);
    if (v) return { value: v };
    if ((n.type === 'identifier' || n.type === 'attribute') && [...this.params.values()].some((q) => q.defaultText === n.text)) return { sentinel: n.text };
    return undefined;
  }

  /** The condition that `n` is true. */
  cond(n: Node): Cond {
    if (this.guarded) return this.read(n);
    const gs = this.guards(n);
    if (!gs.length) return this.read(n);
    this.guarded = true;
    try {
      const g = or(gs.map((x) => this.read(x)));
      return or([and([not(g), this.read(n)]), and([g, data(n)])]);
    } finally {
      this.guarded = false;
    }
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
        return this.call(n);
      default: {
        const s = this.side(n);
        if (s && 'param' in s) return s.len ? nonEmpty(s.param) : { k: 'truthy', param: s.param };
        if (s && 'value' in s) return truthy(s.value) ? { k: 'true' } : { k: 'false' };
        if (s && 'present' in s) return { k: 'true' };
        return data(n);
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

  private pair(ln: Node, op: CmpOp, rn: Node, whole: Node): Cond {
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
    // `kwargs.get('key') is not None`: keyword presence (a `None` passed for it reads as not passed).
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
    const byDefault = this.defaultMember(l, op, rn) ?? (FLIP[op] && (op === '==' || op === '!=') ? this.defaultMember(r, op, ln) : undefined);
    if (byDefault) return byDefault(whole);
    // A local bound to an attribute every object has is never None.
    const present = (l && 'present' in l && rn.type === 'none') || (r && 'present' in r && ln.type === 'none');
    if (present && (op === 'is' || op === '==')) return { k: 'false' };
    if (present && (op === 'is not' || op === '!=')) return { k: 'true' };
    if (l && 'param' in l && r && 'value' in r) return build(l, op, r.value);
    if (r && 'param' in r && l && 'value' in l && FLIP[op]) return build(r, FLIP[op]!, l.value);
    if (l && 'value' in l && r && 'value' in r) return { k: 'data', text: whole.text };
    return data(whole);
  }

  /**
   * A test of a parameter against its own default constant (an UPPER_CASE name, maybe dotted): `in` /
   * `==` hold when it is not passed, `not in` / `!=` do not; when it is passed, the data decides.
   */
  private defaultMember(s: Side, op: CmpOp, other: Node): ((whole: Node) => Cond) | undefined {
    if (!s || !('param' in s) || s.len) return undefined;
    const d = this.params.get(s.param)?.defaultText;
    if (!d || !/^(?:[A-Za-z_]\w*\.)*_*[A-Z][A-Z0-9_]*$/.test(d)) return undefined;
    const member =
      (op === 'in' || op === 'not in') && ['tuple', 'list', 'set'].includes(other.type)
        ? namedChildren(other).some((e) => e.text === d)
        : (op === '==' || op === '!=') && other.text === d;
    if (!member) return undefined;
    const given: Cond = { k: 'given', param: s.param };
    const holds = op === 'in' || op === '==';
    return (whole) => (holds ? or([not(given), and([given, data(whole)])]) : and([given, data(whole)]));
  }

  /** `kwargs.get('key')` (or `kwargs.get('key', None)`) on the `**kwargs` parameter: whether that keyword was passed. */
  private kwargsGet(n: Node): Cond | undefined {
    if (n.type !== 'call') return undefined;
    const fn = field(n, 'function');
    if (fn?.type !== 'attribute' || field(fn, 'attribute')?.text !== 'get') return undefined;
    const obj = field(fn, 'object');
    if (
      obj?.type !== 'identifier' ||
      this.params.get(obj.text)?.kind !== 'var-keyword' ||
      this.assigns.some((a) => a.name === obj.text && a.row < n.startPosition.row)
    )
      return undefined;
    const args = namedChildren(field(n, 'arguments') ?? n).filter((a) => a.type !== 'comment');
    if (!args.length || args.length > 2 || (args[1] && args[1].type !== 'none')) return undefined;
    const key = this.side(args[0]!);
    return key && 'value' in key && key.value.t === 'str' ? { k: 'given', param: obj.text, key: key.value.v } : undefined;
  }

  private call(n: Node): Cond {
    const fn = field(n, 'function')?.text;
    const args = namedChildren(field(n, 'arguments') ?? n).filter((a) => a.type !== 'comment');
    if ((fn === 'isinstance' || fn === 'issubclass') && args.length === 2) {
      const p = this.param(args[0]!);
      const t = args[1]!;
      const types = t.type === 'tuple' || t.type === 'parenthesized_expression' ? namedChildren(t).map((x) => dottedName(x)) : [dottedName(t)];
      if (p && types.every((x): x is string => !!x))
        return fn === 'issubclass' ? { k: 'isinstance', param: p, types, subclass: true } : { k: 'isinstance', param: p, types };
    }
    if (fn === 'len' || fn === 'bool') {
      const s = this.side(n);
      if (s && 'param' in s && s.len) return nonEmpty(s.param);
      const q = fn === 'bool' && args.length === 1 ? this.param(args[0]!) : undefined;
      if (q) return { k: 'truthy', param: q };
    }
    return data(n);
  }
}

function build(s: { param: string; len?: boolean }, op: CmpOp, v: PyVal): Cond {
  if (s.len) return op !== 'is' && op !== 'is not' ? { k: 'len', param: s.param, op, value: v } : { k: 'data', text: `len(${s.param}) ${op} ${v.t}` };
  return { k: 'cmp', param: s.param, op, value: v };
}

const nonEmpty = (param: string): Cond => ({ k: 'len', param, op: '!=', value: { t: 'int', v: 0 } });

function data(n: Node): Cond {
  return { k: 'data', text: n.text.replace(/\s+/g, ' ').slice(0, 80) };
}

const BINDERS = [
  'assignment',
  'augmented_assignment',
  'for_statement',
  'for_in_clause',
  'named_expression',
  'as_pattern_target',
  'delete_statement',
  'global_statement',
  'nonlocal_statement',
];

/** `n` lies in a function, lambda or class nested in `def`. */
function inNestedScope(n: Node, def: Node): boolean {
  for (let p = n.parent; p && p.id !== def.id; p = p.parent) if (SCOPES.has(p.type)) return true;
  return false;
}

/** Every binding of a parameter inside `def` (not nested scopes), with the None-replacement patterns recognised. */
function readAssigns(def: Node, params: Map<string, ParamSpec>, constant: (name: string) => PyVal | undefined): Assign[] {
  const out: Assign[] = [];
  const body = field(def, 'body');
  if (!body) return out;
  // One search of the tree for the binding statements (in document order), then those of nested scopes dropped.
  for (const n of body.descendantsOfType(BINDERS)) {
    if (!n || inNestedScope(n, def)) continue;
    const targets: Node[] = [];
    if (n.type === 'assignment' || n.type === 'augmented_assignment') targets.push(field(n, 'left')!);
    else if (n.type === 'for_statement' || n.type === 'for_in_clause') targets.push(field(n, 'left')!);
    else if (n.type === 'named_expression') targets.push(field(n, 'name')!);
    else if (n.type === 'as_pattern_target' || n.type === 'delete_statement' || n.type === 'global_statement' || n.type === 'nonlocal_statement')
      targets.push(n);
    for (const t of targets) {
      if (!t) continue;
      // `kwargs['k'] = v` and `obj.attr = v` bind no name: only names, and the names in a tuple or list target.
      const ids =
        t.type === 'identifier'
          ? [t]
          : t.type === 'subscript' || t.type === 'attribute'
            ? []
            : t.descendantsOfType('identifier').filter((x): x is Node => !!x && x.parent?.type !== 'subscript' && x.parent?.type !== 'attribute');
      for (const id of ids) {
        if (params.has(id.text))
          out.push({
            name: id.text,
            row: n.startPosition.row,
            noneMeans: noneReplacement(n, id.text, constant),
            keepsLength: keepsLength(n, id.text),
            guard: guardOf(n, def),
          });
        else
          out.push({
            name: id.text,
            row: n.startPosition.row,
            lenOf: n.type === 'assignment' && t === id ? lenArgument(field(n, 'right')) : undefined,
            objectAttr: n.type === 'assignment' && t === id && objectAttribute(field(n, 'right')) ? n : undefined,
          });
      }
    }
  }
  return out;
}

/** The `if` (no `elif`/`else`) whose body holds the assignment statement directly, and that body. */
function ifAround(a: Node): { ifs: Node; block: Node } | undefined {
  const stmt = a.parent;
  const block = stmt?.parent;
  const ifs = block?.parent;
  if (stmt?.type !== 'expression_statement' || block?.type !== 'block' || ifs?.type !== 'if_statement') return undefined;
  if (namedChildren(ifs).some((c) => c.type === 'elif_clause' || c.type === 'else_clause')) return undefined;
  return { ifs, block };
}

/** The test of the `if` around the assignment, when that `if` is a statement of the def's own body. */
function guardOf(a: Node, def: Node): Node | undefined {
  const around = ifAround(a);
  if (!around || around.ifs.parent?.id !== field(def, 'body')?.id) return undefined;
  return field(around.ifs, 'condition') ?? undefined;
}

/** `p = sorted(p)`, `p = list(p)`, `p = tuple(p)` (any keyword arguments): the rebinding keeps p's length. */
function keepsLength(a: Node, name: string): boolean {
  if (a.type !== 'assignment' || field(a, 'left')?.text !== name) return false;
  const right = field(a, 'right');
  if (right?.type !== 'call' || !/^(sorted|list|tuple)$/.test(field(right, 'function')?.text ?? '')) return false;
  const args = namedChildren(field(right, 'arguments') ?? right).filter((x) => x.type !== 'keyword_argument' && x.type !== 'comment');
  return args.length === 1 && args[0]!.type === 'identifier' && args[0]!.text === name;
}

/** The parameter name `x` of `len(x)`. */
function lenArgument(right: Node | null): string | undefined {
  if (right?.type !== 'call' || field(right, 'function')?.text !== 'len') return undefined;
  const args = namedChildren(field(right, 'arguments') ?? right);
  return args.length === 1 && args[0]!.type === 'identifier' ? args[0]!.text : undefined;
}

/** `if p is None: p = LIT` (the if's only statement, no else) or `p = LIT if p is None else p`. */
function noneReplacement(a: Node, name: string, constant: (name: string) => PyVal | undefined): PyVal | undefined {
  if (a.type !== 'assignment' || field(a, 'left')?.text !== name) return undefined;
  const right = field(a, 'right');
  const isNoneTest = (c: Node | null | undefined) => !!c && c.type === 'comparison_operator' && c.text.replace(/\s+/g, ' ') === `${name} is None`;
  if (right?.type === 'conditional_expression') {
    const [v, test, other] = namedChildren(right);
    if (isNoneTest(test) && other?.text === name) return literalOf(v, constant);
    return undefined;
  }
  const around = ifAround(a);
  if (!around || namedChildren(around.block).length !== 1) return undefined;
  return isNoneTest(field(around.ifs, 'condition')) ? literalOf(right, constant) : undefined;
}
