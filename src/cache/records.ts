/**
 * The per-record compile cache on disk (what it holds: src/rules/compile/cached.ts): one file,
 * `rules/records.cache` in the cache directory, with a line per compiled record
 * (`<key>\t<entry JSON>`) after a header naming the compiler. A compile that missed any record
 * writes the file again (atomically: src/io/atomic.ts) with the entries it used, so the file holds
 * the records of the last datasets compiled and does not grow past them. A file of other code, a
 * truncated line or a line that does not parse is a miss, never an error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../io/atomic.js';
import type { RecordCache } from '../rules/compile/cached.js';

const HEADER = 'RLRECS1';

export class RecordCacheFile implements RecordCache {
  private readonly known = new Map<string, string>();
  private readonly used = new Map<string, string>();
  private added = 0;
  hits = 0;

  private constructor(
    readonly path: string,
    readonly salt: string,
  ) {}

  /** The cache of `cacheDir` for the compiler `salt` (empty when there is none, or it is another compiler's). */
  static open(cacheDir: string, salt: string): RecordCacheFile {
    const c = new RecordCacheFile(join(cacheDir, 'rules', 'records.cache'), salt);
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
    this.used.set(key, value);
  }

  /** Entries the file held when it was opened. */
  get size(): number {
    return this.known.size;
  }

  /** Records compiled (not reused) since the cache was opened. */
  get misses(): number {
    return this.added;
  }

  /** Writes the entries used, when any record was compiled; false when the file cannot be written (the cache is an optimisation). */
  save(): boolean {
    if (!this.added) return true;
    const parts = [`${HEADER} ${this.salt}`];
    for (const [k, v] of this.used) parts.push(`${k}\t${v}`);
    try {
      writeFileAtomic(this.path, `${parts.join('\n')}\n`, { mkdir: true });
      return true;
    } catch {
      return false;
    }
  }
}
