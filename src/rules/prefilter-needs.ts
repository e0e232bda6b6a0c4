/**
 * What a call or method name needs beside itself before a file can produce a finding with it: the
 * prefilter's per-rule combination (src/rules/prefilter.ts).
 *
 * A name alone says little at dataset scale (`open`, `join`, `get` are in most files). A finding
 * also needs the call to resolve to the rule's library, and the semantic model resolves names only
 * through what the file writes:
 *  - a `call` target (function, constructor, class method) matches a callee whose qualified name
 *    is `<module or a parent package>.<path>` or one of the symbol's aliases. The model builds such
 *    names from imports and attribute chains, whose first segment is written in the file, or from
 *    a known class that a written name resolved to. So the file must contain the first segment of
 *    the module, of an alias, or of a name of a class with that first segment
 *    (`builtins.X` needs nothing: bare exception names resolve to it).
 *  - a `method` target needs a receiver typed as the raising class, a subclass, a protocol it
 *    implements, or a class that keeps such a value in a field (curated attributes and
 *    constructor defaults, which summaries and attribute reads follow), or one narrowed to such a
 *    class by a record's guard function. Every such type starts from a name the file writes: the
 *    first segment of one of those classes' names or aliases, or the guard's name.
 * The entry names of a method target are its method and every curated summary method that leads
 * to it (`team.save_state()` reaches `runtime.agent_save_state()`).
 *
 * Plain data, computed once per rule set and saved with the prefilter in the rules snapshot.
 */
import type { ClassRegistry } from './classes.js';
import { reachable } from './graph.js';
import type { RuleSet } from './ruleset.js';
import type { ClassInfo, RuleTarget } from './types.js';

export interface NeedsSpec {
  /** Token groups: a group is met when the file has one of its tokens; an empty group always is. */
  groups: string[][];
  /** Per entry name: the groups one of which must be met (any group of any rule filed under it). */
  entries: [name: string, groups: number[]][];
}

const root = (q: string): string => {
  const i = q.indexOf('.');
  return i < 0 ? q : q.slice(0, i);
};
const last = (q: string): string => q.slice(q.lastIndexOf('.') + 1);

/** The first segments a written name resolving to this class can start with. */
function classRoots(c: ClassInfo): string[] {
  return [root(c.key), ...(c.module ? [root(c.module)] : []), ...c.aliases.map(root)];
}

class NeedsBuilder {
  private readonly groupIds = new Map<string, number>();
  readonly groups: string[][] = [];
  private readonly entries = new Map<string, Set<number>>();
  /** Library classes by name, and their roots. */
  private readonly byName = new Map<string, ClassInfo[]>();
  private readonly roots = new Map<string, string[]>();
  /** Class roots of every class, by one of its roots. */
  private readonly rootsByRoot = new Map<string, Set<string>>();
  /** Direct subclasses, and the classes keeping a value of a class in a field (curated attributes, constructor defaults). */
  private readonly children = new Map<string, string[]>();
  private readonly keepers = new Map<string, string[]>();
  private readonly protocols: ClassInfo[] = [];
  /** Guard names by a class they narrow to. */
  private readonly guardsByClass = new Map<string, string[]>();
  private readonly familyMemo = new Map<string, { keys: Set<string>; group: number }>();
  /** Summary methods by the method they call. */
  private readonly callers = new Map<string, Set<string>>();

  constructor(
    private readonly classes: ClassRegistry,
    guards: RuleSet['guards'],
  ) {
    const push = <V>(m: Map<string, V[]>, k: string, v: V) => {
      const list = m.get(k);
      if (list) list.push(v);
      else m.set(k, [v]);
    };
    for (const c of classes.all()) {
      if (c.key.startsWith('<local>')) continue;
      push(this.byName, c.name, c);
      const roots = classRoots(c);
      this.roots.set(c.key, roots);
      for (const r of roots) {
        let s = this.rootsByRoot.get(r);
        if (!s) this.rootsByRoot.set(r, (s = new Set()));
        for (const x of roots) s.add(x);
      }
      for (const b of c.bases) push(this.children, b, c.key);
      if (c.protocol) this.protocols.push(c);
      const kept = new Set<string>();
      for (const at of Object.values(c.attributes)) kept.add(classes.resolve(at) ?? at);
      for (const p of c.init) if (p.default) kept.add(classes.resolve(p.default) ?? p.default);
      for (const k of kept) push(this.keepers, k, c.key);
      for (const [m, s] of Object.entries(c.methods)) {
        for (const call of s.calls) {
          let set = this.callers.get(call.method);
          if (!set) this.callers.set(call.method, (set = new Set()));
          set.add(m);
        }
      }
    }
    for (const [name, specs] of guards) for (const spec of specs) for (const c of spec.includesWhenTrue) push(this.guardsByClass, classes.resolve(c) ?? c, name);
  }

