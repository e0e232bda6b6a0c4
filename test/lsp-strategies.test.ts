/** The real server (`raiselint lsp`) offers every fix strategy the CLI can apply as its own quick fix, with its safety in the title. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, ROOT } from './lsp-client.js';

const LOAD = 'autogen/agent-load-state-is-not-yet-implemented';
const POSSIBLE = `from autogen_core import AgentId, AgentRuntime
from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime

from .messages import LoadStateRequest


async def restore(runtime: AgentRuntime, agent: AgentId, state: dict) -> None:
    await runtime.agent_load_state(agent, state)
`;

const clients: Client[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.kill();
});

/** What `raiselint check --diff --unsafe-fixes --fix-strategy <s>` would write, for the same text. */
function cliFixed(text: string, strategy: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'raiselint-strat-'));
  try {
    writeFileSync(join(dir, 'app.py'), text);
    spawnSync(
      process.execPath,
      [
        join(ROOT, 'bin', 'raiselint.js'),
        'check',
        'app.py',
        '--fix',
        '--unsafe-fixes',
        '--fix-strategy',
        strategy,
        '--no-config',
        '--cache-dir',
        join(dir, 'c'),
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    return execFileSync('cat', [join(dir, 'app.py')], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('raiselint lsp: every fix strategy', () => {
  it('a possible finding offers the type guard and try/except, each applying what `check --fix --fix-strategy` writes', async () => {
    const c = new Client([]);
    clients.push(c);
    await c.initialize();
    const uri = pathToFileURL(join(ROOT, 'lsp-test', 'restore.py')).href;
    await c.open(uri, POSSIBLE);
    const [d] = (await c.diagnosticsAt(uri, 1)).diagnostics;
    expect(d!.code).toBe(LOAD);
    const acts = await c.codeActions(uri, d!.range, { diagnostics: [d!] });
    expect(acts.map((a) => a.title)).toEqual([
      `Guard with isinstance(runtime, GrpcWorkerAgentRuntime) (${LOAD}) [unsafe]`,
      `Wrap in try/except NotImplementedError (${LOAD}) [unsafe]`,
      `Ignore ${LOAD} on this line`,
    ]);
    expect(acts.some((a) => a.isPreferred)).toBe(false); // unsafe fixes are never preferred
    const strategies = ['type-guard', 'try-except'];
    for (const [i, strategy] of strategies.entries()) {
      const probe = new Client([]);
      clients.push(probe);
      await probe.initialize();
      await probe.open(uri, POSSIBLE);
      await probe.diagnosticsAt(uri, 1);
      const again = await probe.codeActions(uri, d!.range, { diagnostics: [d!] });
      await probe.apply(again[i]!.edit!);
      expect(probe.text(uri)).toBe(cliFixed(POSSIBLE, strategy));
      expect(probe.text(uri)).not.toBe(POSSIBLE);
    }
  });
});

describe('raiselint lsp: arguments editors pass', () => {
  it('accepts --stdio and --clientProcessId, as vscode-languageclient starts a Node module server', async () => {
    const c = new Client(['--stdio', `--clientProcessId=${process.pid}`]);
    clients.push(c);
    expect((await c.initialize()).serverInfo?.name).toBe('raiselint');
  });
});
