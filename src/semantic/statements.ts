/** Statements: the flow through a body, branch by branch; definitions and imports bind names. */
import type { Node } from '../parse/parser.js';
import { field, kids } from '../parse/syntax.js';
import { decoratorNodes, definitionOf } from '../python/defs.js';
import { exceptAlias, handlerBody } from '../python/excepts.js';
import { importedNames } from '../python/imports.js';
import { parameters } from '../python/params.js';
import { withItems } from '../python/withitems.js';
import { newClassInfo } from '../rules/classes.js';
import type { RuleSet } from '../rules/ruleset.js';
import { Env, type FnCtx } from './env.js';
import { Expressions } from './expressions.js';
import { mayGive } from './projectfacts.js';
import { prefilterFor } from '../prefilter/index.js';
import type { SiteObserver } from './sites.js';
import { NONE, UNKNOWN, classAtom, elementOf, funcAtom, refAtom } from './types.js';

export abstract class Statements extends Expressions {
  constructor(
    rules: RuleSet,
    observer: SiteObserver,
    protected readonly file: string,
  ) {
    super(rules, observer);
  }

  /** Checks a function body later, with the final environment of `outer` ('module': the module's). */
  protected abstract defer(fn: Node, outer: Env | 'module', cls?: string): void;

  /** Runs statements; returns the environment after them, or null when every path left (return/raise). */
  protected block(stmts: readonly Node[], env: Env | null, ctx: FnCtx): Env | null {
    let cur = env;
    for (const s of stmts) {
      if (!cur) return null;
      cur = this.stmt(s, cur, ctx);
    }
    return cur;
  }

  protected body(node: Node | null, env: Env, ctx: FnCtx): Env | null {
    if (!node) return env;
    return this.block(node.type === 'block' ? kids(node) : [node], env, ctx);
  }

  protected stmt(s: Node, env: Env, ctx: FnCtx): Env | null {
    switch (s.type) {
      case 'expression_statement':
        for (const c of kids(s)) this.expr(c, env, ctx);
        return env;
      case 'return_statement': {
        const v = kids(s)[0];
        ctx.returns.push(v ? this.expr(v, env, ctx) : NONE);
        return null;
      }
      case 'raise_statement':
        for (const c of kids(s)) this.expr(c, env, ctx);
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
      case 'while_statement':
        return this.whileStmt(s, env, ctx);
      case 'try_statement':
        return this.tryStmt(s, env, ctx);
      case 'with_statement':
        return this.withStmt(s, env, ctx);
      case 'function_definition':
        this.defineFunction(s, env, ctx);
        return env;
      case 'decorated_definition': {
        const def = field(s, 'definition');
        if (!def) return env;
        for (const d of decoratorNodes(def)) this.expr(kids(d)[0] ?? d, env, ctx);
        return this.stmt(def, env, ctx);
      }
      case 'class_definition':
        this.defineClass(s, env, ctx);
        return env;
      case 'assert_statement': {
        const [cond, ...rest] = kids(s);
        for (const r of rest) this.expr(r, env, ctx);
        return cond ? this.narrow(cond, env, ctx).t : env;
      }
      case 'match_statement':
        return this.matchStmt(s, env, ctx);
      case 'global_statement':
      case 'nonlocal_statement':
        for (const n of kids(s)) env.remove(n.text);
        return env;
      case 'delete_statement':
      case 'pass_statement':
      case 'comment':
        return env;
      default:
        for (const c of kids(s)) this.expr(c, env, ctx);
        return env;
    }
  }

