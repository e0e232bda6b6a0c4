/**
 * Stage 3: the semantic model of one file. A flow-sensitive abstract interpreter over the
 * tree-sitter tree infers, at every interesting call, the type of its receiver: imports
 * (every form, also under `if TYPE_CHECKING:`), assignments, annotations (`Optional`, `X | None`,
 * string annotations, `List[X]`), `self.x` fields, factories (annotated or inferred returns),
 * tuple unpacking, loops and comprehensions; `isinstance`, guard functions and early exits narrow.
 * Branches merge into unions. Only calls whose name is a rule trigger are recorded.
 */
import type { Node } from '../parse/parser.js';
import { parsePython } from '../parse/parser.js';
import { dottedName, field, namedChildren, stringValue } from '../parse/syntax.js';
import { ClassRegistry, newClassInfo } from '../rules/classes.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { GuardSpec } from '../rules/types.js';
import { NEVER, NONE, UNKNOWN, elementOf, isUnknown, typeKey, union, type Atom, type Type } from './types.js';

export interface CallSite {
  /** `call` node, or `attribute` node for a property read (`await proxy.metadata`). */
  node: Node;
  kind: 'method' | 'call' | 'attribute';
  /** Method, function or attribute name (last segment of the callee). */
  name: string;
  /** Receiver type for methods and attributes. */
  receiver?: Type;
  /** Qualified names the callee resolves to (calls through imports). */
  callee?: string[];
  /** Receiver as written (`self._runtime`), for messages and fixes. */
  receiverText?: string;
}

export interface FileModel {
  sites: CallSite[];
  classes: ClassRegistry;
  /** Qualified name a dotted expression refers to at module level (for `except` clauses and `with` items). */
  qualify(node: Node): string | undefined;
}

class Env {
  constructor(
    readonly vars: Map<string, Type> = new Map(),
    readonly outer?: Env,
  ) {}
  lookup(name: string): Type | undefined {
    return this.vars.get(name) ?? this.outer?.lookup(name);
  }
  set(name: string, t: Type): void {
    this.vars.set(name, t);
    // Rebinding `x` forgets what was known of `x.attr`.
    for (const k of [...this.vars.keys()]) if (k.startsWith(`${name}.`)) this.vars.delete(k);
  }
  clone(): Env {
    return new Env(new Map(this.vars), this.outer);
  }
  /** True when every variable of `base` has the same type in `other`. */
  static sameOn(base: Env, other: Env): boolean {
    for (const [k, t] of base.vars) {
      const o = other.vars.get(k);
      if (!o || typeKey(o) !== typeKey(t)) return false;
    }
    return true;
  }

  static merge(envs: Env[]): Env | null {
    if (!envs.length) return null;
    if (envs.length === 1) return envs[0]!;
    const keys = new Set<string>();
    for (const e of envs) for (const k of e.vars.keys()) keys.add(k);
    const out = new Env(new Map(), envs[0]!.outer);
    for (const k of keys) {
      const ts = envs.map((e) => e.lookup(k)).filter((t): t is Type => !!t);
      if (k.includes('.') && ts.length < envs.length) continue; // a narrowed path known on one side only
      out.vars.set(k, union(...ts));
    }
    return out;
  }
}

interface FnCtx {
  fn: Node | null;
  cls?: string;
  record: boolean;
  returns: Type[];
}

interface LocalClass {
  key: string;
  node: Node;
  fields?: Map<string, Type>;
  computing?: boolean;
}

const BUILTIN_EXCEPTIONS = /^(?:[A-Z][A-Za-z]*(?:Error|Exception|Exit|Interrupt|Warning|Iteration|Group)|BaseException|GeneratorExit|StopIteration|StopAsyncIteration|KeyboardInterrupt|SystemExit)$/;
const CONTAINERS = new Set(['List', 'list', 'Sequence', 'Iterable', 'Iterator', 'Set', 'set', 'FrozenSet', 'frozenset', 'Collection', 'MutableSequence', 'AbstractSet', 'Deque', 'deque', 'AsyncIterator', 'AsyncIterable', 'Generator', 'AsyncGenerator']);
const WRAPPERS = new Set(['Optional', 'Final', 'ClassVar', 'Annotated', 'Awaitable', 'Required', 'NotRequired', 'ReadOnly', 'Type', 'type']);

export function buildModel(root: Node, rules: RuleSet, file = '<file>'): FileModel {
  return new Interpreter(root, rules, file).run();
}

class Interpreter {
  private readonly sites = new Map<number, CallSite>();
  private readonly classes: ClassRegistry;
  private readonly localClasses = new Map<string, LocalClass>();
  private readonly fnInference = new Map<number, Type>();
  private readonly inferring = new Set<number>();
  private readonly finalEnvs = new Map<number, Env>();
  private moduleEnv = new Env();
  private readonly triggers: Set<string>;
  private readonly deferred: { fn: Node; outer: Env; cls?: string }[] = [];

  constructor(
    private readonly root: Node,
    private readonly rules: RuleSet,
    private readonly file: string,
  ) {
    this.classes = rules.classes.overlay();
    this.triggers = rules.triggerNames;
  }

  run(): FileModel {
    const ctx: FnCtx = { fn: null, record: true, returns: [] };
    const end = this.block(namedChildren(this.root), this.moduleEnv, ctx);
    if (end) this.moduleEnv = end;
    this.finalEnvs.set(this.root.id, this.moduleEnv);
    // Check every function body with the final environment of its enclosing scope.
    while (this.deferred.length) {
      const d = this.deferred.shift()!;
      this.analyzeFunction(d.fn, d.outer === this.pendingModule ? this.moduleEnv : d.outer, d.cls, true);
    }
    const moduleEnv = this.moduleEnv;
    return {
      sites: [...this.sites.values()].sort((a, b) => a.node.startIndex - b.node.startIndex),
      classes: this.classes,
      qualify: (node: Node) => {
        const t = this.expr(node, moduleEnv, { fn: null, record: false, returns: [] });
        const a = t[0];
        if (t.length !== 1 || !a) return undefined;
        if (a.k === 'ref') return a.q;
        if (a.k === 'class') return a.key;
        return undefined;
      },
    };
  }

  /** Sentinel: functions defined at module level see the module's final environment. */
  private readonly pendingModule = new Env();

  // ---------------------------------------------------------------- statements

  /** Runs statements; returns the environment after them, or null when every path left (return/raise). */
  private block(stmts: Node[], env: Env | null, ctx: FnCtx): Env | null {
    let cur = env;
    for (const s of stmts) {
      if (!cur) return null;
      cur = this.stmt(s, cur, ctx);
    }
    return cur;
  }

