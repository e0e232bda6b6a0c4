/**
 * The summaries a host keeps (./crossfile.ts): by file, by index (a function reference names its
 * module's index), and what each read (a file's dependencies). Memory is bounded: beyond
 * MAX_UNPINNED summaries that handed out nothing holding their tree's nodes, the least recently
 * used one is dropped, to be made again when asked (the same text gives the same answers); one that
 * did (a function reference, a class adopted elsewhere) is pinned for the run.
 */

/** What the cache keeps of a summary. */
export interface Cached {
  file: string;
  index: number;
  /** It handed out what holds its tree's nodes: kept for the run. */
  pinned: boolean;
  /** Evaluations under way that read it: not dropped meanwhile. */
  uses: number;
  /** The module files it read (live: it may read more). */
  read: Set<string>;
}

/** Summaries alive at most (a bound on memory: their trees live as long as they do). */
const MAX_MODULES = 4000;
/** Unpinned summaries alive at most: 0.7 MB each on the standard library, one set per thread. */
const MAX_UNPINNED = 48;

export class SummaryCache<T extends Cached> {
  private readonly byFile = new Map<string, T | null>();
  private readonly list: (T | undefined)[] = [];
  /** Alive summaries that may be dropped, least recently used first. */
  private readonly lru = new Map<string, T>();
  /** What dropped summaries read. */
  private readonly readOf = new Map<string, Set<string>>();
  private alive = 0;

  /** A file's summary (null: tried and none; undefined: not made, or dropped). */
  get(file: string): T | null | undefined {
    const had = this.byFile.get(file);
    if (had && this.lru.delete(file)) this.lru.set(file, had);
    return had;
  }

  /** No more summaries may be made. */
  full(): boolean {
    return this.alive >= MAX_MODULES;
  }

  none(file: string): void {
    this.byFile.set(file, null);
  }

  add(make: (index: number) => T): T {
    const m = make(this.list.length);
    this.list.push(m);
    this.byFile.set(m.file, m);
    this.lru.set(m.file, m);
    this.alive++;
    this.evict();
    return m;
  }

  /** Whether a file's summary was made (or tried), alive or dropped since. */
  has(file: string): boolean {
    return this.byFile.has(file) || this.readOf.has(file);
  }

  pin(m: T): void {
    m.pinned = true;
    this.lru.delete(m.file);
  }

  private evict(): void {
    for (const [file, m] of this.lru) {
      if (this.lru.size <= MAX_UNPINNED) break;
      if (m.uses > 0 || m.pinned) continue;
      this.lru.delete(file);
      this.byFile.delete(file);
      this.list[m.index] = undefined;
      this.readOf.set(file, m.read);
      this.alive--;
    }
  }

  byIndex(i: number): T | undefined {
    return this.list[i];
  }

  /** The files whose summaries a set of modules read, transitively. */
  closure(files: Iterable<string>): string[] {
    const out = new Set<string>();
    const stack = [...files];
    while (stack.length) {
      const f = stack.pop()!;
      if (out.has(f)) continue;
      out.add(f);
      stack.push(...(this.byFile.get(f)?.read ?? this.readOf.get(f) ?? []));
    }
    return [...out].sort();
  }
}
