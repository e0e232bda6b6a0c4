/** Known library classes (from records and curated data), found by any name they are imported under. */
import { ancestorsOrSelf, splitQualified } from './names.js';
import type { ClassInfo } from './types.js';

export class ClassRegistry {
  private readonly byKey = new Map<string, ClassInfo>();
  private readonly byName = new Map<string, ClassInfo[]>();
  private readonly aliasIndex = new Map<string, string>();
  private readonly resolved = new Map<string, string | null>();
  /** An overlay's registry: what this one lacks is looked up there (never changed through this one). */
  private parent?: ClassRegistry;

  add(info: ClassInfo): ClassInfo {
    let existing = this.byKey.get(info.key);
    const inherited = existing ? undefined : this.parent?.get(info.key);
    if (inherited) {
      // A class the parent holds is merged into this registry's own copy: the parent (the rules'
      // registry, shared by every file of a run) is never changed through an overlay.
      existing = { ...inherited, init: [...inherited.init] };
      this.byKey.set(existing.key, existing);
      const list = [...(this.named(existing.name) ?? [])];
      const at = list.indexOf(inherited);
      if (at >= 0) list[at] = existing;
      else list.push(existing);
      this.byName.set(existing.name, list);
    }
    if (existing) {
      merge(existing, info);
      for (const a of info.aliases) this.aliasIndex.set(a, existing.key);
      this.resolved.clear();
      return existing;
    }
    this.byKey.set(info.key, info);
    // An overlay's own list of the name starts as a copy of its parent's.
    const list = this.byName.get(info.name) ?? [...(this.parent?.named(info.name) ?? [])];
    list.push(info);
    this.byName.set(info.name, list);
    for (const a of info.aliases) this.aliasIndex.set(a, info.key);
    this.resolved.clear();
    return info;
  }

  get(key: string): ClassInfo | undefined {
    return this.byKey.get(key) ?? this.parent?.get(key);
  }

  all(): ClassInfo[] {
    const parent = this.parent;
    if (!parent) return [...this.byKey.values()];
    // A parent's class this overlay merged into keeps its place, as this overlay's copy.
    const inherited = parent.all().map((c) => this.byKey.get(c.key) ?? c);
    return [...inherited, ...[...this.byKey.values()].filter((c) => !parent.get(c.key))];
  }

  /** The classes of a simple name (an overlay's own list once it added one, else its parent's). */
  private named(name: string): readonly ClassInfo[] | undefined {
    return this.byName.get(name) ?? this.parent?.named(name);
  }

  private alias(qname: string): string | undefined {
    return this.aliasIndex.get(qname) ?? this.parent?.alias(qname);
  }

  /** Canonical key of the class a qualified name refers to, or undefined when unknown. */
  resolve(qname: string): string | undefined {
    const cached = this.resolved.get(qname);
    if (cached !== undefined) return cached ?? undefined;
    let found: string | null = this.alias(qname) ?? null;
    if (!found) {
      const { module, name } = splitQualified(qname);
      for (const c of this.named(name) ?? []) {
        if (c.key.startsWith('<local>')) continue;
        if (module === c.module || c.module.startsWith(`${module}.`)) {
          found = c.key;
          break;
        }
      }
    }
    this.resolved.set(qname, found);
    return found ?? undefined;
  }

  /** True when `cls` is `base` or a subclass of it (through `bases`). */
  isSubclass(cls: string, base: string): boolean {
    const seen = new Set<string>();
    const stack = [cls];
    while (stack.length) {
      const c = stack.pop()!;
      if (c === base) return true;
      if (seen.has(c)) continue;
      seen.add(c);
      stack.push(...(this.get(c)?.bases ?? []));
    }
    return false;
  }

  /** Method resolution order (depth-first, good enough for single inheritance chains). */
  mro(cls: string): ClassInfo[] {
    const out: ClassInfo[] = [];
    const seen = new Set<string>();
    const visit = (k: string) => {
      if (seen.has(k)) return;
      seen.add(k);
      const info = this.get(k);
      if (!info) return;
      out.push(info);
      for (const b of info.bases) visit(b);
    };
    visit(cls);
    return out;
  }

  /** Plain data for the rules snapshot (`fromSnapshot` restores an identical registry). */
  snapshot(): ClassRegistrySnapshot {
    if (this.parent) throw new Error('an overlay is not snapshotted');
    const infos = [...this.byKey.values()].map((i) => {
      const { ownMethods, ...rest } = i;
      return ownMethods ? { ...rest, ownMethods: [...ownMethods] } : rest;
    });
    return { infos, byName: [...this.byName].map(([n, l]) => [n, l.map((i) => i.key)]), aliasIndex: [...this.aliasIndex] };
  }

  static fromSnapshot(s: ClassRegistrySnapshot): ClassRegistry {
    const r = new ClassRegistry();
    for (const raw of s.infos) {
      const { ownMethods, ...rest } = raw as ClassInfo & { ownMethods?: string[] };
      const info: ClassInfo = ownMethods ? { ...rest, ownMethods: new Set(ownMethods) } : rest;
      r.byKey.set(info.key, info);
    }
    for (const [n, keys] of s.byName) r.byName.set(n, keys.map((k) => r.byKey.get(k)!));
    for (const [a, k] of s.aliasIndex) r.aliasIndex.set(a, k);
    return r;
  }

  /**
   * A child registry for one file's local classes; lookups fall back to the parent, which the
   * child never changes (not copied: a run makes one per file, and the parent holds every class
   * the rules know). The parent must not change while the child is in use.
   */
  overlay(): ClassRegistry {
    const child = new ClassRegistry();
    child.parent = this;
    return child;
  }
}

export interface ClassRegistrySnapshot {
  infos: unknown[];
  byName: [string, string[]][];
  aliasIndex: [string, string][];
}

function merge(into: ClassInfo, from: ClassInfo): void {
  into.aliases = uniq([...into.aliases, ...from.aliases]);
  into.bases = uniq([...into.bases, ...from.bases]);
  into.protocol ||= from.protocol;
  into.implementations = uniq([...into.implementations, ...from.implementations]);
  for (const p of from.init) if (!into.init.some((q) => q.name === p.name)) into.init.push(p);
  into.attributes = { ...from.attributes, ...into.attributes };
  into.methods = { ...from.methods, ...into.methods };
  into.source ??= from.source;
  if (from.ownMethods?.size) into.ownMethods = new Set([...(into.ownMethods ?? []), ...from.ownMethods]);
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

export function newClassInfo(key: string, partial: Partial<ClassInfo> = {}): ClassInfo {
  const { module, name } = splitQualified(key);
  return {
    key,
    name,
    module,
    aliases: [],
    bases: [],
    protocol: false,
    implementations: [],
    init: [],
    attributes: {},
    methods: {},
    ...partial,
  };
}

export { ancestorsOrSelf };