  private body(node: Node | null, env: Env, ctx: FnCtx): Env | null {
    if (!node) return env;
    return this.block(node.type === 'block' ? namedChildren(node) : [node], env, ctx);
  }

  private stmt(s: Node, env: Env, ctx: FnCtx): Env | null {
    switch (s.type) {
      case 'expression_statement':
        for (const c of namedChildren(s)) this.expr(c, env, ctx);
        return env;
      case 'return_statement': {
        const v = namedChildren(s)[0];
        ctx.returns.push(v ? this.expr(v, env, ctx) : NONE);
        return null;
      }
      case 'raise_statement':
        for (const c of namedChildren(s)) this.expr(c, env, ctx);
        return null;
      case 'break_statement':
      case 'continue_statement':
        return null;
      case 'import_statement':
      case 'import_from_statement':
      case 'future_import_statement':
        this.importStmt(s, env);
        return env;
      case 'if_statement':
        return this.ifStmt(s, env, ctx);
      case 'for_statement':
        return this.forStmt(s, env, ctx);
      case 'while_statement': {
        const cond = field(s, 'condition');
        let loopEnv = env;
        const exits: Env[] = [];
        for (let pass = 0; pass < 2; pass++) {
          const n = cond ? this.narrow(cond, loopEnv, ctx) : { t: loopEnv, f: loopEnv };
          if (pass === 1 || !cond) exits.push(n.f);
          const after = this.body(field(s, 'body'), n.t.clone(), ctx);
          const next = Env.merge([env, ...(after ? [after] : [])])!;
          const stable = pass === 0 && Env.sameOn(env, next);
          loopEnv = next;
          if (stable) {
            exits.push(cond ? this.narrow(cond, loopEnv, { ...ctx, record: false }).f : loopEnv);
            break;
          }
        }
        const alt = field(s, 'alternative');
        const base = Env.merge([...exits, loopEnv]) ?? env;
        return alt ? this.body(field(alt, 'body') ?? alt, base, ctx) : base;
      }
      case 'try_statement':
        return this.tryStmt(s, env, ctx);
      case 'with_statement': {
        for (const clause of namedChildren(s)) {
          if (clause.type !== 'with_clause') continue;
          for (const item of namedChildren(clause)) {
            const v = field(item, 'value');
            if (!v) continue;
            if (v.type === 'as_pattern') {
              const [inner] = namedChildren(v);
              const t = inner ? this.expr(inner, env, ctx) : UNKNOWN;
              const alias = field(v, 'alias');
              const target = alias ? namedChildren(alias)[0] : undefined;
              // A context manager returns itself in most library APIs we model; otherwise unknown.
              if (target) this.bind(target, t.some((a) => a.k === 'inst') ? t : UNKNOWN, env, ctx);
            } else this.expr(v, env, ctx);
          }
        }
        return this.body(field(s, 'body'), env, ctx);
      }
      case 'function_definition':
        this.defineFunction(s, env, ctx);
        return env;
      case 'decorated_definition': {
        const def = field(s, 'definition');
        for (const d of namedChildren(s)) if (d.type === 'decorator') this.expr(namedChildren(d)[0] ?? d, env, ctx);
        if (def) return this.stmt(def, env, ctx);
        return env;
      }
      case 'class_definition':
        this.defineClass(s, env, ctx);
        return env;
      case 'assert_statement': {
        const [cond, ...rest] = namedChildren(s);
        for (const r of rest) this.expr(r, env, ctx);
        return cond ? this.narrow(cond, env, ctx).t : env;
      }
      case 'match_statement': {
        const subject = field(s, 'subject');
        if (subject) this.expr(subject, env, ctx);
        const outs: Env[] = [env];
        const blk = field(s, 'body');
        for (const c of blk ? namedChildren(blk) : []) {
          if (c.type !== 'case_clause') continue;
          const r = this.body(field(c, 'consequence'), env.clone(), ctx);
          if (r) outs.push(r);
        }
        return Env.merge(outs);
      }
      case 'global_statement':
      case 'nonlocal_statement':
        for (const n of namedChildren(s)) env.vars.delete(n.text);
        return env;
      case 'delete_statement':
      case 'pass_statement':
      case 'comment':
        return env;
      default:
        for (const c of namedChildren(s)) this.expr(c, env, ctx);
        return env;
    }
  }

  private ifStmt(s: Node, env: Env, ctx: FnCtx): Env | null {
    const cond = field(s, 'condition');
    const n = cond ? this.narrow(cond, env, ctx) : { t: env, f: env };
    const outs: Env[] = [];
    const t = this.body(field(s, 'consequence'), n.t.clone(), ctx);
    if (t) outs.push(t);
    let rest: Env | null = n.f;
    const alts = s.childrenForFieldName('alternative').filter((x): x is Node => !!x);
    for (const alt of alts) {
      if (!rest) break;
      if (alt.type === 'elif_clause') {
        const c = field(alt, 'condition');
        const nn: { t: Env; f: Env } = c ? this.narrow(c, rest, ctx) : { t: rest, f: rest };
        const r = this.body(field(alt, 'consequence'), nn.t.clone(), ctx);
        if (r) outs.push(r);
        rest = nn.f;
      } else {
        const r = this.body(field(alt, 'body') ?? namedChildren(alt).find((c) => c.type === 'block') ?? null, rest.clone(), ctx);
        if (r) outs.push(r);
        rest = null;
      }
    }
    if (rest) outs.push(rest);
    return Env.merge(outs);
  }

  private forStmt(s: Node, env: Env, ctx: FnCtx): Env | null {
    const left = field(s, 'left');
    const right = field(s, 'right');
    const elem = right ? elementOf(this.expr(right, env, ctx)) : UNKNOWN;
    let loopEnv = env;
    for (let pass = 0; pass < 2; pass++) {
      const e = loopEnv.clone();
      if (left) this.bind(left, elem, e, ctx);
      const after = this.body(field(s, 'body'), e, ctx);
      const next = Env.merge([env, ...(after ? [after] : [])])!;
      // A second pass only matters when the body changed a type that was live on entry.
      const stable = pass === 0 && Env.sameOn(env, next);
      loopEnv = next;
      if (stable) break;
    }
    const alt = field(s, 'alternative');
    return alt ? this.body(field(alt, 'body') ?? alt, loopEnv, ctx) : loopEnv;
  }

