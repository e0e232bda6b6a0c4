/** Temporary Python projects and CLI runs for end-to-end tests. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'raiselint.js');

/** Writes `files` (relative path → text) under a new temporary folder and returns it. */
const made: string[] = [];
// Registered when a test file imports this module: removes that file's projects when it ends.
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function makeProject(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'raiselint-proj-'));
  made.push(root);
  writeFiles(root, files);
  return root;
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
}

export function read(root: string, rel: string): string {
  return readFileSync(join(root, rel), 'utf8');
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function raiselint(cwd: string, args: string[]): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export interface JsonFinding {
  ruleId: string;
  file: string;
  line: number;
  column: number;
  severity: string;
  confidence: string;
  message: string;
  fingerprint: string | null;
}

/** `raiselint check --format json` → findings as `file:line rule` strings (and the raw run). */
export function checkJson(cwd: string, args: string[] = []): { run: Run; findings: JsonFinding[]; keys: string[] } {
  const run = raiselint(cwd, ['check', '--format', 'json', ...args]);
  let findings: JsonFinding[] = [];
  try {
    findings = JSON.parse(run.stdout).diagnostics;
  } catch {
    throw new Error(`not JSON (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  }
  return { run, findings, keys: findings.map((f) => `${f.file}:${f.line} ${f.ruleId}`) };
}

/** Python that triggers each bundled rule once, certainly (lines 6-10). */
export const ALL_FIVE = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime


async def main(agent_id) -> None:
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    await runtime.agent_save_state(agent_id)
    await runtime.agent_load_state(agent_id, {})
    await runtime.agent_metadata(agent_id)
    await runtime.save_state()
    await runtime.load_state({})
`;

export const R = {
  save: 'autogen/saving-state-is-not-yet-implemented',
  load: 'autogen/loading-state-is-not-yet-implemented',
  agentSave: 'autogen/agent-save-state-is-not-yet-implemented',
  agentLoad: 'autogen/agent-load-state-is-not-yet-implemented',
  metadata: 'autogen/agent-metadata-is-not-yet-implemented',
};

/** A file with one certain `save_state` finding at line 6. */
export const ONE = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime


async def main() -> None:
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    await runtime.save_state()
`;
