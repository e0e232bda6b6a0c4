/** A rule-id map over the compiled-rules snapshot that reads each rule on first use. */
import type { Rule } from '../rules/types.js';

/** Rules by id, read from the snapshot on first use of each (the id list itself on first use). */
export class LazyRuleMap extends Map<string, Rule> {
  private complete = false;
  private idList?: string[];
  private positions?: Map<string, number>;
  constructor(
    private readonly idsOf: () => string[],
    private readonly load: (i: number) => Rule,
  ) {
    super();
  }
  private get ids(): string[] {
    return (this.idList ??= this.idsOf());
  }
  private get position(): Map<string, number> {
    return (this.positions ??= new Map(this.ids.map((id, i) => [id, i])));
  }
  override get(id: string): Rule | undefined {
    const have = super.get(id);
    if (have) return have;
    const i = this.position.get(id);
    if (i === undefined) return undefined;
    const r = this.load(i);
    super.set(id, r);
    return r;
  }
  override has(id: string): boolean {
    return this.position.has(id);
  }
  override get size(): number {
    return this.ids.length;
  }
  override keys(): MapIterator<string> {
    return this.ids[Symbol.iterator]() as MapIterator<string>;
  }
  private all(): void {
    if (this.complete) return;
    for (const id of this.ids) this.get(id);
    this.complete = true;
  }
  override values(): MapIterator<Rule> {
    this.all();
    return super.values();
  }
  override entries(): MapIterator<[string, Rule]> {
    this.all();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[string, Rule]> {
    return this.entries();
  }
  override forEach(fn: (value: Rule, key: string, map: Map<string, Rule>) => void, thisArg?: unknown): void {
    this.all();
    super.forEach(fn, thisArg);
  }
}

/** An object whose `keys` read from `load()`, called on the first read of any of them (once). */
export function deferredFields<T, K extends keyof T>(load: () => T, keys: readonly K[]): Pick<T, K> {
  let value: T | undefined;
  const out = {} as Pick<T, K>;
  for (const k of keys) Object.defineProperty(out, k, { get: () => (value ??= load())[k], enumerable: true, configurable: true });
  return out;
}
