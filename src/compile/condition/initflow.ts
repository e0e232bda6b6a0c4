/**
 * The values an attribute of `self` may hold where a class's `__init__` returns (./state.ts reads
 * them as the state of a fresh object): a forward walk of its statements over sets of value keys.
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { withItems } from '../../python/withitems.js';
import { truthy } from '../../rules/condition/simplify.js';
import type { PyVal } from '../../rules/condition/types.js';

/** The values the attribute may hold at a point of `__init__`; null where no path reaches. */
type Flow = Set<string> | null;

const NESTED = new Set(['function_definition', 'class_definition', 'lambda']);

/** `self.<attr>` (the text of an attribute node on `self`), else undefined. */
export function selfAttr(n: Node | null | undefined): string | undefined {
  if (n?.type !== 'attribute' || field(n, 'object')?.text !== 'self') return undefined;
  return field(n, 'attribute')?.text;
}

/**
 * The values `self.<attr>` may hold where `__init__` returns, over its statements: branches join,
 * a `raise` ends its path, `while True:` leaves by `break` only, a handler may start anywhere in its
 * `try`. A statement that calls a method that may change the attribute (or hands `self` on) leaves it unknown.
 */
export class InitFlow {
  private readonly exits: Flow[] = [];
  private loops: { breaks: Flow[]; continues: Flow[] }[] = [];

  constructor(
    private readonly attr: string,
    /** What an assignment's right side leaves in the attribute (a value key: `lit:<json>`, `object`, `unknown`). */
    private readonly valueKey: (right: Node | null) => string,
    private readonly changers: Set<string>,
    /** What a method of the class leaves in the attribute when it returns, when known (`self.close()` inside another method). */
    private readonly called?: (method: string) => Set<string> | undefined,
    /** A parameter's truth taken as known: `if host:` runs only the branch it picks. */
    private readonly assume?: { name: string; truthy: boolean },
    /** A handle flag's reading (./handles.ts): its every value, and what leaving `with self.<m>(...)` leaves in it. */
    private readonly handles?: { domain: Set<string>; closedAfter: (item: Node) => string | undefined },
  ) {}

  /** The values where the body returns, from `start` (`absent` in `__init__`; `unknown` in another method). */
  run(body: Node | null, start: Set<string> = new Set(['absent'])): Set<string> | undefined {
    if (!body) return undefined;
    const out = join(this.block(body, start), ...this.exits);
    return out ?? undefined;
  }

  private block(b: Node, s: Flow): Flow {
    for (const st of namedChildren(b)) {
      if (s === null) return null;
      s = this.statement(st, s);
    }
    return s;
  }

  private statement(st: Node, s: Set<string>): Flow {
    switch (st.type) {
      case 'raise_statement':
        return null;
      case 'return_statement':
        this.exits.push(this.effects(st, s));
        return null;
      case 'break_statement':
        this.loops.at(-1)?.breaks.push(s);
        return null;
      case 'continue_statement':
        this.loops.at(-1)?.continues.push(s);
        return null;
      case 'expression_statement':
        return this.expression(st, s);
      case 'if_statement':
        return this.ifs(st, s);
      case 'while_statement':
      case 'for_statement':
        return this.loop(st, s);
      case 'try_statement':
        return this.tries(st, s);
      case 'with_statement': {
        const body = field(st, 'body');
        const closed = this.closedAfter(st, s);
        if (closed) return closed;
        // A context manager may swallow what its body raises: the state after it is any the body had.
        const inner = body ? this.block(body, this.effects(namedChildren(st)[0] ?? st, s)) : s;
        return join(inner, this.anywhere(st, s));
      }
      case 'function_definition':
      case 'class_definition':
      case 'decorated_definition':
        return this.assignsAttr(st) ? new Set(['unknown']) : s;
      default:
        return this.assignsAttr(st, true) ? new Set(['unknown']) : this.effects(st, s);
    }
  }

  /**
   * `with self.open(zinfo, mode='w') as dest:` where leaving the `with` closes the handle that set the
   * flag: what the body leaves (with no effect of that item), or the closed value. Undefined when
   * not such a `with`, or the body or another item may change the flag otherwise.
   */
  private closedAfter(st: Node, s: Set<string>): Flow | undefined {
    if (!this.handles) return undefined;
    let closed: string | undefined;
    for (const { value } of withItems(st)) {
      const c = this.handles.closedAfter(value);
      if (c && !closed) closed = c;
      else if (this.effects(value, s) !== s) return undefined;
    }
    const body = field(st, 'body');
    const inner = body ? this.block(body, s) : s;
    if (!closed || !inner || inner.has('unknown') || [...inner].some((k) => !s.has(k))) return undefined;
    return join(inner, new Set([closed]));
  }