  private tryStmt(s: Node, env: Env, ctx: FnCtx): Env | null {
    const bodyEnd = this.body(field(s, 'body'), env.clone(), ctx);
    const outs: Env[] = [];
    const handlerStart = Env.merge([env, ...(bodyEnd ? [bodyEnd] : [])])!;
    let elseEnd: Env | null = bodyEnd;
    let fin: Node | null = null;
    for (const c of namedChildren(s)) {
      if (c.type === 'except_clause' || c.type === 'except_group_clause') {
        const e = handlerStart.clone();
        const val = namedChildren(c).find((x) => x.type !== 'block');
        if (val?.type === 'as_pattern') {
          const alias = field(val, 'alias');
          const target = alias ? namedChildren(alias)[0] : undefined;
          if (target?.type === 'identifier') e.set(target.text, UNKNOWN);
        }
        const r = this.body(namedChildren(c).find((x) => x.type === 'block') ?? null, e, ctx);
        if (r) outs.push(r);
      } else if (c.type === 'else_clause') {
        elseEnd = bodyEnd ? this.body(field(c, 'body') ?? namedChildren(c).find((x) => x.type === 'block') ?? null, bodyEnd, ctx) : null;
      } else if (c.type === 'finally_clause') fin = c;
    }
    if (elseEnd) outs.push(elseEnd);
    const merged = Env.merge(outs);
    if (fin) {
      const f = this.body(namedChildren(fin).find((x) => x.type === 'block') ?? null, (merged ?? handlerStart).clone(), ctx);
      return merged && f ? f : null;
    }
    return merged;
  }

  // ---------------------------------------------------------------- definitions

  private defineFunction(s: Node, env: Env, ctx: FnCtx, cls?: string): void {
    const name = field(s, 'name')?.text;
    if (name) env.set(name, [{ k: 'func', fn: s, cls }]);
    for (const p of this.params(s)) if (p.value) this.expr(p.value, env, ctx);
    if (ctx.record) this.deferred.push({ fn: s, outer: ctx.fn === null && !cls ? this.pendingModule : cls ? this.pendingModule : env, cls });
  }

  private defineClass(s: Node, env: Env, ctx: FnCtx): void {
    const name = field(s, 'name')?.text;
    if (!name) return;
    const key = `<local>${this.file}#${name}@${s.startPosition.row + 1}`;
    const sup = field(s, 'superclasses');
    const bases: string[] = [];
    for (const b of sup ? namedChildren(sup) : []) {
      if (b.type === 'keyword_argument') continue;
      for (const a of this.expr(b, env, ctx)) {
        if (a.k === 'class') bases.push(a.key);
        else if (a.k === 'ref') bases.push(this.classes.resolve(a.q) ?? `?${a.q}`);
      }
    }
    const body = field(s, 'body');
    const own = new Set<string>();
    for (const st of body ? namedChildren(body) : []) {
      const def = st.type === 'decorated_definition' ? field(st, 'definition') : st;
      if (def?.type === 'function_definition') {
        const n = field(def, 'name')?.text;
        if (n) own.add(n);
      }
    }
    this.classes.add(newClassInfo(key, { name, module: this.file, bases, ownMethods: own }));
    this.localClasses.set(key, { key, node: s });
    env.set(name, [{ k: 'class', key }]);
    // The class body is its own scope; methods see the module (not the class body).
    const clsEnv = new Env(new Map(), env);
    for (const st of body ? namedChildren(body) : []) {
      const def = st.type === 'decorated_definition' ? field(st, 'definition') : st;
      if (def?.type === 'function_definition') {
        if (st.type === 'decorated_definition') for (const d of namedChildren(st)) if (d.type === 'decorator') this.expr(namedChildren(d)[0] ?? d, clsEnv, ctx);
        this.defineFunction(def, clsEnv, ctx, key);
      } else this.stmt(st, clsEnv, { ...ctx, fn: null });
    }
  }

  private params(fn: Node): { name: string; node: Node; annotation?: Node; value?: Node; kind: 'plain' | 'star' | 'kw' }[] {
    const ps = field(fn, 'parameters');
    const out: { name: string; node: Node; annotation?: Node; value?: Node; kind: 'plain' | 'star' | 'kw' }[] = [];
    for (const p of ps ? namedChildren(ps) : []) {
      const type = p.type; // read once: each read is a call into the parser
      if (type === 'identifier') out.push({ name: p.text, node: p, kind: 'plain' });
      else if (type === 'typed_parameter') {
        const inner = namedChildren(p)[0];
        const innerType = inner?.type;
        const kind = innerType === 'list_splat_pattern' ? 'star' : innerType === 'dictionary_splat_pattern' ? 'kw' : 'plain';
        const nm = innerType === 'identifier' ? inner!.text : inner ? namedChildren(inner)[0]?.text ?? '' : '';
        out.push({ name: nm, node: p, annotation: field(p, 'type') ?? undefined, kind });
      } else if (type === 'default_parameter' || type === 'typed_default_parameter') {
        out.push({ name: field(p, 'name')?.text ?? '', node: p, annotation: field(p, 'type') ?? undefined, value: field(p, 'value') ?? undefined, kind: 'plain' });
      } else if (type === 'list_splat_pattern') out.push({ name: namedChildren(p)[0]?.text ?? '', node: p, kind: 'star' });
      else if (type === 'dictionary_splat_pattern') out.push({ name: namedChildren(p)[0]?.text ?? '', node: p, kind: 'kw' });
    }
    return out;
  }

  private decorators(fn: Node): string[] {
    const dec = fn.parent?.type === 'decorated_definition' ? fn.parent : null;
    return dec ? namedChildren(dec).filter((d) => d.type === 'decorator').map((d) => d.text.replace(/^@/, '').split('(')[0]!.trim()) : [];
  }

  /** Runs a function body. With `record`, call sites are kept; otherwise only the return type matters. */
  private analyzeFunction(fn: Node, outer: Env, cls: string | undefined, record: boolean): Type {
    const saved = this.collectingSelf;
    if (saved && saved.fn.id !== fn.id) this.collectingSelf = undefined;
    try {
      return this.analyzeFunctionBody(fn, outer, cls, record);
    } finally {
      this.collectingSelf = saved;
    }
  }

