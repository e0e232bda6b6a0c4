/** The interpreter's environment: variable types per scope, merged where branches meet. */
import type { Node } from '../parse/parser.js';
import { typeKey, union, type Type } from './types.js';

export class Env {
  constructor(
    readonly vars: Map<string, Type> = new Map(),
    readonly outer?: Env,
  ) {}
  lookup(name: string): Type | undefined {
    return this.vars.get(name) ?? this.outer?.lookup(name);
  }
  set(name: string, t: Type): void {
    this.vars.set(name, t);
    // Rebinding `x` forgets what was known of `x.attr` (deleting while iterating a Map visits every other key).
    const n = name.length;
    for (const k of this.vars.keys()) if (k.length > n && k.charCodeAt(n) === 46 && k.startsWith(name)) this.vars.delete(k);
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

/** `self.x = v` assignments collected while a method runs (the fields of a class defined in the file). */
export interface SelfFields {
  self: string;
  out: Map<string, Type>;
}

/** What the statement being interpreted belongs to. */
export interface FnCtx {
  fn: Node | null;
  cls?: string;
  /** Record call sites (the final pass), or only infer types. */
  record: boolean;
  returns: Type[];
  /** Set while a method's `self.x` fields are collected. */
  selfFields?: SelfFields;
}

/** A context that only infers types (no call sites, no returns of interest). */
export function inert(): FnCtx {
  return { fn: null, record: false, returns: [] };
}

/** A class defined in the file, with its fields once inferred. */
export interface LocalClass {
  key: string;
  node: Node;
  fields?: Map<string, Type>;
  computing?: boolean;
  /** Its methods by name (the first `def` of a name), read once. */
  methods?: Map<string, Node>;
  /** The `def`s of its body, in order, read once. */
  defs?: Node[];
}
