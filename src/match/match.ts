/**
 * The match stage: call matching. For each recorded call site, the rules indexed under its name are
 * tried against the inferred receiver type (instance methods, through subclasses and protocols,
 * and through curated summaries of library methods that call others) or the resolved callee
 * (functions, constructors, class methods).
 */
import type { Rule, Confidence } from '../rules/types.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { ClassRegistry } from '../rules/classes.js';
import { symbolMatches } from '../rules/names.js';
import { abbreviate } from '../parse/syntax.js';
import type { CallSite, FileModel } from '../semantic/model.js';
import { instAtom, type Atom, type Type } from '../semantic/types.js';
import { constantsOf, judge, readArgs } from './bind.js';
import { argumentKinds } from './argkinds.js';
import { lockHeld, runningLoop } from './callcontext.js';
import { lookupArgument, membershipShown } from './membership.js';
import { versionVerdict, type Pins } from '../rules/condition/versions.js';
import type { Cond } from '../rules/condition/types.js';
import { someAtom } from '../rules/condition/simplify.js';
import { constructedHere, freshReceiver, type FreshReceiver } from '../semantic/fresh.js';
import type { Binding, CtorArgs } from '../rules/condition/eval.js';
import { literalOf } from '../rules/condition/literal.js';
import type { Node } from '../parse/parser.js';

export interface Finding {
  site: CallSite;
  rule: Rule;
  confidence: Confidence;
  /** The path from the user's call to the raising call, when indirect (`team.save_state()`, `runtime.agent_save_state()`). */
  via: string[];
  /** Why it is certain or only possible, in a line (`always raises`, `mode='rw' is not one of 'r', 'w'`). */
  condition: string;
  /** Every type the receiver (or callee) can have raises; a possible finding is then possible for its arguments or data only. */
  receiverProven: boolean;
  /** A possible finding whose condition nothing at the call decides, of a call of this library function or class: running it may (analysis/probe.ts). */
  callee?: { module: string; path: string };
  /**
   * A possible method call like `callee`'s, on an object its constructor call (this node) made with
   * nothing using it since (`date(2020, 1, 1).replace(month=13)`, `m = Morsel()` then `m.update(d)`):
   * running both may decide it (analysis/probe.ts).
   */
  receiverCall?: Node;
  /** The message the recorded raise gave when the call was run (analysis/probe.ts): shown instead of the record's template. */
  observed?: string;
  /** Its literal arguments decide it one way on every run (match/bind.ts Verdict.settled): reported only if running the call raises. */
  settled?: true;
}

type Status = 'raises' | 'maybe';
interface Hit {
  rule: Rule;
  status: Status;
  via: string[];
  /** The target's name the call reached (the def, an alias, the class of a constructor). */
  entry: string;
  /** The function or class the callee resolved to (a call target). */
  callee?: { module: string; path: string };
}

const MAX_DEPTH = 4;