  private analyzeFunctionBody(fn: Node, outer: Env, cls: string | undefined, record: boolean): Type {
    const env = new Env(new Map(), outer);
    const ps = this.params(fn);
    const decs = this.decorators(fn);
    const isStatic = decs.some((d) => /(^|\.)staticmethod$/.test(d));
    const isClassMethod = decs.some((d) => /(^|\.)classmethod$/.test(d));
    ps.forEach((p, i) => {
      if (!p.name) return;
      let t: Type = UNKNOWN;
      if (i === 0 && cls && !isStatic) t = isClassMethod ? [{ k: 'class', key: cls }] : [{ k: 'inst', key: cls }];
      else if (p.annotation) t = this.annotation(p.annotation, outer);
      if (p.kind === 'star') t = [{ k: 'seq', elem: t }];
      else if (p.kind === 'kw') t = UNKNOWN;
      env.vars.set(p.name, t);
    });
    const ctx: FnCtx = { fn, cls, record, returns: [] };
    const body = field(fn, 'body');
    const end = this.body(body, env, ctx);
    if (record) this.finalEnvs.set(fn.id, end ?? env);
    const ret = field(fn, 'return_type');
    if (ret) return this.annotation(ret, outer);
    const returns = [...ctx.returns];
    if (end) returns.push(NONE);
    return union(...returns);
  }

  private returnType(fn: Node, cls: string | undefined): Type {
    const cached = this.fnInference.get(fn.id);
    if (cached) return cached;
    const ret = field(fn, 'return_type');
    if (ret) {
      const t = this.annotation(ret, this.moduleEnv);
      this.fnInference.set(fn.id, t);
      return t;
    }
    if (this.inferring.has(fn.id)) return NEVER;
    this.inferring.add(fn.id);
    const t = this.analyzeFunction(fn, this.moduleEnv, cls, false);
    this.inferring.delete(fn.id);
    this.fnInference.set(fn.id, t);
    return t;
  }

  /** Fields of a class defined in the file: class-level annotations and assignments, and `self.x = ...` anywhere. */
  private classFields(key: string): Map<string, Type> {
    const lc = this.localClasses.get(key);
    if (!lc) return new Map();
    if (lc.fields) return lc.fields;
    if (lc.computing) return new Map();
    lc.computing = true;
    const acc = new Map<string, Type[]>();
    const add = (n: string, t: Type) => acc.set(n, [...(acc.get(n) ?? []), t]);
    const body = field(lc.node, 'body');
    for (const st of body ? namedChildren(body) : []) {
      if (st.type !== 'expression_statement') continue;
      const a = namedChildren(st)[0];
      if (a?.type !== 'assignment') continue;
      const left = field(a, 'left');
      if (left?.type !== 'identifier') continue;
      const ann = field(a, 'type');
      const right = field(a, 'right');
      if (ann) add(left.text, this.annotation(ann, this.moduleEnv));
      else if (right) add(left.text, this.expr(right, new Env(new Map(), this.moduleEnv), { fn: null, record: false, returns: [] }));
    }
    for (const st of body ? namedChildren(body) : []) {
      const def = st.type === 'decorated_definition' ? field(st, 'definition') : st;
      if (def?.type !== 'function_definition') continue;
      const fields = this.selfAssignments(def, key);
      for (const [n, t] of fields) add(n, t);
    }
    lc.fields = new Map([...acc].map(([n, ts]) => [n, union(...ts)]));
    lc.computing = false;
    return lc.fields;
  }

  private readonly selfAssignMemo = new Map<number, Map<string, Type>>();

  /** `self.x = v` (and `self.x: T = v`) in one method, with v typed in that method's flow. */
  private selfAssignments(fn: Node, cls: string): Map<string, Type> {
    const memo = this.selfAssignMemo.get(fn.id);
    if (memo) return memo;
    const out = new Map<string, Type>();
    this.selfAssignMemo.set(fn.id, out);
    const self = this.params(fn)[0]?.name;
    if (!self) return out;
    this.collectingSelf = { fn, self, out };
    try {
      this.analyzeFunction(fn, this.moduleEnv, cls, false);
    } finally {
      this.collectingSelf = undefined;
    }
    return out;
  }

  private collectingSelf: { fn: Node; self: string; out: Map<string, Type> } | undefined;

  // ---------------------------------------------------------------- imports and bindings

  private importStmt(s: Node, env: Env): void {
    if (s.type === 'import_statement') {
      for (const c of namedChildren(s)) {
        if (c.type === 'dotted_name') {
          const head = c.text.split('.')[0]!;
          env.set(head, [{ k: 'ref', q: head }]);
        } else if (c.type === 'aliased_import') {
          const n = field(c, 'name');
          const a = field(c, 'alias');
          if (n && a) env.set(a.text, this.refType(n.text));
        }
      }
      return;
    }
    if (s.type === 'future_import_statement') return;
    const modNode = field(s, 'module_name');
    let mod = modNode?.text ?? '';
    if (modNode?.type === 'relative_import') mod = `.${mod.replace(/^\.+/, '')}`;
    for (const c of s.childrenForFieldName('name')) {
      if (!c) continue;
      if (c.type === 'dotted_name') env.set(c.text, this.refType(`${mod}.${c.text}`));
      else if (c.type === 'aliased_import') {
        const n = field(c, 'name');
        const a = field(c, 'alias');
        if (n && a) env.set(a.text, this.refType(`${mod}.${n.text}`));
      }
    }
  }

  /** A name imported by qualified name: a known class becomes its class object. */
  private refType(q: string): Type {
    const key = this.classes.resolve(q);
    return key ? [{ k: 'class', key }] : [{ k: 'ref', q }];
  }

  /** Binds an assignment target (name, tuple, list, attribute path, starred). */
  private bind(target: Node, t: Type, env: Env, ctx: FnCtx): void {
    switch (target.type) {
      case 'identifier':
        env.set(target.text, t);
        return;
      case 'pattern_list':
      case 'tuple_pattern':
      case 'list_pattern':
      case 'tuple':
      case 'list': {
        const items = namedChildren(target);
        items.forEach((it, i) => {
          const parts: Type[] = [];
          for (const a of t) {
            if (a.k === 'tuple' && a.items.length === items.length) parts.push(a.items[i]!);
            else if (a.k === 'seq' || a.k === 'tuple') parts.push(elementOf([a]));
            else parts.push(UNKNOWN);
          }
          this.bind(it, it.type === 'list_splat_pattern' ? [{ k: 'seq', elem: union(...parts) }] : union(...parts), env, ctx);
        });
        return;
      }
      case 'list_splat_pattern': {
        const inner = namedChildren(target)[0];
        if (inner) this.bind(inner, t, env, ctx);
        return;
      }
      case 'parenthesized_expression': {
        const inner = namedChildren(target)[0];
        if (inner) this.bind(inner, t, env, ctx);
        return;
      }
      case 'attribute': {
        const obj = field(target, 'object');
        const path = dottedName(target);
        if (obj) this.expr(obj, env, ctx);
        if (path && obj?.type === 'identifier') {
          env.vars.set(path, t);
          if (this.collectingSelf && obj.text === this.collectingSelf.self) {
            const attr = field(target, 'attribute')!.text;
            const prev = this.collectingSelf.out.get(attr);
            this.collectingSelf.out.set(attr, prev ? union(prev, t) : t);
          }
        }
        return;
      }
      case 'subscript':
        for (const c of namedChildren(target)) this.expr(c, env, ctx);
        return;
      default:
        return;
    }
  }

