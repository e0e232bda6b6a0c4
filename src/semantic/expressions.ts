/**
 * Expressions: the type of every expression, in the flow's environment. Calls and property reads
 * are reported to the site observer; member types, annotations and narrowing are their own rooms
 * (./members.ts, ./annotations.ts, ./narrowing.ts).
 */
import type { Node } from '../parse/parser.js';
import type { FileFlows } from '../python/flows.js';
import { dottedName, field, kids } from '../parse/syntax.js';
import { mayInterpolate } from '../parse/nodecache.js';
import type { ClassRegistry } from '../rules/classes.js';
import type { RuleSet } from '../rules/ruleset.js';
import { Annotations } from './annotations.js';
import { Env, inert, type FnCtx, type LocalClass } from './env.js';
import { Members } from './members.js';
import { Narrowing } from './narrowing.js';
import { argTypes, callSite, type SiteObserver } from './sites.js';
import type { CrossFile } from './crossfile.js';
import { argumentNode, type ParamEffect } from './effects.js';
import { CALLABLE, mayGive } from './projectfacts.js';
import { prefilterFor } from '../prefilter/index.js';
import { abbreviate } from '../parse/syntax.js';
import { NONE, UNKNOWN, elementOf, isUnknown, refAtom, seqAtom, tupleAtom, union, type Atom, type Type } from './types.js';
import { NOT_NONE_CALLS, NOT_NONE_SYNTAX, SOME, notNone } from './types.js';
import { BUILTIN_EXCEPTION_NAME as BUILTIN_EXCEPTIONS } from '../python/builtins.js';
import { resolveType } from './resolve.js';

/** A call's argument types: positional, and by keyword. */
export interface CallArgs {
  pos: Type[];
  kw: ReadonlyMap<string, Type>;
}
const NO_KEYWORDS: ReadonlyMap<string, Type> = new Map();
const NO_NODES: readonly Node[] = [];

export abstract class Expressions {
  readonly classes: ClassRegistry;
  readonly localClasses = new Map<string, LocalClass>();
  protected readonly annotations: Annotations;
  protected readonly narrowing: Narrowing;
  protected readonly members: Members;
  /** The project's other modules, as this file imports them (./crossfile.ts); absent when the file is read alone. */
  cross?: CrossFile;
  /** A project class's bases from other modules are read at once (the checked file), or when the class is asked for (a summary: ./crossfile.ts adopt). */
  eagerBases = true;

  constructor(
    protected readonly rules: RuleSet,
    protected readonly observer: SiteObserver,
  ) {
    this.classes = rules.classes.overlay();
    this.annotations = new Annotations(this.classes, (n, env) => this.expr(n, env, inert()));
    this.narrowing = new Narrowing({
      classes: this.classes,
      guards: rules.guards,
      expr: (n, env, ctx) => this.expr(n, env, ctx),
      resolve: (t) => this.resolveFor(t, undefined),
    });
    this.members = new Members(this);
  }

  /** The module's environment (its final one once the module has run). */
  abstract moduleEnv(): Env;
  /** `self.x = v` in one method of a class defined in the file. */
  abstract selfAssignments(fn: Node, cls: string): Map<string, Type>;
  abstract readonly fileFlows: () => FileFlows;
  /** What calling a function defined in the file returns. */
  protected abstract returnType(fn: Node, cls: string | undefined): Type;
  /** What a function (defined in the file, or a project module's) does with its parameters (./effects.ts). */
  abstract calleeEffects(a: Atom): ParamEffect[];

  annotation(node: Node, env: Env): Type {
    return this.annotations.annotation(node, env);
  }

  protected narrow(cond: Node, env: Env, ctx: FnCtx): { t: Env; f: Env } {
    return this.narrowing.narrow(cond, env, ctx);
  }

