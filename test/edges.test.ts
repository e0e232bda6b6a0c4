/**
 * Clean recovery at the edges: a damaged results cache is a miss, never a wrong report; temporary
 * files that a killed `--fix` left next to the user's files are removed by the next run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, GRPC_BAD, GRPC_FIXABLE, tempTree } from './helpers.js';

/** The pid of a process that has ended (a temporary file named with it is stale). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('the results cache', () => {
  it('a flipped byte in a results bucket is a miss: the report is the real one', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD });
    const first = cli(['check', '.', '--format', 'json'], dir);
    const cache = join(dir, '.raiselint_cache');
    const buckets = readdirSync(cache).filter((n) => n.startsWith('results-'));
    expect(buckets).toHaveLength(1);
    const path = join(cache, buckets[0]!);
    const text = readFileSync(path, 'utf8');
    // Change what a served entry would say: the message of the finding.
    const at = text.indexOf('Agent save_state is not yet implemented');
    expect(at).toBeGreaterThan(0);
    writeFileSync(path, `${text.slice(0, at)}Agent save_state is NOT yet implemented${text.slice(at + 'Agent save_state is not yet implemented'.length)}`);
    const again = cli(['check', '.', '--format', 'json'], dir);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stdout).not.toContain('NOT yet');
  });
});

describe('temporary files of a killed --fix', () => {
  it('a run removes the stale `.<name>.<pid>-<hex>.raiselint.tmp` files of dead processes, and keeps other files', () => {
    const pid = deadPid();
    const stale = `.app.py.${pid}-0badc0de.raiselint.tmp`;
    const live = `.app.py.${process.pid}-0badc0de.raiselint.tmp`;
    const dir = tempTree({ 'app.py': GRPC_BAD, [stale]: 'half', [live]: 'in use', 'sub/.x.py.1-zz.raiselint.tmp': 'not our shape' });
    cli(['check', '.'], dir);
    const names = readdirSync(dir);
    expect(names).not.toContain(stale);
    expect(names).toContain(live);
    expect(readdirSync(join(dir, 'sub'))).toEqual(['.x.py.1-zz.raiselint.tmp']);
  });
});

describe('records input', () => {
  const good = readFileSync(join(import.meta.dirname, '..', 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8');

  it('invalid UTF-8 in a record is an error naming the file, line and byte offset (exit 2), never a silent U+FFFD', () => {
    const dir = tempTree({
      'app.py': GRPC_BAD,
      'r.jsonl': Buffer.concat([Buffer.from(good), Buffer.from('{"record": {"id": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}\n')]),
    });
    const r = cli(['check', 'app.py', '--no-bundled', '--records', 'r.jsonl'], dir);
    expect(r.code).toBe(2);
    const line = good.trimEnd().split('\n').length + 1;
    expect(r.stderr.trim()).toBe(`raiselint: error: r.jsonl:${line}: invalid UTF-8 at byte offset ${Buffer.byteLength(good) + 19} of the file`);
  });

  it('a folder of datasets says each bad file in one line and loads the good ones; exit 2 only when none loads', () => {
    const dir = tempTree({
      'app.py': GRPC_BAD,
      'sets/good.jsonl': good,
      'sets/broken.jsonl': '{"record": \n',
      'sets/binary.jsonl': Buffer.from([0x7b, 0xff, 0x0a]),
    });
    const r = cli(['check', 'app.py', '--no-bundled', '--records', 'sets', '--output-format', 'concise'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('app.py:6:19: autogen/agent-save-state-is-not-yet-implemented');
    const warnings = r.stderr.trim().split('\n');
    expect(warnings).toEqual([
      expect.stringMatching(/^raiselint: warning: sets\/binary\.jsonl:1: not loaded: invalid UTF-8 at byte offset 1 of the file$/),
      expect.stringMatching(/^raiselint: warning: sets\/broken\.jsonl:1: not loaded: invalid JSON/),
    ]);
    // --strict: any file that does not load ends the run, said as errors.
    const strict = cli(['check', 'app.py', '--no-bundled', '--records', 'sets', '--strict'], dir);
    expect(strict.code).toBe(2);
    expect(strict.stdout).toBe('');
    expect(strict.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^raiselint: error: sets\/binary\.jsonl:1: not loaded: invalid UTF-8 at byte offset 1 of the file \(--strict\)$/),
      expect.stringMatching(/^raiselint: error: sets\/broken\.jsonl:1: not loaded: invalid JSON.* \(--strict\)$/),
    ]);
    const none = tempTree({ 'app.py': GRPC_BAD, 'sets/broken.jsonl': '{"record": \n' });
    const n = cli(['check', 'app.py', '--no-bundled', '--records', 'sets'], none);
    expect(n.code).toBe(2);
    expect(n.stderr).toMatch(/^raiselint: error: sets\/broken\.jsonl:1: invalid JSON/m);
  });

  it('duplicate records are summarised in one line; --verbose says each', () => {
    const first = good.split('\n')[0]!;
    const dir = tempTree({ 'app.py': GRPC_BAD, 'r.jsonl': `${good.trimEnd()}\n${Array(10).fill(first).join('\n')}\n` });
    const r = cli(['check', 'app.py', '--no-bundled', '--records', 'r.jsonl'], dir);
    const dups = r.stderr.split('\n').filter((l) => /duplicate record [0-9a-f]/.test(l));
    expect(dups).toHaveLength(3);
    expect(r.stderr).toContain('raiselint: warning: 7 more duplicate records ignored (--verbose lists each)');
    const v = cli(['check', 'app.py', '--no-bundled', '--records', 'r.jsonl', '--verbose', '--no-cache'], dir);
    expect(v.stderr.split('\n').filter((l) => /duplicate record [0-9a-f]/.test(l))).toHaveLength(10);
  });
});

describe('thousands of statements on one line', () => {
  it('5,000 findings on one 250 KB line: every report says each once, with its fix reason clipped (not the whole line per finding)', () => {
    const calls = Array.from({ length: 5000 }, (_, i) => `s${i} = await r.agent_save_state(a)`).join('; ');
    const src = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\nasync def f(a): r = GrpcWorkerAgentRuntime(host_address="x"); ${calls}\n`;
    const dir = tempTree({ 'one.py': src });
    const json = cli(['check', 'one.py', '--format', 'json', '--no-cache', '--fix-strategy', 'try-except'], dir);
    expect(json.stderr).toBe('');
    const ds: { line: number; fix?: { reason: string } }[] = JSON.parse(json.stdout).diagnostics;
    expect(ds).toHaveLength(5000);
    expect(ds.every((d) => d.line === 2)).toBe(true);
    const reasons = ds.map((d) => d.fix?.reason ?? '');
    expect(Math.max(...reasons.map((r) => r.length))).toBeLessThan(400);
    expect(reasons[4999]).toContain('the statement shares its line with `...');
    // The text report (a code frame per finding, clipped around it) ends with the count, no "Invalid string length".
    const text = cli(['check', 'one.py', '--no-cache'], dir);
    expect(text.stderr).toBe('');
    expect(text.stdout.trimEnd().split('\n').at(-1)).toMatch(/^Found 5000 findings/);
  });
});

describe('a records or baseline path that names some other file', () => {
  it('is said to be no JSON Lines (or no baseline) without quoting a byte of it', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD, 'notes.txt': 'secret-token-abcdef\nmore\n', 'raiselint.toml': 'records = ["notes.txt"]\n' });
    const viaConfig = cli(['check', 'app.py'], dir);
    expect(viaConfig.code).toBe(2);
    expect(viaConfig.stderr).toBe(`raiselint: error: ${join(dir, 'notes.txt')}:1: invalid JSON (not JSON Lines, or damaged)\n`);
    const viaFlag = cli(['check', 'app.py', '--no-config', '--records', 'notes.txt'], dir);
    expect(viaFlag.stderr).toBe('raiselint: error: notes.txt:1: invalid JSON (not JSON Lines, or damaged)\n');
    const baseline = cli(['check', 'app.py', '--no-config', '--baseline', 'notes.txt'], dir);
    expect(baseline.code).toBe(2);
    expect(`${viaConfig.stderr}${viaFlag.stderr}${baseline.stderr}`).not.toMatch(/secret|token/);
  });
});

describe('killed --fix runs', () => {
  it('SIGKILL during the writes: each file is whole (before or after its fix), and the next run leaves no temporary file', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++) files[`pkg${i % 5}/m${i}.py`] = GRPC_FIXABLE;
    const fixedOnce = tempTree({ 'm.py': GRPC_FIXABLE });
    cli(['check', 'm.py', '--fix', '--unsafe-fixes', '--no-cache'], fixedOnce);
    const after = readFileSync(join(fixedOnce, 'm.py'), 'utf8');
    expect(after).not.toBe(GRPC_FIXABLE);
    const temps = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.raiselint.tmp'));
    let midway = 0;
    for (const wait of [0, 2, 10, 30]) {
      const dir = tempTree(files);
      const child = spawn(process.execPath, [BIN, 'check', '.', '--fix', '--unsafe-fixes', '--no-cache', '--jobs', '2'], { cwd: dir, stdio: 'ignore' });
      const exited = new Promise((r) => child.on('exit', r));
      let done = false;
      void exited.then(() => (done = true));
      // The writes have begun when the first temporary file appears or the first file changes.
      const begun = () =>
        [0, 1, 2, 3, 4].some((k) => readdirSync(join(dir, `pkg${k}`)).some((n) => n.endsWith('.raiselint.tmp'))) ||
        readFileSync(join(dir, 'pkg0', 'm0.py'), 'utf8') !== GRPC_FIXABLE;
      while (!done && !begun()) await new Promise((r) => setTimeout(r, 1));
      await new Promise((r) => setTimeout(r, wait));
      child.kill('SIGKILL');
      await exited;
      const texts = Object.keys(files).map((f) => readFileSync(join(dir, f), 'utf8'));
      for (const t of texts) expect([GRPC_FIXABLE, after]).toContain(t);
      const fixed = texts.filter((t) => t === after).length;
      if (fixed > 0 && fixed < texts.length) midway++;
      cli(['check', '.', '--no-cache'], dir);
      expect(temps(dir)).toEqual([]);
    }
    // The kills landed among the writes (some files fixed, others not), not before or after them.
    expect(midway).toBeGreaterThan(0);
  }, 120_000);
});
