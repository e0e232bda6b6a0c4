/**
 * What a call or method name needs beside itself before a file can produce a finding with it: the
 * prefilter's per-rule combination (src/prefilter/index.ts).
 *
 * A name alone says little at dataset scale (`open`, `join`, `get` are in most files). A finding
 * also needs the call to resolve to the rule's library, and the semantic model resolves names only
 * through what the file writes: every qualified name it builds starts with the first segment of a
 * module an import statement names, or is `builtins.<X>` for a bare name shaped like a built-in
 * exception (src/python/builtins.ts); a class is known only by a name whose last segment is the
 * class's name or one of its aliases' (ClassRegistry.resolve). So, per entry name, alternatives
 * of: how the name is written (its shape), an import of one of some module roots, and a mention of
 * one of some names (src/prefilter/context.ts reads imports and shapes from the bytes):
 *  - a `call` target (function, constructor, class method) matches a callee whose qualified name
 *    is `<module or a parent package>.<path>` or one of the symbol's aliases. Its root is the
 *    first segment of the module, of an alias, or of a class with that first segment (a class
 *    reached through an alias of it): the file must import one. The name itself is written as a
 *    value a call can reach: an attribute not itself subscripted or accessed (`os.makedirs`,
 *    `x = os.makedirs`, not `typing.Union[...]`), a name imported under another (`from os import
 *    makedirs as md`), or an imported name used bare outside import lists (`from os import
 *    makedirs` ... `makedirs(p)`); unless an alias ends in another name (then a local name equal
 *    to the rule's name can hold it: `makedirs = legacy.mk`), or it is `builtins.<X>` written bare.
 *  - a `method` target needs a receiver typed as the raising class, a subclass, a protocol it
 *    implements, or a class that keeps such a value in a field (curated attributes and
 *    constructor defaults, which summaries and attribute reads follow), or one narrowed to such a
 *    class by a record's guard function. Every such type starts from one of those classes: the
 *    file imports one of its roots and names it (its name or an alias's last segment); or from
 *    the guard's name. The method is always written as an attribute (`x.close()`, `proxy.metadata`).
 * The entry names of a method target are its method and every curated summary method that leads
 * to it (`team.save_state()` reaches `runtime.agent_save_state()`).
 *
 * Plain data, computed once per rule set and saved with the prefilter in the rules snapshot.
 */
import { BUILTIN_EXCEPTION_NAME } from '../python/builtins.js';
import type { ClassRegistry } from '../rules/classes.js';
import { reachable } from '../rules/graph.js';
import { ancestorsOrSelf } from '../rules/names.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { ClassInfo, RuleTarget } from '../rules/types.js';

/**
 * How an entry name is written, as bits: anywhere; as an attribute (after `.`); as a value that a
 * call can reach (an attribute not itself subscripted or accessed, a name imported under another,
 * an imported name used bare: src/prefilter/index.ts, shapeOf).
 */
export const SHAPE_ANY = 1;
export const SHAPE_DOT = 2;
export const SHAPE_VALUE = 4;

/** Met when the file imports a module whose first segment is one of `roots` (none: no import needed) and mentions one of `names` (none: no name needed). */
export interface NeedCond {
  roots: string[];
  names: string[];
}

export interface NeedsSpec {
  conds: NeedCond[];
  /** Per entry name: alternatives, one of which must be met: the name is written in one of `shape`'s ways and `conds[cond]` is met. */
  entries: [name: string, alts: [shape: number, cond: number][]][];
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

/** The last segments a written name resolving to this class can end with. */
function classNames(c: ClassInfo): string[] {
  return [c.name, last(c.key), ...c.aliases.map(last)];
}

/** The names a bare built-in exception name gives a class rooted in `builtins` (`ValueError` is `builtins.ValueError`). */
function bareBuiltinNames(roots: Iterable<string>, names: Iterable<string>): string[] {
  return [...roots].includes('builtins') ? [...names].filter((n) => BUILTIN_EXCEPTION_NAME.test(n)) : [];
}

class NeedsBuilder {
  private readonly condIds = new Map<string, number>();
  readonly conds: NeedCond[] = [];
  private readonly entries = new Map<string, Map<string, [number, number]>>();
  /** Library classes by name, and their roots. */
  private readonly byName = new Map<string, ClassInfo[]>();
  /** Class roots of every class, by one of its roots. */
  private readonly rootsByRoot = new Map<string, Set<string>>();
  /** Direct subclasses, and the classes keeping a value of a class in a field (curated attributes, constructor defaults). */
  private readonly children = new Map<string, string[]>();
  private readonly keepers = new Map<string, string[]>();
  private readonly protocols: ClassInfo[] = [];
  /** Guard names by a class they narrow to. */
  private readonly guardsByClass = new Map<string, string[]>();
  private readonly familyMemo = new Map<string, number[]>();
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
    for (const [name, specs] of guards)
      for (const spec of specs) for (const c of spec.includesWhenTrue) push(this.guardsByClass, classes.resolve(c) ?? c, name);
  }

