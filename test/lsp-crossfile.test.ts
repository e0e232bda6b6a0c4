/**
 * `raiselint lsp` across files (semantic/crossfile.ts): a finding in one open module depends on
 * another module's text, and an edit there (not yet saved) updates it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from './lsp-client.js';

const SAVING = 'autogen/saving-state-is-not-yet-implemented';
const LOCAL = `from autogen_core import SingleThreadedAgentRuntime


def make():
    return SingleThreadedAgentRuntime()
`;
const GRPC = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime


def make():
    return GrpcWorkerAgentRuntime(host_address="h")
`;
const SERVICE = `from app.runtime import make


async def run() -> None:
    await make().save_state()
`;

const clients: Client[] = [];
const temps: string[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.kill();
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(runtime: string): { dir: string; runtime: string; service: string } {
  const dir = mkdtempSync(join(tmpdir(), 'raiselint-lsp-xf-'));
  temps.push(dir);
  mkdirSync(join(dir, 'app'));
  writeFileSync(join(dir, 'pyproject.toml'), '');
  writeFileSync(join(dir, 'app', '__init__.py'), '');
  writeFileSync(join(dir, 'app', 'runtime.py'), runtime);
  writeFileSync(join(dir, 'app', 'service.py'), SERVICE);
  return { dir, runtime: pathToFileURL(join(dir, 'app', 'runtime.py')).href, service: pathToFileURL(join(dir, 'app', 'service.py')).href };
}

describe('raiselint lsp across modules', () => {
  it('an unsaved edit of app/runtime.py updates the diagnostics of an open app/service.py, and back', async () => {
    const p = project(LOCAL);
    const c = new Client(['--debounce', '50'], p.dir);
    clients.push(c);
    await c.initialize(p.dir);
    await c.open(p.runtime, LOCAL);
    await c.open(p.service, SERVICE);
    expect((await c.diagnosticsAt(p.service, 1)).diagnostics).toEqual([]);
    const count = () => c.published.filter((x) => x.uri === p.service).length;

    // The factory now makes the gRPC runtime: service.py (not edited) gets the finding on its call.
    const before = count();
    await c.replace(p.runtime, GRPC);
    const after = await c.until(() => count() > before && c.published.filter((x) => x.uri === p.service).at(-1));
    expect(after.diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([[SAVING, 4]]);

    // And back: the finding goes.
    const again = count();
    await c.replace(p.runtime, LOCAL);
    const last = await c.until(() => count() > again && c.published.filter((x) => x.uri === p.service).at(-1));
    expect(last.diagnostics).toEqual([]);
  });

  it('a module on disk is read when it is not open; closing an edited buffer goes back to the disk', async () => {
    const p = project(GRPC);
    const c = new Client(['--debounce', '50'], p.dir);
    clients.push(c);
    await c.initialize(p.dir);
    await c.open(p.service, SERVICE);
    expect((await c.diagnosticsAt(p.service, 1)).diagnostics.map((d) => d.code)).toEqual([SAVING]);
    await c.open(p.runtime, GRPC);
    const count = () => c.published.filter((x) => x.uri === p.service).length;
    let before = count();
    await c.replace(p.runtime, LOCAL);
    expect((await c.until(() => count() > before && c.published.filter((x) => x.uri === p.service).at(-1))).diagnostics).toEqual([]);
    before = count();
    await c.close(p.runtime);
    const back = await c.until(() => count() > before && c.published.filter((x) => x.uri === p.service).at(-1));
    expect(back.diagnostics.map((d) => d.code)).toEqual([SAVING]);
  });
});
