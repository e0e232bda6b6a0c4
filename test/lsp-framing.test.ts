/**
 * Issue 15, case 8: the language server's framing, over the real stdio of `bin/raiselint.js lsp`.
 * Each malformed header or body is dropped (and said in a window/logMessage), and the server
 * goes on: a normal request after it is answered, and `exit` ends the process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const BIN = join(ROOT, 'bin', 'raiselint.js');

function frame(msg: object): Buffer {
  const body = Buffer.from(JSON.stringify(msg), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
}

/** A raw stdio peer: writes bytes, parses well-formed frames from the server's stdout. */
class RawPeer {
  readonly child: ChildProcess;
  readonly messages: { id?: number; method?: string; result?: unknown; params?: { message?: string } }[] = [];
  private out = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  readonly exited: Promise<number | null>;

  constructor() {
    this.child = spawn(process.execPath, [BIN, 'lsp', '--no-watch'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((res) => this.child.on('exit', (c) => res(c)));
    this.child.stdout!.on('data', (b: Buffer) => {
      this.out = Buffer.concat([this.out, b]);
      for (;;) {
        const h = this.out.indexOf('\r\n\r\n');
        if (h < 0) break;
        const n = Number(/Content-Length: (\d+)/i.exec(this.out.subarray(0, h).toString())![1]);
        if (this.out.length < h + 4 + n) break;
        this.messages.push(JSON.parse(this.out.subarray(h + 4, h + 4 + n).toString('utf8')));
        this.out = this.out.subarray(h + 4 + n);
      }
      for (const w of this.waiters.splice(0)) w();
    });
  }

  write(b: Buffer | string): void {
    this.child.stdin!.write(b);
  }

  async response(id: number, timeoutMs = 30_000): Promise<unknown> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const m = this.messages.find((x) => x.id === id && !x.method);
      if (m) return m;
      if (Date.now() > end) throw new Error(`no response to request ${id}; got ${JSON.stringify(this.messages.map((x) => x.method ?? x.id))}`);
      await new Promise<void>((res) => {
        this.waiters.push(res);
        setTimeout(res, 200);
      });
    }
  }

  logs(): string[] {
    return this.messages.filter((m) => m.method === 'window/logMessage').map((m) => m.params!.message!);
  }
}

const peers: RawPeer[] = [];
afterEach(() => {
  for (const p of peers.splice(0)) if (p.child.exitCode === null) p.child.kill();
});

async function started(): Promise<RawPeer> {
  const p = new RawPeer();
  peers.push(p);
  p.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
  await p.response(1);
  p.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
  return p;
}

const HOVER = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'textDocument/hover',
  params: { textDocument: { uri: 'file:///nowhere/x.py' }, position: { line: 0, character: 0 } },
});
const body = (msg: object) => JSON.stringify(msg);

const CASES: [string, Buffer | string, RegExp | undefined][] = [
  ['Content-Length: abc', `Content-Length: abc\r\n\r\n${body(HOVER(50))}`, /not a whole number/],
  ['Content-Length: -5', `Content-Length: -5\r\n\r\n${body(HOVER(50))}`, /not a whole number/],
  ['an empty header block', `\r\n\r\n${body(HOVER(50))}`, /not a message/],
  ['two different Content-Length lines', `Content-Length: 3\r\nContent-Length: 9000\r\n\r\n${body(HOVER(50))}`, /twice/],
  ['a body that is not JSON', `Content-Length: 9\r\n\r\n{"id": 5,`, /not JSON/],
  ['a JSON array body (a batch)', `Content-Length: 2\r\n\r\n[]`, /not a JSON-RPC message object/],
];

describe('language server framing (real stdio)', () => {
  for (const [name, bytes, said] of CASES) {
    it(`${name}: dropped and said; the next request is answered; exit ends the process`, async () => {
      const p = await started();
      p.write(bytes);
      p.write(frame(HOVER(2)));
      expect(await p.response(2)).toMatchObject({ id: 2, result: null });
      expect(p.logs().join('\n')).toMatch(said!);
      p.write(frame({ jsonrpc: '2.0', id: 3, method: 'shutdown' }));
      await p.response(3);
      p.write(frame({ jsonrpc: '2.0', method: 'exit' }));
      expect(await p.exited).toBe(0);
    }, 60_000);
  }

  it('LF-only header lines and a repeated, agreeing Content-Length are accepted', async () => {
    const p = await started();
    const b = body(HOVER(7));
    p.write(`Content-Length: ${Buffer.byteLength(b)}\n\n${b}`);
    expect(await p.response(7)).toMatchObject({ id: 7, result: null });
    p.write(
      `Content-Length: ${Buffer.byteLength(body(HOVER(8)))}\r\nContent-Length: ${Buffer.byteLength(body(HOVER(8)))}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n${body(HOVER(8))}`,
    );
    expect(await p.response(8)).toMatchObject({ id: 8, result: null });
  }, 60_000);

  it('a request after shutdown is refused with InvalidRequest; a notification is dropped; exit still ends it', async () => {
    const p = await started();
    p.write(frame({ jsonrpc: '2.0', id: 20, method: 'shutdown' }));
    expect(await p.response(20)).toMatchObject({ id: 20, result: null });
    p.write(frame(HOVER(21)));
    expect(await p.response(21)).toMatchObject({ id: 21, error: { code: -32600, message: expect.stringContaining('shut down') } });
    p.write(frame({ jsonrpc: '2.0', method: 'exit' }));
    expect(await p.exited).toBe(0);
  }, 60_000);

  it('a message split byte by byte is still read', async () => {
    const p = await started();
    for (const byte of frame(HOVER(9))) p.write(Buffer.from([byte]));
    expect(await p.response(9)).toMatchObject({ id: 9, result: null });
  }, 60_000);
});
