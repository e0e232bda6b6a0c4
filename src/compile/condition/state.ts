/**
 * What a method's test reads of its own object (`not self.fp`, `self.fp is None`,
 * `self._communication_started`), as the object is when its constructor has just returned: the
 * values the class's `__init__` leaves in the attribute on every path that returns, and the
 * methods that can change it afterwards. The matcher decides such a test for a receiver the caller
 * has just constructed and called none of those methods on (src/semantic/fresh.ts): `with
 * ZipFile(p, 'w') as zf: zf.writestr(...)` cannot meet "archive that was already closed".
 *
 * Only classes that say it plainly: no base but `object`, no `__new__` / `__setattr__`, an
 * `__init__` of their own; an attribute `__init__` assigns as a whole (`self.fp = ...`), to a
 * literal or to an object (a constructor's or `open`'s result, a required argument). An object
 * counts as set only for an attribute some other method sets to a false literal (`close()`'s
 * `self.fp = None`): a lifecycle flag, not a value the caller feeds (`self.timeout = timeout`).
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { literalOf } from '../../rules/condition/literal.js';
import { truthy } from '../../rules/condition/simplify.js';
import type { PyVal, StateFact } from '../../rules/condition/types.js';
import { handedEffect, storeOf } from './handed.js';
import { closedAfter, handleFlag, type HandleFlag } from './handles.js';
import { InitFlow, selfAttr } from './initflow.js';
import { rebinds, storedParam } from './stored.js';
import { readParams } from './params.js';

export { selfAttr };

/** What `__init__` may leave in the attribute: a literal, an object (truthy, not None), or not known. */
type Value = { lit: PyVal } | { param: string; float?: true } | 'object' | 'unknown' | 'absent';
const FALSE_LITERALS = new Set(['None', 'False', '0', "''", '""', '()', '[]', '{}']);

/**
 * The class body's methods by name (`decorated_definition`s by the def they wrap; every def of a
 * name in `defs`: a property's getter and setter), and name-to-name aliases (`__del__ = close`).
 */
function members(body: Node): { methods: Map<string, Node>; defs: [string, Node][]; aliases: Map<string, string>; assigned: Map<string, Node[]> } {
  const methods = new Map<string, Node>();
  const defs: [string, Node][] = [];
  const aliases = new Map<string, string>();
  const assigned = new Map<string, Node[]>();
  for (const st of namedChildren(body)) {
    const def = st.type === 'decorated_definition' ? field(st, 'definition') : st;
    if (def?.type === 'function_definition') {
      const n = field(def, 'name')?.text;
      if (n) methods.set(n, def);
      if (n) defs.push([n, def]);
      continue;
    }
    const a = st.type === 'expression_statement' ? namedChildren(st)[0] : undefined;
    const left = a?.type === 'assignment' ? field(a, 'left') : null;
    if (left?.type !== 'identifier') continue;
    const right = field(a!, 'right');
    if (right?.type === 'identifier') aliases.set(left.text, right.text);
    assigned.set(left.text, [...(assigned.get(left.text) ?? []), a!]);
  }
  return { methods, defs, aliases, assigned };
}

export class ClassState {
  private readonly methods: Map<string, Node>;
  private readonly defs: [string, Node][];
  private readonly aliases: Map<string, string>;
  private readonly classLevel: Map<string, Node[]>;
  private readonly init: Node | undefined;
  private readonly memo = new Map<string, { values: Value[]; changedBy: string[] } | null>();

  private constructor(
    body: Node,
    private readonly constant: (name: string) => PyVal | undefined,
  ) {
    const m = members(body);
    this.methods = m.methods;
    this.defs = m.defs;
    this.aliases = m.aliases;
    this.classLevel = m.assigned;
    this.init = this.methods.get('__init__');
  }

  /** The state reader of the class whose body holds `def`, when the class is one this reader can read. */
  static of(def: Node, constant: (name: string) => PyVal | undefined): ClassState | undefined {
    const body = def.parent?.type === 'decorated_definition' ? def.parent.parent : def.parent;
    const cls = body?.parent;
    if (body?.type !== 'block' || cls?.type !== 'class_definition') return undefined;
    const bases = field(cls, 'superclasses');
    if (bases && namedChildren(bases).some((b) => b.text !== 'object')) return undefined;
    const s = new ClassState(body, constant);
    if (!s.init || s.methods.has('__new__') || s.methods.has('__setattr__') || s.methods.has('__getattribute__')) return undefined;
    return s;
  }

