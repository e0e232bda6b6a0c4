/**
 * Reading user files safely (sources, datasets, baselines, configs): only regular files, opened
 * without blocking (a FIFO never hangs the run), with a size limit (a device never reads forever),
 * and every failure said in words, never a raw errno. Light: no parser.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

/** The default limit for a source file (`--max-file-size`): Ruff has none; 10 MiB of Python is generated data, not code. */
export const DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024;

export class FileReadError extends Error {
  constructor(
    readonly path: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

const ERRNO_WORDS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a path component is not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  EIO: 'input/output error',
  ENXIO: 'no such device',
  ENODEV: 'no such device',
  EAGAIN: 'resource temporarily unavailable',
  EBUSY: 'device or resource busy',
};

/** An fs error in words (`permission denied`), the code only when it has none. */
export function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code && ERRNO_WORDS[code]) return ERRNO_WORDS[code]!;
  if (code) return `cannot read (${code})`;
  return e instanceof Error ? e.message : 'cannot read';
}

/** What a non-regular file is, in words (`a FIFO`), or undefined for a regular file. */
export function specialKind(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

/** Human size: `10 MiB`, `1536 bytes`. */
export function formatSize(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  if (n >= 1024 * 1024) return mib(n);
  return `${n} bytes`;
}

export interface ReadLimits {
  /** Larger files are not read (FileReadError, code 'TOO_LARGE'). */
  maxBytes: number;
  /** Names the limit in the message (`--max-file-size`). */
  limitName?: string;
  /** How the limit was reached, for the message. */
  detail?: string;
}

/**
 * Peak heap per byte of Python source while one file is parsed and analysed. Measured on
 * stdlib-like code with the stdlib records: an 8 MiB file fails with a 256 MiB heap and passes with
 * 320 MiB, a 2 MiB one passes with 96 MiB; 40 bytes per byte covers them.
 */
export const HEAP_PER_SOURCE_BYTE = 40;

/**
 * The limits of one source file: `--max-file-size`, and the memory bound per file (what this
 * thread's heap has left, over HEAP_PER_SOURCE_BYTE), whichever is lower. A file over either is
 * `raiselint/too-large`, never an out-of-memory crash. With Node's default heap the bound is far
 * above the default 10 MiB limit; it matters under `--max-old-space-size` or with the limit raised.
 */
export function sourceLimits(maxFileSize = DEFAULT_MAX_FILE_SIZE): ReadLimits {
  const { heap_size_limit: limit, used_heap_size: used } = getHeapStatistics();
  const memory = Math.max(0, Math.floor((limit - used) / HEAP_PER_SOURCE_BYTE));
  if (memory >= maxFileSize) return { maxBytes: maxFileSize, limitName: '--max-file-size' };
  return {
    maxBytes: memory,
    limitName: 'the memory bound per file',
    detail: `${mib(limit - used)} of heap left / ${HEAP_PER_SOURCE_BYTE} bytes per source byte; NODE_OPTIONS=--max-old-space-size raises it`,
  };
}

function mib(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Opens a regular file for reading without blocking; throws FileReadError otherwise. Returns the fd and its stat. */
export function openRegular(path: string): { fd: number; st: Stats } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new FileReadError(path, describeFsError(e), (e as NodeJS.ErrnoException).code);
  }
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch (e) {
    closeSync(fd);
    throw new FileReadError(path, describeFsError(e), (e as NodeJS.ErrnoException).code);
  }
  const kind = specialKind(st);
  if (kind) {
    closeSync(fd);
    throw new FileReadError(path, `not a regular file (${kind})`, 'SPECIAL');
  }
  return { fd, st };
}

export function tooLarge(path: string, size: number, limits: ReadLimits): FileReadError {
  const what = size > limits.maxBytes ? `${size} bytes (${mib(size)})` : 'it grew while read';
  const limit = `${formatSize(limits.maxBytes)}${limits.detail ? `: ${limits.detail}` : ''}`;
  return new FileReadError(path, `file is too large to check: ${what}, over ${limits.limitName ? `${limits.limitName} (${limit})` : limit}`, 'TOO_LARGE');
}

