/**
 * Narrowing: what a condition tells on each branch. `isinstance`, guard functions (defined in the
 * file or shipped by a record), `is None` / `is not None`, truthiness, `not`, `and` / `or`.
 */
import type { Node } from '../parse/parser.js';
import { dottedName, field, kids } from '../parse/syntax.js';
import { guardFunction } from '../python/guards.js';
import type { ClassRegistry } from '../rules/classes.js';
import type { GuardSpec } from '../rules/types.js';
import { Env, inert, type FnCtx } from './env.js';
import { NONE, instAtom, notNone, union, type Atom, type Type } from './types.js';

export interface NarrowHost {
  readonly classes: ClassRegistry;
  readonly guards: Map<string, GuardSpec[]>;
  expr(n: Node, env: Env, ctx: FnCtx): Type;
  /** What the project's other modules make of a type (cross-file: a project factory's result), before it is narrowed. */
  resolve?(t: Type): Type;
}

/**
 * Built-in value classes an `isinstance` test narrows to (the matcher reads `str` and the like as
 * the argument's kind). Not python/builtins.ts's BUILTIN_CLASSES: `object` (None is one) and `type`
 * are left out, as they say nothing of the value's kind.
 */
const NARROWING_VALUE_CLASSES = new Set(['str', 'bytes', 'int', 'float', 'bool', 'list', 'dict', 'tuple', 'set', 'frozenset', 'bytearray', 'complex']);

/** A variable or `name.attr` path narrowing can refine. */
function pathOf(n: Node): string | undefined {
  if (n.type === 'identifier') return n.text;
  if (n.type === 'attribute' && field(n, 'object')?.type === 'identifier') return dottedName(n);
  return undefined;
}

export class Narrowing {
  constructor(private readonly host: NarrowHost) {}

  /** The type of a narrowed subject now (not recorded as a site). */
  private current(n: Node, env: Env, ctx: FnCtx): Type {
    const t = this.host.expr(n, env, { ...ctx, record: false });
    return this.host.resolve ? this.host.resolve(t) : t;
  }

  narrow(cond: Node, env: Env, ctx: FnCtx): { t: Env; f: Env } {
    switch (cond.type) {
      case 'parenthesized_expression': {
        const inner = kids(cond)[0];
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
        const [l, r] = kids(cond);
        const ops = cond.children
          .filter((c) => c && !c.isNamed)
          .map((c) => c!.text)
          .join(' ');
        this.host.expr(cond, env, ctx);
        if (l && r?.type === 'none' && (ops === 'is' || ops === 'is not')) {
          const path = pathOf(l);
          if (path) {
            const cur = this.current(l, env, ctx);
            const t = env.clone();
            const f = env.clone();
            (ops === 'is' ? f : t).put(path, notNone(cur));
            (ops === 'is' ? t : f).put(path, NONE);
            return { t, f };
          }
        }
        return { t: env, f: env };
      }
      case 'call': {
        this.host.expr(cond, env, ctx);
        const test = this.isinstanceTest(cond, env);
        if (!test) return { t: env, f: env };
        const cur = this.current(test.subject, env, ctx);
        const t = env.clone();
        const f = env.clone();
        const pos = narrowType(cur, test.classes, true, this.host.classes);
        const neg = narrowType(cur, test.classes, false, this.host.classes);
        t.put(test.path, test.positive ? pos : neg);
        f.put(test.path, test.positive ? neg : pos);
        return { t, f };
      }
      default:
        this.host.expr(cond, env, ctx);
        if (cond.type === 'identifier' || cond.type === 'attribute') {
          const path = pathOf(cond);
          if (path) {
            const cur = this.current(cond, env, ctx);
            const t = env.clone();
            t.put(path, notNone(cur));
            return { t, f: env };
          }
        }
        return { t: env, f: env };
    }
  }

