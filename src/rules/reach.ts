/**
 * How a rule can fire, with which confidence: the calls that certainly raise, the receivers that only
 * may be the raising class (protocols it implements), and the library methods that reach it
 * indirectly (curated summaries), all from the rule set's data.
 */
import type { ClassRegistry } from './classes.js';
import { describeTarget } from './compile.js';
import { splitQualified } from './names.js';
import type { Rule } from './types.js';

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

/** `type` is the raising class, related to it by inheritance, or shares a protocol with it. */
function inFamily(classes: ClassRegistry, type: string | undefined, target: string): boolean {
  if (!type) return false;
  if (classes.isSubclass(type, target) || classes.isSubclass(target, type)) return true;
  const impl = (proto: { implementations: string[] }, k: string) => proto.implementations.some((i) => i === k || classes.isSubclass(k, i));
  return classes.all().some((p) => p.protocol && impl(p, target) && (p.key === type || impl(p, type)));
}

export function ruleReach(rule: Rule, classes: ClassRegistry): RuleReach {
  const certain: string[] = [];
  const possible: string[] = [];
  const indirect = new Set<string>();
  for (const t of rule.targets) {
    if (t.kind === 'call') {
      certain.push(`calls to ${describeTarget(t)}`);
      continue;
    }
    const cls = short(t.classKey);
    certain.push(`${t.method}() on a ${cls} (${t.classKey}) or a subclass that does not override it`);
    for (const c of classes.all()) {
      if (!c.protocol) continue;
      if (c.implementations.some((i) => i === t.classKey || classes.isSubclass(t.classKey, i))) {
        const others = c.implementations.filter((i) => i !== t.classKey).map(short);
        possible.push(`${t.method}() on a receiver typed ${c.name} (${c.key}), a protocol ${cls} implements${others.length ? ` (so do ${others.join(', ')})` : ''}`);
      }
    }
    // Library methods that call this method on a value they keep (curated summaries), then the
    // wrappers that call those (depth two). A method name that wrappers also define (`save_state`)
    // is reached directly only through a field whose declared type is of the raising class's family.
    const wrapped = new Set(classes.all().flatMap((c) => Object.keys(c.methods)));
    const hops = (method: string) =>
      classes.all().flatMap((c) =>
        Object.entries(c.methods).flatMap(([name, s]) => s.calls.filter((call) => call.method === method).map((call) => ({ c, name, property: !!s.property, on: call.on }))),
      );
    const first = hops(t.method).filter((h) => !wrapped.has(t.method) || inFamily(classes, fieldType(classes, h.c.key, h.on), t.classKey));
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