  /**
   * The test on a fresh object: `self.<attr>` is true (`truthy`) or is None (`none`); undefined
   * when `__init__` does not leave it plain.
   */
  fact(attr: string, test: 'truthy' | 'none'): StateFact | undefined {
    const base = this.freshFact(attr, test);
    if (!base) return undefined;
    // What each method that changes it leaves there when it returns (`close()`'s `self.fp = None`).
    const after: Record<string, boolean> = {};
    for (const m of base.changedBy) {
      const keys = m === '__init__' ? undefined : this.afterKeys(m, attr);
      const b =
        keys &&
        this.valuesTest(
          [...keys].map((k) => this.value(k, attr)),
          test,
          attr,
        );
      if (b !== undefined) after[m] = b;
    }
    return Object.keys(after).length ? { ...base, after } : base;
  }

  private freshFact(attr: string, test: 'truthy' | 'none'): StateFact | undefined {
    const s = this.state(attr);
    if (!s) return undefined;
    // `self.allow_none = allow_none` on every path: what the constructor call passed decides it.
    const only = s.values.length === 1 ? s.values[0] : undefined;
    if (only && only !== 'object' && only !== 'unknown' && only !== 'absent' && 'param' in only) {
      const p = this.initParams().get(only.param);
      return p
        ? {
            attr,
            fresh: true,
            changedBy: s.changedBy,
            arg: { name: only.param, index: p.index, ...(p.default ? { default: p.default } : {}), test, ...(only.float ? { float: true as const } : {}) },
          }
        : undefined;
    }
    const out = this.valuesTest(s.values, test, attr);
    return out === undefined ? this.branchFact(attr, test, s.changedBy) : { attr, fresh: out, changedBy: s.changedBy };
  }

  /** The test's value for every value in `values`, when they agree (an object counts only for a lifecycle flag). */
  private valuesTest(values: Value[], test: 'truthy' | 'none', attr: string): boolean | undefined {
    let out: boolean | undefined;
    for (const v of values) {
      if (v === 'unknown' || v === 'absent') return undefined;
      if (v !== 'object' && 'param' in v) return undefined;
      const b = v === 'object' ? test === 'truthy' : test === 'truthy' ? truthy(v.lit) : v.lit.t === 'none';
      if (out !== undefined && out !== b) return undefined;
      out = b;
    }
    // An object stands for "set" only when another method unsets it (a lifecycle flag).
    if (out !== undefined && values.includes('object') && !this.unsetElsewhere(attr)) return undefined;
    return out;
  }

  /**
   * `if host: self.connect(host)` in `__init__`: the state read under each truth of a defaulted
   * parameter `__init__` tests as a whole (`if p:` / `if not p:`), when one of them leaves it known.
   */
  private branchFact(attr: string, test: 'truthy' | 'none', changedBy: string[]): StateFact | undefined {
    const changers = this.changers(attr);
    if (!changers) return undefined;
    const tested = new Set<string>();
    for (const st of namedChildren(field(this.init!, 'body') ?? this.init!)) {
      const t = st.type === 'if_statement' ? field(st, 'condition') : null;
      const id = t?.type === 'not_operator' ? field(t, 'argument') : t;
      if (id?.type === 'identifier') tested.add(id.text);
    }
    for (const name of tested) {
      const p = this.initParams().get(name);
      if (!p?.defaulted || rebinds(this.init!, name)) continue;
      const under = (truthy: boolean) => {
        const keys = new InitFlow(attr, (n) => this.valueKey(n), changers, undefined, { name, truthy }).run(field(this.init!, 'body'));
        return keys
          ? this.valuesTest(
              [...keys].map((k) => this.value(k, attr)),
              test,
              attr,
            )
          : undefined;
      };
      const cases = { truthy: under(true), falsy: under(false) };
      if (cases.truthy === undefined && cases.falsy === undefined) continue;
      const arg = { name, index: p.index, ...(p.default ? { default: p.default } : {}), test: 'truthy' as const, cases };
      return { attr, fresh: true, changedBy, arg };
    }
    return undefined;
  }

  private readonly afterMemo = new Map<string, Set<string> | null>();
  private readonly flags = new Map<string, HandleFlag | undefined>();

