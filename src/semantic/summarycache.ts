/**
 * The summaries a host keeps (./crossfile.ts): by file, by index (a function reference names its
 * module's index: a file keeps its index for the run), and what each read (a file's
 * dependencies). Memory is bounded: beyond MAX_ALIVE summaries, the least recently used one not in
 * use is dropped, and made again when asked: the same text gives the same answers, and what was
 * handed out of it names it by file or index and its functions by start offset (./crossfile.ts).
 */
import type { Node } from '../parse/parser.js';
import type { ClassRegistry } from '../rules/classes.js';
import type { ParamEffect } from './effects.js';
import type { Type } from './types.js';

/** What the interpreter of a project module answers, in its own terms (its types hold its own tree's nodes). */
export interface ModuleSummary {
  /** A module-level name's final type (undefined: not bound). */
  name(n: string): Type | undefined;
  member(t: Type, attr: string): Type;
  /** The result of calling values of type t (arguments unknown). */
  invoke(t: Type): Type;
  /** The function defined at `start` (a reference handed out of an earlier summary of the same text). */
  fnAt(start: number): Node | undefined;
  /** What the functions of type t do with their parameters (./effects.ts). */
  effects(t: Type): ParamEffect[];
  readonly classes: ClassRegistry;
  /** Frees what the summary holds outside the JS heap (its syntax tree); called once it is dropped. */
  release(): void;
}

/** A module's text: from the disk, or an editor's buffer (undefined: unreadable). */
export type ReadModule = (file: string) => string | undefined;

/** What the cache keeps of a summary. */
export interface Cached {
  file: string;
  index: number;
  /** Evaluations under way that read it: not dropped meanwhile. */
  uses: number;
  /** When it was last asked for (the cache's clock): the least recently used is dropped first. */
  used: number;
  /** The module files it read (live: it may read more). */
  read: Set<string>;
  /** Its text's length: the budget of alive summaries is in text (a tree and its facts grow with it). */
  size: number;
  /** Frees it (its syntax tree): called when it is dropped. */
  release(): void;
}

/** Summaries made per run at most (a bound on time). */
const MAX_MADE = 20_000;
/** Summaries alive at most, one set per thread. */
const MAX_ALIVE = 400;
/**
 * The text of alive summaries at most (UTF-16 units), one set per thread: a summary takes about
 * 20 bytes of memory (its tree, its interpreter's facts) per byte of text, so about 160 MB.
 */
const MAX_ALIVE_TEXT = 8 << 20;

export class SummaryCache<T extends Cached> {
  private readonly byFile = new Map<string, T | null>();
  private readonly list: (T | undefined)[] = [];
  private readonly files: string[] = [];
  private readonly indexOf = new Map<string, number>();
  /** Alive summaries (in the order made; each knows when it was last asked for). */
  private readonly alive = new Map<string, T>();
  private tick = 0;
  /** What dropped summaries read. */
  private readonly readOf = new Map<string, Set<string>>();
  private made = 0;
  private aliveText = 0;
  /** The class of each function handed out, by `file@start`: kept when its summary is dropped. */
  readonly fnClass = new Map<string, string | undefined>();

  constructor(
    private readonly maxAlive = MAX_ALIVE,
    private readonly maxAliveText = MAX_ALIVE_TEXT,
  ) {}

  /** A file's summary (null: tried and none; undefined: not made, or dropped). */
  get(file: string): T | null | undefined {
    const had = this.byFile.get(file);
    // A tick, not a reorder of the map: asked for millions of times on a large package, dropped from rarely.
    if (had) had.used = ++this.tick;
    return had;
  }

  /** No more summaries may be made. */
  full(): boolean {
    return this.made >= MAX_MADE;
  }

  /** The file a summary index names (alive or dropped). */
  fileAt(i: number): string | undefined {
    return this.files[i];
  }

  none(file: string): void {
    this.byFile.set(file, null);
  }

  /** A new summary of `file` (again, after a drop: at the same index). */
  add(file: string, make: (index: number) => T): T {
    let i = this.indexOf.get(file);
    if (i === undefined) {
      i = this.files.length;
      this.files.push(file);
      this.indexOf.set(file, i);
    }
    const m = make(i);
    this.aliveText += m.size;
    this.list[i] = m;
    this.byFile.set(file, m);
    this.readOf.delete(file);
    this.alive.set(file, m);
    m.used = ++this.tick;
    this.made++;
    this.evict(m);
    return m;
  }

  /** Whether a file's summary was made (or tried), alive or dropped since. */
  has(file: string): boolean {
    return this.byFile.has(file) || this.readOf.has(file);
  }

  /** Drops the least recently used summaries not in use, never `newest` (its caller is about to use it). */
  private evict(newest: T): void {
    if (this.alive.size <= this.maxAlive && this.aliveText <= this.maxAliveText) return;
    const byUse = [...this.alive].sort(([, a], [, b]) => a.used - b.used);
    for (const [file, m] of byUse) {
      if (this.alive.size <= this.maxAlive && this.aliveText <= this.maxAliveText) break;
      if (m.uses > 0 || m === newest) continue;
      this.drop(file, m);
    }
  }

  private drop(file: string, m: T): void {
    this.alive.delete(file);
    this.byFile.delete(file);
    this.list[m.index] = undefined;
    this.readOf.set(file, m.read);
    this.aliveText -= m.size;
    m.release();
  }

  /** Drops every summary not in use (the host is done with them: their trees are freed). */
  releaseAll(): void {
    for (const [file, m] of this.alive) if (m.uses === 0) this.drop(file, m);
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
