/**
 * The one atomic file writer: a temporary file next to the target is written, flushed to disk
 * (fsync) and renamed over it, so a reader sees the old bytes or the new ones, never a part.
 * Used for the user's files (fixes, with their mode and owner kept) and for the cache.
 */
import { chmodSync, chownSync, closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

export interface AtomicOptions {
  /** Permission bits of the new file (default 0o666 less the umask). */
  mode?: number;
  /** Owner to give the new file, where allowed (only root may give a file away). */
  owner?: { uid: number; gid: number };
  /** Create the parent folders. */
  mkdir?: boolean;
}

/** The temporary files this writer leaves when a process dies mid-write end with this. */
export const TEMP_SUFFIX = '.raiselint.tmp';

/** Whether process `pid` is alive on this machine. */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, owned by someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files of `path` that a dead process left (killed during a write: its
 * `.<name>.<pid>-<hex>.raiselint.tmp` is never renamed). Another live writer's file is kept.
 */
export function removeStaleTemps(path: string): void {
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  removeStaleTempsIn(dirname(path), names, `.${basename(path)}.`);
}

/**
 * The same for every file of a folder whose listing is `names` (a run's walk removes what a killed
 * `--fix` left, even where it writes nothing). Only names of this writer's exact shape are touched.
 */
export function removeStaleTempsIn(dir: string, names: readonly string[], prefix = '.'): void {
  for (const n of names) {
    if (!n.endsWith(TEMP_SUFFIX) || !n.startsWith(prefix)) continue;
    const m = /^\..+\.(\d+)-[0-9a-f]{8}\.raiselint\.tmp$/.exec(n);
    if (!m || alive(Number(m[1]))) continue;
    try {
      unlinkSync(join(dir, n));
    } catch {
      // gone already, or not ours to remove
    }
  }
}

export function writeFileAtomic(path: string, data: Uint8Array | string, opts: AtomicOptions = {}): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (opts.mkdir) mkdirSync(dirname(path), { recursive: true });
  removeStaleTemps(path);
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
  const fd = openSync(tmp, 'wx', opts.mode ?? 0o666);
  let renamed = false;
  try {
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (opts.mode !== undefined) chmodSync(tmp, opts.mode);
    if (opts.owner) {
      try {
        chownSync(tmp, opts.owner.uid, opts.owner.gid);
      } catch {
        // Only root may give a file away; the owner stays the writer's.
      }
    }
    renameSync(tmp, path);
    renamed = true;
  } finally {
    if (!renamed) {
      try {
        unlinkSync(tmp);
      } catch {
        // already gone
      }
    }
  }
}