  /**
   * The values a method leaves in the attribute on every way it returns, from any state: only
   * literals it assigns (or the effect of another such method it calls) are known. Not for a
   * generator or coroutine (its body runs later), nor `__init__`.
   */
  private afterKeys(method: string, attr: string): Set<string> | undefined {
    const key = `${attr}\0${method}`;
    if (this.afterMemo.has(key)) return this.afterMemo.get(key) ?? undefined;
    this.afterMemo.set(key, null);
    const name = this.aliases.get(method) ?? method;
    const def = name === '__init__' ? undefined : this.methods.get(name);
    const changers = this.changers(attr);
    let out: Set<string> | undefined;
    if (def && changers && !def.children.some((c) => c?.type === 'async') && !def.descendantsOfType(['yield', 'await']).length) {
      const literal = (r: Node | null) => {
        const lit = literalOf(r, this.constant);
        return lit ? `lit:${JSON.stringify(lit)}` : 'unknown';
      };
      // A flag the class body also binds has a value no method assigns: not read as a handle flag.
      if (!this.flags.has(attr)) this.flags.set(attr, this.classLevel.has(attr) ? undefined : handleFlag(this.methods, attr, literal));
      const flag = this.flags.get(attr);
      const handles = flag && { domain: flag.domain, closedAfter: (item: Node) => closedAfter(item, this.methods, changers, flag) };
      out = new InitFlow(attr, literal, changers, (m) => this.afterKeys(m, attr), undefined, handles).run(field(def, 'body'), new Set(['unknown']));
    }
    this.afterMemo.set(key, out ?? null);
    return out;
  }

  private state(attr: string): { values: Value[]; changedBy: string[] } | undefined {
    if (this.memo.has(attr)) return this.memo.get(attr) ?? undefined;
    const changedBy = this.changers(attr);
    let out: { values: Value[]; changedBy: string[] } | null = null;
    if (changedBy) {
      const keys = new InitFlow(attr, (n) => this.valueKey(n), changedBy).run(field(this.init!, 'body'));
      const values = keys ? [...keys].map((k) => this.value(k, attr)) : undefined;
      if (values?.length) out = { values, changedBy: [...changedBy].sort() };
    }
    this.memo.set(attr, out);
    return out ?? undefined;
  }

  /** A value key of InitFlow as a Value; `absent` is the class-level default when the body binds one literal. */
  private value(key: string, attr: string): Value {
    if (key === 'object' || key === 'unknown') return key;
    if (key.startsWith('param:')) return key.endsWith(':float') ? { param: key.slice(6, -6), float: true } : { param: key.slice(6) };
    if (key === 'absent') {
      const at = this.classLevel.get(attr);
      const lit = at?.length === 1 ? literalOf(field(at[0]!, 'right'), this.constant) : undefined;
      return lit ? { lit } : 'absent';
    }
    return { lit: JSON.parse(key.slice(4)) as PyVal };
  }

  /** What an assignment's right side leaves in the attribute, as a key of InitFlow. */
  valueKey(right: Node | null): string {
    const lit = literalOf(right, this.constant);
    if (lit) return `lit:${JSON.stringify(lit)}`;
    // A parameter with a default, never rebound in `__init__`: the state is what the caller passed.
    const p = right && storedParam(right);
    if (p && this.initParams().get(p.name)?.defaulted && !rebinds(this.init!, p.name)) return `param:${p.name}${p.float ? ':float' : ''}`;
    // `_parser or XMLParser(...)`: whichever operand it is, a true value.
    if (right?.type === 'boolean_operator' && field(right, 'operator')?.text === 'or') {
      const last = field(right, 'right');
      const lit = literalOf(last, this.constant);
      return (lit ? truthy(lit) : this.valueKey(last) === 'object') ? 'object' : 'unknown';
    }
    if (right?.type === 'call') {
      const fn = field(right, 'function');
      const last = fn?.type === 'attribute' ? field(fn, 'attribute')?.text : fn?.text;
      return last && (/^_*[A-Z]/.test(last) || last === 'open') ? 'object' : 'unknown';
    }
    if (right?.type === 'identifier' && this.requiredParam(right.text)) return 'object';
    return 'unknown';
  }

  private requiredParam(name: string): boolean {
    const params = field(this.init!, 'parameters');
    return namedChildren(params ?? this.init!).some((p) => p.type === 'identifier' && p.text === name && name !== 'self');
  }

  private params: Map<string, { index: number; defaulted: boolean; default?: PyVal }> | undefined;

