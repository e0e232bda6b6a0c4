/**
 * Call-site recording, as an observer of the interpreter: it is told of every call and property
 * read it may want (`wants`: a rule trigger name) and keeps them, one per node.
 */
import type { Node } from '../parse/parser.js';
import { field } from '../parse/syntax.js';
import { NEVER, UNKNOWN, union, type Type } from './types.js';

export interface CallSite {
  /** `call` node, or `attribute` node for a property read (`await proxy.metadata`). */
  node: Node;
  kind: 'method' | 'call' | 'attribute';
  /** Method, function or attribute name (last segment of the callee). */
  name: string;
  /** Receiver type for methods and attributes. */
  receiver?: Type;
  /** Qualified names the callee resolves to (calls through imports). */
  callee?: string[];
  /** Receiver as written (`self._runtime`), for messages and fixes. */
  receiverText?: string;
  /** Callee names reached only as the library class a local class inherits its constructor from. */
  inherited?: string[];
  /** A call of a function that calls `name` on what this call passes it (./effects.ts): the calls on the way. */
  via?: string[];
  /** The types of the call's arguments, by the node of each value (`f(x, k=y)`: `x`, `y`), where the call is (narrowed). */
  args?: Map<number, Type>;
}

/** A call site with every field set, in one order: one hidden class for the sites of every kind (the matcher reads them all). */
export function callSite(
  node: Node,
  kind: CallSite['kind'],
  name: string,
  receiver?: Type,
  callee?: string[],
  receiverText?: string,
  inherited?: string[],
  via?: string[],
  args?: Map<number, Type>,
): CallSite {
  return { node, kind, name, receiver, callee, receiverText, inherited, via, args };
}

/** The argument types of a call by value node: the positional ones in order (a splat fills one), the keywords by name. */
export function argTypes(list: readonly Node[], pos: readonly Type[], kw: ReadonlyMap<string, Type>): Map<number, Type> | undefined {
  let out: Map<number, Type> | undefined;
  let i = 0;
  for (const a of list) {
    if (a.type === 'comment') continue;
    const value = a.type === 'keyword_argument' ? field(a, 'value') : a;
    const t = a.type === 'keyword_argument' ? kw.get(field(a, 'name')?.text ?? '') : pos[i++];
    if (value && t) (out ??= new Map()).set(value.id, t);
  }
  return out;
}

export interface SiteObserver {
  /** Whether a call or read of this name is of interest. */
  wants(name: string): boolean;
  add(site: CallSite): void;
}

/** Keeps the sites whose name is a trigger; a node seen on several paths merges its types. */
export class SiteRecorder implements SiteObserver {
  private readonly sites = new Map<number, CallSite>();
  private readonly passed = new Map<string, CallSite>();
  constructor(private readonly triggers: Set<string>) {}

  wants(name: string): boolean {
    return this.triggers.has(name);
  }

  add(site: CallSite): void {
    if (site.via) {
      // One per call, method and path: a call passes several objects, each to several calls.
      const key = `${site.node.id}|${site.name}|${site.via.join('|')}`;
      const had = this.passed.get(key);
      if (had) had.receiver = union(had.receiver ?? NEVER, site.receiver ?? NEVER);
      else this.passed.set(key, site);
      return;
    }
    const prev = this.sites.get(site.node.id);
    if (!prev) {
      this.sites.set(site.node.id, site);
      return;
    }
    if (site.receiver) prev.receiver = union(prev.receiver ?? NEVER, site.receiver);
    // Seen on several paths: an argument's type on each.
    if (prev.args && site.args) for (const [id, t] of prev.args) prev.args.set(id, union(t, site.args.get(id) ?? UNKNOWN));
    else prev.args = undefined;
    if (site.callee) prev.callee = [...new Set([...(prev.callee ?? []), ...site.callee])];
  }

  /** The sites in source order. */
  list(): CallSite[] {
    return [...this.sites.values(), ...this.passed.values()].sort((a, b) => a.node.startIndex - b.node.startIndex);
  }
}