  /** `self.<attr> = v` (also in a chain `a = self.<attr> = v`): the value; other statements: their calls' effects. */
  private expression(st: Node, s: Set<string>): Flow {
    const e = namedChildren(st)[0];
    if (e?.type === 'assignment') {
      let right: Node | null = e;
      let hit = false;
      while (right?.type === 'assignment') {
        if (selfAttr(field(right, 'left')) === this.attr) hit = true;
        right = field(right, 'right');
      }
      if (hit) return this.effects(right ?? st, s, new Set([this.valueKey(right)]));
    }
    return this.assignsAttr(st) ? new Set(['unknown']) : this.effects(st, s);
  }

  /** A method call that may change the attribute, or `self` handed on, makes it unknown (`next` is what the statement sets). */
  private effects(n: Node, s: Set<string>, next: Set<string> = s): Set<string> {
    let after: Set<string> | undefined;
    for (const x of n.descendantsOfType(['attribute', 'identifier'])) {
      if (!x) continue;
      if (x.type === 'identifier') {
        if (x.text === 'self' && x.parent?.type !== 'attribute') return new Set(['unknown']);
        continue;
      }
      const m = selfAttr(x);
      if (!m || !this.changers.has(m)) continue;
      // One call of a method whose effect is known (`self._close()`): the attribute is what it leaves.
      const call = x.parent?.type === 'call' && field(x.parent, 'function')?.id === x.id;
      const known = call && !after ? this.called?.(m) : undefined;
      if (!known) return new Set(['unknown']);
      after = known;
    }
    return after && next === s ? after : next;
  }

  private ifs(st: Node, s: Set<string>): Flow {
    const test = field(st, 'condition');
    const at = test ? this.effects(test, s) : s;
    const outs: Flow[] = [];
    const cons = field(st, 'consequence');
    // `if self.fp is None: return`: on that branch the attribute is None.
    const none = test?.type === 'comparison_operator' && /^self\.(\w+)\s+is\s+None$/.exec(test.text)?.[1] === this.attr;
    const taken = test && this.assume ? assumed(test, this.assume) : undefined;
    const past = this.pastTruthTest(st, at);
    if (past) return past;
    if (taken !== undefined && !namedChildren(st).some((c) => c.type === 'elif_clause')) {
      const orElse = namedChildren(st).find((c) => c.type === 'else_clause');
      const body = taken ? cons : orElse ? field(orElse, 'body') : null;
      return body ? this.block(body, at) : at;
    }
    outs.push(cons ? this.block(cons, none ? new Set(['lit:{"t":"none"}']) : at) : at);
    let hasElse = false;
    for (const c of namedChildren(st)) {
      if (c.type === 'elif_clause') {
        const b = field(c, 'consequence');
        outs.push(b ? this.block(b, at) : at);
      } else if (c.type === 'else_clause') {
        hasElse = true;
        const b = field(c, 'body');
        outs.push(b ? this.block(b, at) : at);
      }
    }
    if (!hasElse) outs.push(at);
    return join(...outs);
  }

  /**
   * `if self._writing: raise ...` (or `if not self.x: return`), with no `elif` / `else`: past it the
   * flag holds only the values the test lets through (every value it can hold is a literal: ./handles.ts).
   */
  private pastTruthTest(st: Node, at: Set<string>): Flow | undefined {
    if (!this.handles) return undefined;
    const test = field(st, 'condition');
    const neg = test?.type === 'not_operator';
    const read = neg ? field(test!, 'argument') : test;
    const cons = field(st, 'consequence');
    if (selfAttr(read) !== this.attr || !cons || namedChildren(st).some((c) => c.type === 'elif_clause' || c.type === 'else_clause')) return undefined;
    if (this.effects(test!, at) !== at || !this.ends(cons)) return undefined;
    // The branch's own ways out (a `return`) still count.
    this.block(cons, at);
    const keys = at.has('unknown') ? new Set([...at, ...this.handles.domain]) : at;
    const out = new Set<string>();
    for (const k of keys) {
      if (k === 'unknown') continue;
      if (!k.startsWith('lit:')) return undefined;
      if (truthy(JSON.parse(k.slice(4)) as PyVal) === neg) out.add(k);
    }
    return out;
  }