  // ---------------------------------------------------------------- annotations

  annotation(node: Node, env: Env): Type {
    let n: Node | null = node;
    if (n.type === 'type') n = namedChildren(n)[0] ?? null;
    if (!n) return UNKNOWN;
    const type = n.type; // read once: each read is a call into the parser
    if (type === 'string' || type === 'concatenated_string') {
      const text = stringValue(n);
      if (!text) return UNKNOWN;
      const tree = parsePython(text);
      try {
        const e = namedChildren(tree.rootNode)[0];
        const inner = e?.type === 'expression_statement' ? namedChildren(e)[0] : undefined;
        return inner ? this.annotation(inner, env) : UNKNOWN;
      } finally {
        tree.delete();
      }
    }
    if (type === 'none') return NONE;
    if (type === 'binary_operator') {
      const l = field(n, 'left');
      const r = field(n, 'right');
      return union(l ? this.annotation(l, env) : UNKNOWN, r ? this.annotation(r, env) : UNKNOWN);
    }
    if (type === 'generic_type' || type === 'subscript') {
      const head = type === 'subscript' ? field(n, 'value') : namedChildren(n)[0];
      const argsNode = type === 'subscript' ? null : namedChildren(n).find((c) => c.type === 'type_parameter');
      const args: Node[] = type === 'subscript' ? n.childrenForFieldName('subscript').filter((x): x is Node => !!x) : argsNode ? namedChildren(argsNode) : [];
      const flat = args.length === 1 && args[0]!.type === 'tuple' ? namedChildren(args[0]!) : args;
      const name = head ? (dottedName(head) ?? '').split('.').pop()! : '';
      if (name === 'Optional' || WRAPPERS.has(name)) return flat[0] ? (name === 'Optional' ? union(this.annotation(flat[0], env), NONE) : this.annotation(flat[0], env)) : UNKNOWN;
      if (name === 'Union') return union(...flat.map((a) => this.annotation(a, env)));
      if (CONTAINERS.has(name)) return [{ k: 'seq', elem: flat[0] ? this.annotation(flat[0], env) : UNKNOWN }];
      if (name === 'Tuple' || name === 'tuple') {
        if (flat.length === 2 && flat[1]!.type === 'ellipsis') return [{ k: 'seq', elem: this.annotation(flat[0]!, env) }];
        return [{ k: 'tuple', items: flat.map((a) => this.annotation(a, env)) }];
      }
      if (name === 'Coroutine' && flat.length === 3) return this.annotation(flat[2]!, env);
      if (name === 'Dict' || name === 'dict' || name === 'Mapping') return UNKNOWN;
      return head ? this.instanceOf(this.annotationHead(head, env)) : UNKNOWN;
    }
    if (type === 'identifier' || type === 'attribute') return this.instanceOf(this.annotationHead(n, env));
    return UNKNOWN;
  }

  private annotationHead(n: Node, env: Env): Type {
    return this.expr(n, env, { fn: null, record: false, returns: [] });
  }

  /** The instances a class-valued type creates. */
  private instanceOf(t: Type): Type {
    const out: Atom[] = [];
    for (const a of t) {
      if (a.k === 'class') out.push({ k: 'inst', key: a.key });
      else if (a.k === 'ref') {
        if (a.q === 'None') out.push({ k: 'none' });
        else out.push({ k: 'inst', key: this.classes.resolve(a.q) ?? `?${a.q}` });
      } else if (a.k === 'none') out.push(a);
      else out.push({ k: 'unknown' });
    }
    return out.length ? out : UNKNOWN;
  }

  // ---------------------------------------------------------------- expressions

  expr(n: Node, env: Env, ctx: FnCtx): Type {
    switch (n.type) {
      case 'identifier': {
        const t = env.lookup(n.text);
        if (t) return t;
        if (n.text === 'None') return NONE;
        // Built-in exception classes, so that `Err = NotImplementedError; except Err:` resolves.
        if (BUILTIN_EXCEPTIONS.test(n.text)) return [{ k: 'ref', q: `builtins.${n.text}` }];
        return UNKNOWN;
      }
      case 'none':
        return NONE;
      case 'attribute':
        return this.attribute(n, env, ctx);
      case 'call':
        return this.call(n, env, ctx);
      case 'await':
      case 'parenthesized_expression': {
        const inner = namedChildren(n)[0];
        return inner ? this.expr(inner, env, ctx) : UNKNOWN;
      }
      case 'assignment': {
        const left = field(n, 'left');
        const right = field(n, 'right');
        const ann = field(n, 'type');
        let t: Type = right ? this.expr(right, env, ctx) : UNKNOWN;
        if (ann) {
          const at = this.annotation(ann, env);
          // A declared type wins over an unknown value; a known value refines the declaration.
          if (!right || isUnknown(t) || t.every((a) => a.k === 'none')) t = at;
        }
        if (right?.type === 'assignment') t = this.chainedValue(right, env);
        if (left) this.bind(left, t, env, ctx);
        return t;
      }
      case 'augmented_assignment': {
        for (const c of namedChildren(n)) this.expr(c, env, ctx);
        return UNKNOWN;
      }
      case 'named_expression': {
        const name = field(n, 'name');
        const value = field(n, 'value');
        const t = value ? this.expr(value, env, ctx) : UNKNOWN;
        if (name) env.set(name.text, t);
        return t;
      }
      case 'conditional_expression': {
        const [a, cond, b] = namedChildren(n);
        const nn = cond ? this.narrow(cond, env, ctx) : { t: env, f: env };
        return union(a ? this.expr(a, nn.t, ctx) : UNKNOWN, b ? this.expr(b, nn.f, ctx) : UNKNOWN);
      }
      case 'boolean_operator': {
        const l = field(n, 'left');
        const r = field(n, 'right');
        const lt = l ? this.expr(l, env, ctx) : UNKNOWN;
        const nn = l ? this.narrow(l, env, { ...ctx, record: false }) : { t: env, f: env };
        const op = n.child(1)?.type;
        const rt = r ? this.expr(r, op === 'and' ? nn.t : nn.f, ctx) : UNKNOWN;
        return union(lt.filter((a) => a.k !== 'none'), rt);
      }
      case 'tuple':
      case 'expression_list':
        return [{ k: 'tuple', items: namedChildren(n).map((c) => this.expr(c, env, ctx)) }];
      case 'list': {
        const items = namedChildren(n);
        if (!items.some((c) => c.type === 'list_splat')) return [{ k: 'tuple', items: items.map((c) => this.expr(c, env, ctx)) }];
        return [{ k: 'seq', elem: union(...items.map((c) => (c.type === 'list_splat' ? elementOf(this.expr(namedChildren(c)[0] ?? c, env, ctx)) : this.expr(c, env, ctx)))) }];
      }
      case 'set':
        return [{ k: 'seq', elem: union(...namedChildren(n).map((c) => (c.type === 'list_splat' ? elementOf(this.expr(namedChildren(c)[0] ?? c, env, ctx)) : this.expr(c, env, ctx)))) }];
      case 'list_comprehension':
      case 'set_comprehension':
      case 'generator_expression':
      case 'dictionary_comprehension':
        return this.comprehension(n, env, ctx);
      case 'subscript': {
        const v = field(n, 'value');
        const vt = v ? this.expr(v, env, ctx) : UNKNOWN;
        for (const s of n.childrenForFieldName('subscript')) if (s) this.expr(s, env, ctx);
        return elementOf(vt.filter((a) => a.k === 'seq' || a.k === 'tuple')).length ? elementOf(vt) : UNKNOWN;
      }
      case 'lambda': {
        const e = new Env(new Map(), env);
        const body = field(n, 'body');
        if (body) this.expr(body, e, ctx);
        return UNKNOWN;
      }
      case 'string':
      case 'concatenated_string':
        for (const c of namedChildren(n)) if (c.type === 'interpolation') for (const x of namedChildren(c)) this.expr(x, env, ctx);
        return UNKNOWN;
      case 'comment':
        return UNKNOWN;
      default:
        for (const c of namedChildren(n)) this.expr(c, env, ctx);
        return UNKNOWN;
    }
  }

