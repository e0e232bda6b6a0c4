/**
 * How a rule can fire, with which confidence: the calls that certainly raise, the receivers that only
 * may be the raising class (protocols it implements), and the library methods that reach it
 * indirectly (curated summaries), all from the rule set's data.
 */
import type { ClassRegistry } from './classes.js';
import { describeTarget, splitQualified } from './names.js';
import type { ClassInfo, Rule } from './types.js';

export interface RuleReach {
  certain: string[];
  possible: string[];
  indirect: string[];
}

function short(q: string): string {
  return splitQualified(q).name;
}

/** The declared type of an instance field (curated `attributes`, or an `init` parameter's default). */
function fieldType(classes: ClassRegistry, key: string, name: string): string | undefined {
  for (const c of classes.mro(key)) {
    const at = c.attributes[name] ?? c.init.find((i) => i.name === name)?.default ?? undefined;
    if (at) return classes.resolve(at) ?? at;
  }
  return undefined;
}

/** A library method whose curated summary calls `<on>.<method>()` on a value it keeps. */
interface Hop {
  c: ClassInfo;
  name: string;
  property: boolean;
  on: string;
}

/**
 * What ruleReach reads of a registry, read once for every rule (`raiselint rules` asks for each
 * rule's reach: scanning every class's methods per rule was O(rules x classes x methods), ~6 s
 * of 7 for 10,000 rules): the protocols, every method name a class defines, and the calls of the
 * curated summaries by the method they call, each list in the registry's order. The registry must
 * not change while the index is in use.
 */
export interface ReachIndex {
  readonly classes: ClassRegistry;
  readonly protocols: ClassInfo[];
  readonly wrapped: ReadonlySet<string>;
  readonly hops: ReadonlyMap<string, Hop[]>;
}

export function reachIndex(classes: ClassRegistry): ReachIndex {
  const protocols: ClassInfo[] = [];
  const wrapped = new Set<string>();
  const hops = new Map<string, Hop[]>();
  for (const c of classes.all()) {
    if (c.protocol) protocols.push(c);
    for (const [name, s] of Object.entries(c.methods)) {
      wrapped.add(name);
      for (const call of s.calls) {
        const list = hops.get(call.method);
        const h = { c, name, property: !!s.property, on: call.on };
        if (list) list.push(h);
        else hops.set(call.method, [h]);
      }
    }
  }
  return { classes, protocols, wrapped, hops };
}

/** `type` is the raising class, related to it by inheritance, or shares a protocol with it. */
function inFamily(ix: ReachIndex, type: string | undefined, target: string): boolean {
  if (!type) return false;
  const { classes } = ix;
  if (classes.isSubclass(type, target) || classes.isSubclass(target, type)) return true;
  const impl = (proto: { implementations: string[] }, k: string) => proto.implementations.some((i) => i === k || classes.isSubclass(k, i));
  return ix.protocols.some((p) => impl(p, target) && (p.key === type || impl(p, type)));
}

/**
 * How `rule` can fire. `index`: reachIndex(classes), made once by callers that ask for many rules
 * (made here, when a method target needs it, otherwise).
 */
export function ruleReach(rule: Rule, classes: ClassRegistry, index?: ReachIndex): RuleReach {
  if (index && index.classes !== classes) throw new Error('ruleReach: the index is of another registry');
  const certain: string[] = [];
  const possible: string[] = [];
  const indirect = new Set<string>();
  for (const t of rule.targets) {
    if (t.kind === 'call') {
      certain.push(`calls to ${describeTarget(t)}`);
      continue;
    }
    const cls = short(t.classKey);
    index ??= reachIndex(classes);
    certain.push(`${t.method}() on a ${cls} (${t.classKey}) or a subclass that does not override it`);
    for (const c of index.protocols) {
      if (c.implementations.some((i) => i === t.classKey || classes.isSubclass(t.classKey, i))) {
        const others = c.implementations.filter((i) => i !== t.classKey).map(short);
        possible.push(`${t.method}() on a receiver typed ${c.name} (${c.key}), a protocol ${cls} implements${others.length ? ` (so do ${others.join(', ')})` : ''}`);
      }
    }
    // Library methods that call this method on a value they keep (curated summaries), then the
    // wrappers that call those (depth two). A method name that wrappers also define (`save_state`)
    // is reached directly only through a field whose declared type is of the raising class's family.
    const ix = index;
    const hops = (method: string): readonly Hop[] => ix.hops.get(method) ?? [];
    const first = hops(t.method).filter((h) => !ix.wrapped.has(t.method) || inFamily(ix, fieldType(classes, h.c.key, h.on), t.classKey));
    for (const h of first) {
      const head = `${h.c.name}.${h.name}${h.property ? '' : '()'}`;
      const last = `${h.on}.${t.method}()`;
      indirect.add(`${head} -> ${last}`);
      for (const g of hops(h.name)) {
        if (g.c.key === h.c.key) continue;
        indirect.add(`${g.c.name}.${g.name}${g.property ? '' : '()'} -> ${g.on}.${h.name}() on a ${h.c.name} -> ${last}`);
      }
    }
  }
  if (rule.targets.some((t) => t.kind === 'method')) possible.push('any call whose receiver may be the raising class on some paths only (unions, branches)');
  return { certain, possible, indirect: [...indirect].sort((a, b) => a.split(' -> ').length - b.split(' -> ').length || (a < b ? -1 : 1)) };
}
