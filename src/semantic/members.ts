/** Members and construction: `x.attr` for every kind of value, fields of classes defined in the file, constructors that keep their arguments. */
import type { Node } from '../parse/parser.js';
import { field, kids } from '../parse/syntax.js';
import { mayAssignAttributeOf, type FileFlows } from '../python/flows.js';
import { definitionOf } from '../python/defs.js';
import { firstParameterName } from '../python/params.js';
import type { ClassRegistry } from '../rules/classes.js';
import { Env, inert, type FnCtx, type LocalClass } from './env.js';
import { UNKNOWN, classAtom, funcAtom, instAtom, refAtom, union, type Atom, type Type } from './types.js';
import type { CrossFile } from './crossfile.js';

export interface MemberHost {
  readonly classes: ClassRegistry;
  readonly localClasses: Map<string, LocalClass>;
  /** The project's other modules (./crossfile.ts): members of the classes that come from them. */
  readonly cross?: CrossFile;
  moduleEnv(): Env;
  annotation(n: Node, env: Env): Type;
  expr(n: Node, env: Env, ctx: FnCtx): Type;
  /** Where values flow into names in the file (src/python/flows.ts), read once. */
  fileFlows(): FileFlows;
  /** `self.x = v` in one method of a class defined in the file. */
  selfAssignments(fn: Node, cls: string): Map<string, Type>;
}

export class Members {
  constructor(private readonly host: MemberHost) {}

  /** A name imported by qualified name: a known class becomes its class object. */
  refType(q: string): Type {
    const key = this.host.classes.resolve(q);
    return key ? [classAtom(key)] : [refAtom(q)];
  }

  /** Type of `x.attr` for every atom of x. */
  member(t: Type, attr: string): Type {
    // One atom (the common case): its member, without the list.
    if (t.length === 1) return union(this.memberOf(t[0]!, attr));
    const out: Type[] = [];
    for (const a of t) out.push(this.memberOf(a, attr));
    return union(...out);
  }

  private memberOf(a: Atom, attr: string): Type {
    if (a.kind === 'ref') return this.refType(`${a.qualname}.${attr}`);
    if (a.kind === 'class') {
      const info = this.host.classes.get(a.key);
      if (info && !a.key.startsWith('<local>')) return [refAtom(`${a.key}.${attr}`)];
      if (this.host.cross?.isForeign(a.key)) return this.host.cross.member(a.key, attr, true) ?? UNKNOWN;
      const f = this.classFields(a.key).get(attr) ?? this.methodOf(a.key, attr);
      // `MyDate.fromisoformat` where MyDate subclasses a library class: the library's class attribute.
      const lib = f ? undefined : this.inheritedFromLibrary(a.key, [attr]);
      return f ?? (lib ? [refAtom(`${lib}.${attr}`)] : UNKNOWN);
    }
    if (a.kind !== 'inst') return UNKNOWN;
    const fromFields = a.fields?.[attr];
    if (fromFields) return fromFields;
    for (const c of this.host.classes.mro(a.key)) {
      if (c.key.startsWith('<local>') && this.host.cross?.isForeign(c.key)) {
        // A class of another project module: its module answers, for the whole of its ancestry.
        const f = this.host.cross.member(c.key, attr, false);
        if (f) return f;
      } else if (c.key.startsWith('<local>')) {
        // Fields still being computed (a method read while inferring them): unknown, not the base's.
        if (this.host.localClasses.get(c.key)?.computing) break;
        const f = this.classFields(c.key).get(attr);
        if (f) return f;
        const m = this.methodOf(c.key, attr);
        if (m) return m;
      }
      const at = c.attributes[attr];
      if (at) return [instAtom(this.host.classes.resolve(at) ?? at)];
    }
    return UNKNOWN;
  }

  methodOf(key: string, name: string): Type | undefined {
    const lc = this.host.localClasses.get(key);
    const def = lc ? methodsOf(lc).get(name) : undefined;
    return def ? [funcAtom(def, key)] : undefined;
  }

