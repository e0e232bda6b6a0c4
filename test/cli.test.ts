/** End-to-end: spawn the CLI, check text, JSON and exit codes, and every kind of bad input. */
import { chmodSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLEAN, GRPC_BAD, ROOT, cli, tempTree } from './helpers.js';

const RULE = 'autogen/agent-save-state-is-not-yet-implemented';

describe('raiselint check: output and exit codes', () => {
  it('reports a certain finding in Ruff-like text with code frame, tips and source link; exit 1', () => {
    const dir = tempTree({ 'app/main.py': GRPC_BAD });
    const r = cli(['check', 'app'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`app/main.py:6:19: ${RULE} runtime.agent_save_state() raises NotImplementedError`);
    expect(r.stdout).toContain('6 |     state = await runtime.agent_save_state(agent_id)');
    expect(r.stdout).toMatch(/\|\s+\^{34}/);
    expect(r.stdout).toContain('= help: Implement a SaveState message handler in stateful agents');
    expect(r.stdout).toContain('_worker_runtime.py#L502');
    expect(r.stdout).toContain('Found 1 finding (1 certain, 0 possible).');
  });

  it('exits 0 and says so on clean code', () => {
    const dir = tempTree({ 'ok.py': CLEAN });
    const r = cli(['check', '.'], dir);
    expect(r.stdout).toContain('All checks passed!');
    expect(r.code).toBe(0);
  });

  it('--format json is the documented, stable document', () => {
    // Syntax errors are reported for the files raiselint parses: those that can match (the prefilter).
    const dir = tempTree({
      'main.py': GRPC_BAD,
      'broken.py': 'from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\n\ndef f(:\n    return GrpcWorkerAgentRuntime.agent_save_state\n',
    });
    const r = cli(['check', '.', '--format', 'json'], dir);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.version).toBe(1);
    expect(doc.diagnostics).toHaveLength(1);
    expect(doc.diagnostics[0]).toEqual({
      ruleId: RULE,
      recordId: '16fc4bb4b7873c4d',
      file: 'main.py',
      line: 6,
      column: 19,
      endLine: 6,
      endColumn: 53,
      severity: 'error',
      confidence: 'certain',
      errorClass: 'NotImplementedError',
      message: expect.stringContaining('Agent save_state is not yet implemented.'),
      tips: expect.arrayContaining(['Implement a SaveState message handler in stateful agents']),
      docsUrl: expect.stringContaining('github.com/microsoft/autogen'),
      sourceUrl: expect.stringContaining('#L502'),
      via: [],
      condition: 'always raises',
      fingerprint: expect.stringMatching(/^[0-9a-f]{20}$/),
      fix: {
        applicability: 'display-only',
        strategy: 'replace',
        reason: expect.stringContaining('the alternative uses `SaveStateRequest`, which this file does not define or import: define it to apply the fix'),
        edits: [
          { line: 6, column: 5, endLine: 6, endColumn: 53, text: 'state = await runtime.send_message(SaveStateRequest(), agent_id)  # agent handles it' },
        ],
      },
    });
    expect(doc.errors).toEqual([{ file: 'broken.py', line: 3, column: expect.any(Number), kind: 'syntax', message: expect.stringContaining('syntax error') }]);
  });

  it('indirect findings carry the path in `via` and the message', () => {
    const dir = tempTree({
      'team.py': `from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime


async def run(agents):
    team = RoundRobinGroupChat(agents, runtime=GrpcWorkerAgentRuntime(host_address="h:1"))
    return await team.save_state()
`,
    });
    const doc = JSON.parse(cli(['check', '.', '--format', 'json'], dir).stdout);
    expect(doc.diagnostics.map((d: { via: string[] }) => d.via)).toEqual([['team.save_state()', 'runtime.agent_save_state()']]);
    expect(doc.diagnostics[0].message).toContain('team.save_state() -> runtime.agent_save_state()');
  });

  it('possible findings are warnings (exit 0) and --min-confidence certain hides them', () => {
    const dir = tempTree({
      'agent.py': `from autogen_core import AgentRuntime


async def snapshot(runtime: AgentRuntime, agent_id):
    return await runtime.agent_save_state(agent_id)
`,
    });
    const r = cli(['check', '.', '--format', 'json'], dir);
    const doc = JSON.parse(r.stdout);
    expect(doc.diagnostics.map((d: { severity: string; confidence: string }) => [d.severity, d.confidence])).toEqual([['warning', 'possible']]);
    expect(r.code).toBe(0);
    const certain = JSON.parse(cli(['check', '.', '--format', 'json', '--min-confidence', 'certain'], dir).stdout);
    expect(certain.diagnostics).toEqual([]);
  });

  it('recurses into .py/.pyi, honours .gitignore and skips virtualenvs, node_modules, __pycache__', () => {
    const dir = tempTree({
      '.gitignore': 'generated/\n',
      'pkg/a.py': GRPC_BAD,
      'pkg/b.pyi': GRPC_BAD,
      'pkg/notes.txt': GRPC_BAD,
      'generated/c.py': GRPC_BAD,
      '.venv/pyvenv.cfg': '',
      '.venv/lib/d.py': GRPC_BAD,
      'env2/pyvenv.cfg': '',
      'env2/e.py': GRPC_BAD,
      'node_modules/x/f.py': GRPC_BAD,
      '__pycache__/g.py': GRPC_BAD,
    });
    const doc = JSON.parse(cli(['check', '.', '--format', 'json'], dir).stdout);
    expect(doc.diagnostics.map((d: { file: string }) => d.file)).toEqual(['pkg/a.py', 'pkg/b.pyi']);
  });

  it('a file named explicitly is checked even if ignored by directory rules', () => {
    const dir = tempTree({ '.gitignore': 'x.py\n', 'x.py': GRPC_BAD });
    const doc = JSON.parse(cli(['check', 'x.py', '--format', 'json'], dir).stdout);
    expect(doc.diagnostics).toHaveLength(1);
  });

  it('--records adds a dataset; --no-bundled drops the bundled one', () => {
    const dir = tempTree({ 'main.py': GRPC_BAD });
    const dataset = join(ROOT, 'rules', 'records', 'autogen-grpc-runtime.jsonl');
    const none = cli(['check', '.', '--no-bundled', '--records', dataset, '--format', 'json'], dir);
    expect(JSON.parse(none.stdout).diagnostics).toHaveLength(1);
  });
});