  private chainedValue(n: Node, env: Env): Type {
    const r = field(n, 'right');
    return r ? (r.type === 'assignment' ? this.chainedValue(r, env) : this.expr(r, env, { fn: null, record: false, returns: [] })) : UNKNOWN;
  }

  private comprehension(n: Node, env: Env, ctx: FnCtx): Type {
    const e = new Env(new Map(), env);
    const body = field(n, 'body');
    let cur = e;
    for (const c of namedChildren(n)) {
      if (c.type === 'for_in_clause') {
        const right = field(c, 'right');
        const left = field(c, 'left');
        const t = right ? elementOf(this.expr(right, cur, ctx)) : UNKNOWN;
        if (left) this.bind(left, t, cur, ctx);
      } else if (c.type === 'if_clause') {
        const cond = namedChildren(c)[0];
        if (cond) cur = this.narrow(cond, cur, ctx).t;
      }
    }
    const t = body ? this.expr(body, cur, ctx) : UNKNOWN;
    return [{ k: 'seq', elem: t }];
  }

  private attribute(n: Node, env: Env, ctx: FnCtx): Type {
    const obj = field(n, 'object');
    const attr = field(n, 'attribute')?.text ?? '';
    const path = dottedName(n);
    if (path && obj?.type === 'identifier') {
      const known = env.vars.get(path) ?? env.outer?.lookup(path);
      if (known) {
        if (obj) this.expr(obj, env, ctx);
        this.recordAttribute(n, attr, env.lookup(obj.text) ?? UNKNOWN, ctx);
        return known;
      }
    }
    const ot = obj ? this.expr(obj, env, ctx) : UNKNOWN;
    this.recordAttribute(n, attr, ot, ctx);
    return this.member(ot, attr);
  }

  private recordAttribute(n: Node, attr: string, recv: Type, ctx: FnCtx): void {
    if (!ctx.record || !this.triggers.has(attr)) return;
    if (n.parent?.type === 'call' && field(n.parent, 'function')?.id === n.id) return;
    this.addSite({ node: n, kind: 'attribute', name: attr, receiver: recv, receiverText: field(n, 'object')?.text });
  }

  /** Type of `x.attr` for every atom of x. */
  private member(t: Type, attr: string): Type {
    const out: Type[] = [];
    for (const a of t) {
      if (a.k === 'ref') out.push(this.refType(`${a.q}.${attr}`));
      else if (a.k === 'class') {
        const info = this.classes.get(a.key);
        if (info && !a.key.startsWith('<local>')) out.push([{ k: 'ref', q: `${a.key}.${attr}` }]);
        else {
          const f = this.classFields(a.key).get(attr) ?? this.methodOf(a.key, attr);
          // `MyDate.fromisoformat` where MyDate subclasses a library class: the library's class attribute.
          const lib = f ? undefined : this.inheritedFromLibrary(a.key, [attr]);
          out.push(f ?? (lib ? [{ k: 'ref', q: `${lib}.${attr}` }] : UNKNOWN));
        }
      } else if (a.k === 'inst') {
        const fromFields = a.fields?.[attr];
        if (fromFields) {
          out.push(fromFields);
          continue;
        }
        let found: Type | undefined;
        for (const c of this.classes.mro(a.key)) {
          if (c.key.startsWith('<local>')) {
            // Fields still being computed (a method read while inferring them): unknown, not the base's.
            if (this.localClasses.get(c.key)?.computing) break;
            const f = this.classFields(c.key).get(attr);
            if (f) {
              found = f;
              break;
            }
            const m = this.methodOf(c.key, attr);
            if (m) {
              found = m;
              break;
            }
          }
          const at = c.attributes[attr];
          if (at) {
            found = [{ k: 'inst', key: this.classes.resolve(at) ?? at }];
            break;
          }
        }
        out.push(found ?? UNKNOWN);
      } else out.push(UNKNOWN);
    }
    return union(...out);
  }

  private methodOf(key: string, name: string): Type | undefined {
    const lc = this.localClasses.get(key);
    if (!lc) return undefined;
    const body = field(lc.node, 'body');
    for (const st of body ? namedChildren(body) : []) {
      const def = st.type === 'decorated_definition' ? field(st, 'definition') : st;
      if (def?.type === 'function_definition' && field(def, 'name')?.text === name) return [{ k: 'func', fn: def, cls: key }];
    }
    return undefined;
  }

