/**
 * The fix stage, applying fixes. Edits are spliced into the ORIGINAL bytes (a BOM, CRLF line endings,
 * tabs and every byte outside the edits stay as they were); fixes whose edits overlap one
 * already taken wait for the next round (identical edits, such as the same import, apply once);
 * files are written atomically (a temporary file in the same folder, same mode, then a rename)
 * and never when they changed on disk since they were read.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../io/atomic.js';
import type { Applicability, Diagnostic, Fix } from '../diagnostics/types.js';

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Offsets of line starts ('\n' ends a line, as tree-sitter counts rows). */
export function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

/** The 0-based row and UTF-16 column of an offset, given the text's line starts (the inverse of `fixOffsets`' lookup). */
export function positionAt(starts: number[], offset: number): { row: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { row: lo, column: offset - starts[lo]! };
}

/** A fix's edits as offsets into `text` (the text the fix was planned on). */
export function fixOffsets(text: string, fix: Fix, starts = lineStarts(text)): TextEdit[] {
  const at = (line: number, column: number) => {
    const base = starts[line - 1];
    if (base === undefined) throw new Error(`fix edit at line ${line} is outside the file`);
    const off = base + column - 1;
    if (off > text.length) throw new Error(`fix edit at ${line}:${column} is outside the file`);
    return off;
  };
  return fix.edits.map((e) => ({ start: at(e.line, e.column), end: at(e.endLine, e.endColumn), text: e.text })).sort((a, b) => a.start - b.start || a.end - b.end);
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
  return [...byKey.values()].sort((a, b) => a.fix.edits[0]!.line - b.fix.edits[0]!.line || a.fix.edits[0]!.column - b.fix.edits[0]!.column);
}

/** Identity of a fix: its edits (with positions), or only what it writes (stable across rounds). */
export function fixKey(fix: Fix, withPositions: boolean): string {
  return JSON.stringify(fix.edits.map((e) => (withPositions ? [e.line, e.column, e.endLine, e.endColumn, e.text] : [e.text])));
}

/**
 * Picks the fixes one round applies, in order: a fix whose edit overlaps an edit already taken
 * waits (unless the edits are identical: those apply once).
 */
export function selectEdits(text: string, fixes: Fix[]): { edits: TextEdit[]; applied: Fix[]; deferred: Fix[] } {
  const starts = lineStarts(text);
  const taken: TextEdit[] = [];
  const applied: Fix[] = [];
  const deferred: Fix[] = [];
  for (const fix of fixes) {
    const es = fixOffsets(text, fix, starts);
    const fresh: TextEdit[] = [];
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

function overlaps(a: TextEdit, b: TextEdit): boolean {
  // Two insertions at one point clash (their order would be a guess); an insertion at a replacement's edge does not.
  if (a.start === a.end && b.start === b.end) return a.start === b.start;
  return a.start < b.end && b.start < a.end;
}

/** Applies sorted, non-overlapping edits to a string. */
export function applyText(text: string, edits: TextEdit[]): string {
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
export function applyBytes(bytes: Uint8Array, text: string, bom: boolean, edits: TextEdit[]): Buffer {
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
  const now = readFileSync(target);
  if (!now.equals(Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength))) throw new ChangedOnDiskError('the file changed on disk since it was read: not written');
  writeFileAtomic(target, data, { mode: st.mode & 0o7777, owner: { uid: st.uid, gid: st.gid } });
}
