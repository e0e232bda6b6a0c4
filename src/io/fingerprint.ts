/**
 * Content hashes and stat signatures.
 *
 * Cache keys are content hashes. To avoid reading unchanged files, a file's stat signature
 * (size, mtime, ctime, inode, device) is stored next to its content hash; a later run that sees the
 * same signature knows the content without reading it. As in git's index, a signature taken while
 * the file's timestamps are recent ("racily clean": the file could still change within the same
 * timestamp tick without the signature changing) is never trusted: such files are always re-read.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';

/** [size, mtimeMs, ctimeMs, ino, dev] */
export type StatSig = [number, number, number, number, number];

/** Timestamps closer than this to the time the signature was taken make it untrustworthy. */
export const RACY_MS = 3000;

export function statSig(st: Stats): StatSig {
  return [st.size, st.mtimeMs, st.ctimeMs, st.ino, st.dev];
}

export function sameSig(a: StatSig | undefined, b: StatSig): boolean {
  return !!a && a.length === 5 && a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4];
}

/** A signature that may be stored: the file's timestamps are safely in the past (`now` = when it was read). */
export function trustedSig(st: Stats, now: number): StatSig | undefined {
  if (now - st.mtimeMs <= RACY_MS || now - st.ctimeMs <= RACY_MS) return undefined;
  return statSig(st);
}

export function sha256(data: Uint8Array | string, length?: number): string {
  const h = createHash('sha256');
  if (typeof data === 'string') h.update(data);
  else h.update(length === undefined || length === data.length ? data : data.subarray(0, length));
  return h.digest('hex');
}

/** Hash of a list of parts (order matters); parts may not contain NUL. */
export function hashParts(parts: (string | number | boolean | null | undefined)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(String(p)).update('\0');
  return h.digest('hex');
}
