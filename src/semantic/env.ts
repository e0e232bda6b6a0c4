/** The interpreter's environment: variable types per scope, merged where branches meet. */
import type { Node } from '../parse/parser.js';
import { typeKey, union, type Type } from './types.js';

/**
 * A scope's variables. A clone shares its variables with the environment it came from until
 * either writes (copy on write): the flow clones an environment at every branch, and many
 * branches bind nothing. Keys with a dot are narrowed paths (`x.attr`).
 */
export class Env {
  private map: Map<string, Type>;
  /** Whether `map` is this environment's alone (else it is copied before a write). */
  private owned = true;
  /** Whether `map` may hold a path (a key with a dot), which `set` of its head forgets. */
  private paths: boolean;

  constructor(
    vars: Map<string, Type> = new Map(),
    readonly outer?: Env,
  ) {
    this.map = vars;
    this.paths = vars.size > 0;
  }
  /** The variables of this scope (read only: write with set, put, remove). */
  get vars(): ReadonlyMap<string, Type> {
    return this.map;
  }
  lookup(name: string): Type | undefined {
    return this.map.get(name) ?? this.outer?.lookup(name);
  }
  /** Binds `name`: what was known of `name.attr` is forgotten. */
  set(name: string, t: Type): void {
    const m = this.writable();
    m.set(name, t);
    if (!this.paths) {
      if (name.includes('.')) this.paths = true;
      return;
    }
    // Deleting while iterating a Map visits every other key.
    const n = name.length;
    for (const k of m.keys()) if (k.length > n && k.charCodeAt(n) === 46 && k.startsWith(name)) m.delete(k);
  }
  /** Sets a variable or path as it is (narrowing, a path's assignment), forgetting nothing. */
  put(name: string, t: Type): void {
    this.writable().set(name, t);
    if (!this.paths && name.includes('.')) this.paths = true;
  }
  remove(name: string): void {
    if (this.map.has(name)) this.writable().delete(name);
  }
  clone(): Env {
    const e = new Env(this.map, this.outer);
    e.owned = this.owned = false;
    e.paths = this.paths;
    return e;
  }
  private writable(): Map<string, Type> {
    if (this.owned) return this.map;
    const m = new Map<string, Type>();
    // Copied entry by entry: `new Map(map)` makes an entry array per variable.
    for (const [k, t] of this.map) m.set(k, t);
    this.owned = true;
    return (this.map = m);
  }
  /** True when every variable of `base` has the same type in `other`. */
  static sameOn(base: Env, other: Env): boolean {
    if (base.map === other.map) return true;
    for (const [k, t] of base.map) {
      const o = other.map.get(k);
      if (!o || (o !== t && typeKey(o) !== typeKey(t))) return false;
    }
    return true;
  }

  static merge(envs: Env[]): Env | null {
    if (!envs.length) return null;
    if (envs.length === 1) return envs[0]!;
    const out = new Env(new Map(), envs[0]!.outer);
    const skipped = new Set<string>();
    for (const e of envs) {
      for (const k of e.map.keys()) {
        if (out.map.has(k) || skipped.has(k)) continue;
        const t = mergedType(envs, k);
        if (t) out.map.set(k, t);
        else skipped.add(k);
      }
      if (e.paths) out.paths = true;
    }
    return out;
  }
}

/** The union of `k`'s types in `envs`, or undefined for a narrowed path known on one side only. */
function mergedType(envs: Env[], k: string): Type | undefined {
  let first: Type | undefined;
  let same = true;
  let count = 0;
  for (const e of envs) {
    const t = e.lookup(k);
    if (!t) continue;
    count++;
    if (first === undefined) first = t;
    else if (t !== first) same = false;
  }
  if (k.includes('.') && count < envs.length) return undefined;
  // One type on every side (the common case): union(t) is union(t, t, ...), without the arrays.
  if (same) return first!.length === 1 ? first! : union(first!);
  const ts: Type[] = [];
  for (const e of envs) {
    const t = e.lookup(k);
    if (t) ts.push(t);
  }
  return union(...ts);
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

/** A context, every field set in this one order: each context (and each `{ ...ctx }` copy) has one hidden class, so V8 keeps its optimised code for the interpreter. */
export function fnCtx(fn: Node | null, record: boolean, cls?: string, selfFields?: SelfFields): FnCtx {
  return { fn, cls, record, returns: [], selfFields };
}

/** A context that only infers types (no call sites, no returns of interest). */
export function inert(): FnCtx {
  return fnCtx(null, false);
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
