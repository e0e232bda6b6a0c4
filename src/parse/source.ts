/** Decoding and line indexing of source files. Never loses a byte: the original buffer is kept. */

export interface SourceText {
  /** Decoded text (UTF-8, BOM stripped). */
  text: string;
  /** True when the file started with a UTF-8 BOM. */
  bom: boolean;
}

export class DecodeError extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decodes a Python source file. UTF-8 (with or without BOM) is the default; a PEP 263 coding
 * cookie on line 1 or 2 selects another encoding that Node's TextDecoder knows.
 */
export function decodeSource(bytes: Uint8Array): SourceText {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const cookie = codingCookie(bytes);
  if (cookie && !/^utf[-_]?8(?:[-_]sig)?$/i.test(cookie)) {
    let dec: TextDecoder;
    try {
      dec = new TextDecoder(whatwgLabel(cookie), { fatal: true });
    } catch {
      throw new DecodeError(`unknown encoding '${cookie}' in coding cookie`);
    }
    try {
      return { text: dec.decode(bytes), bom: false };
    } catch {
      throw new DecodeError(`not valid ${cookie}`);
    }
  }
  try {
    return { text: utf8.decode(bytes), bom };
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw new DecodeError(`not valid UTF-8 (line ${at.line}, byte ${at.column})`);
  }
}

/** Python codec names that WHATWG labels spell differently. */
const PY_CODECS: Record<string, string> = {
  'latin-1': 'latin1',
  'iso-latin-1': 'latin1',
  l1: 'latin1',
  'iso8859-1': 'latin1',
  '8859': 'latin1',
  cp819: 'latin1',
  'euc-jp': 'euc-jp',
  'shift-jis': 'shift_jis',
  sjis: 'shift_jis',
  cp932: 'shift_jis',
  ascii: 'windows-1252',
  'us-ascii': 'windows-1252',
};

function whatwgLabel(cookie: string): string {
  const norm = cookie.toLowerCase().replace(/_/g, '-');
  if (PY_CODECS[norm]) return PY_CODECS[norm]!;
  const m = /^(?:iso-?8859-?)(\d+)$/.exec(norm);
  if (m) return `iso-8859-${m[1]}`;
  const cp = /^cp-?(\d+)$/.exec(norm);
  if (cp) return cp[1]!.length === 4 ? `windows-${cp[1]}` : `ibm${cp[1]}`;
  return norm;
}

/** The PEP 263 coding cookie of the first two lines, if any. */
export function codingCookie(bytes: Uint8Array): string | undefined {
  // Only the first two lines may carry a cookie; they are ASCII by definition.
  let end = 0;
  let lines = 0;
  while (end < bytes.length && end < 400) {
    if (bytes[end] === 0x0a && ++lines === 2) break;
    end++;
  }
  if (!hasCoding(bytes, end)) return undefined;
  const head = Buffer.from(bytes.subarray(0, end)).toString('latin1');
  for (const line of head.split('\n')) {
    const m = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/.exec(line);
    if (m) return m[1];
    if (!/^[ \t\f]*(#.*)?\r?$/.test(line)) break;
  }
  return undefined;
}

const CODING = [0x63, 0x6f, 0x64, 0x69, 0x6e, 0x67]; // `coding`

/** Whether bytes[0, end) contain `coding` (a cookie needs it): most files' first lines do not. */
function hasCoding(bytes: Uint8Array, end: number): boolean {
  next: for (let i = 0; i + 6 <= end; i++) {
    for (let k = 0; k < 6; k++) if (bytes[i + k] !== CODING[k]) continue next;
    return true;
  }
  return false;
}

function firstInvalidUtf8(bytes: Uint8Array): { line: number; column: number } {
  let line = 1;
  let col = 1;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const len = b < 0x80 ? 1 : b >> 5 === 6 ? 2 : b >> 4 === 14 ? 3 : b >> 3 === 30 ? 4 : 0;
    if (len === 0) return { line, column: col };
    for (let k = 1; k < len; k++) if (i + k >= bytes.length || (bytes[i + k]! & 0xc0) !== 0x80) return { line, column: col };
    if (b === 0x0a) {
      line++;
      col = 1;
    } else col += len;
    i += len;
  }
  return { line, column: col };
}

/** Maps 0-based rows to line text, for reporters. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * Lone CR (`\r` not followed by `\n`) is a line break for CPython (old Mac files, a stray `\r`),
 * but not for tree-sitter. The checker reads the text with each lone CR as `\n`: one character
 * for one, so offsets and the UTF-8 byte length are unchanged, and rows are CPython's lines.
 * Writers copy the original bytes outside their edits (fix/apply.ts applyBytes): no CR is lost.
 */
export function normalizeLoneCR(text: string): string {
  const i = text.indexOf('\r');
  if (i < 0) return text;
  return text.replace(/\r(?!\n)/g, '\n');
}

/** The line ending new lines should use in a file: `\r` when its first line break is a lone CR, else undefined (keep `\n`/`\r\n`). */
export function loneCrEol(text: string): '\r' | undefined {
  const m = /\r\n|\r|\n/.exec(text);
  return m?.[0] === '\r' ? '\r' : undefined;
}

/** Inserted text for a file whose line ending is lone CR: each `\n` (not of `\r\n`) becomes `\r`. */
export function withEol(inserted: string, eol: '\r' | undefined): string {
  return eol ? inserted.replace(/\r?\n/g, '\r') : inserted;
}