export function matchCalls(model: FileModel, rules: RuleSet, pins?: Pins): Finding[] {
  const out: Finding[] = [];
  const m = new Matcher(rules, model.classes);
  // The model's scopes (made on first use): an argument naming a class of the file (match/bind.ts).
  const scopes = () => model.scopes;
  for (const site of model.sites) {
    const hits = new Map<string, Hit>();
    if (site.callee?.length) {
      // Indexed by the written name and by the imported name (`from json import loads as parse`).
      const names = new Set([site.name, ...site.callee.map((q) => q.slice(q.lastIndexOf('.') + 1))]);
      for (const n of names) {
        for (const rule of rules.byTrigger.get(n) ?? []) {
          for (const t of rule.targets) {
            // A local class inherits a library class's constructor, never a function it names as a base
            // (`class Token(NamedTuple)`: calling Token does not call typing.NamedTuple(), the raising def itself).
            if (t.kind !== 'call') continue;
            const isRaisingFunction = t.symbol.module === rule.raiser.module && t.symbol.path === rule.raiser.qualname;
            const reaches = (q: string) => symbolMatches(t.symbol, q) && !(isRaisingFunction && site.inherited?.includes(q));
            if (site.callee.some(reaches))
              hits.set(rule.id, {
                rule,
                status: 'raises',
                via: [],
                entry: t.what === 'attribute' ? '<attribute>' : t.what === 'constructor' ? '<constructor>' : t.symbol.path.split('.').pop()!,
                callee: t.what !== 'attribute' ? { module: t.symbol.module, path: t.symbol.path } : undefined,
              });
          }
        }
      }
    }
    if ((site.kind === 'method' || site.kind === 'attribute') && site.receiver) {
      const label = `${abbreviate(site.receiverText ?? '<expr>')}.${site.name}${site.kind === 'method' ? '()' : ''}`;
      for (const h of m.evalType(site.receiver, site.name, site.kind === 'attribute', 0)) {
        if (hits.has(h.rule.id)) continue;
        // Passed to a function that makes the call (semantic/effects.ts): the path starts at the call written here.
        const via = site.via ? [...site.via, ...h.via] : h.via.length ? [label, ...h.via] : [];
        hits.set(h.rule.id, { ...h, via });
      }
    }
    const fresh = receiverMemo(site.node, model);
    const freshFor = (h: Hit) => freshBinding(h, site.kind, model, fresh);
    for (const h of hits.values()) {
      const v = judge(h.rule.condition, site.node, h.entry, h.via.length === 0, {
        scopes,
        fresh: freshFor(h),
        typeError: h.rule.errorClass === 'TypeError',
        constants: rules.python?.constants,
        kinds: argumentKinds(site),
        loop: () => runningLoop(site.node, scopes()),
        held: () => lockHeld(site.node),
      });
      // Passed to a function that makes the call (semantic/effects.ts): reported when it surely raises there.
      if (site.via && !(h.status === 'raises' && v.raises === true)) continue;
      // Its own arguments make the raise impossible, or no pinned version has it: not reported.
      const ver = versionVerdict(h.rule.versions, pins);
      if (v.raises === false || ver?.state === 'off') continue;
      // A lookup whose key the call site shows is there (`if cfg.has_option(s, o): cfg.get(s, o)`): ./membership.ts.
      const key = v.raises === undefined ? lookupArgument(h.rule) : undefined;
      if (key !== undefined && membershipShown(site.node, key)) continue;
      const receiver = h.status === 'raises' ? '' : '; the receiver is only possibly the raising class';
      const certain = h.status === 'raises' && v.raises === true && (!ver || ver.state === 'inside');
      out.push({
        site,
        rule: h.rule,
        confidence: certain ? 'certain' : 'possible',
        via: h.via,
        condition: `${v.why}${ver ? `; ${ver.why}` : ''}${receiver}`,
        receiverProven: h.status === 'raises',
        callee: !certain && v.raises === undefined && !ver ? h.callee : undefined,
        receiverCall: !certain && v.raises === undefined && !ver && h.status === 'raises' && site.kind === 'method' ? untouched(fresh.fresh()) : undefined,
        ...(v.settled ? { settled: true as const } : {}),
      });
    }
  }
  return out;
}

/** The constructor call of a fresh receiver nothing used before the call (no method, attribute or `with`). */
const untouched = (f: FreshReceiver | undefined): Node | undefined => (f?.call && !f.called.size && !f.seq?.length ? f.call : undefined);

const stateMemo = new WeakMap<Cond, boolean>();

/** The receiver's origin, read once per call site: fresh from a constructor (./semantic/fresh.ts), or made by the function. */
function receiverMemo(node: Node, model: FileModel): { fresh: () => FreshReceiver | undefined; made: () => Node[] | undefined } {
  let fresh: FreshReceiver | null | undefined;
  let made: Node[] | null | undefined;
  return {
    fresh: () => (fresh === undefined ? (fresh = freshReceiver(node, model.scopes) ?? null) : fresh) ?? undefined,
    made: () => (made === undefined ? (made = constructedHere(node, model.scopes) ?? null) : made) ?? undefined,
  };
}

/** The receiver fresh from the raising class's own constructor: the rule's state facts apply (src/compile/condition/state.ts). */
function freshBinding(h: Hit, kind: CallSite['kind'], model: FileModel, memo: ReturnType<typeof receiverMemo>): Binding['fresh'] {
  if (h.via.length || h.status !== 'raises' || kind !== 'method' || !readsState(h.rule.condition.when)) return undefined;
  const owner = `${h.rule.raiser.module}.${h.rule.raiser.qualname.slice(0, h.rule.raiser.qualname.lastIndexOf('.'))}`;
  const key = (x: string) => model.classes.resolve(x) ?? x;
  const fresh = memo.fresh();
  const q = fresh && model.qualify(fresh.ctor);
  if (fresh && q && key(q) === key(owner))
    return { called: fresh.called, ...(fresh.call ? { args: ctorArgs(fresh.call) } : {}), ...(fresh.seq ? { seq: fresh.seq } : {}) };
  // A subclass's constructor (the file's own `class Worker(Thread)`), or an object made here and used since
  // (`repr(t)`, a list of new threads): it is still not what runs the caller, whatever its state.
  if (fresh && q && model.classes.isSubclass(key(q), key(owner))) return { called: fresh.called, subclass: true };
  const ofOwner = (c: Node) => {
    const k = model.qualify(c);
    return !!k && model.classes.isSubclass(key(k), key(owner));
  };
  return memo.made()?.every(ofOwner) ? { called: new Set(), subclass: true } : undefined;
}

/** The constructor call's arguments as literals (a module constant too), as ./bind.ts reads them, for state its `__init__` stores from them. */
export function ctorArgs(call: Node): CtorArgs {
  const a = readArgs(call);
  const constants = constantsOf(call);
  const value = (n: Node) => literalOf(n, (name) => constants.get(name));
  return {
    positional: a.positional.slice(0, a.splatAt ?? a.positional.length).map(value),
    keywords: new Map([...a.keywords].map(([k, n]) => [k, value(n)])),
    splat: a.splatAt !== undefined || a.kwSplat,
  };
}