  /** `isinstance(x, C)`, or a guard function call: a local `def g(x): return [not] isinstance(x, C)` or a record's guard. */
  private isinstanceTest(call: Node, env: Env): { subject: Node; path: string; classes: string[]; positive: boolean } | undefined {
    const fn = field(call, 'function');
    const argsNode = field(call, 'arguments');
    const args = argsNode ? kids(argsNode) : [];
    if (!fn) return undefined;
    if (fn.text === 'isinstance' && args.length === 2) {
      const path = pathOf(args[0]!);
      if (!path) return undefined;
      return { subject: args[0]!, path, classes: this.classKeys(args[1]!, env), positive: true };
    }
    const name = fn.type === 'identifier' ? fn.text : fn.type === 'attribute' ? field(fn, 'attribute')?.text : undefined;
    if (!name) return undefined;
    // A guard defined in this file.
    const ft = this.host.expr(fn, env, inert());
    const local = ft.find((a) => a.kind === 'func');
    if (local && local.kind === 'func') {
      const g = this.localGuard(local.fn, env);
      if (g && args[g.param]) {
        const path = pathOf(args[g.param]!);
        if (path) return { subject: args[g.param]!, path, classes: g.classes, positive: !g.negated };
      }
      return undefined;
    }
    // A guard a record ships (imported from anywhere under that name).
    const specs: GuardSpec[] = this.host.guards.get(name) ?? [];
    for (const spec of specs) {
      const arg = args[spec.param];
      const path = arg ? pathOf(arg) : undefined;
      if (!arg || !path) continue;
      if (spec.excludesWhenTrue.length) return { subject: arg, path, classes: spec.excludesWhenTrue, positive: false };
      if (spec.includesWhenTrue.length) return { subject: arg, path, classes: spec.includesWhenTrue, positive: true };
    }
    return undefined;
  }

  private localGuard(fn: Node, env: Env): { param: number; classes: string[]; negated: boolean } | undefined {
    const g = guardFunction(fn);
    return g ? { param: g.param, classes: this.classKeys(g.classes, env), negated: g.negated } : undefined;
  }

  private classKeys(n: Node, env: Env): string[] {
    const list = n.type === 'tuple' || n.type === 'parenthesized_expression' ? kids(n) : [n];
    const out: string[] = [];
    for (const c of list) {
      // A built-in class the file does not rebind (`isinstance(x, str)`): its instances, as the matcher reads them (`builtins.str`).
      if (c.type === 'identifier' && NARROWING_VALUE_CLASSES.has(c.text) && !env.lookup(c.text)) {
        out.push(`builtins.${c.text}`);
        continue;
      }
      for (const a of this.host.expr(c, env, inert())) {
        if (a.kind === 'class') out.push(a.key);
        else if (a.kind === 'ref') out.push(this.host.classes.resolve(a.qualname) ?? `?${a.qualname}`);
      }
    }
    return out;
  }
}

/** Narrows a type by `isinstance(x, classes)` being true (`positive`) or false. */
export function narrowType(t: Type, classes: string[], positive: boolean, reg: ClassRegistry): Type {
  const out: Atom[] = [];
  for (const a of t) {
    if (a.kind === 'inst') {
      const sub = classes.some((c) => reg.isSubclass(a.key, c));
      if (sub) {
        if (positive) out.push(a);
        continue;
      }
      const info = reg.get(a.key);
      const wider = classes.filter((c) => reg.isSubclass(c, a.key) || (info?.protocol && info.implementations.includes(c)));
      if (wider.length) {
        if (positive) for (const c of wider) out.push(instAtom(c));
        else out.push(instAtom(a.key, a.fields, [...new Set([...(a.exclude ?? []), ...wider])]));
        continue;
      }
      if (!positive) out.push(a);
    } else if (a.kind === 'unknown') {
      if (positive) for (const c of classes) out.push(instAtom(c));
      else out.push(a);
    } else if (!positive) out.push(a);
  }
  return union(out);
}
