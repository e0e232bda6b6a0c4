/**
 * The fix stage, applying fixes. Edits are spliced into the ORIGINAL bytes (a BOM, CRLF line endings,
 * tabs and every byte outside the edits stay as they were); fixes whose edits overlap one
 * already taken wait for the next round (identical edits, such as the same import, apply once);
 * files are written atomically (a temporary file in the same folder, same mode, then a rename;
 * in place when the file has other hard links), never when they changed on disk since they were
 * read, and never when the user may not write them.
 */
import { accessSync, closeSync, constants as fsConstants, fsyncSync, ftruncateSync, openSync, readFileSync, realpathSync, statSync, writeSync } from 'node:fs';
import { writeFileAtomic } from '../io/atomic.js';
import type { Applicability, Diagnostic, Fix, FixEdit } from '../diagnostics/types.js';

/** A fix's edits in file order; `text` is the text the fix was planned on (an edit outside it is an error). */
export function fixOffsets(text: string, fix: Fix): FixEdit[] {
  for (const e of fix.edits)
    if (!(e.start >= 0 && e.start <= e.end && e.end <= text.length)) throw new Error(`fix edit at offset ${e.start}-${e.end} is outside the file`);
  return [...fix.edits].sort((a, b) => a.start - b.start || a.end - b.end);
}

/** Which fixes a run applies: `safe` ones, and `unsafe` ones too when asked. */
export function applicable(a: Applicability, unsafe: boolean): boolean {
  return a === 'safe' || (unsafe && a === 'unsafe');
}

/** The distinct fixes of a file's diagnostics (a fix shared by several findings counts once), in file order. */
export function distinctFixes(diags: Diagnostic[], accept: (f: Fix) => boolean): { fix: Fix; diagnostics: Diagnostic[] }[] {
  const byKey = new Map<string, { fix: Fix; diagnostics: Diagnostic[] }>();
  for (const d of diags) {
    if (!d.fix || !d.fix.edits.length || !accept(d.fix)) continue;
    const k = fixKey(d.fix, true);
    const e = byKey.get(k) ?? { fix: d.fix, diagnostics: [] };
    e.diagnostics.push(d);
    byKey.set(k, e);
  }
  return [...byKey.values()].sort((a, b) => a.fix.edits[0]!.start - b.fix.edits[0]!.start);
}

/** Identity of a fix: its edits (with positions), or only what it writes (stable across rounds). */
export function fixKey(fix: Fix, withPositions: boolean): string {
  return JSON.stringify(fix.edits.map((e) => (withPositions ? [e.start, e.end, e.text] : [e.text])));
}

/**
 * Picks the fixes one round applies, in order: a fix whose edit overlaps an edit already taken
 * waits (unless the edits are identical: those apply once).
 */
export function selectEdits(text: string, fixes: Fix[]): { edits: FixEdit[]; applied: Fix[]; deferred: Fix[] } {
  const taken: FixEdit[] = [];
  const applied: Fix[] = [];
  const deferred: Fix[] = [];
  for (const fix of fixes) {
    const es = fixOffsets(text, fix);
    const fresh: FixEdit[] = [];
    let clash = false;
    for (const e of es) {
      if (taken.some((t) => t.start === e.start && t.end === e.end && t.text === e.text)) continue;
      if (taken.some((t) => overlaps(t, e)) || fresh.some((t) => overlaps(t, e))) {
        clash = true;
        break;
      }
      fresh.push(e);
    }
    if (clash) {
      deferred.push(fix);
      continue;
    }
    taken.push(...fresh);
    applied.push(fix);
  }
  return { edits: taken.sort((a, b) => a.start - b.start || a.end - b.end), applied, deferred };
}

function overlaps(a: FixEdit, b: FixEdit): boolean {
  // Two insertions at one point clash (their order would be a guess); an insertion at a replacement's edge does not.
  if (a.start === a.end && b.start === b.end) return a.start === b.start;
  return a.start < b.end && b.start < a.end;
}

/** Applies sorted, non-overlapping edits to a string. */
export function applyText(text: string, edits: FixEdit[]): string {
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/**
 * Applies edits planned on `text` (the UTF-8 decoding of `bytes`, after a BOM when `bom`) to
 * the bytes themselves: every byte outside the edits is copied from the original.
 */
export function applyBytes(bytes: Uint8Array, text: string, bom: boolean, edits: FixEdit[]): Buffer {
  const parts: Buffer[] = [];
  let byteAt = bom ? 3 : 0;
  let charAt = 0;
  if (bom) parts.push(Buffer.from(bytes.subarray(0, 3)));
  let cursor = byteAt;
  for (const e of edits) {
    byteAt += Buffer.byteLength(text.slice(charAt, e.start), 'utf8');
    charAt = e.start;
    parts.push(Buffer.from(bytes.subarray(cursor, byteAt)));
    parts.push(Buffer.from(e.text, 'utf8'));
    byteAt += Buffer.byteLength(text.slice(e.start, e.end), 'utf8');
    charAt = e.end;
    cursor = byteAt;
  }
  parts.push(Buffer.from(bytes.subarray(cursor)));
  return Buffer.concat(parts);
}

/** The file changed on disk after it was read: it is not written. */
export class ChangedOnDiskError extends Error {}

/**
 * Writes `data` to `path` atomically, and only when the file still holds `expected`: a temporary
 * file next to it (same mode, and same owner where allowed) is written, flushed and renamed over
 * it. A symbolic link is followed: its target is replaced, the link stays.
 */
export function writeAtomic(path: string, data: Uint8Array, expected: Uint8Array): void {
  const target = realpathSync(path);
  const st = statSync(target);
  if (readOnly(target, st.mode)) throw new ReadOnlyError('read-only (the file has no write permission for this user)');
  const now = readFileSync(target);
  if (!now.equals(Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength)))
    throw new ChangedOnDiskError('the file changed on disk since it was read: not written');
  if (st.nlink > 1) {
    // A rename would cut the file off from its other names: write the bytes in place instead.
    writeInPlace(target, data);
    return;
  }
  writeFileAtomic(target, data, { mode: st.mode & 0o7777, owner: { uid: st.uid, gid: st.gid } });
}

/** The file may not be written by this user (ESLint refuses such a file with EACCES; root is held to the mode bits too). */
function readOnly(target: string, mode: number): boolean {
  if (process.getuid?.() === 0) return (mode & 0o222) === 0;
  try {
    accessSync(target, fsConstants.W_OK);
    return false;
  } catch {
    return true;
  }
}

/** Overwrites a file's bytes through its own inode (hard links keep seeing one file). */
function writeInPlace(target: string, data: Uint8Array): void {
  const fd = openSync(target, 'r+');
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off, off);
    ftruncateSync(fd, data.length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The file may not be written: it is left alone. */
export class ReadOnlyError extends Error {}
