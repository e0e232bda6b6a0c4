/** Known library classes (from records and curated data), found by any name they are imported under. */
import { ancestorsOrSelf, splitQualified } from './names.js';
import type { ClassInfo } from './types.js';

export class ClassRegistry {
  private readonly byKey = new Map<string, ClassInfo>();
  private readonly byName = new Map<string, ClassInfo[]>();
  private readonly aliasIndex = new Map<string, string>();
  private readonly resolved = new Map<string, string | null>();

  add(info: ClassInfo): ClassInfo {
    const existing = this.byKey.get(info.key);
    if (existing) {
      merge(existing, info);
      for (const a of info.aliases) this.aliasIndex.set(a, existing.key);
      this.resolved.clear();
      return existing;
    }
    this.byKey.set(info.key, info);
    const list = this.byName.get(info.name) ?? [];
    list.push(info);
    this.byName.set(info.name, list);
    for (const a of info.aliases) this.aliasIndex.set(a, info.key);
    this.resolved.clear();
    return info;
  }

  get(key: string): ClassInfo | undefined {
    return this.byKey.get(key);
  }

  all(): ClassInfo[] {
    return [...this.byKey.values()];
  }

  /** Canonical key of the class a qualified name refers to, or undefined when unknown. */
  resolve(qname: string): string | undefined {
    const cached = this.resolved.get(qname);
    if (cached !== undefined) return cached ?? undefined;
    let found: string | null = this.aliasIndex.get(qname) ?? null;
    if (!found) {
      const { module, name } = splitQualified(qname);
      for (const c of this.byName.get(name) ?? []) {
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
      stack.push(...(this.byKey.get(c)?.bases ?? []));
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
      const info = this.byKey.get(k);
      if (!info) return;
      out.push(info);
      for (const b of info.bases) visit(b);
    };
    visit(cls);
    return out;
  }

  /** Plain data for the rules snapshot (`fromSnapshot` restores an identical registry). */
  snapshot(): ClassRegistrySnapshot {
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

  /** A child registry for one file's local classes; lookups fall back to the parent. */
  overlay(): ClassRegistry {
    const child = new ClassRegistry();
    for (const info of this.byKey.values()) child.byKey.set(info.key, info);
    for (const [n, l] of this.byName) child.byName.set(n, [...l]);
    for (const [a, k] of this.aliasIndex) child.aliasIndex.set(a, k);
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