  private call(n: Node, env: Env, ctx: FnCtx): Type {
    const fn = field(n, 'function');
    const argsNode = field(n, 'arguments');
    if (!fn) return UNKNOWN;
    let calleeT: Type;
    let receiver: Type | undefined;
    let name = '';
    if (fn.type === 'attribute') {
      const obj = field(fn, 'object');
      name = field(fn, 'attribute')?.text ?? '';
      const path = dottedName(fn);
      const known = path && obj?.type === 'identifier' ? env.lookup(path) : undefined;
      receiver = obj ? this.expr(obj, env, ctx) : UNKNOWN;
      calleeT = known ?? this.member(receiver, name);
    } else {
      calleeT = this.expr(fn, env, ctx);
      name = fn.type === 'identifier' ? fn.text : '';
    }
    const args: { pos: Type[]; kw: Map<string, Type> } = { pos: [], kw: new Map() };
    for (const a of argsNode ? namedChildren(argsNode) : []) {
      if (a.type === 'keyword_argument') {
        const k = field(a, 'name')?.text;
        const v = field(a, 'value');
        const t = v ? this.expr(v, env, ctx) : UNKNOWN;
        if (k) args.kw.set(k, t);
      } else if (a.type === 'list_splat' || a.type === 'dictionary_splat') {
        for (const c of namedChildren(a)) this.expr(c, env, ctx);
        args.pos.push(UNKNOWN);
      } else args.pos.push(this.expr(a, env, ctx));
    }
    if (ctx.record && name) {
      const callee = this.calleeNames(calleeT);
      // Recorded under its written name, or under the name it was imported as (`from json import loads as parse`).
      if (this.triggers.has(name) || callee.some((q) => this.triggers.has(q.slice(q.lastIndexOf('.') + 1)))) {
        if (fn.type === 'attribute') this.addSite({ node: n, kind: 'method', name, receiver, callee, receiverText: field(fn, 'object')?.text });
        else this.addSite({ node: n, kind: 'call', name, callee });
      }
    }
    // Result type.
    if (name === 'cast' && args.pos.length === 2 && argsNode) {
      const first = namedChildren(argsNode)[0];
      if (first && calleeT.some((a) => a.k === 'ref' && /(^|\.)typing\.cast$|^cast$/.test(a.q))) return this.annotation(first, env);
    }
    const out: Type[] = [];
    for (const a of calleeT) {
      if (a.k === 'class') out.push([this.construct(a.key, args)]);
      else if (a.k === 'ref') {
        const key = this.classes.resolve(a.q);
        out.push(key ? [this.construct(key, args)] : UNKNOWN);
      } else if (a.k === 'func') out.push(this.returnType(a.fn, a.cls));
      else out.push(UNKNOWN);
    }
    return out.length ? union(...out) : UNKNOWN;
  }

  /**
   * Qualified names a callee resolves to: imported names and attribute chains (`pkg.Klass.create`),
   * library classes (constructors), and for a class defined in the file, the library class whose
   * constructor it inherits (no `__init__` / `__new__` of its own on the way).
   */
  private calleeNames(calleeT: Type): string[] {
    const out: string[] = [];
    for (const a of calleeT) {
      if (a.k === 'ref') out.push(a.q);
      else if (a.k === 'class' && !a.key.startsWith('<local>')) out.push(a.key);
      else if (a.k === 'class') {
        const lib = this.inheritedFromLibrary(a.key, ['__init__', '__new__']);
        if (lib) out.push(lib);
      }
    }
    return [...new Set(out)];
  }

  /** The nearest library class (or unresolved `?qname` base) in a local class's ancestry, unless a local class on the way defines one of `names`. */
  private inheritedFromLibrary(key: string, names: string[]): string | undefined {
    const seen = new Set<string>();
    const walk = (k: string): string | undefined => {
      if (seen.has(k)) return undefined;
      seen.add(k);
      if (k.startsWith('?')) return k.slice(1);
      const info = this.classes.get(k);
      if (!k.startsWith('<local>')) return info ? k : undefined;
      if (!info || names.some((n) => info.ownMethods?.has(n))) return undefined;
      if (names.some((n) => this.classFields(k).has(n))) return undefined;
      for (const b of info.bases) {
        const r = walk(b);
        if (r) return r;
      }
      return undefined;
    };
    return walk(key);
  }

  /** An instance of a class, keeping the constructor arguments its curated `init` says it keeps. */
  private construct(key: string, args: { pos: Type[]; kw: Map<string, Type> }): Atom {
    const fields: Record<string, Type> = {};
    let any = false;
    for (const c of this.classes.mro(key)) {
      for (const p of c.init) {
        if (fields[p.name]) continue;
        const v = args.kw.get(p.name) ?? (p.position !== null ? args.pos[p.position] : undefined);
        if (v) fields[p.name] = v;
        else if (p.default) fields[p.name] = [{ k: 'inst', key: this.classes.resolve(p.default) ?? p.default }];
        else continue;
        any = true;
      }
    }
    return any ? { k: 'inst', key, fields } : { k: 'inst', key };
  }

  private addSite(site: CallSite): void {
    const prev = this.sites.get(site.node.id);
    if (!prev) {
      this.sites.set(site.node.id, site);
      return;
    }
    if (site.receiver) prev.receiver = union(prev.receiver ?? NEVER, site.receiver);
    if (site.callee) prev.callee = [...new Set([...(prev.callee ?? []), ...site.callee])];
  }

  // ---------------------------------------------------------------- narrowing

