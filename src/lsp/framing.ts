/**
 * The language server's input framing, made robust. vscode-jsonrpc's reader wedges for good on a
 * malformed header (`Content-Length: abc`, `-5`, an empty header block, LF-only line ends, two
 * Content-Length lines): the process lives but never answers again. This transform sits between
 * stdin and the connection and passes on only well-formed frames (`Content-Length: N\r\n\r\n`
 * and a JSON object body). What it cannot frame it drops, says why (one line, through `report`),
 * and resynchronises on the next `Content-Length:` header; the server goes on.
 *
 *  - LF-only header line ends are accepted (as many clients write them), and so are repeated
 *    Content-Length lines that agree; other header fields (Content-Type) are not passed on.
 *  - A Content-Length that is not a whole number, is negative or over MAX_MESSAGE_BYTES, or that
 *    disagrees with another one, drops the header block.
 *  - An empty header block is skipped.
 *  - A body that is not a JSON object (invalid JSON, a batch array) is dropped.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Larger messages are refused: 256 MiB is far above any document an editor sends. */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
/** A header block longer than this is garbage. */
const MAX_HEADER_BYTES = 8 * 1024;
const MARKER = Buffer.from('content-length:', 'latin1');

export type FramingReport = (problem: string) => void;

/** Index of `content-length:` (any case) in `buf` from `from`, or -1. */
function findMarker(buf: Buffer, from: number): number {
  for (let i = buf.indexOf(0x3a, from + MARKER.length - 1); i >= 0; i = buf.indexOf(0x3a, i + 1)) {
    const start = i - MARKER.length + 1;
    if (
      start >= from &&
      buf
        .subarray(start, i + 1)
        .toString('latin1')
        .toLowerCase() === 'content-length:'
    )
      return start;
  }
  return -1;
}

/** End of the header block (index after its blank line) and the block's text, or undefined when incomplete. */
function headerEnd(buf: Buffer): { end: number; text: string } | undefined {
  const limit = Math.min(buf.length, MAX_HEADER_BYTES + 4);
  for (let i = 0; i < limit; i++) {
    if (buf[i] !== 0x0a) continue;
    // A line end followed by an empty line (\n\n, \n\r\n) closes the block.
    if (buf[i + 1] === 0x0a) return { end: i + 2, text: buf.subarray(0, i).toString('latin1') };
    if (buf[i + 1] === 0x0d && buf[i + 2] === 0x0a) return { end: i + 3, text: buf.subarray(0, i).toString('latin1') };
  }
  return undefined;
}

/** The body length a header block declares, or why it is unusable. */
export function contentLength(header: string): number | string {
  const values = new Set<string>();
  for (const raw of header.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return `header line without a field name: ${JSON.stringify(line.slice(0, 60))}`;
    if (line.slice(0, colon).trim().toLowerCase() === 'content-length') values.add(line.slice(colon + 1).trim());
  }
  if (!values.size) return 'header block without Content-Length';
  if (values.size > 1) return `Content-Length given twice with different values (${[...values].map((v) => JSON.stringify(v.slice(0, 20))).join(', ')})`;
  const v = [...values][0]!;
  if (!/^\d+$/.test(v)) return `Content-Length is not a whole number: ${JSON.stringify(v.slice(0, 40))}`;
  const n = Number(v);
  if (n > MAX_MESSAGE_BYTES) return `Content-Length ${v} is over the ${MAX_MESSAGE_BYTES}-byte limit`;
  return n;
}

export class LspFraming extends Transform {
  private buf: Buffer = Buffer.alloc(0);
  /** Bytes of the current message's body still expected (-1: reading a header). */
  private need = -1;
  /** Input skipped right after a dropped header is that message's body: not reported again. */
  private quiet = false;

  /**
   * `gate`: asked of each well-formed message before it goes on; false drops it (the server
   * answers a request after `shutdown` itself: server.ts).
   */
  constructor(
    private readonly report: FramingReport = () => {},
    private readonly gate: (msg: Record<string, unknown>) => boolean = () => true,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    try {
      this.drain();
    } catch (e) {
      this.report(`dropped input: ${(e as Error).message}`);
      this.buf = Buffer.alloc(0);
      this.need = -1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.buf.toString('latin1').trim() && !this.quiet) this.report(`dropped ${this.buf.length} bytes of an incomplete message at the end of the input`);
    done();
  }

  private drain(): void {
    for (;;) {
      if (this.need < 0 && !this.readHeader()) return;
      if (this.need < 0) continue;
      if (this.buf.length < this.need) return;
      const body = this.buf.subarray(0, this.need);
      this.buf = this.buf.subarray(this.need);
      this.need = -1;
      this.emitBody(body);
    }
  }

  /** Skips input before the next Content-Length header (saying so, unless it is a dropped message's body or a Content-Type line). */
  private skipTo(at: number): void {
    const skipped = this.buf.subarray(0, at).toString('latin1');
    if (!this.quiet && skipped.trim() && !/^(?:\s*content-type:[^\n]*\n)+\s*$/i.test(skipped)) {
      this.report(`dropped input that is not a message (no Content-Length header): ${JSON.stringify(skipped.slice(0, 40))}`);
      this.quiet = true;
    }
    this.buf = this.buf.subarray(at);
  }

  /** Reads a header block; false when more input is needed. */
  private readHeader(): boolean {
    const at = findMarker(this.buf, 0);
    if (at < 0) {
      // Keep a tail that may be the start of a header split across chunks.
      const keep = Math.max(0, this.buf.length - MARKER.length);
      if (keep) this.skipTo(keep);
      return false;
    }
    if (at > 0) this.skipTo(at);
    const h = headerEnd(this.buf);
    if (!h) {
      if (this.buf.length <= MAX_HEADER_BYTES) return false;
      this.report(`dropped a malformed message: a header block longer than ${MAX_HEADER_BYTES} bytes`);
      this.buf = this.buf.subarray(MARKER.length);
      this.quiet = true;
      return true;
    }
    const n = contentLength(h.text);
    this.buf = this.buf.subarray(h.end);
    if (typeof n === 'string') {
      this.report(`dropped a malformed message: ${n}`);
      this.quiet = true;
      return true;
    }
    this.quiet = false;
    this.need = n;
    return true;
  }

  private emitBody(body: Buffer): void {
    let msg: unknown;
    try {
      msg = JSON.parse(body.toString('utf8'));
    } catch (e) {
      this.report(`dropped a malformed message: the body is not JSON (${(e as Error).message.slice(0, 80)})`);
      return;
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      this.report('dropped a malformed message: the body is not a JSON-RPC message object');
      return;
    }
    if (!this.gate(msg as Record<string, unknown>)) return;
    this.push(Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'latin1'));
    this.push(body);
  }
}