/** The condition tests the receiver's own state as its class's constructor leaves it (a data atom with `state`). */
function readsState(c: Cond): boolean {
  let v = stateMemo.get(c);
  if (v === undefined) {
    v = someAtom(c, (x) => x.k === 'data' && !!x.state);
    stateMemo.set(c, v);
  }
  return v;
}

class Matcher {
  constructor(
    private readonly rules: RuleSet,
    private readonly classes: ClassRegistry,
  ) {}

  /** Per rule: does calling `method` on a value of type `t` raise always (raises) or on some paths (maybe)? */
  evalType(t: Type, method: string, property: boolean, depth: number): Hit[] {
    if (depth > MAX_DEPTH || !t.length) return [];
    const perAtom = t.map((a) => this.evalAtom(a, method, property, depth));
    const byRule = new Map<string, { rule: Rule; raises: number; maybe: number; via: string[]; entry: string }>();
    perAtom.forEach((hits) => {
      // One vote per atom and rule (its strongest hit), however many targets or paths of the rule it meets.
      const best = new Map<string, Hit>();
      for (const h of hits) {
        const had = best.get(h.rule.id);
        if (!had || (had.status === 'maybe' && h.status === 'raises')) best.set(h.rule.id, h);
      }
      for (const h of best.values()) {
        const e = byRule.get(h.rule.id) ?? { rule: h.rule, raises: 0, maybe: 0, via: h.via, entry: h.entry };
        if (h.status === 'raises') e.raises++;
        else e.maybe++;
        byRule.set(h.rule.id, e);
      }
    });
    return [...byRule.values()].map((e) => ({ rule: e.rule, status: e.raises === t.length ? 'raises' : 'maybe', via: e.via, entry: e.entry }));
  }

  private evalAtom(a: Atom, method: string, property: boolean, depth: number): Hit[] {
    if (a.kind !== 'inst') return [];
    const hits: Hit[] = [];
    {
      for (const rule of this.rules.byTrigger.get(method) ?? []) {
        for (const t of rule.targets) {
          // An attribute read reaches only a property target.
          if (t.kind !== 'method' || t.method !== method || (property && !t.property)) continue;
          if ((a.exclude ?? []).some((x) => this.classes.isSubclass(t.classKey, x))) continue;
          if (this.inherits(a.key, t.classKey, method)) {
            // Reached through another method (`handle()` calls `emit()`): a subclass defining the raising method again does not raise there.
            const raising = rule.raiser.qualname.slice(rule.raiser.qualname.lastIndexOf('.') + 1);
            if (raising === method || this.inherits(a.key, t.classKey, raising)) hits.push({ rule, status: 'raises', via: [], entry: t.method });
          } else if (this.mayBe(a, t.classKey)) hits.push({ rule, status: 'maybe', via: [], entry: t.method });
        }
      }
    }
    // Curated summaries: library methods that call another method on a value the instance keeps.
    for (const c of this.classes.mro(a.key)) {
      if (c.ownMethods?.has(method) && c.key !== a.key) break;
      const s = c.methods[method];
      if (!s) continue;
      if (!!s.property !== property) break;
      for (const call of s.calls) {
        const field = a.fields?.[call.on] ?? this.attributeType(a.key, call.on);
        if (!field) continue;
        for (const h of this.evalType(field, call.method, false, depth + 1)) {
          hits.push({ rule: h.rule, status: h.status, via: [`${call.on}.${call.method}()`, ...h.via], entry: h.entry });
        }
      }
      break;
    }
    return hits;
  }

  private attributeType(key: string, name: string): Type | undefined {
    for (const c of this.classes.mro(key)) {
      const at = c.attributes[name];
      if (at) return [instAtom(this.classes.resolve(at) ?? at)];
      const p = c.init.find((i) => i.name === name);
      if (p?.default) return [instAtom(this.classes.resolve(p.default) ?? p.default)];
    }
    return undefined;
  }

  /** `cls` is `target` or a subclass that does not override `method` on the way. */
  private inherits(cls: string, target: string, method: string): boolean {
    if (!this.classes.isSubclass(cls, target)) return false;
    for (const c of this.classes.mro(cls)) {
      if (c.key === target) return true;
      if (c.ownMethods?.has(method) && this.classes.isSubclass(c.key, target)) return false;
    }
    return true;
  }

  /** The receiver is typed by a protocol (or base) that the raising class implements. */
  private mayBe(a: Extract<Atom, { kind: 'inst' }>, target: string): boolean {
    for (const c of this.classes.mro(a.key)) {
      if (c.protocol && c.implementations.some((i) => this.classes.isSubclass(target, i) || i === target)) return true;
    }
    return false;
  }
}