  private group(tokens: Iterable<string>): number {
    const list = [...new Set(tokens)].filter(Boolean).sort();
    const key = list.join(' ');
    let id = this.groupIds.get(key);
    if (id === undefined) {
      id = this.groups.length;
      this.groups.push(list);
      this.groupIds.set(key, id);
    }
    return id;
  }

  private file(name: string, group: number): void {
    let s = this.entries.get(name);
    if (!s) this.entries.set(name, (s = new Set()));
    s.add(group);
  }

  add(t: RuleTarget): void {
    if (t.kind === 'call') this.addCall(t.symbol);
    else this.addMethod(t.classKey, t.method);
  }

  private addCall(sym: Extract<RuleTarget, { kind: 'call' }>['symbol']): void {
    const heads = new Set([root(sym.module || sym.path), ...sym.aliases.map(root)]);
    const tokens = new Set(heads);
    for (const h of heads) for (const r of this.rootsByRoot.get(h) ?? []) tokens.add(r);
    // `builtins.ValueError`: bare exception names resolve there without an import.
    const g = heads.has('builtins') ? this.group([]) : this.group(tokens);
    const name = last(sym.path);
    this.file(name, g);
    // A class constructor called under an alias of the class (`from pkg import Alias; Alias()`).
    for (const c of this.byName.get(name) ?? []) for (const a of c.aliases) this.file(last(a), g);
  }

  private addMethod(classKey: string, method: string): void {
    const g = this.family(classKey).group;
    // The method, and the summary methods that call it (transitively).
    for (const m of reachable([method], (n) => this.callers.get(n) ?? [])) this.file(m, g);
  }

  /**
   * Classes whose instances can reach a method of `target`: its subclasses, classes under a
   * protocol it (or a base of it) implements, and classes keeping one of those in a field; and
   * the group of their roots and of the guards narrowing to one of them.
   */
  private family(target: string): { keys: Set<string>; group: number } {
    const memo = this.familyMemo.get(target);
    if (memo) return memo;
    // The target and its ancestors, registered or not (as ClassRegistry.isSubclass walks them).
    const implemented = reachable([target], (k) => this.classes.get(k)?.bases ?? []);
    const starts = [target];
    for (const p of this.protocols) if (p.implementations.some((i) => i === target || implemented.has(i))) starts.push(p.key);
    const keys = reachable(starts, (k) => [...(this.children.get(k) ?? []), ...(this.keepers.get(k) ?? [])]);
    const tokens = new Set<string>([root(target)]);
    for (const k of keys) {
      for (const r of this.roots.get(k) ?? [root(k)]) tokens.add(r);
      for (const gname of this.guardsByClass.get(k) ?? []) tokens.add(gname);
    }
    const out = { keys, group: this.group(tokens) };
    this.familyMemo.set(target, out);
    return out;
  }

  spec(): NeedsSpec {
    return { groups: this.groups, entries: [...this.entries].map(([n, s]) => [n, [...s].sort((a, b) => a - b)] as [string, number[]]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) };
  }
}

export function needsSpec(rules: Pick<RuleSet, 'rules' | 'classes' | 'guards'>): NeedsSpec {
  const b = new NeedsBuilder(rules.classes, rules.guards);
  for (const rule of rules.rules) for (const t of rule.targets) b.add(t);
  return b.spec();
}

/** Every token the groups mention (the prefilter must look for them too). */
export function needTokens(spec: NeedsSpec): Set<string> {
  const out = new Set<string>();
  for (const g of spec.groups) for (const t of g) out.add(t);
  return out;
}

/** The spec, indexed for lookups. */
export class Needs {
  private readonly byName: Map<string, number[]>;
  constructor(private readonly spec: NeedsSpec) {
    this.byName = new Map(spec.entries);
  }

  /** Undefined when the name is not an entry of any rule; else whether one of its groups is met. */
  met(name: string, found: { has(token: string): boolean }): boolean | undefined {
    const ids = this.byName.get(name);
    if (!ids) return undefined;
    for (const id of ids) {
      const g = this.spec.groups[id]!;
      if (g.length === 0) return true;
      for (const t of g) if (found.has(t)) return true;
    }
    return false;
  }
}