  private cond(roots: Iterable<string>, names: Iterable<string>): number {
    const r = [...new Set(roots)].filter(Boolean).sort();
    const n = [...new Set(names)].filter(Boolean).sort();
    const key = `${r.join(' ')}|${n.join(' ')}`;
    let id = this.condIds.get(key);
    if (id === undefined) {
      id = this.conds.length;
      this.conds.push({ roots: r, names: n });
      this.condIds.set(key, id);
    }
    return id;
  }

  private file(name: string, shape: number, cond: number): void {
    let alts = this.entries.get(name);
    if (!alts) this.entries.set(name, (alts = new Map()));
    const had = alts.get(`${cond}`);
    alts.set(`${cond}`, [(had?.[0] ?? 0) | shape, cond]);
  }

  add(t: RuleTarget): void {
    if (t.kind === 'call') this.addCall(t.symbol);
    else this.addMethod(t.classKey, t.method);
  }

  private addCall(sym: Extract<RuleTarget, { kind: 'call' }>['symbol']): void {
    const heads = new Set([root(sym.module || sym.path), ...sym.aliases.map(root)]);
    const roots = new Set(heads);
    for (const h of heads) for (const r of this.rootsByRoot.get(h) ?? []) roots.add(r);
    const name = last(sym.path);
    // An alias ending in another name: a local name equal to the rule's (`makedirs = mk`) can hold it.
    const shape = sym.aliases.some((a) => last(a) !== name) ? SHAPE_ANY : SHAPE_VALUE;
    const conds = [this.cond(roots, [])];
    // `builtins.ValueError`: a bare built-in exception name resolves there without an import
    // (`ValueError(...)`, or `ValueError.x` for a path `ValueError.x`).
    const matching = [...(sym.module ? ancestorsOrSelf(sym.module).map((m) => `${m}.${sym.path}`) : []), ...sym.aliases];
    for (const q of matching) {
      const parts = q.split('.');
      if (parts[0] !== 'builtins' || parts.length < 2 || !BUILTIN_EXCEPTION_NAME.test(parts[1]!)) continue;
      this.file(name, parts.length === 2 ? SHAPE_ANY : shape, this.cond([], [parts[1]!]));
    }
    for (const c of conds) this.file(name, shape, c);
    // A class constructor called under an alias of the class (`from pkg import Alias; Alias()`).
    for (const c of this.byName.get(name) ?? []) for (const a of c.aliases) for (const id of conds) this.file(last(a), shape, id);
  }

  private addMethod(classKey: string, method: string): void {
    const conds = this.family(classKey);
    // The method, and the summary methods that call it (transitively): always written as attributes.
    for (const m of reachable([method], (n) => this.callers.get(n) ?? [])) for (const c of conds) this.file(m, SHAPE_DOT, c);
  }

  /**
   * Classes whose instances can reach a method of `target`: its subclasses, classes under a
   * protocol it (or a base of it) implements, and classes keeping one of those in a field; as
   * conditions: for each such class, one of its roots imported and one of its names written;
   * or a guard narrowing to one of them.
   */
  private family(target: string): number[] {
    const memo = this.familyMemo.get(target);
    if (memo) return memo;
    // The target and its ancestors, registered or not (as ClassRegistry.isSubclass walks them).
    const implemented = reachable([target], (k) => this.classes.get(k)?.bases ?? []);
    const starts = [target];
    for (const p of this.protocols) if (p.implementations.some((i) => i === target || implemented.has(i))) starts.push(p.key);
    const keys = reachable(starts, (k) => [...(this.children.get(k) ?? []), ...(this.keepers.get(k) ?? [])]);
    // Classes sharing their roots share one condition: (a root) and (a name of any of them).
    const byRoots = new Map<string, { roots: string[]; names: Set<string> }>();
    const guards = new Set<string>();
    const bare = new Set<string>();
    for (const k of keys) {
      const c = this.classes.get(k);
      const roots = [...new Set(c ? classRoots(c) : [root(k)])].sort();
      const names = c ? classNames(c) : [last(k)];
      const key = roots.join(' ');
      let e = byRoots.get(key);
      if (!e) byRoots.set(key, (e = { roots, names: new Set() }));
      for (const n of names) e.names.add(n);
      for (const n of bareBuiltinNames(roots, names)) bare.add(n);
      for (const g of this.guardsByClass.get(k) ?? []) guards.add(g);
    }
    const out = [...byRoots.values()].map((e) => this.cond(e.roots, e.names));
    if (guards.size) out.push(this.cond([], guards));
    if (bare.size) out.push(this.cond([], bare));
    this.familyMemo.set(target, out);
    return out;
  }

  spec(): NeedsSpec {
    const entries = [...this.entries].map(([n, alts]) => [n, [...alts.values()].sort((a, b) => a[1] - b[1] || a[0] - b[0])] as [string, [number, number][]]);
    return { conds: this.conds, entries: entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) };
  }
}

