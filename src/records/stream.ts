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
export function forEachLine(file: string, onLine: (text: string, line: number) => void): void {
  const { fd } = openRegular(file);
  try {
    let carry: Buffer[] = [];
    let carryLen = 0;
    let line = 0;
    const buf = Buffer.allocUnsafe(CHUNK);
    const emit = (b: Buffer) => {
      line++;
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
