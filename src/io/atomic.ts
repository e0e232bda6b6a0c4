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

/**
 * A file written piece by piece and put in place at once: the pieces go to the temporary file as
 * they come (a 100 MB cache file is never one buffer in memory); `commit` flushes it to disk and
 * renames it over the target, `abort` removes it. Used through writeFileAtomic, or alone when the
 * pieces are made over a long computation (the records cache, src/compile/recordcache.ts).
 */
export class AtomicWriter {
  private fd: number | undefined;
  private readonly tmp: string;

  constructor(
    readonly path: string,
    private readonly opts: AtomicOptions = {},
  ) {
    if (opts.mkdir) mkdirSync(dirname(path), { recursive: true });
    removeStaleTemps(path);
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
    this.fd = openSync(this.tmp, 'wx', opts.mode ?? 0o666);
  }

  write(piece: Uint8Array | string): void {
    if (this.fd === undefined) throw new Error(`${this.path}: written after commit or abort`);
    const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
    } catch (e) {
      this.abort();
      throw e;
    }
  }

  /** Flushes, sets mode and owner, and renames over the target; on failure the temporary file is removed. */
  commit(): void {
    const fd = this.fd;
    if (fd === undefined) throw new Error(`${this.path}: committed after commit or abort`);
    this.fd = undefined;
    let renamed = false;
    try {
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      if (this.opts.mode !== undefined) chmodSync(this.tmp, this.opts.mode);
      if (this.opts.owner) {
        try {
          chownSync(this.tmp, this.opts.owner.uid, this.opts.owner.gid);
        } catch {
          // Only root may give a file away; the owner stays the writer's.
        }
      }
      renameSync(this.tmp, this.path);
      renamed = true;
    } finally {
      if (!renamed) this.removeTemp();
    }
  }

  /** Drops what was written; the target is untouched. */
  abort(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // closed already
    }
    this.fd = undefined;
    this.removeTemp();
  }

  private removeTemp(): void {
    try {
      unlinkSync(this.tmp);
    } catch {
      // already gone
    }
  }
}

export function writeFileAtomic(path: string, data: Uint8Array | string | Iterable<Uint8Array | string>, opts: AtomicOptions = {}): void {
  // Pieces are written one by one: a 100 MB snapshot is never one more buffer in memory.
  const pieces: Iterable<Uint8Array | string> = typeof data === 'string' || data instanceof Uint8Array ? [data] : data;
  const w = new AtomicWriter(path, opts);
  try {
    for (const piece of pieces) w.write(piece);
  } catch (e) {
    w.abort();
    throw e;
  }
  w.commit();
}