  /** Fields of a class defined in the file: class-level annotations and assignments, and `self.x = ...` anywhere. */
  classFields(key: string): Map<string, Type> {
    const lc = this.host.localClasses.get(key);
    if (!lc) return new Map();
    if (lc.fields) return lc.fields;
    if (lc.computing) return new Map();
    lc.computing = true;
    const acc = new Map<string, Type[]>();
    const add = (n: string, t: Type) => acc.set(n, [...(acc.get(n) ?? []), t]);
    const body = field(lc.node, 'body');
    for (const st of body ? kids(body) : []) {
      if (st.type !== 'expression_statement') continue;
      const a = kids(st)[0];
      if (a?.type !== 'assignment') continue;
      const left = field(a, 'left');
      if (left?.type !== 'identifier') continue;
      const ann = field(a, 'type');
      const right = field(a, 'right');
      if (ann) add(left.text, this.host.annotation(ann, this.host.moduleEnv()));
      else if (right) add(left.text, this.host.expr(right, new Env(new Map(), this.host.moduleEnv()), inert()));
    }
    // Only the methods that bind a `self.…` target are interpreted for their fields.
    const targets = this.host.fileFlows().targets;
    for (const def of methodDefs(lc)) {
      const self = firstParameterName(def);
      if (!self || !mayAssignAttributeOf(targets, def.startIndex, def.endIndex, self)) continue;
      for (const [n, t] of this.host.selfAssignments(def, key)) add(n, t);
    }
    lc.fields = new Map([...acc].map(([n, ts]) => [n, union(...ts)]));
    lc.computing = false;
    return lc.fields;
  }

  /**
   * Qualified names a callee resolves to: imported names and attribute chains (`pkg.Klass.create`),
   * library classes (constructors), and for a class defined in the file, the library class whose
   * constructor it inherits (no `__init__` / `__new__` of its own on the way).
   */
  calleeNames(calleeT: Type, inherited?: string[]): string[] {
    const out: string[] = [];
    for (const a of calleeT) {
      if (a.kind === 'ref') out.push(a.qualname);
      else if (a.kind === 'class' && !a.key.startsWith('<local>')) out.push(a.key);
      else if (a.kind === 'class') {
        const lib = this.inheritedFromLibrary(a.key, ['__init__', '__new__']);
        if (lib) {
          out.push(lib);
          inherited?.push(lib);
        }
      }
    }
    return out.length < 2 ? out : [...new Set(out)];
  }

  /** The nearest library class (or unresolved `?qname` base) in a local class's ancestry, unless a local class on the way defines one of `names`. */
  inheritedFromLibrary(key: string, names: string[]): string | undefined {
    const seen = new Set<string>();
    const walk = (k: string): string | undefined => {
      if (seen.has(k)) return undefined;
      seen.add(k);
      if (k.startsWith('?')) return k.slice(1);
      const info = this.host.classes.get(k);
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
  construct(key: string, args: { pos: Type[]; kw: ReadonlyMap<string, Type> }): Atom {
    const fields: Record<string, Type> = {};
    let any = false;
    for (const c of this.host.classes.mro(key)) {
      for (const p of c.init) {
        if (fields[p.name]) continue;
        const v = args.kw.get(p.name) ?? (p.position !== null ? args.pos[p.position] : undefined);
        if (v) fields[p.name] = v;
        else if (p.default) fields[p.name] = [instAtom(this.host.classes.resolve(p.default) ?? p.default)];
        else continue;
        any = true;
      }
    }
    return any ? instAtom(key, fields) : instAtom(key);
  }
}

/** The `def`s of a class body, in order. */
function methodDefs(lc: LocalClass): Node[] {
  if (lc.defs) return lc.defs;
  const body = field(lc.node, 'body');
  const out: Node[] = (lc.defs = []);
  for (const st of body ? kids(body) : []) {
    const def = definitionOf(st);
    if (def?.type === 'function_definition') out.push(def);
  }
  return out;
}

/** A class's methods by name, the first `def` of each name (read once per class). */
function methodsOf(lc: LocalClass): Map<string, Node> {
  if (lc.methods) return lc.methods;
  const m = new Map<string, Node>();
  for (const def of methodDefs(lc)) {
    const n = field(def, 'name')?.text;
    if (n && !m.has(n)) m.set(n, def);
  }
  return (lc.methods = m);
}
