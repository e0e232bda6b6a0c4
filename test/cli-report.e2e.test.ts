/**
 * End to end: `node bin/raiselint.js` (the built CLI) with each output format, `--output-file`,
 * `--statistics`, and the `rules` and `explain` commands. Run `npm test` (it builds dist/ first).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'raiselint.js');
const EACH = 'fixtures/autogen/each_rule.py';
const SAVE = 'autogen/agent-save-state-is-not-yet-implemented';

/** Parsed output, read loosely. */
type J = any;

function run(args: string[], opts: { input?: string; env?: Record<string, string>; cwd?: string } = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    encoding: 'utf8',
    input: opts.input,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const validateSarif = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'test', 'schemas', 'sarif-2.1.0.json'), 'utf8')));

let tmp: string;
beforeAll(() => {
  expect(existsSync(join(ROOT, 'dist', 'cli', 'main.js')), 'build first: npm test runs tsc').toBe(true);
  tmp = mkdtempSync(join(tmpdir(), 'raiselint-e2e-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('check --format', () => {
  it('sarif: a valid SARIF 2.1.0 log on stdout, exit 1 for error findings', () => {
    const r = run(['check', EACH, '--format', 'sarif']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const doc: J = JSON.parse(r.stdout);
    expect(validateSarif(doc), JSON.stringify(validateSarif.errors?.slice(0, 3))).toBe(true);
    expect(doc.runs[0].results.map((x: J) => `${x.ruleId}@${x.locations[0].physicalLocation.region.startLine}`)).toEqual([
      `${SAVE}@14`,
      'autogen/agent-load-state-is-not-yet-implemented@15',
      'autogen/agent-metadata-is-not-yet-implemented@16',
      'autogen/saving-state-is-not-yet-implemented@17',
      'autogen/loading-state-is-not-yet-implemented@18',
    ]);
    expect(doc.runs[0].tool.driver.rules).toHaveLength(5);
    expect(doc.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(EACH);
  });

  it('sarif: a file with a syntax error is a notification and a stderr warning', () => {
    const r = run(['check', 'fixtures/autogen/syntax_error.py', '--format', 'sarif']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'raiselint: warning: fixtures/autogen/syntax_error.py:16: syntax error: invalid syntax (checked anyway; findings near it may be missed)\n',
    );
    const doc: J = JSON.parse(r.stdout);
    expect(validateSarif(doc)).toBe(true);
    expect(doc.runs[0].invocations[0].toolExecutionNotifications[0].locations[0].physicalLocation.region.startLine).toBe(16);
  });

  it('sarif: a clean file gives a valid log with no results, exit 0', () => {
    const r = run(['check', 'fixtures/autogen/never_reported.py', '--format', 'sarif']);
    expect(r.code).toBe(0);
    const doc: J = JSON.parse(r.stdout);
    expect(validateSarif(doc)).toBe(true);
    expect(doc.runs[0].results).toEqual([]);
  });

  it('github: workflow commands, file errors as annotations (not stderr)', () => {
    const r = run(['check', EACH, 'fixtures/autogen/syntax_error.py', '--format', 'github']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^::error file=fixtures\/autogen\/each_rule\.py,line=14,col=25,endLine=14,endColumn=59,title=raiselint \(autogen\/agent-save-state-is-not-yet-implemented\)::fixtures\/autogen\/each_rule\.py:14:25: /,
    );
    expect(lines.at(-1)).toBe(
      '::warning file=fixtures/autogen/syntax_error.py,line=16,col=29,title=raiselint (syntax error)::fixtures/autogen/syntax_error.py:16: syntax error: invalid syntax (checked anyway; findings near it may be missed)',
    );
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(7);
  });

  it('junit: XML with one failure per finding', () => {
    const r = run(['check', EACH, '--format', 'junit']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="raiselint" tests="5" failures="5" errors="0">\n {2}<testsuite name="fixtures\/autogen\/each_rule.py" tests="5" failures="5" errors="0">/,
    );
    expect(r.stdout.match(/<failure /g)).toHaveLength(5);
    execFileSync('python3', ['-c', 'import sys, xml.etree.ElementTree as ET; ET.fromstring(sys.stdin.buffer.read())'], { input: r.stdout });
  });

  it('gitlab: code quality JSON, paths relative to CI_PROJECT_DIR', () => {
    const r = run(['check', 'each_rule.py', '--format', 'gitlab'], { cwd: join(ROOT, 'fixtures', 'autogen'), env: { CI_PROJECT_DIR: ROOT } });
    expect(r.code).toBe(1);
    const issues: J[] = JSON.parse(r.stdout);
    expect(issues).toHaveLength(5);
    expect(issues[0].location).toEqual({ path: EACH, positions: { begin: { line: 14, column: 25 }, end: { line: 14, column: 59 } } });
    expect(issues[0].check_name).toBe(SAVE);
    expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(5);
  });

  it('json-lines: one JSON object per finding', () => {
    const r = run(['check', EACH, '--format', 'json-lines']);
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.line)).toEqual([14, 15, 16, 17, 18]);
    expect(lines[0]).toMatchObject({ ruleId: SAVE, file: EACH, column: 25, confidence: 'certain' });
  });

  it('concise: one line per finding and a summary', () => {
    const r = run(['check', EACH, '--format', 'concise']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(
      `${EACH}:14:25: ${SAVE} runtime.agent_save_state() raises NotImplementedError (GrpcWorkerAgentRuntime.agent_save_state()): Agent save_state is not yet implemented.`,
    );
    expect(lines[5]).toBe('Found 5 findings (5 certain, 0 possible).');
    // Each finding carries the record's fix, shown only here (the alternatives need names the file lacks): nothing to enable.
    expect(r.stdout).not.toContain('hidden fix');
    expect(run(['check', EACH, '--format', 'json']).stdout).toContain('"applicability": "display-only"');
  });

  it('an unknown format is a one-line usage error, exit 2', () => {
    const r = run(['check', EACH, '--format', 'xml']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain("'xml' is invalid");
    expect(r.stderr).toContain('sarif');
  });
});

describe('check --output-file', () => {
  it('writes the report to the file (no colours), nothing to stdout; same exit code', () => {
    for (const [format, file] of [
      ['sarif', 'out.sarif'],
      ['text', 'out.txt'],
      ['junit', 'out.xml'],
    ] as const) {
      const out = join(tmp, file);
      const r = run(['check', EACH, '--format', format, '--output-file', out, '--color']);
      expect(r.code, format).toBe(1);
      expect(r.stdout, format).toBe('');
      const text = readFileSync(out, 'utf8');
      expect(text, format).toBe(run(['check', EACH, '--format', format, '--color']).stdout);
      if (format === 'sarif') expect(validateSarif(JSON.parse(text))).toBe(true);
    }
    const plain = join(tmp, 'plain.txt');
    run(['check', EACH, '-o', plain]);
    expect(readFileSync(plain, 'utf8')).not.toMatch(/\u001b\[/);
    expect(readFileSync(plain, 'utf8')).toContain('Found 5 findings');
  });

  it('an unwritable output file is a one-line error, exit 2', () => {
    const r = run(['check', EACH, '--format', 'sarif', '--output-file', join(tmp, 'no', 'such', 'dir', 'x.sarif')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^raiselint: error: .*x\.sarif.*ENOENT/);
  });
});

describe('check --statistics', () => {
  it('counts per rule instead of findings', () => {
    const r = run(['check', 'fixtures/autogen/each_rule.py', 'fixtures/autogen/indirect_teams.py', '--statistics']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    // The findings' fixes are shown only here (their alternatives need names the files lack): no `[-]` or `[*]` mark.
    expect(r.stdout).not.toMatch(/\[-\]|\[\*\]/);
    expect(lines.at(-1)).toMatch(/^Found \d+ findings \(\d+ certain, \d+ possible\) from 5 rules\.$/);
    const rows = lines.slice(0, -1).map((l) => l.split('\t'));
    expect(rows).toHaveLength(5);
    const counts = rows.map((r) => Number(r[0]!.trim()));
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    const json: J[] = JSON.parse(
      run(['check', 'fixtures/autogen/each_rule.py', 'fixtures/autogen/indirect_teams.py', '--statistics', '--format', 'json']).stdout,
    );
    expect(json.map((s) => s.count)).toEqual(counts);
    expect(json.reduce((n, s) => n + s.count, 0)).toBe(
      JSON.parse(run(['check', 'fixtures/autogen/each_rule.py', 'fixtures/autogen/indirect_teams.py', '--format', 'json']).stdout).diagnostics.length,
    );
    expect(json[0]).toHaveProperty('errorClass', 'NotImplementedError');
  });

  it('file errors go to stderr with --statistics', () => {
    const r = run(['check', 'fixtures/autogen/syntax_error.py', '--statistics']);
    expect(r.stderr).toContain('raiselint: warning: fixtures/autogen/syntax_error.py:16: syntax error');
    expect(r.stdout).not.toContain('syntax error');
  });
});

describe('raiselint rules', () => {
  it('lists every rule with error class, raiser and confidence', () => {
    const r = run(['rules']);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
      '5 rules from 1 dataset, and 6 built-in rules (suppression comments, unreadable or too large files, code too deep to analyse).',
    );
    const unused = r.stdout.split('\n\n').find((b) => b.startsWith('raiselint/unused-ignore  (built in)\n'))!;
    expect(unused).toContain('  severity  warning');
    expect(unused).toContain('  fix       Safe: `--fix` removes the unused rule ids');
    for (const id of ['raiselint/blanket-ignore', 'raiselint/invalid-ignore']) expect(r.stdout).toContain(`\n${id}  (built in)\n`);
    const block = r.stdout.split('\n\n').find((b) => b.startsWith(`${SAVE}\n`))!;
    expect(block).toContain('  raises    NotImplementedError: Agent save_state is not yet implemented.');
    expect(block).toContain('  raiser    autogen_ext.runtimes.grpc._worker_runtime.GrpcWorkerAgentRuntime.agent_save_state (line 502)');
    expect(block).toContain('  certain   agent_save_state() on a GrpcWorkerAgentRuntime');
    expect(block).toContain('  possible  agent_save_state() on a receiver typed AgentRuntime');
    expect(block).toContain('  indirect  AgentProxy.save_state() -> runtime.agent_save_state()');
  });

  it('--format json, and a filter', () => {
    const all: J[] = JSON.parse(run(['rules', '--format', 'json']).stdout);
    expect(all.map((x) => x.id)).toEqual([...all.map((x) => x.id)].sort());
    expect(all).toHaveLength(11);
    expect(all.filter((x) => x.builtin).map((x) => x.id)).toEqual([
      'raiselint/blanket-ignore',
      'raiselint/invalid-ignore',
      'raiselint/io-error',
      'raiselint/too-deep',
      'raiselint/too-large',
      'raiselint/unused-ignore',
    ]);
    expect(all.find((x) => x.id === 'raiselint/unused-ignore')).toMatchObject({ severity: 'warning', fix: expect.stringContaining('--fix') });
    const save = all.find((x) => x.id === SAVE);
    expect(save).toMatchObject({
      errorClass: 'NotImplementedError',
      severity: 'error',
      raiser: { qualname: 'GrpcWorkerAgentRuntime.agent_save_state', line: 502 },
      messagePattern: 'Agent save_state is not yet implemented\\.',
    });
    expect(save.confidence.indirect).toContain('BaseGroupChat.save_state() -> runtime.agent_save_state()');
    const some: J[] = JSON.parse(run(['rules', 'load_state', '--format', 'json']).stdout);
    expect(some.map((x) => x.id)).toEqual(['autogen/agent-load-state-is-not-yet-implemented', 'autogen/loading-state-is-not-yet-implemented']);
    expect(JSON.parse(run(['rules', 'unused', '--format', 'json']).stdout).map((x: J) => x.id)).toEqual(['raiselint/unused-ignore']);
    const none = run(['rules', 'no-such-thing']);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('0 rules from 0 datasets.\n');
  });

  it('reads extra datasets; a bad one is a one-line error', () => {
    const r = run(['rules', '--no-bundled', '--records', 'rules/records/autogen-grpc-runtime.jsonl', '--format', 'json']);
    expect(JSON.parse(r.stdout).filter((x: J) => !x.builtin)).toHaveLength(5);
    const bad = join(tmp, 'bad.jsonl');
    writeFileSync(bad, '{"record": {"id": \n');
    const e = run(['rules', '--records', bad]);
    expect(e.code).toBe(2);
    expect(e.stderr.trim().split('\n')).toHaveLength(1);
    expect(e.stderr).toContain(`${bad}:1: invalid JSON`);
  });
});

describe('raiselint explain', () => {
  it('a rule id: documentation, triggers, solutions, tips, example and source link', () => {
    const r = run(['explain', SAVE]);
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out.startsWith(`${SAVE}\n  NotImplementedError: Agent save_state is not yet implemented.\n`)).toBe(true);
    for (const head of ['Documentation:', 'Triggered by:', 'Common situations:', 'Solutions:', 'Prevention tips:', 'Example fix:'])
      expect(out).toContain(`\n${head}\n`);
    expect(out).toContain('  - Implement a SaveState message handler in stateful agents');
    expect(out).toContain('  - Use the local runtime where per-agent state APIs are required');
    expect(out).toContain(
      'Raised at: https://github.com/microsoft/autogen/blob/027ecf0a379bcc1d09956d46d12d44a3ad9cee14/python/packages/autogen-ext/src/autogen_ext/runtimes/grpc/_worker_runtime.py#L502',
    );
  });

  it('an error message, matched by messagePattern', () => {
    const r = run(['explain', 'NotImplementedError: Agent load_state is not yet implemented.']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe("1 record matches 'NotImplementedError: Agent load_state is not yet implemented.'");
    expect(r.stdout).toContain('\nautogen/agent-load-state-is-not-yet-implemented\n');
    expect(r.stdout).toContain('matched: error class NotImplementedError; message matches the pattern /Agent load_state is not yet implemented\\./');
    // Unquoted words are joined into one message.
    const words = run(['explain', 'Saving', 'state', 'is', 'not', 'yet', 'implemented.']);
    expect(words.stdout).toContain('\nautogen/saving-state-is-not-yet-implemented\n');
    const json: J = JSON.parse(run(['explain', '--format', 'json', 'Agent metadata is not yet implemented.']).stdout);
    expect(json.matches.map((m: J) => m.id)).toEqual(['autogen/agent-metadata-is-not-yet-implemented']);
    expect(json.matches[0].preventionTips.length).toBeGreaterThan(0);
    expect(json.matches[0].sourceUrl).toMatch(/#L499$/);
  });

  it('a traceback file from a real Python run, and the same on stdin', () => {
    // A stand-in autogen_ext whose raise sits on the recorded line (502) of the recorded file path.
    const pkg = join(tmp, 'site', 'autogen_ext', 'runtimes', 'grpc');
    mkdirSync(pkg, { recursive: true });
    for (const d of ['autogen_ext', 'autogen_ext/runtimes', 'autogen_ext/runtimes/grpc']) writeFileSync(join(tmp, 'site', d, '__init__.py'), '');
    const lines = ['class GrpcWorkerAgentRuntime:'];
    while (lines.length < 500) lines.push('    # padding');
    lines.push('    async def agent_save_state(self, agent):', '        raise NotImplementedError("Agent save_state is not yet implemented.")', '');
    writeFileSync(join(pkg, '_worker_runtime.py'), lines.join('\n'));
    const app = join(tmp, 'app.py');
    writeFileSync(
      app,
      'import asyncio\nfrom autogen_ext.runtimes.grpc._worker_runtime import GrpcWorkerAgentRuntime\n\nasyncio.run(GrpcWorkerAgentRuntime().agent_save_state("a"))\n',
    );
    const py = spawnSync('python3', [app], { env: { ...process.env, PYTHONPATH: join(tmp, 'site') }, encoding: 'utf8' });
    expect(py.status).toBe(1);
    expect(py.stderr).toContain('_worker_runtime.py", line 502, in agent_save_state');
    const tb = join(tmp, 'traceback.txt');
    writeFileSync(tb, `INFO starting\n${py.stderr}`);
    const r = run(['explain', tb]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe("1 record matches 'NotImplementedError: Agent save_state is not yet implemented.'");
    expect(r.stdout).toContain(`\n${SAVE}\n`);
    expect(r.stdout).toMatch(/traceback frame .*_worker_runtime\.py:502 is the recorded raise/);
    const stdin = run(['explain', '-'], { input: py.stderr });
    expect(stdin.code).toBe(0);
    expect(stdin.stdout).toBe(r.stdout);
  });

  it('a built-in rule: what it reports, why, an example and the fix; a near miss is suggested', () => {
    const r = run(['explain', 'raiselint/unused-ignore']);
    expect(r.code).toBe(0);
    expect(
      r.stdout.startsWith('raiselint/unused-ignore  (built in, default severity warning)\n  A suppression comment names a rule that reports nothing there\n'),
    ).toBe(true);
    for (const head of ['Why this matters:', 'Example:', 'How to fix it:', 'Fix safety:']) expect(r.stdout).toContain(`\n${head}\n`);
    const j = JSON.parse(run(['explain', 'raiselint/blanket-ignore', '--format', 'json']).stdout);
    expect(j.matches[0]).toMatchObject({ id: 'raiselint/blanket-ignore', builtin: true, fix: null });
    const near = run(['explain', 'raiselint/unused-ignor']);
    expect(near.code).toBe(2);
    expect(near.stderr).toBe("raiselint: error: unknown rule 'raiselint/unused-ignor' (did you mean raiselint/unused-ignore?)\n");
  });

  it('unknown rule id: exit 2 with a suggestion; no match: exit 1; bad traceback file: exit 2', () => {
    const unknown = run(['explain', 'autogen/agent-save-stat']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`raiselint: error: unknown rule 'autogen/agent-save-stat' (did you mean ${SAVE}?)\n`);
    const none = run(['explain', 'ValueError: something else']);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe("raiselint: no record matches 'ValueError: something else'\n");
    const noexc = join(tmp, 'not-a-traceback.txt');
    writeFileSync(noexc, 'just some\nlog lines\n');
    const bad = run(['explain', noexc]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`raiselint: error: ${noexc}: no exception line (\`ErrorClass: message\`) found\n`);
  });
});
