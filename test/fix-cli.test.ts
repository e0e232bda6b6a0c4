/** End-to-end: `raiselint check --fix / --unsafe-fixes / --diff / --fix-strategy / --exit-non-zero-on-fix` on real files. */
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempTree } from './helpers.js';

// A certain finding whose fix applies with --unsafe-fixes (the file defines what the record's alternative needs) ...
const SAFE = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime

from .messages import AGENT_METADATA


async def main(agent):
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    metadata = await runtime.agent_metadata(agent)
    return metadata
`;
const SAFE_FIXED = SAFE.replace('metadata = await runtime.agent_metadata(agent)', 'metadata = AGENT_METADATA[agent.type]  # kept by the application');

// ... a possible one whose fix applies with --unsafe-fixes too ...
const UNSAFE = `from autogen_core import AgentRuntime
from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime

from .messages import SaveStateRequest


async def save(runtime: AgentRuntime, agent):
    state = await runtime.agent_save_state(agent)
    return state
`;
const UNSAFE_FIXED = UNSAFE.replace(
  '    state = await runtime.agent_save_state(agent)\n',
  '    if isinstance(runtime, GrpcWorkerAgentRuntime):\n        state = await runtime.send_message(SaveStateRequest(), agent)  # agent handles it\n    else:\n        state = await runtime.agent_save_state(agent)\n',
);

// ... and one whose fix is shown only: SaveStateRequest is not defined here.
const MISSING = UNSAFE.replace('\nfrom .messages import SaveStateRequest\n', '');

describe('raiselint check --fix', () => {
  it('reports fixable findings with [*] and a summary, and changes nothing without --fix', () => {
    const dir = tempTree({ 'safe.py': SAFE, 'unsafe.py': UNSAFE, 'missing.py': MISSING });
    const r = cli(['check', '.'], dir);
    expect(r.code).toBe(1);
    // Record code is third-party data: no fix built from it is safe.
    expect(r.stdout).toContain('safe.py:8:22: autogen/agent-metadata-is-not-yet-implemented runtime.agent_metadata() raises NotImplementedError');
    expect(r.stdout).toContain(
      "= fix (unsafe): `runtime.agent_metadata(agent)` always raises NotImplementedError: replaced by the record's fix; unsafe: the alternative is the record's code (third-party data)",
    );
    expect(r.stdout).toContain('= fix (unsafe): guards the statement with isinstance(runtime, GrpcWorkerAgentRuntime)');
    expect(r.stdout).toContain(
      "the finding is only possible: the fix also changes what runs when the call would have worked; the alternative is the record's code (third-party data)",
    );
    expect(r.stdout).toContain(
      "= fix (display-only): guards the statement with isinstance(runtime, GrpcWorkerAgentRuntime) and runs the record's alternative for GrpcWorkerAgentRuntime; shown only: the alternative uses `SaveStateRequest`, which this file does not define or import: define it to apply the fix",
    );
    expect(r.stdout).toContain('No fixes available (2 hidden fixes can be enabled with the `--unsafe-fixes` option).');
    const u = cli(['check', '.', '--unsafe-fixes'], dir);
    expect(u.stdout).toContain('safe.py:8:22: autogen/agent-metadata-is-not-yet-implemented [*] runtime.agent_metadata() raises NotImplementedError');
    expect(u.stdout).toContain('[*] 2 fixable with the `--fix` option.');
    expect(readFileSync(join(dir, 'safe.py'), 'utf8')).toBe(SAFE);
  });

  it('--fix applies safe fixes only; --unsafe-fixes applies the rest; exit codes follow Ruff', () => {
    const dir = tempTree({ 'safe.py': SAFE, 'unsafe.py': UNSAFE });
    chmodSync(join(dir, 'safe.py'), 0o640);
    const ino = statSync(join(dir, 'safe.py')).ino;
    const plain = cli(['check', '.', '--fix'], dir);
    // No safe fix: nothing written, the certain finding left.
    expect(readFileSync(join(dir, 'safe.py'), 'utf8')).toBe(SAFE);
    expect(readFileSync(join(dir, 'unsafe.py'), 'utf8')).toBe(UNSAFE);
    expect(plain.stdout).toContain('Found 2 findings (1 certain, 1 possible).');
    expect(plain.code).toBe(1);

    const r = cli(['check', '.', '--fix', '--unsafe-fixes'], dir);
    expect(readFileSync(join(dir, 'safe.py'), 'utf8')).toBe(SAFE_FIXED);
    expect(readFileSync(join(dir, 'unsafe.py'), 'utf8')).toBe(UNSAFE_FIXED);
    expect(r.stdout).toContain('Found 2 findings (2 fixed, 0 remaining).');
    expect(r.code).toBe(0);
    // Atomic: a new file (rename) with the old mode, and no temporary file left.
    expect(statSync(join(dir, 'safe.py')).ino).not.toBe(ino);
    expect(statSync(join(dir, 'safe.py')).mode & 0o777).toBe(0o640);
    expect(
      readdirSync(dir)
        .filter((n) => n !== '.raiselint_cache')
        .sort(),
    ).toEqual(['safe.py', 'unsafe.py']); // no temporary file left (the cache directory is raiselint's)

    const again = cli(['check', '.', '--fix', '--unsafe-fixes'], dir);
    expect(readFileSync(join(dir, 'safe.py'), 'utf8')).toBe(SAFE_FIXED);
    expect(again.stdout).toContain('All checks passed!');

    const fresh = tempTree({ 'unsafe.py': UNSAFE });
    const u = cli(['check', '.', '--fix', '--unsafe-fixes', '--exit-non-zero-on-fix'], fresh);
    expect(readFileSync(join(fresh, 'unsafe.py'), 'utf8')).toBe(UNSAFE_FIXED);
    expect(u.stdout).toContain('Found 1 finding (1 fixed, 0 remaining).');
    expect(u.code).toBe(1); // --exit-non-zero-on-fix
    const clean = cli(['check', '.', '--fix', '--unsafe-fixes', '--exit-non-zero-on-fix'], fresh);
    expect(clean.stdout).toContain('All checks passed!');
    expect(clean.code).toBe(0);
  });

  it('exits 1 when a certain finding remains after --fix', () => {
    const dir = tempTree({ 'a.py': SAFE.replace('from .messages import AGENT_METADATA\n', '') });
    const r = cli(['check', 'a.py', '--fix', '--unsafe-fixes'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Found 1 finding (1 certain, 0 possible).');
    // The alternative needs AGENT_METADATA: the fix is shown only, the finding remains.
    expect(r.stdout).toContain('= fix (display-only):');
    expect(readFileSync(join(dir, 'a.py'), 'utf8')).toBe(SAFE.replace('from .messages import AGENT_METADATA\n', ''));
  });

  it('--diff prints a unified diff, writes nothing and exits 1; 0 when there is nothing to fix', () => {
    const dir = tempTree({ 'safe.py': SAFE });
    const r = cli(['check', 'safe.py', '--diff', '--unsafe-fixes'], dir);
    expect(r.stdout).toBe(
      [
        '--- safe.py',
        '+++ safe.py',
        '@@ -5,5 +5,5 @@',
        ' ',
        ' async def main(agent):',
        '     runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")',
        '-    metadata = await runtime.agent_metadata(agent)',
        '+    metadata = AGENT_METADATA[agent.type]  # kept by the application',
        '     return metadata',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe('Would fix 1 finding.\n');
    expect(r.code).toBe(1);
    expect(readFileSync(join(dir, 'safe.py'), 'utf8')).toBe(SAFE);
    expect(cli(['check', 'safe.py', '--diff'], dir).stdout).toBe('');
    const none = cli(['check', 'safe.py', '--diff', '--unsafe-fixes', '--min-confidence', 'certain'], tempTree({ 'safe.py': UNSAFE }));
    expect(none.stdout).toBe('');
    expect(none.code).toBe(0);
  });

  it('--fix-strategy picks try/except or the type guard; JSON output carries the fix', () => {
    const dir = tempTree({ 'u.py': UNSAFE, 'm.py': MISSING });
    const t = cli(['check', 'u.py', '--diff', '--unsafe-fixes', '--fix-strategy', 'try-except'], dir);
    expect(t.stdout).toContain(
      '+    try:\n+        state = await runtime.agent_save_state(agent)\n+    except NotImplementedError:\n+        state = await runtime.send_message(SaveStateRequest(), agent)\n',
    );
    const j = cli(['check', 'm.py', '--format', 'json', '--fix-strategy', 'type-guard'], dir);
    const fix = JSON.parse(j.stdout).diagnostics[0].fix;
    expect(fix).toEqual({
      applicability: 'display-only',
      strategy: 'type-guard',
      reason: expect.stringContaining('the alternative uses `SaveStateRequest`, which this file does not define or import'),
      edits: [{ line: 6, column: 5, endLine: 6, endColumn: 50, text: expect.stringMatching(/^if isinstance\(runtime, GrpcWorkerAgentRuntime\):\n/) }],
    });
    const bad = cli(['check', 'u.py', '--fix-strategy', 'retry'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("argument 'retry' is invalid");
  });

  it('never fixes a suppressed finding, nor one a config turns off', () => {
    const ignored = SAFE.replace(
      'metadata = await runtime.agent_metadata(agent)',
      'metadata = await runtime.agent_metadata(agent)  # raiselint: ignore[autogen/agent-metadata-is-not-yet-implemented]',
    );
    const dir = tempTree({
      'a.py': ignored,
      'b.py': SAFE,
      'raiselint.toml': '[per-file-ignores]\n"b.py" = ["autogen/agent-metadata-is-not-yet-implemented"]\n',
    });
    const r = cli(['check', '.', '--fix', '--unsafe-fixes'], dir);
    expect(readFileSync(join(dir, 'a.py'), 'utf8')).toBe(ignored);
    expect(readFileSync(join(dir, 'b.py'), 'utf8')).toBe(SAFE);
    expect(r.code).toBe(0);
  });

  it('removes unused suppressions (ids, directives, lines) and keeps used ones; not when the rule is off', () => {
    const META = 'autogen/agent-metadata-is-not-yet-implemented';
    const LOAD = 'autogen/agent-load-state-is-not-yet-implemented';
    const src = SAFE.replace('from .messages import AGENT_METADATA\n', `from .messages import AGENT_METADATA  # raiselint: ignore[${LOAD}] -- stale\n`)
      .replace('async def main(agent):\n', `async def main(agent):\n    # raiselint: ignore[${LOAD}]\n`)
      .replace(
        'metadata = await runtime.agent_metadata(agent)',
        `metadata = await runtime.agent_metadata(agent)  # note  # raiselint: ignore[${LOAD}, ${META}] -- kept`,
      );
    const want = SAFE.replace(
      'metadata = await runtime.agent_metadata(agent)',
      `metadata = await runtime.agent_metadata(agent)  # note  # raiselint: ignore[${META}] -- kept`,
    );
    const dir = tempTree({ 'a.py': src, 'off/a.py': src, 'off/raiselint.toml': 'ignore = ["raiselint/unused-ignore"]\n' });
    const shown = cli(['check', 'a.py', '--no-cache'], dir);
    expect(shown.stdout).toContain('= fix (safe): remove the unused suppression');
    expect(shown.stdout).toContain(`= fix (safe): remove the unused rule id ${LOAD} from the suppression`);
    const diff = cli(['check', 'a.py', '--diff'], dir);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain(`-    # raiselint: ignore[${LOAD}]\n`);
    expect(readFileSync(join(dir, 'a.py'), 'utf8')).toBe(src);
    const r = cli(['check', '.', '--fix'], dir);
    expect(r.stdout).toContain('Found 3 findings (3 fixed, 0 remaining).');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'a.py'), 'utf8')).toBe(want);
    expect(readFileSync(join(dir, 'off', 'a.py'), 'utf8')).toBe(src);
    const again = cli(['check', '.', '--fix'], dir);
    expect(again.stdout).toContain('All checks passed!');
    expect(readFileSync(join(dir, 'a.py'), 'utf8')).toBe(want);
  });

  it('a config `fix-strategy` applies where --fix-strategy is not given', () => {
    const dir = tempTree({ 'u.py': UNSAFE, 'raiselint.toml': 'fix-strategy = "try-except"\n' });
    expect(cli(['check', 'u.py', '--diff', '--unsafe-fixes'], dir).stdout).toContain('+    except NotImplementedError:\n');
    expect(cli(['check', 'u.py', '--diff', '--unsafe-fixes', '--fix-strategy', 'type-guard'], dir).stdout).toContain(
      '+    if isinstance(runtime, GrpcWorkerAgentRuntime):\n',
    );
  });

  it('keeps a BOM, CRLF line endings and tabs byte for byte', () => {
    const src = '\ufeff' + SAFE.replace(/    /g, '\t').replace(/\n/g, '\r\n');
    const dir = tempTree({ 'w.py': Buffer.from(src, 'utf8') });
    const r = cli(['check', 'w.py', '--fix', '--unsafe-fixes'], dir);
    expect(r.code).toBe(0);
    const want = '\ufeff' + SAFE_FIXED.replace(/    /g, '\t').replace(/\n/g, '\r\n');
    expect(readFileSync(join(dir, 'w.py')).equals(Buffer.from(want, 'utf8'))).toBe(true);
  });

  it('refuses to write a file that changed on disk since it was read (two paths, one file)', () => {
    const dir = tempTree({ 'a.py': SAFE });
    symlinkSync(join(dir, 'a.py'), join(dir, 'b.py'));
    // Both paths are read before fixing; fixing a.py changes the file that b.py names.
    const r = cli(['check', 'a.py', 'b.py', '--fix', '--unsafe-fixes'], dir);
    expect(readFileSync(join(dir, 'a.py'), 'utf8')).toBe(SAFE_FIXED);
    expect(r.stdout).toContain('b.py: error: not fixed: the file changed on disk since it was read: not written');
    expect(r.code).toBe(2);
    expect(statSync(join(dir, 'b.py')).isFile()).toBe(true);
  });
});

