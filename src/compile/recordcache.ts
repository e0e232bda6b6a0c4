/**
 * The per-record compile cache on disk (what it holds: src/compile/python/cached.ts): one file,
 * `rules/records.cache` in the cache directory, with a line per compiled record
 * (`<key>\t<entry JSON>`) after a header naming the compiler. A compile that missed any record
 * writes the file again (atomically: src/io/atomic.ts) with the entries it used, so the file holds
 * the records of the last datasets compiled and does not grow past them. A file of other code, a
 * truncated line or a line that does not parse is a miss, never an error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AtomicWriter } from '../io/atomic.js';
import type { RecordCache } from './python/cached.js';
import { ensureCacheDir } from '../io/cachedir.js';

const HEADER = 'RLRECS1';

export class RecordCacheFile implements RecordCache {
  private readonly known = new Map<string, string>();
  /** Entries used before the first miss (their strings are `known`'s): written only if a record is compiled. */
  private readonly used = new Map<string, string>();
  /** From the first miss on, entries go straight to the new file instead of being kept (20,000 records: ~50 MB). */
  private writer?: AtomicWriter;
  private readonly written = new Set<string>();
  private pending = '';
  private broken = false;
  private added = 0;
  hits = 0;

  private constructor(
    readonly path: string,
    readonly salt: string,
    private readonly cacheDir: string,
  ) {}

  /** The cache of `cacheDir` for the compiler `salt` (empty when there is none, or it is another compiler's). */
  static open(cacheDir: string, salt: string): RecordCacheFile {
    const c = new RecordCacheFile(join(cacheDir, 'rules', 'records.cache'), salt, cacheDir);
    let text: string;
    try {
      text = readFileSync(c.path, 'utf8');
    } catch {
      return c;
    }
    const lines = text.split('\n');
    if (lines[0] !== `${HEADER} ${salt}`) return c;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const tab = line.indexOf('\t');
      if (tab === 64) c.known.set(line.slice(0, tab), line.slice(tab + 1));
    }
    return c;
  }

  get(key: string): string | undefined {
    return this.known.get(key);
  }

  put(key: string, value: string): void {
    if (this.known.get(key) === value) this.hits++;
    else this.added++;
    if (this.added && !this.writer && !this.broken) this.start();
    if (this.writer) this.emit(key, value);
    else this.used.set(key, value);
  }

  /** Entries the file held when it was opened. */
  get size(): number {
    return this.known.size;
  }

  /** Records compiled (not reused) since the cache was opened. */
  get misses(): number {
    return this.added;
  }

  /** Puts the new file in place, when any record was compiled; false when it cannot be written (the cache is an optimisation). */
  save(): boolean {
    if (!this.added) return true;
    if (!this.writer) return false;
    try {
      this.flush();
      this.writer.commit();
      return true;
    } catch {
      return false;
    } finally {
      this.writer = undefined;
    }
  }

  /** Drops the new file (the compile failed). */
  abort(): void {
    this.writer?.abort();
    this.writer = undefined;
  }

  private start(): void {
    try {
      ensureCacheDir(this.cacheDir);
      this.writer = new AtomicWriter(this.path, { mkdir: true });
      this.pending = `${HEADER} ${this.salt}\n`;
      for (const [k, v] of this.used) this.emit(k, v);
      this.used.clear();
    } catch {
      this.writer?.abort();
      this.writer = undefined;
      this.broken = true;
    }
  }

  private emit(key: string, value: string): void {
    if (this.written.has(key)) return;
    this.written.add(key);
    this.pending += `${key}\t${value}\n`;
    if (this.pending.length > 1 << 16) this.flush();
  }

  private flush(): void {
    if (!this.writer || !this.pending) return;
    try {
      this.writer.write(this.pending);
    } catch {
      this.writer = undefined;
      this.broken = true;
    }
    this.pending = '';
  }
}