  /** `__init__`'s parameters after `self`: position (-1 when keyword-only) and literal default (./params.ts). */
  private initParams(): Map<string, { index: number; defaulted: boolean; default?: PyVal }> {
    if (this.params) return this.params;
    const out = new Map<string, { index: number; defaulted: boolean; default?: PyVal }>();
    let index = 0;
    for (const p of readParams(this.init!, this.constant, true)) {
      if (p.kind === 'var-positional' || p.kind === 'var-keyword') continue;
      const positional = p.kind === 'normal' || p.kind === 'positional-only';
      out.set(p.name, {
        index: positional ? index++ : -1,
        defaulted: p.default !== undefined,
        ...(p.default && p.default !== 'expr' ? { default: p.default } : {}),
      });
    }
    return (this.params = out);
  }

  /** Some method other than `__init__` sets the attribute to a false literal (`close()`'s `self.fp = None`). */
  private unsetElsewhere(attr: string): boolean {
    for (const [name, def] of this.defs) {
      if (name === '__init__') continue;
      for (const a of def.descendantsOfType('assignment')) {
        const left = a && field(a, 'left');
        const right = a && field(a, 'right');
        if (!left || !right) continue;
        if (selfAttr(left) === attr && FALSE_LITERALS.has(right.text)) return true;
        // `fp, self.fp = self.fp, None`
        if (left.type !== 'pattern_list' || right.type !== 'expression_list') continue;
        const i = namedChildren(left).findIndex((t) => selfAttr(t) === attr);
        if (i >= 0 && FALSE_LITERALS.has(namedChildren(right)[i]?.text ?? '')) return true;
      }
    }
    return false;
  }

  /**
   * The methods that may change the attribute: those that assign or delete it, hand `self` to other
   * code (but a class of the module that does not change it: ./handed.ts), or call (or pass on as `self.m`) such a method, transitively; aliases join their method.
   * Undefined when some method can change any attribute (`setattr(self, ...)`, `self.__dict__`).
   */
  private readonly changersMemo = new Map<string, Set<string> | null>();

  private changers(attr: string): Set<string> | undefined {
    if (!this.changersMemo.has(attr)) this.changersMemo.set(attr, this.findChangers(attr) ?? null);
    return this.changersMemo.get(attr) ?? undefined;
  }

  private findChangers(attr: string): Set<string> | undefined {
    const direct = new Set<string>();
    const calls = new Map<string, Set<string>>();
    for (const [name, def] of this.defs) {
      const effect = methodEffect(def, attr);
      if (effect === 'any') return undefined;
      if (effect.changes) direct.add(name);
      calls.set(name, new Set([...(calls.get(name) ?? []), ...effect.calls]));
    }
    for (let grew = true; grew; ) {
      grew = false;
      for (const [name, called] of calls) {
        if (direct.has(name)) continue;
        if ([...called].some((c) => direct.has(c) || direct.has(this.aliases.get(c) ?? ''))) {
          direct.add(name);
          grew = true;
        }
      }
    }
    for (const [alias, target] of this.aliases) if (direct.has(target)) direct.add(alias);
    return direct;
  }
}

/** What one method does to the attribute: assigns it, or hands `self` on (changes), and which `self.m` it reaches. */
function methodEffect(def: Node, attr: string): { changes: boolean; calls: Set<string> } | 'any' {
  const calls = new Set<string>();
  let changes = false;
  for (const n of def.descendantsOfType(['attribute', 'identifier', 'call'])) {
    if (!n) continue;
    if (n.type === 'call') {
      const fn = field(n, 'function')?.text;
      if (fn === 'setattr' || fn === 'delattr' || fn === 'vars') return 'any';
      continue;
    }
    if (n.type === 'identifier') {
      // `self` handed to other code (an argument, a value stored or returned), or bound to another name.
      const up = n.parent?.type;
      if (n.text !== 'self' || up === 'attribute' || up === 'parameters' || up === 'return_statement') continue;
      // Handed to a class of the module that only reads through it, or sets other attributes.
      const handed = up === 'argument_list' || up === 'keyword_argument' ? handedEffect(n, attr) : undefined;
      if (!handed || handed.changes) changes = true;
      else for (const c of handed.calls) calls.add(c);
      continue;
    }
    const a = selfAttr(n);
    if (!a) continue;
    if (a === '__dict__') return 'any';
    if (a === attr && storeOf(n)) changes = true;
    else calls.add(a);
  }
  return { changes, calls };
}