  private narrow(cond: Node, env: Env, ctx: FnCtx): { t: Env; f: Env } {
    switch (cond.type) {
      case 'parenthesized_expression': {
        const inner = namedChildren(cond)[0];
        return inner ? this.narrow(inner, env, ctx) : { t: env, f: env };
      }
      case 'not_operator': {
        const arg = field(cond, 'argument');
        const r = arg ? this.narrow(arg, env, ctx) : { t: env, f: env };
        return { t: r.f, f: r.t };
      }
      case 'boolean_operator': {
        const l = field(cond, 'left');
        const r = field(cond, 'right');
        const op = cond.child(1)?.type;
        const ln = l ? this.narrow(l, env, ctx) : { t: env, f: env };
        if (op === 'and') {
          const rn = r ? this.narrow(r, ln.t.clone(), ctx) : { t: ln.t, f: ln.t };
          return { t: rn.t, f: Env.merge([ln.f, rn.f])! };
        }
        const rn = r ? this.narrow(r, ln.f.clone(), ctx) : { t: ln.f, f: ln.f };
        return { t: Env.merge([ln.t, rn.t])!, f: rn.f };
      }
      case 'comparison_operator': {
        const [l, r] = namedChildren(cond);
        const ops = cond.children.filter((c) => c && !c.isNamed).map((c) => c!.text).join(' ');
        this.expr(cond, env, ctx);
        if (l && r?.type === 'none' && (ops === 'is' || ops === 'is not')) {
          const path = this.pathOf(l);
          if (path) {
            const cur = this.expr(l, env, { ...ctx, record: false });
            const t = env.clone();
            const f = env.clone();
            const notNone = cur.filter((a) => a.k !== 'none');
            (ops === 'is' ? f : t).vars.set(path, notNone);
            (ops === 'is' ? t : f).vars.set(path, NONE);
            return { t, f };
          }
        }
        return { t: env, f: env };
      }
      case 'call': {
        this.expr(cond, env, ctx);
        const test = this.isinstanceTest(cond, env);
        if (!test) return { t: env, f: env };
        const cur = this.expr(test.subject, env, { ...ctx, record: false });
        const t = env.clone();
        const f = env.clone();
        const pos = narrowType(cur, test.classes, true, this.classes);
        const neg = narrowType(cur, test.classes, false, this.classes);
        t.vars.set(test.path, test.positive ? pos : neg);
        f.vars.set(test.path, test.positive ? neg : pos);
        return { t, f };
      }
      default:
        this.expr(cond, env, ctx);
        if (cond.type === 'identifier' || cond.type === 'attribute') {
          const path = this.pathOf(cond);
          if (path) {
            const cur = this.expr(cond, env, { ...ctx, record: false });
            const t = env.clone();
            t.vars.set(path, cur.filter((a) => a.k !== 'none'));
            return { t, f: env };
          }
        }
        return { t: env, f: env };
    }
  }

  private pathOf(n: Node): string | undefined {
    if (n.type === 'identifier') return n.text;
    if (n.type === 'attribute' && field(n, 'object')?.type === 'identifier') return dottedName(n);
    return undefined;
  }

  /** `isinstance(x, C)`, or a guard function call: a local `def g(x): return [not] isinstance(x, C)` or a record's guard. */
  private isinstanceTest(call: Node, env: Env): { subject: Node; path: string; classes: string[]; positive: boolean } | undefined {
    const fn = field(call, 'function');
    const argsNode = field(call, 'arguments');
    const args = argsNode ? namedChildren(argsNode) : [];
    if (!fn) return undefined;
    if (fn.text === 'isinstance' && args.length === 2) {
      const path = this.pathOf(args[0]!);
      if (!path) return undefined;
      return { subject: args[0]!, path, classes: this.classKeys(args[1]!, env), positive: true };
    }
    const name = fn.type === 'identifier' ? fn.text : fn.type === 'attribute' ? field(fn, 'attribute')?.text : undefined;
    if (!name) return undefined;
    // A guard defined in this file.
    const ft = this.expr(fn, env, { fn: null, record: false, returns: [] });
    const local = ft.find((a) => a.k === 'func');
    if (local && local.k === 'func') {
      const g = this.localGuard(local.fn, env);
      if (g && args[g.param]) {
        const path = this.pathOf(args[g.param]!);
        if (path) return { subject: args[g.param]!, path, classes: g.classes, positive: !g.negated };
      }
      return undefined;
    }
    // A guard a record ships (imported from anywhere under that name).
    const specs: GuardSpec[] = this.rules.guards.get(name) ?? [];
    for (const spec of specs) {
      const arg = args[spec.param];
      const path = arg ? this.pathOf(arg) : undefined;
      if (!arg || !path) continue;
      if (spec.excludesWhenTrue.length) return { subject: arg, path, classes: spec.excludesWhenTrue, positive: false };
      if (spec.includesWhenTrue.length) return { subject: arg, path, classes: spec.includesWhenTrue, positive: true };
    }
    return undefined;
  }

  private localGuard(fn: Node, env: Env): { param: number; classes: string[]; negated: boolean } | undefined {
    const body = field(fn, 'body');
    const stmts = body ? namedChildren(body).filter((s) => !(s.type === 'expression_statement' && namedChildren(s)[0]?.type === 'string')) : [];
    if (stmts.length !== 1 || stmts[0]!.type !== 'return_statement') return undefined;
    let e = namedChildren(stmts[0]!)[0];
    let negated = false;
    while (e?.type === 'not_operator' || e?.type === 'parenthesized_expression') {
      if (e.type === 'not_operator') negated = !negated;
      e = e.type === 'not_operator' ? (field(e, 'argument') ?? undefined) : namedChildren(e)[0];
    }
    if (e?.type !== 'call' || field(e, 'function')?.text !== 'isinstance') return undefined;
    const argsNode = field(e, 'arguments');
    const [v, c] = argsNode ? namedChildren(argsNode) : [];
    if (v?.type !== 'identifier' || !c) return undefined;
    const param = this.params(fn).findIndex((p) => p.name === v.text);
    if (param < 0) return undefined;
    return { param, classes: this.classKeys(c, env), negated };
  }

  private classKeys(n: Node, env: Env): string[] {
    const list = n.type === 'tuple' || n.type === 'parenthesized_expression' ? namedChildren(n) : [n];
    const out: string[] = [];
    for (const c of list) {
      for (const a of this.expr(c, env, { fn: null, record: false, returns: [] })) {
        if (a.k === 'class') out.push(a.key);
        else if (a.k === 'ref') out.push(this.classes.resolve(a.q) ?? `?${a.q}`);
      }
    }
    return out;
  }
}

/** Narrows a type by `isinstance(x, classes)` being true (`positive`) or false. */
export function narrowType(t: Type, classes: string[], positive: boolean, reg: ClassRegistry): Type {
  const out: Atom[] = [];
  for (const a of t) {
    if (a.k === 'inst') {
      const sub = classes.some((c) => reg.isSubclass(a.key, c));
      if (sub) {
        if (positive) out.push(a);
        continue;
      }
      const info = reg.get(a.key);
      const wider = classes.filter((c) => reg.isSubclass(c, a.key) || (info?.protocol && info.implementations.includes(c)));
      if (wider.length) {
        if (positive) for (const c of wider) out.push({ k: 'inst', key: c });
        else out.push({ ...a, exclude: [...new Set([...(a.exclude ?? []), ...wider])] });
        continue;
      }
      if (!positive) out.push(a);
    } else if (a.k === 'unknown') {
      if (positive) for (const c of classes) out.push({ k: 'inst', key: c });
      else out.push(a);
    } else if (!positive) out.push(a);
  }
  return union(out);
}
