/**
 * Reads a JSON Lines dataset line by line from the file, never holding its whole text (a
 * 100,000-record dataset is ~300 MB): memory is the records kept, not the bytes read. Only a
 * regular file is read (a FIFO never hangs), and one line is bounded.
 */
import { closeSync, readSync } from 'node:fs';
import { openRegular } from '../parse/files.js';

/** A line longer than this is not a record (the field limits allow well under it). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const CHUNK = 1 << 20;

/** Calls `onLine(text, lineNumber)` for each line (1-based; `\r\n` or `\n`; a leading BOM removed). Throws FileReadError, or Error for a too-long line. */
/** A records file line that is not valid UTF-8. */
export class InvalidUtf8Error extends Error {
  constructor(
    readonly line: number,
    readonly byteOffset: number,
  ) {
    super(`invalid UTF-8 at byte offset ${byteOffset} (line ${line})`);
  }
}

/** The index of the first byte of `b` that is not part of a valid UTF-8 sequence, or -1. */
export function invalidUtf8At(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0 || i + n >= b.length) return i;
    for (let k = 1; k <= n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i;
    const c1 = b[i + 1]!;
    // Overlong forms, surrogates and code points past U+10FFFF.
    if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f) || (c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return i;
    i += n + 1;
  }
  return -1;
}

export function forEachLine(file: string, onLine: (text: string, line: number) => void): void {
  const { fd } = openRegular(file);
  try {
    let carry: Buffer[] = [];
    let carryLen = 0;
    let line = 0;
    const buf = Buffer.allocUnsafe(CHUNK);
    let offset = 0;
    const emit = (b: Buffer) => {
      line++;
      const bad = invalidUtf8At(b);
      // Never a silent U+FFFD in a record: the file, line and byte offset of the bad byte.
      if (bad >= 0) throw new InvalidUtf8Error(line, offset + bad);
      offset += b.length + 1;
      let s = b.toString('utf8');
      if (line === 1 && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      onLine(s.endsWith('\r') ? s.slice(0, -1) : s, line);
    };
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      let from = 0;
      for (let nl = buf.indexOf(10, from); nl >= 0 && nl < n; nl = buf.indexOf(10, from)) {
        const piece = buf.subarray(from, nl);
        emit(carryLen ? Buffer.concat([...carry, piece]) : piece);
        carry = [];
        carryLen = 0;
        from = nl + 1;
      }
      if (from < n) {
        carry.push(Buffer.from(buf.subarray(from, n)));
        carryLen += n - from;
        if (carryLen > MAX_LINE_BYTES) throw new Error(`line ${line + 1} is longer than ${MAX_LINE_BYTES} bytes`);
      }
    }
    if (carryLen) emit(Buffer.concat(carry));
  } finally {
    closeSync(fd);
  }
}

/** The first non-blank byte of a file (to tell a JSON array from JSON Lines), without reading the rest. */
export function firstByte(file: string): number | undefined {
  const { fd } = openRegular(file);
  try {
    const b = Buffer.alloc(4096);
    const n = readSync(fd, b, 0, b.length, 0);
    let i = n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
    while (i < n && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
    return i < n ? b[i] : undefined;
  } finally {
    closeSync(fd);
  }
}