describe('raiselint check: bad input', () => {
  it('missing path: one line, exit 2', () => {
    const r = cli(['check', 'does/not/exist.py']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('raiselint: error: does/not/exist.py: no such file or directory\n');
  });

  it('bad option and bad option value: one line, exit 2', () => {
    const a = cli(['check', '--bogus']);
    expect(a.code).toBe(2);
    expect(a.stderr.trim().split('\n')).toHaveLength(1);
    expect(a.stderr).toContain("unknown option '--bogus'");
    const b = cli(['check', '--format', 'xml']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain("argument 'xml' is invalid");
  });

  it("non-UTF-8 file: a raiselint/io-error finding naming the file and line, no crash, exit 1 (as Ruff's E902), other files still checked", () => {
    const dir = tempTree({ 'bad.py': Buffer.from([0x78, 0x20, 0x3d, 0x20, 0x27, 0xff, 0xfe, 0x27, 0x0a]), 'main.py': GRPC_BAD });
    const r = cli(['check', '.', '--format', 'json'], dir);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.diagnostics.map((d: { file: string; ruleId: string }) => `${d.file} ${d.ruleId}`)).toEqual(['bad.py raiselint/io-error', `main.py ${RULE}`]);
    expect(doc.diagnostics[0]).toMatchObject({ line: 1, severity: 'error', message: 'cannot decode file: not valid UTF-8 (line 1, byte 6)' });
    expect(doc.errors).toEqual([]);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('a PEP 263 coding cookie is honoured', () => {
    const latin1 = Buffer.concat([Buffer.from('# -*- coding: latin-1 -*-\n# caf\xe9\n', 'latin1'), Buffer.from(GRPC_BAD)]);
    const dir = tempTree({ 'l1.py': latin1 });
    const doc = JSON.parse(cli(['check', '.', '--format', 'json'], dir).stdout);
    expect(doc.errors).toEqual([]);
    expect(doc.diagnostics[0].line).toBe(8);
  });

  it('unreadable file: a raiselint/io-error finding, exit 1', () => {
    if (process.getuid?.() === 0) {
      // root reads any file: a self-referencing symbolic link cannot be read by anyone (ELOOP).
      const dir = tempTree({ 'main.py': GRPC_BAD });
      symlinkSync('loop.py', join(dir, 'loop.py'));
      const r = cli(['check', '.', '--format', 'json'], dir);
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout);
      expect(doc.errors).toEqual([]);
      expect(doc.diagnostics.map((d: { file: string; ruleId: string; message: string }) => `${d.file} ${d.ruleId} ${d.message}`)).toEqual([
        'loop.py raiselint/io-error cannot read file: too many levels of symbolic links',
        `main.py ${RULE} ${doc.diagnostics[1].message}`,
      ]);
      return;
    }
    const dir = tempTree({ 'x.py': GRPC_BAD });
    chmodSync(join(dir, 'x.py'), 0o000);
    const r = cli(['check', '.', '--format', 'json'], dir);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).diagnostics[0]).toMatchObject({ file: 'x.py', ruleId: 'raiselint/io-error' });
  });

  it('a Python syntax error: still checked, named in errors, exit from findings', () => {
    const dir = tempTree({ 'main.py': GRPC_BAD + '\ndef broken(:\n    pass\n' });
    const r = cli(['check', '.'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(RULE);
    expect(r.stdout).toMatch(/main\.py:9:\d+: warning: syntax error/);
  });

  it('malformed dataset line: file, line and reason, exit 2', () => {
    const dir = tempTree({ 'main.py': GRPC_BAD, 'bad.jsonl': '{"record": {"id": "x"}}\n{not json\n' });
    const r = cli(['check', 'main.py', '--records', 'bad.jsonl'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^raiselint: error: bad\.jsonl:2: invalid JSON/m);
    expect(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => l.includes('error:')),
    ).toHaveLength(1);
  });

  it('a record missing a field is skipped with a warning naming file, line and field', () => {
    const dir = tempTree({ 'main.py': GRPC_BAD, 'partial.jsonl': '{"record": {"id": "x", "repo": "a/b"}}\n' });
    const r = cli(['check', 'main.py', '--records', 'partial.jsonl'], dir);
    expect(r.stderr).toContain("raiselint: warning: partial.jsonl:1: field 'slug': missing required field");
    expect(r.code).toBe(1); // the bundled rules still run
  });

  it('missing --records path: exit 2', () => {
    const r = cli(['check', '.', '--records', 'nope.jsonl']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('raiselint: error: nope.jsonl: records path not found\n');
  });

  it('never changes the checked files', () => {
    const dir = tempTree({ 'main.py': GRPC_BAD });
    cli(['check', '.'], dir);
    expect(readFileSync(join(dir, 'main.py'), 'utf8')).toBe(GRPC_BAD);
  });

  it('--version and --help exit 0', () => {
    expect(cli(['--version']).code).toBe(0);
    const h = cli(['check', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('--min-confidence');
  });
});