  expr(n: Node, env: Env, ctx: FnCtx): Type {
    const type = n.type; // read once: each read is a call into the parser
    switch (type) {
      case 'identifier': {
        const t = env.lookup(n.text);
        if (t) return t;
        if (n.text === 'None') return NONE;
        // Built-in exception classes, so that `Err = NotImplementedError; except Err:` resolves.
        if (BUILTIN_EXCEPTIONS.test(n.text)) return [refAtom(`builtins.${n.text}`)];
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
        const inner = kids(n)[0];
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
          if (!right || isUnknown(t) || t.every((a) => a.kind === 'none')) t = at;
        }
        if (right?.type === 'assignment') t = this.chainedValue(right, env);
        if (left) this.bind(left, t, env, ctx);
        return t;
      }
      case 'augmented_assignment': {
        for (const c of kids(n)) this.expr(c, env, ctx);
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
        const [a, cond, b] = kids(n);
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
        // `a or b` gives `a` only when true (not None); `a and b` gives `a` when false (None too).
        return op === 'or' ? union(notNone(lt), rt) : union(lt, rt);
      }
      default:
        return this.collection(n, type, env, ctx);
    }
  }

  /** Collections, comprehensions, subscripts, lambdas, strings and the rest: their parts are evaluated (call sites in them recorded). */
  private collection(n: Node, type: string, env: Env, ctx: FnCtx): Type {
    switch (type) {
      case 'tuple':
      case 'expression_list':
        return [tupleAtom(kids(n).map((c) => this.expr(c, env, ctx)))];
      case 'list': {
        const items = kids(n);
        if (!items.some((c) => c.type === 'list_splat')) return [tupleAtom(items.map((c) => this.expr(c, env, ctx)))];
        return [seqAtom(union(...items.map((c) => (c.type === 'list_splat' ? elementOf(this.expr(kids(c)[0] ?? c, env, ctx)) : this.expr(c, env, ctx)))))];
      }
      case 'set':
        return [seqAtom(union(...kids(n).map((c) => (c.type === 'list_splat' ? elementOf(this.expr(kids(c)[0] ?? c, env, ctx)) : this.expr(c, env, ctx)))))];
      case 'list_comprehension':
      case 'set_comprehension':
      case 'generator_expression':
      case 'dictionary_comprehension':
        return this.comprehension(n, env, ctx);
      case 'subscript': {
        const v = field(n, 'value');
        const vt = v ? this.expr(v, env, ctx) : UNKNOWN;
        for (const s of n.childrenForFieldName('subscript')) if (s) this.expr(s, env, ctx);
        return elementOf(vt.filter((a) => a.kind === 'seq' || a.kind === 'tuple')).length ? elementOf(vt) : UNKNOWN;
      }
      case 'lambda': {
        const e = new Env(new Map(), env);
        const body = field(n, 'body');
        if (body) this.expr(body, e, ctx);
        return UNKNOWN;
      }
      case 'string':
        // Only an f-string (or t-string) has interpolations: other strings are not read child by child.
        if (mayInterpolate(n)) for (const c of kids(n)) if (c.type === 'interpolation') for (const x of kids(c)) this.expr(x, env, ctx);
        return SOME;
      case 'concatenated_string':
        // Adjacent strings (`"a" f"{x()}"`): each part is a string, and an f- or t-string part is read as above.
        for (const c of kids(n)) if (c.type === 'string') this.expr(c, env, ctx);
        return SOME;
      default:
        // A comment, among others: no kids, unknown.
        for (const c of kids(n)) this.expr(c, env, ctx);
        return NOT_NONE_SYNTAX.has(type) ? SOME : UNKNOWN;
    }
  }

  private chainedValue(n: Node, env: Env): Type {
    const r = field(n, 'right');
    return r ? (r.type === 'assignment' ? this.chainedValue(r, env) : this.expr(r, env, inert())) : UNKNOWN;
  }

  private comprehension(n: Node, env: Env, ctx: FnCtx): Type {
    const e = new Env(new Map(), env);
    const body = field(n, 'body');
    let cur = e;
    for (const c of kids(n)) {
      if (c.type === 'for_in_clause') {
        const right = field(c, 'right');
        const left = field(c, 'left');
        const t = right ? elementOf(this.expr(right, cur, ctx)) : UNKNOWN;
        if (left) this.bind(left, t, cur, ctx);
      } else if (c.type === 'if_clause') {
        const cond = kids(c)[0];
        if (cond) cur = this.narrow(cond, cur, ctx).t;
      }
    }
    const t = body ? this.expr(body, cur, ctx) : UNKNOWN;
    return [seqAtom(t)];
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
    return this.members.member(ot, attr);
  }

  private recordAttribute(n: Node, attr: string, recv: Type, ctx: FnCtx): void {
    if (!ctx.record || !this.observer.wants(attr)) return;
    if (n.parent?.type === 'call' && field(n.parent, 'function')?.id === n.id) return;
    this.observer.add(callSite(n, 'attribute', attr, this.resolveFor(recv, attr), undefined, field(n, 'object')?.text));
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
      calleeT = known ?? this.members.member(receiver, name);
    } else {
      calleeT = this.expr(fn, env, ctx);
      name = fn.type === 'identifier' ? fn.text : '';
    }
    const list = argsNode ? kids(argsNode) : NO_NODES;
    // Room for every argument at once (a push would give the list room for 17), cut to the positional ones below.
    const args: CallArgs = { pos: new Array<Type>(list.length), kw: NO_KEYWORDS };
    let npos = 0;
    for (const a of list) {
      if (a.type === 'keyword_argument') {
        const k = field(a, 'name')?.text;
        const v = field(a, 'value');
        const t = v ? this.expr(v, env, ctx) : UNKNOWN;
        // Most calls have no keyword argument: they share one empty map.
        if (k) (args.kw === NO_KEYWORDS ? (args.kw = new Map()) : (args.kw as Map<string, Type>)).set(k, t);
      } else if (a.type === 'list_splat' || a.type === 'dictionary_splat') {
        for (const c of kids(a)) this.expr(c, env, ctx);
        args.pos[npos++] = UNKNOWN;
      } else args.pos[npos++] = this.expr(a, env, ctx);
    }
    args.pos.length = npos;
    if (ctx.record && name) {
      const inherited: string[] = [];
      // What the project's own modules make of the receiver and the callee (./crossfile.ts).
      // A receiver matters only at a site of its method; a callee resolves to what it names, whose name may be wanted.
      const wanted = this.observer.wants(name);
      if (receiver && wanted) receiver = this.resolveFor(receiver, name);
      const callee = this.members.calleeNames(this.cross ? union(calleeT, this.resolveFor(calleeT, wanted ? name : CALLABLE)) : calleeT, inherited);
      // Recorded under its written name, or under the name it was imported as (`from json import loads as parse`).
      if (this.observer.wants(name) || callee.some((q) => this.observer.wants(q.slice(q.lastIndexOf('.') + 1)))) {
        const inh = inherited.length ? inherited : undefined;
        const types = argTypes(list, args.pos, args.kw);
        if (fn.type === 'attribute') this.observer.add(callSite(n, 'method', name, receiver, callee, field(fn, 'object')?.text, inh, undefined, types));
        else this.observer.add(callSite(n, 'call', name, undefined, callee, undefined, inh, undefined, types));
      }
    }
    if (ctx.record) this.passedOn(n, calleeT, args, list);
    // Result type.
    if (name === 'cast' && args.pos.length === 2 && argsNode) {
      const first = kids(argsNode)[0];
      if (first && calleeT.some((a) => a.kind === 'ref' && /(^|\.)typing\.cast$|^cast$/.test(a.qualname))) return this.annotation(first, env);
    }
    if (fn.type === 'identifier' && NOT_NONE_CALLS.has(name) && isUnknown(calleeT)) return SOME;
    // One callee type (the common case): its result, without the list.
    if (calleeT.length === 1) return union(this.callResult(calleeT[0]!, args));
    const out: Type[] = [];
    for (const a of calleeT) out.push(this.callResult(a, args));
    return out.length ? union(...out) : UNKNOWN;
  }

  /**
   * Objects passed to a function that calls a rule's method on them (./effects.ts): a site of that
   * method on the argument's type, at this call, with the calls on the way.
   */
  private passedOn(n: Node, calleeT: Type, args: CallArgs, list: readonly Node[]): void {
    for (const a of calleeT) {
      for (const e of this.calleeEffects(a)) {
        if (!this.observer.wants(e.method)) continue;
        const at = argumentNode(list, e.index, e.name);
        const t = at && (at.keyword ? args.kw.get(e.name) : args.pos[e.index]);
        if (!at || !t) continue;
        const recv = this.resolveFor(t, e.method);
        this.observer.add(callSite(n, 'method', e.method, recv, undefined, at.node.text, undefined, [abbreviate(n.text), ...e.via]));
      }
    }
  }

  /** A type at a site of `name` (undefined: narrowed, a class base), with its project values read (./crossfile.ts) from the modules that may give what the site's rules need. */
  private resolveFor(t: Type, name: string | undefined): Type {
    const cross = this.cross;
    if (!cross) return t;
    return resolveType(cross, t, (file, q) => mayGive(cross, file, name, prefilterFor(this.rules), q));
  }

  /** What calling values of type t returns, with arguments not known. */
  protected callOf(t: Type): Type {
    const args: CallArgs = { pos: [], kw: NO_KEYWORDS };
    return union(...t.map((a) => this.callResult(a, args)));
  }

  /** What calling a value of one atom returns. */
  private callResult(a: Atom, args: CallArgs): Type {
    if (a.kind === 'class') return [this.members.construct(a.key, args)];
    if (a.kind === 'ref') {
      const key = this.classes.resolve(a.qualname);
      if (key) return [this.members.construct(key, args)];
      // A call of a project module's function or class: kept symbolic, evaluated where a rule may match.
      return this.cross?.candidate(a.qualname) ? [refAtom(`${a.qualname}()`)] : UNKNOWN;
    }
    if (a.kind === 'func') return this.returnType(a.fn, a.cls);
    return UNKNOWN;
  }

  /** Binds an assignment target (name, tuple, list, attribute path, starred). */
  protected bind(target: Node, t: Type, env: Env, ctx: FnCtx): void {
    switch (target.type) {
      case 'identifier':
        env.set(target.text, t);
        return;
      case 'pattern_list':
      case 'tuple_pattern':
      case 'list_pattern':
      case 'tuple':
      case 'list': {
        const items = kids(target);
        items.forEach((it, i) => {
          const parts: Type[] = [];
          for (const a of t) {
            if (a.kind === 'tuple' && a.items.length === items.length) parts.push(a.items[i]!);
            else if (a.kind === 'seq' || a.kind === 'tuple') parts.push(elementOf([a]));
            else parts.push(UNKNOWN);
          }
          this.bind(it, it.type === 'list_splat_pattern' ? [seqAtom(union(...parts))] : union(...parts), env, ctx);
        });
        return;
      }
      case 'list_splat_pattern': {
        const inner = kids(target)[0];
        if (inner) this.bind(inner, t, env, ctx);
        return;
      }
      case 'parenthesized_expression': {
        const inner = kids(target)[0];
        if (inner) this.bind(inner, t, env, ctx);
        return;
      }
      case 'attribute': {
        const obj = field(target, 'object');
        const path = dottedName(target);
        if (obj) this.expr(obj, env, ctx);
        if (path && obj?.type === 'identifier') {
          env.put(path, t);
          const self = ctx.selfFields;
          if (self && obj.text === self.self) {
            const attr = field(target, 'attribute')!.text;
            const prev = self.out.get(attr);
            self.out.set(attr, prev ? union(prev, t) : t);
          }
        }
        return;
      }
      case 'subscript':
        for (const c of kids(target)) this.expr(c, env, ctx);
        return;
      default:
        return;
    }
  }
}