  /** `while`: the body twice at most (until the types it changes are stable); the condition narrows the exits. */
  private whileStmt(s: Node, env: Env, ctx: FnCtx): Env | null {
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

  /** `with`: an `as` target is the context manager itself when it is an instance, else unknown. */
  private withStmt(s: Node, env: Env, ctx: FnCtx): Env | null {
    for (const { value, target } of withItems(s)) {
      const t = this.expr(value, env, ctx);
      // A context manager returns itself in most library APIs we model; otherwise unknown.
      if (target) this.bind(target, t.some((a) => a.kind === 'inst') ? t : UNKNOWN, env, ctx);
    }
    return this.body(field(s, 'body'), env, ctx);
  }

  /** `match`: each case from the environment before it; the cases merge. */
  private matchStmt(s: Node, env: Env, ctx: FnCtx): Env | null {
    const subject = field(s, 'subject');
    if (subject) this.expr(subject, env, ctx);
    const outs: Env[] = [env];
    const blk = field(s, 'body');
    for (const c of blk ? kids(blk) : []) {
      if (c.type !== 'case_clause') continue;
      const r = this.body(field(c, 'consequence'), env.clone(), ctx);
      if (r) outs.push(r);
    }
    return Env.merge(outs);
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
        const r = this.body(field(alt, 'body') ?? kids(alt).find((c) => c.type === 'block') ?? null, rest.clone(), ctx);
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
    for (const c of kids(s)) {
      if (c.type === 'except_clause' || c.type === 'except_group_clause') {
        const e = handlerStart.clone();
        const alias = exceptAlias(c);
        if (alias) e.set(alias, UNKNOWN);
        const r = this.body(handlerBody(c), e, ctx);
        if (r) outs.push(r);
      } else if (c.type === 'else_clause') {
        elseEnd = bodyEnd ? this.body(field(c, 'body') ?? kids(c).find((x) => x.type === 'block') ?? null, bodyEnd, ctx) : null;
      } else if (c.type === 'finally_clause') fin = c;
    }
    if (elseEnd) outs.push(elseEnd);
    const merged = Env.merge(outs);
    if (fin) {
      const f = this.body(kids(fin).find((x) => x.type === 'block') ?? null, (merged ?? handlerStart).clone(), ctx);
      return merged && f ? f : null;
    }
    return merged;
  }

  private defineFunction(s: Node, env: Env, ctx: FnCtx, cls?: string): void {
    const name = field(s, 'name')?.text;
    if (name) env.set(name, [funcAtom(s, cls)]);
    for (const p of parameters(s)) if (p.value) this.expr(p.value, env, ctx);
    // Module-level functions and methods see the module's final environment; nested ones their scope's.
    if (ctx.record) this.defer(s, ctx.fn === null || cls ? 'module' : env, cls);
  }

  private defineClass(s: Node, env: Env, ctx: FnCtx): void {
    const name = field(s, 'name')?.text;
    if (!name) return;
    const key = `<local>${this.file}#${name}@${s.startPosition.row + 1}`;
    const sup = field(s, 'superclasses');
    const bases: string[] = [];
    for (const b of sup ? kids(sup) : []) {
      if (b.type === 'keyword_argument') continue;
      for (const a of this.expr(b, env, ctx)) {
        if (a.kind === 'class') bases.push(a.key);
        else if (a.kind === 'ref')
          bases.push(this.classes.resolve(a.qualname) ?? (this.eagerBases ? this.projectBase(a.qualname) : undefined) ?? `?${a.qualname}`);
      }
    }
    const body = field(s, 'body');
    const own = new Set<string>();
    for (const st of body ? kids(body) : []) {
      const def = definitionOf(st);
      if (def?.type === 'function_definition') {
        const n = field(def, 'name')?.text;
        if (n) own.add(n);
      }
    }
    this.classes.add(newClassInfo(key, { name, module: this.file, bases, ownMethods: own }));
    this.localClasses.set(key, { key, node: s, fields: undefined, computing: undefined, methods: undefined, defs: undefined });
    env.set(name, [classAtom(key)]);
    // The class body is its own scope; methods see the module (not the class body).
    const clsEnv = new Env(new Map(), env);
    for (const st of body ? kids(body) : []) {
      const def = definitionOf(st);
      if (def?.type === 'function_definition') {
        for (const d of decoratorNodes(def)) this.expr(kids(d)[0] ?? d, clsEnv, ctx);
        this.defineFunction(def, clsEnv, ctx, key);
      } else this.stmt(st, clsEnv, { ...ctx, fn: null });
    }
  }

  /** A class base from a project module (./crossfile.ts), read when that module's text may give a class the rules know. */
  private projectBase(q: string): string | undefined {
    const cross = this.cross;
    const file = cross?.candidate(q) ? cross.moduleOf(q) : undefined;
    return file && mayGive(cross!, file, undefined, prefilterFor(this.rules)) ? cross!.classKey(q) : undefined;
  }

  /** The module of a from-import: a relative one that names a project module becomes its absolute name (./crossfile.ts), else `.m`. */
  private fromModule(module: string, relative: boolean): string {
    if (!relative) return module;
    const rest = module.replace(/^\.+/, '');
    const abs = this.cross?.absolute(module.length - rest.length, rest);
    return abs && this.cross!.candidate(abs) ? abs : `.${rest}`;
  }

  protected importStmt(s: Node, env: Env): void {
    for (const i of importedNames(s)) {
      if (i.kind === 'module') env.set(i.local, i.aliased ? this.members.refType(i.module) : [refAtom(i.local)]);
      else env.set(i.local, this.members.refType(`${this.fromModule(i.module, i.relative)}.${i.name}`));
    }
  }
}