describe('raiselint check - (standard input)', () => {
  const run = (args: string[], cwd: string, input: string | Buffer) => {
    const r = spawnSync(process.execPath, [join(import.meta.dirname, '..', 'bin', 'raiselint.js'), 'check', ...args], {
      cwd,
      input,
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
  };

  it('checks the source as the file --stdin-filename names: its name in reports, its config', () => {
    const dir = tempTree({ 'raiselint.toml': '[per-file-ignores]\n"tests/**" = ["autogen"]\n' });
    const r = run(['-', '--stdin-filename', 'pkg/safe.py', '--format', 'concise'], dir, SAFE);
    expect(r.code).toBe(1);
    expect(r.stdout.toString()).toContain('pkg/safe.py:8:22: autogen/agent-metadata-is-not-yet-implemented');
    expect(run(['-', '--stdin-filename', 'tests/test_safe.py'], dir, SAFE).stdout.toString()).toBe('All checks passed!\n');
    expect(run(['-', '--format', 'json'], dir, SAFE).stdout.toString()).toContain('"file": "-"');
    expect(readdirSync(dir).sort()).toEqual(['.raiselint_cache', 'raiselint.toml']); // no file written (the compiled rules are cached, as in every run)
  });

  it('--fix prints the fixed source on stdout and the findings left on stderr; unchanged input comes back byte for byte', () => {
    const dir = tempTree({});
    const r = run(['-', '--stdin-filename', 'safe.py', '--fix', '--unsafe-fixes'], dir, MISSING + SAFE.replace(/^from .*\n/, ''));
    expect(r.stdout.toString()).toBe(MISSING + SAFE_FIXED.replace(/^from .*\n/, ''));
    expect(r.stderr).toContain('Found 2 findings (1 fixed, 1 remaining).');
    expect(r.stderr).toContain('safe.py:6:19:');
    const raw = Buffer.from('\ufeff' + UNSAFE.replace(/\n/g, '\r\n'), 'utf8');
    const same = run(['-', '--fix'], dir, raw);
    expect(Buffer.compare(same.stdout, raw)).toBe(0);
    expect(same.code).toBe(0);
    const diff = run(['-', '--stdin-filename', 'safe.py', '--diff', '--unsafe-fixes'], dir, SAFE);
    expect(diff.stdout.toString()).toContain('+    metadata = AGENT_METADATA[agent.type]  # kept by the application\n');
    expect(diff.code).toBe(1);
  });

  it('bad input and misuse: one line, exit 2; undecodable input is a raiselint/io-error finding (exit 1)', () => {
    const dir = tempTree({ 'a.py': SAFE });
    const bad = run(['-', '--stdin-filename', 'x.py'], dir, Buffer.from([0xff, 0xfe, 0x41]));
    expect(bad.code).toBe(1);
    expect(bad.stdout.toString()).toContain('x.py:1:1: raiselint/io-error cannot decode file: not valid UTF-8');
    for (const [args, msg] of [
      [['-', 'a.py'], '`-` (standard input) cannot be combined with other paths'],
      [['-', '--add-ignore'], '--add-ignore cannot be used with `-` (standard input): it writes files'],
      [['-', '--update-baseline'], '--update-baseline cannot be used with `-` (standard input): it writes files'],
      [['a.py', '--stdin-filename', 'b.py'], '--stdin-filename needs the path `-` (the source on standard input)'],
    ] as const) {
      const r = run([...args], dir, SAFE);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(`raiselint: error: ${msg}\n`);
    }
  });
});
