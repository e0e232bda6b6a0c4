/** The one cache pruner: keeps the newest few files of a kind in a folder, and removes stale temporary files. */
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { TEMP_SUFFIX } from './atomic.js';

/** Temporary files older than this were left by a writer that died. */
const STALE_TEMP_MS = 3_600_000;

function remove(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // another process removed it
  }
}

/**
 * Keeps `keep` and the newest `max - 1` other files whose names match `pattern` in `dir`; removes
 * the rest, and temporary files of the atomic writer older than an hour.
 */
export function pruneFiles(dir: string, pattern: RegExp, keep: string, max: number): void {
  const files = readdirSync(dir);
  const old = files
    .filter((n) => pattern.test(n))
    .map((n) => join(dir, n))
    .filter((p) => p !== keep)
    .flatMap((p) => {
      try {
        return [{ p, m: statSync(p).mtimeMs }];
      } catch {
        return [];
      }
    })
    .sort((a, b) => b.m - a.m);
  for (const o of old.slice(Math.max(0, max - 1))) remove(o.p);
  for (const n of files) {
    if (!n.endsWith(TEMP_SUFFIX) && !n.endsWith('.tmp')) continue;
    const p = join(dir, n);
    try {
      if (Date.now() - statSync(p).mtimeMs > STALE_TEMP_MS) remove(p);
    } catch {
      // gone
    }
  }
}