export function needsSpec(rules: Pick<RuleSet, 'rules' | 'classes' | 'guards'>): NeedsSpec {
  const b = new NeedsBuilder(rules.classes, rules.guards);
  for (const rule of rules.rules) for (const t of rule.targets) b.add(t);
  return b.spec();
}

/** Every name the conditions mention (the prefilter must look for them too); roots come from the import statements. */
export function needTokens(spec: NeedsSpec): Set<string> {
  const out = new Set<string>();
  for (const c of spec.conds) for (const t of c.names) out.add(t);
  return out;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Tokens a file must show before any entry name's needs can be met: one of `names`, when every
 * condition an entry has needs a name; one of `roots`, when every one needs an import. Each is an
 * ASCII identifier, so a file showing it has its bytes (a name found by the token scan, a root
 * read from an import statement). Undefined where some condition needs none, or one is no ASCII
 * identifier (found in decoded text only, or taken as imported: condMet below).
 */
export function requiredTokens(spec: NeedsSpec): { names?: string[]; roots?: string[] } {
  const used = new Set<number>();
  for (const [, alts] of spec.entries) for (const [, id] of alts) used.add(id);
  if (!used.size) return {};
  const union = (pick: (c: NeedCond) => string[]): string[] | undefined => {
    const out = new Set<string>();
    for (const id of used) {
      const list = pick(spec.conds[id]!);
      if (!list.length || !list.every((t) => IDENT.test(t))) return undefined;
      for (const t of list) out.add(t);
    }
    return [...out].sort();
  };
  return { names: union((c) => c.names), roots: union((c) => c.roots) };
}

/** What the prefilter knows of a file when it decides: the names found, how entry names are written, what it imports. */
export interface NeedFacts {
  found: { has(name: string): boolean };
  /** SHAPE_* bits of an entry name found (SHAPE_ANY at least). */
  shape(name: string): number;
  /** Module roots the file's import statements name. */
  roots(): { has(root: string): boolean };
  /** Names the file's import statements list (`from .compat import shutil`: a library module a project module may hand on). */
  imported?(): Iterable<string>;
  /** What the project modules the file imports hold (cross-file): a class or module they name may reach the file through them. */
  project?: () => Pick<ProjectGifts, 'names' | 'roots' | 'gives'> | undefined;
}

/** What project modules hold, as the needs read it (prefilter/index.ts ProjectFacts). */
export interface ProjectGifts {
  names: { has(name: string): boolean };
  roots: { has(root: string): boolean };
  /**
   * Whether one of them (of those whose roots count) imports `root` and binds `name` other than by
   * its own `def` or `class`: a function of `root` the file may call through it (`from app.util
   * import rmtree`). A module that defines `rmtree` itself gives its own function, not the library's.
   */
  gives(name: string, root: string): boolean;
}

/** The module roots the rules' libraries live in (a project module of such a name is the library's, not the project's). */
export function needRoots(spec: NeedsSpec): Set<string> {
  const out = new Set<string>();
  for (const c of spec.conds) for (const r of c.roots) out.add(r);
  return out;
}

/** The spec, indexed for lookups. */
export class Needs {
  private readonly byName: Map<string, [number, number][]>;
  constructor(private readonly spec: NeedsSpec) {
    this.byName = new Map(spec.entries);
  }

  /** Undefined when the name is not an entry of any rule; else whether one of its alternatives is met. */
  met(name: string, facts: NeedFacts): boolean | undefined {
    const alts = this.byName.get(name);
    if (!alts) return undefined;
    let shape = 0;
    for (const [want, id] of alts) {
      shape ||= facts.shape(name);
      if ((want & shape) !== 0 && this.condMet(this.spec.conds[id]!, facts, (want & ~SHAPE_VALUE) === 0 ? name : undefined)) return true;
    }
    return false;
  }

  /** `value`: the entry is a function written as a value (a call's name): a project module must hand that name on. */
  private condMet(c: NeedCond, facts: NeedFacts, value?: string): boolean {
    const here = !c.names.length || c.names.some((n) => facts.found.has(n));
    // A class a project module names: that module imports it too (its roots are met there).
    if (!here) return c.names.some((n) => facts.project?.()?.names.has(n));
    if (!c.roots.length) return true;
    const roots = facts.roots();
    // A root that is no ASCII identifier is never read from the bytes: taken as imported.
    const through = (r: string) => {
      const p = facts.project?.();
      if (!p) return false;
      if (value === undefined) return p.roots.has(r);
      if (p.gives(value, r)) return true;
      // Or its module handed on (`from .compat import shutil`, then `shutil.rmtree(p)`; `cookielib` for `http.cookiejar`).
      for (const x of facts.imported?.() ?? []) if (p.gives(x, r)) return true;
      return false;
    };
    return c.roots.some((r) => roots.has(r) || !IDENT.test(r) || through(r));
  }
}