  /** The block never completes: its last statement is a `raise` or a `return`. */
  private ends(block: Node): boolean {
    const last = namedChildren(block)
      .filter((c) => c.type !== 'comment')
      .at(-1);
    return last?.type === 'raise_statement' || last?.type === 'return_statement';
  }

  private loop(st: Node, s: Set<string>): Flow {
    const body = field(st, 'body');
    const forever = st.type === 'while_statement' && field(st, 'condition')?.text === 'True';
    this.loops.push({ breaks: [], continues: [] });
    let entry: Flow = s;
    let last: Flow = null;
    // Two passes: what one pass assigns is all a later pass can see.
    for (let i = 0; i < 2 && body; i++) {
      const ctx = this.loops.at(-1)!;
      last = this.block(body, entry);
      entry = join(s, last, ...ctx.continues);
    }
    const ctx = this.loops.pop()!;
    const orElse = namedChildren(st).find((c) => c.type === 'else_clause');
    const done = forever ? null : orElse && field(orElse, 'body') ? this.block(field(orElse, 'body')!, entry ?? s) : entry;
    return join(done, ...ctx.breaks);
  }

  private tries(st: Node, s: Set<string>): Flow {
    const body = field(st, 'body');
    const out = body ? this.block(body, s) : s;
    const any = this.anywhere(st, s);
    const outs: Flow[] = [];
    let fin: Node | null = null;
    let orElse: Flow = out;
    for (const c of namedChildren(st)) {
      if (c.type === 'except_clause' || c.type === 'except_group_clause') {
        const b = namedChildren(c).find((x) => x.type === 'block');
        outs.push(b ? this.block(b, any) : any);
      } else if (c.type === 'else_clause') {
        const b = field(c, 'body');
        orElse = b && out ? this.block(b, out) : out;
      } else if (c.type === 'finally_clause') fin = namedChildren(c).find((x) => x.type === 'block') ?? null;
    }
    const joined = join(orElse, ...outs);
    if (!fin) return joined;
    // `finally` runs on every way out; only the ways that continue matter here.
    const after = this.block(fin, joined ?? any);
    return joined === null ? null : after;
  }

  /** Any state the statement's inner code may have left (the entry, and every value it assigns): where a handler may start. */
  private anywhere(st: Node, s: Set<string>): Set<string> {
    const out = new Set(s);
    for (const a of st.descendantsOfType('assignment')) {
      if (!a) continue;
      if (selfAttr(field(a, 'left')) === this.attr) out.add(this.valueKey(field(a, 'right')));
    }
    if (this.assignsAttr(st, true)) out.add('unknown');
    return out;
  }

  /** The statement assigns the attribute in a way not read as `self.<attr> = v` (a tuple target, `+=`, `del`, a nested def); `plain` counts plain ones too. */
  private assignsAttr(st: Node, plain = false): boolean {
    for (const n of st.descendantsOfType('attribute')) {
      if (!n || selfAttr(n) !== this.attr) continue;
      const up = n.parent;
      const isLeft = (up?.type === 'assignment' || up?.type === 'augmented_assignment') && field(up, 'left')?.id === n.id;
      const inTarget = up?.type === 'pattern_list' || up?.type === 'tuple_pattern' || up?.type === 'delete_statement' || up?.type === 'expression_list';
      let nested = false;
      for (let p = up; p && p.id !== st.id; p = p.parent) if (NESTED.has(p.type)) nested = true;
      if (nested && (isLeft || inTarget)) return true;
      if (inTarget || (isLeft && (plain || up?.type === 'augmented_assignment' || !this.plainAssign(up!)))) return true;
    }
    return false;
  }

  /** An assignment `self.<attr> = v` that is (part of the chain of) an expression statement. */
  private plainAssign(a: Node): boolean {
    let top = a;
    while (top.parent?.type === 'assignment') top = top.parent;
    return top.parent?.type === 'expression_statement';
  }
}

/** `if name:` / `if not name:` under an assumed truth of `name`: whether the branch runs. */
function assumed(test: Node, a: { name: string; truthy: boolean }): boolean | undefined {
  if (test.type === 'identifier') return test.text === a.name ? a.truthy : undefined;
  const arg = test.type === 'not_operator' ? field(test, 'argument') : null;
  return arg?.type === 'identifier' && arg.text === a.name ? !a.truthy : undefined;
}

function join(...fs: Flow[]): Flow {
  let out: Set<string> | null = null;
  for (const f of fs) {
    if (!f) continue;
    out ??= new Set();
    for (const v of f) out.add(v);
  }
  return out;
}