/**
 * Reads a whole regular file into `into` (grown as needed) or a new buffer, never more than
 * `maxBytes` (a file that grows while read, or that says size 0, is still bounded).
 */
export function readRegular(path: string, limits: ReadLimits, into?: { buf: Buffer }): { bytes: Buffer; st: Stats } {
  const { fd, st } = openRegular(path);
  try {
    if (st.size > limits.maxBytes) throw tooLarge(path, st.size, limits);
    const holder = into ?? { buf: Buffer.allocUnsafe(Math.min(limits.maxBytes, st.size) + 1) };
    if (holder.buf.length < st.size + 1) holder.buf = Buffer.allocUnsafe(Math.max(st.size + 1, Math.min(holder.buf.length * 2, limits.maxBytes + 1)));
    let n = 0;
    for (;;) {
      if (n === holder.buf.length) {
        if (n > limits.maxBytes) throw tooLarge(path, n, limits);
        const bigger = Buffer.allocUnsafe(Math.min(holder.buf.length * 2, limits.maxBytes + 1));
        holder.buf.copy(bigger, 0, 0, n);
        holder.buf = bigger;
      }
      let r: number;
      try {
        r = readSync(fd, holder.buf, n, holder.buf.length - n, null);
      } catch (e) {
        throw new FileReadError(path, describeFsError(e), (e as NodeJS.ErrnoException).code);
      }
      if (r === 0) break;
      n += r;
      if (n > limits.maxBytes) throw tooLarge(path, n, limits);
    }
    return { bytes: holder.buf.subarray(0, n), st };
  } finally {
    closeSync(fd);
  }
}

/**
 * Why a text is not JSON, in words that quote none of it (V8's messages quote the text: a
 * `--records` or `--baseline` path may name any file, a key or a password). `what` names what the
 * file should have been ("JSON Lines").
 */
export function jsonErrorWords(e: unknown, what = 'JSON'): string {
  const m = e instanceof Error ? e.message : '';
  if (/Unexpected end of JSON input/.test(m)) return `invalid JSON: it ends before the value does (not ${what}, or cut short)`;
  const pos = /at position (\d+)/.exec(m);
  return `invalid JSON${pos ? ` at column ${Number(pos[1]) + 1}` : ''} (not ${what}, or damaged)`;
}

/** A regular file's text (UTF-8), read with a limit. */
export function readRegularText(path: string, maxBytes: number): string {
  return readRegular(path, { maxBytes }).bytes.toString('utf8');
}

/** The characters oneLine escapes (lone or paired surrogates included, so the rest are one code unit each). */
const NEEDS_ESCAPE = /[\x00-\x1f\x7f-\x9f\ufffd\ud800-\udfff\u2028\u2029]/;
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;

/**
 * A message safe for one terminal line: control characters, lone surrogates and U+FFFD escaped
 * (`\n`, `\x07`, `\ufffd`), cut to `max` characters. For messages that quote user input (a JSON
 * parser quoting a binary file, a file name with a newline).
 */
export function oneLine(s: string, max = 160, ascii = false): string {
  // Nothing to escape (most messages): every character is one code unit, so the cut is a slice.
  if (!(ascii ? NOT_PRINTABLE_ASCII : NEEDS_ESCAPE).test(s)) return s.length <= max ? s : `${s.slice(0, max)}...`;
  let out = '';
  for (const ch of s) {
    if (out.length >= max) return `${out}...`;
    const c = ch.codePointAt(0)!;
    if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c === 0xfffd || (c >= 0xd800 && c <= 0xdfff) || c === 0x2028 || c === 0x2029 || (ascii && c > 0x7e))
      out += c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}
