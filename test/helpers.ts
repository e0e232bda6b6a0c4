/** Test helpers: run the built CLI (`npm test` builds dist/ first) in a temp folder. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');
export const BIN = join(ROOT, 'bin', 'raiselint.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], cwd = ROOT, input?: string): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    input,
    maxBuffer: 256 << 20,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A temp folder with the given files (path → text or bytes). */
export function tempTree(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'raiselint-'));
  for (const [p, content] of Object.entries(files)) {
    const full = join(dir, p);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return dir;
}

export const GRPC_BAD = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime


async def main(agent_id):
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    state = await runtime.agent_save_state(agent_id)
    return state
`;

/** GRPC_BAD with what the record's alternative uses imported (on a blank line: the lines stay where they were), so its fix applies with --unsafe-fixes. */
export const GRPC_FIXABLE = GRPC_BAD.replace('\n\n\nasync def', '\nfrom .messages import SaveStateRequest\n\nasync def');

export const CLEAN = `from autogen_core import SingleThreadedAgentRuntime


async def main(agent_id):
    runtime = SingleThreadedAgentRuntime()
    return await runtime.agent_save_state(agent_id)
`;
