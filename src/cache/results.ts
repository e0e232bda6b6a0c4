/**
 * The content cache (like Ruff's `.ruff_cache`): per-file results of a previous run.
 *
 * One bucket file per (raiselint code, rule set, options): `<cache dir>/results-<key>.json`. The
 * bucket maps each absolute path to the content hash (sha256) of the bytes that were checked, the
 * display path, the file's stat signature when it was trustworthy (see fingerprint.ts) and the
 * diagnostics and errors. An entry is used only when the file's content hash is the same (known
 * from an identical trusted signature, or by reading and hashing the file): a result is never
 * stale, whatever changed (a file, a record, a curated file, an option, raiselint itself).
 * A corrupt or unreadable cache is ignored; the cache never changes a run's output.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../io/atomic.js';
import { pruneFiles } from '../io/prune.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import type { Directive } from '../suppress/directives.js';
import { sha256, type StatSig } from '../io/fingerprint.js';
import { ensureCacheDir } from '../io/cachedir.js';

/**
 * 3: fix edits are offsets (`{start, end, text}`), no longer lines and columns.
 * 4: a header line (`{format, key, sum}`) with the sha256 of the entries that follow: a damaged
 * bucket (a flipped bit, a truncated write) is a miss, never a wrong result.
 */
const FORMAT = 4;
/** Entries kept per bucket; the least recently used go first. */
const MAX_ENTRIES = 200_000;
/** Bucket files kept per cache directory (one per rule set / options / version); the oldest go first. */
const MAX_BUCKETS = 8;

export interface CacheEntry {
  /** sha256 of the file's bytes. */
  h: string;
  /** Display path the diagnostics were made with. */
  d: string;
  /** Trusted stat signature, if any. */
  s?: StatSig;
  /** Last run that used the entry (ms since epoch). */
  t: number;
  /** Per-file options the result depends on (the file's fix strategy). */
  o: string;
  /** JS/TS: the files its typed result was read from, with their trusted stat signatures (engine/jsrun.ts). */
  deps?: [string, StatSig][];
  diagnostics: Diagnostic[];
  errors: FileError[];
  directives: Directive[];
}

interface BucketHeader {
  format: number;
  key: string;
  /** sha256 of the entries' JSON (the text after the header line). */
  sum: string;
}

export class ResultCache {
  private readonly entries: Map<string, CacheEntry>;
  private dirty = false;

  private constructor(
    readonly dir: string,
    readonly key: string,
    entries: Map<string, CacheEntry>,
  ) {
    this.entries = entries;
  }

  get path(): string {
    return join(this.dir, `results-${this.key.slice(0, 32)}.json`);
  }

  /** Loads the bucket for `key` (empty when missing or unreadable). */
  static load(dir: string, key: string): ResultCache {
    const c = new ResultCache(dir, key, new Map());
    try {
      const text = readFileSync(c.path, 'utf8');
      const nl = text.indexOf('\n');
      const head = JSON.parse(text.slice(0, nl)) as BucketHeader;
      const body = text.slice(nl + 1);
      const entries =
        head.format === FORMAT && head.key === key && nl > 0 && sha256(body) === head.sum ? (JSON.parse(body) as Record<string, CacheEntry>) : undefined;
      if (entries && typeof entries === 'object') {
        for (const [k, v] of Object.entries(entries)) {
          if (
            v &&
            typeof v.h === 'string' &&
            typeof v.d === 'string' &&
            typeof v.o === 'string' &&
            Array.isArray(v.diagnostics) &&
            Array.isArray(v.errors) &&
            Array.isArray(v.directives)
          )
            c.entries.set(k, v);
        }
      }
    } catch {
      // missing or corrupt: start empty
    }
    return c;
  }

  get(abs: string): CacheEntry | undefined {
    return this.entries.get(abs);
  }

  set(abs: string, entry: CacheEntry): void {
    this.entries.set(abs, entry);
    this.dirty = true;
  }

  /** Marks an entry as used by this run (kept longer when pruning). */
  touch(abs: string, now: number, sig?: StatSig): void {
    const e = this.entries.get(abs);
    if (!e) return;
    if (sig && !e.s) {
      e.s = sig;
      this.dirty = true;
    }
    if (now - e.t > 60_000) {
      e.t = now;
      this.dirty = true;
    }
  }

  /** Writes the bucket atomically when something changed; errors are ignored (the cache is an optimisation). */
  save(): void {
    if (!this.dirty) return;
    try {
      ensureCacheDir(this.dir);
      let list = [...this.entries];
      if (list.length > MAX_ENTRIES) list = list.sort((a, b) => b[1].t - a[1].t).slice(0, MAX_ENTRIES);
      const body = JSON.stringify(Object.fromEntries(list));
      const head: BucketHeader = { format: FORMAT, key: this.key, sum: sha256(body) };
      writeFileAtomic(this.path, `${JSON.stringify(head)}\n${body}`);
      this.dirty = false;
      pruneFiles(this.dir, /^results-[0-9a-f]+\.json$/, this.path, MAX_BUCKETS);
    } catch {
      // read-only or full disk: run without a cache
    }
  }
}
