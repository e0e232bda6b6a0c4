/**
 * Issue 15: every run ends, in bounded time, with the real findings and each problem named in one
 * line. One block per reproduced case (symlink loops, special files, corrupt cache, deep nesting,
 * contradictory flags, lone CR, catastrophic patterns, record sizes, and the rest), all through
 * the real CLI (`bin/raiselint.js`). The language server's framing is in lsp-framing.test.ts.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRPC_BAD, GRPC_FIXABLE, ROOT, tempTree } from './helpers.js';

const BIN = join(ROOT, 'bin', 'raiselint.js');
const RULE = 'autogen/agent-save-state-is-not-yet-implemented';
const RECORDS = readFileSync(join(ROOT, 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** The CLI with a time limit: a hang is a failed test, not a stuck suite. */
function run(args: string[], cwd: string, opts: SpawnSyncOptions = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 << 20,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' },
    ...opts,
  });
  return {
    code: r.status,
    stdout: String(r.stdout ?? ''),
    stderr: String(r.stderr ?? ''),
    timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT',
  };
}

function json(r: Run): { ruleId: string; file: string; line: number; severity: string; message: string }[] {
  return JSON.parse(r.stdout).diagnostics;
}

function mkfifo(p: string): void {
  const r = spawnSync('mkfifo', [p]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
}

describe('1. directory symlink loops', () => {
  it('are not followed by default: one finding, not one per loop level', () => {
    const dir = tempTree({ 'd/app.py': GRPC_BAD, 'd/loop/sub/keep.txt': '' });
    symlinkSync('..', join(dir, 'd/loop/up'));
    symlinkSync('../..', join(dir, 'd/loop/sub/up2'));
    const r = run(['check', 'd', '--format', 'json', '--no-cache'], dir);
    expect(r.timedOut).toBe(false);
    expect(json(r).map((d) => d.file)).toEqual(['d/app.py']);
    expect(r.code).toBe(1);
  });

  it('--follow-links follows them once (a device+inode visited set), and links to other folders are checked', () => {
    const dir = tempTree({ 'd/app.py': GRPC_BAD, 'other/lib.py': GRPC_BAD, 'd/loop/sub/keep.txt': '' });
    symlinkSync('..', join(dir, 'd/loop/up'));
    symlinkSync('../..', join(dir, 'd/loop/sub/up2'));
    symlinkSync('../other', join(dir, 'd/other'));
    const off = run(['check', 'd', '--format', 'json', '--no-cache'], dir);
    expect(json(off).map((d) => d.file)).toEqual(['d/app.py']);
    const on = run(['check', 'd', '--format', 'json', '--no-cache', '--follow-links'], dir);
    expect(on.timedOut).toBe(false);
    expect(json(on).map((d) => d.file)).toEqual(['d/app.py', 'd/other/lib.py']);
  });

  it('a records folder with a loop is read once', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD, 'recs/a.jsonl': RECORDS });
    symlinkSync('..', join(dir, 'recs/up'));
    const r = run(['check', 'app.py', '--no-bundled', '--records', 'recs', '--format', 'json', '--no-cache'], dir);
    expect(r.timedOut).toBe(false);
    expect(r.stderr).not.toContain('internal error');
    expect(json(r).map((d) => d.ruleId)).toEqual([RULE]);
  });
});

describe('2. special files', () => {
  it('FIFOs and devices, also behind links, are skipped in folders; the run ends with the real findings', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD });
    mkfifo(join(dir, 'pipe.py'));
    mkfifo(join(dir, 'fifo'));
    symlinkSync('fifo', join(dir, 'x.py'));
    symlinkSync('/dev/zero', join(dir, 'zero.py'));
    const r = run(['check', '.', '--format', 'json', '--no-cache'], dir, { timeout: 30_000 });
    expect(r.timedOut).toBe(false);
    expect(json(r).map((d) => d.file)).toEqual(['app.py']);
  });

  it('a FIFO or device named on the command line is an io-error finding, not a silent exit 0 or a hang', () => {
    const dir = tempTree({});
    mkfifo(join(dir, 'pipe.py'));
    symlinkSync('/dev/zero', join(dir, 'zero.py'));
    const r = run(['check', 'pipe.py', 'zero.py', '--format', 'json', '--no-cache'], dir, { timeout: 30_000 });
    expect(r.timedOut).toBe(false);
    const d = json(r);
    expect(d.map((x) => `${x.file} ${x.ruleId} ${x.severity}`)).toEqual(['pipe.py raiselint/io-error error', 'zero.py raiselint/io-error error']);
    expect(d[0]!.message).toMatch(/not a regular file/);
    expect(r.code).toBe(1);
  });

  it('--baseline /dev/zero and --records /dev/zero are one-line errors, exit 2, no raw errno', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD });
    for (const args of [
      ['--baseline', '/dev/zero'],
      ['--records', '/dev/zero'],
    ]) {
      const r = run(['check', 'app.py', '--no-cache', ...args], dir, { timeout: 30_000 });
      expect(r.timedOut).toBe(false);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^raiselint: error: \/dev\/zero: .*not a regular file/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/internal error|ENOTDIR|ENOENT/);
    }
  });

  it('a FIFO and a dangling link inside a records folder do not hang check or records check', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD, 'recs/a.jsonl': RECORDS });
    mkfifo(join(dir, 'recs/b.jsonl'));
    symlinkSync('missing.jsonl', join(dir, 'recs/c.jsonl'));
    const c = run(['check', 'app.py', '--no-bundled', '--records', 'recs', '--format', 'json', '--no-cache'], dir, { timeout: 30_000 });
    expect(c.timedOut).toBe(false);
    expect(c.stderr).not.toMatch(/internal error|ENOENT/);
    expect(json(c).map((d) => d.ruleId)).toEqual([RULE]);
    const rc = run(['records', 'check', 'recs'], dir, { timeout: 30_000 });
    expect(rc.timedOut).toBe(false);
    expect(rc.stderr).not.toMatch(/internal error|ENOENT/);
  });

  it('a file over the max file size is a raiselint/too-large finding that says so (--max-file-size)', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD });
    const r = run(['check', 'app.py', '--format', 'json', '--no-cache', '--max-file-size', '100'], dir);
    const d = json(r);
    expect(d.map((x) => x.ruleId)).toEqual(['raiselint/too-large']);
    expect(d[0]!.message).toBe(`file is too large to check: ${Buffer.byteLength(GRPC_BAD)} bytes (0.0 MiB), over --max-file-size (100 bytes)`);
    expect(r.code).toBe(1);
    const ok = run(['check', 'app.py', '--format', 'json', '--no-cache', '--max-file-size', '1000000'], dir);
    expect(json(ok).map((x) => x.ruleId)).toEqual([RULE]);
  });

  it('a file whose analysis would not fit in the heap left is raiselint/too-large, not an out-of-memory crash; the other files are checked', () => {
    // About 3 MiB of code under a 64 MiB heap: 40 bytes of heap per byte would need ~120 MiB.
    const chunk =
      'def f(items, key=None):\n    out = {}\n    for i, x in enumerate(items):\n        if key is not None and x.get(key):\n            out[x[key]] = [i, x, str(x).split(",")]\n    return out\n\n';
    // It mentions a rule's trigger, so the prefilter does not skip it: without the bound, it is parsed and the heap runs out.
    const dir = tempTree({ 'big.py': `${GRPC_BAD}\n${chunk.repeat(Math.ceil((3 << 20) / chunk.length))}`, 'app.py': GRPC_BAD });
    const r = run(['check', '.', '--format', 'json', '--no-cache', '--jobs', '1'], dir, {
      env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: '--max-old-space-size=64' },
      timeout: 60_000,
    });
    expect(r.stderr).not.toMatch(/heap out of memory|FATAL|at .*\(/);
    const d = json(r);
    expect(d.map((x) => `${x.file} ${x.ruleId}`)).toEqual([`app.py ${RULE}`, 'big.py raiselint/too-large']);
    expect(d[1]!.message).toMatch(
      /^file is too large to check: \d+ bytes \(3\.\d MiB\), over the memory bound per file \([\d.]+ MiB: [\d.]+ MiB of heap left \/ 40 bytes per source byte; NODE_OPTIONS=--max-old-space-size raises it\)$/,
    );
    expect(r.code).toBe(1);
  });
});

describe('raiselint/io-error: an undecodable file is a finding, not a failed run', () => {
  const BAD = Buffer.from([0x78, 0x20, 0x3d, 0x20, 0x27, 0xff, 0xfe, 0x27, 0x0a]);
  it('in every format and in --statistics; exit follows the findings (1)', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD, 'bad.py': BAD });
    const j = run(['check', '.', '--format', 'json', '--no-cache'], dir);
    expect(j.code).toBe(1);
    const d = json(j);
    expect(d.map((x) => `${x.file} ${x.ruleId}`)).toEqual([`app.py ${RULE}`, 'bad.py raiselint/io-error']);
    expect(d[1]!.severity).toBe('error');
    expect(d[1]!.message).toMatch(/UTF-8/);
    const t = run(['check', '.', '--no-cache'], dir);
    expect(t.code).toBe(1);
    expect(t.stdout).toMatch(/bad\.py:1:1: raiselint\/io-error .*UTF-8/);
    const s = run(['check', '.', '--no-cache', '--statistics'], dir);
    expect(s.stdout).toMatch(/1\traiselint\/io-error/);
    const sarif = JSON.parse(run(['check', '.', '--no-cache', '--format', 'sarif'], dir).stdout);
    expect(sarif.runs[0].results.map((x: { ruleId: string }) => x.ruleId)).toContain('raiselint/io-error');
    const gh = run(['check', '.', '--no-cache', '--format', 'github'], dir);
    expect(gh.stdout).toMatch(/::error .*file=bad\.py.*raiselint\/io-error/);
  });
  it('only the io-error: exit 1, not 2', () => {
    const dir = tempTree({ 'bad.py': BAD });
    const r = run(['check', '.', '--no-cache'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('raiselint/io-error');
  });
});

describe('5. a corrupt cache is discarded and rebuilt', () => {
  it('a truncated rules snapshot, a garbage results bucket: the findings, exit 1, no internal error', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD });
    expect(run(['check', '.'], dir).code).toBe(1);
    const rulesDir = join(dir, '.raiselint_cache', 'rules');
    const snaps = readdirSync(rulesDir).filter((n) => n.endsWith('.snap'));
    expect(snaps.length).toBeGreaterThan(0);
    for (const size of [2000, 60]) {
      for (const s of readdirSync(rulesDir).filter((n) => n.endsWith('.snap'))) truncateSync(join(rulesDir, s), size);
      for (const b of readdirSync(join(dir, '.raiselint_cache')).filter((n) => n.startsWith('results-')))
        writeFileSync(join(dir, '.raiselint_cache', b), '{"format":2,"key":');
      const r = run(['check', '.'], dir);
      expect(r.stderr).not.toContain('internal error');
      expect(r.stdout).toContain(`app.py:6:19: ${RULE}`);
      expect(r.stdout).not.toContain('All checks passed!');
      expect(r.code).toBe(1);
    }
  });
});

describe('7. deep nesting', () => {
  it("5,000 nested calls and a 20,000-term sum: the file's real finding is kept, no stack overflow", () => {
    const deep = `x = ${'f('.repeat(5000)}0${')'.repeat(5000)}\ny = ${Array(20000).fill('1').join(' + ')}\n`;
    const dir = tempTree({ 'app.py': GRPC_FIXABLE + deep });
    const r = run(['check', 'app.py', '--format', 'json', '--no-cache'], dir);
    expect(r.stderr).not.toMatch(/internal error|call stack/);
    // The real finding, and each subtree left out said as a warning.
    expect(json(r).map((d) => `${d.line} ${d.ruleId} ${d.severity}`)).toEqual([
      `6 ${RULE} error`,
      '8 raiselint/too-deep warning',
      '9 raiselint/too-deep warning',
    ]);
    expect(r.code).toBe(1);
    // A fix elsewhere in the file is applied; the deep code is kept byte for byte.
    run(['check', 'app.py', '--no-cache', '--fix', '--unsafe-fixes'], dir);
    const after = readFileSync(join(dir, 'app.py'), 'utf8');
    expect(after).not.toContain('runtime.agent_save_state(agent_id)');
    expect(after.endsWith(deep)).toBe(true);
  });
});

describe('9. contradictory flags', () => {
  const cases = [
    ['--diff', '--add-ignore'],
    ['--diff', '--update-baseline'],
    ['--fix', '--add-ignore'],
    ['--fix', '--update-baseline'],
    ['--add-ignore', '--update-baseline'],
  ];
  for (const flags of cases) {
    it(`${flags.join(' ')}: one line, exit 2, nothing written`, () => {
      const dir = tempTree({ 'app.py': GRPC_BAD });
      const r = run(['check', '.', '--no-cache', ...flags], dir);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/cannot be used with/);
      expect(readFileSync(join(dir, 'app.py'), 'utf8')).toBe(GRPC_BAD);
      expect(existsSync(join(dir, 'raiselint-baseline.json'))).toBe(false);
    });
  }
});

/** Line of the first call to `name` as CPython's `ast` sees it. */
function cpythonLine(src: string, name: string): number {
  const py = `import ast,sys\nsrc=sys.stdin.buffer.read().decode()\nfor n in ast.walk(ast.parse(src)):\n  if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == ${JSON.stringify(name)}:\n    print(n.lineno); break\n`;
  const r = spawnSync('python3', ['-c', py], { input: src, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return Number(r.stdout.trim());
}

describe('6. lone CR line endings, as CPython counts them', () => {
  it('an all-CR file: the finding on the line CPython puts the call', () => {
    const src = GRPC_BAD.replace(/\n/g, '\r');
    const dir = tempTree({ 'app.py': src });
    const r = run(['check', 'app.py', '--format', 'json', '--no-cache'], dir);
    expect(json(r).map((d) => `${d.line} ${d.ruleId}`)).toEqual([`${cpythonLine(src, 'agent_save_state')} ${RULE}`]);
  });

  it('one stray CR in an LF file does not shift findings', () => {
    const src = `import os\rimport sys\n${GRPC_BAD}`;
    const dir = tempTree({ 'app.py': src });
    const r = run(['check', 'app.py', '--format', 'json', '--no-cache'], dir);
    expect(cpythonLine(src, 'agent_save_state')).toBe(8);
    expect(json(r).map((d) => `${d.line} ${d.ruleId}`)).toEqual([`8 ${RULE}`]);
  });

  it('a suppression comment on a CR line applies to that line only', () => {
    const src = GRPC_BAD.replace('(agent_id)\n', `(agent_id)  # raiselint: ignore[${RULE}]\n`).replace(/\n/g, '\r');
    const dir = tempTree({ 'app.py': src });
    const r = run(['check', 'app.py', '--format', 'json', '--no-cache'], dir);
    expect(json(r)).toEqual([]);
  });

  it('--fix and --add-ignore on an all-CR file: the same result as on the LF file, with every CR kept', () => {
    const src = GRPC_FIXABLE.replace(/\n/g, '\r');
    for (const flags of [['--fix', '--unsafe-fixes'], ['--add-ignore']]) {
      const cr = tempTree({ 'app.py': src });
      const lf = tempTree({ 'app.py': GRPC_FIXABLE });
      run(['check', 'app.py', '--no-cache', ...flags], cr);
      run(['check', 'app.py', '--no-cache', ...flags], lf);
      const afterLf = readFileSync(join(lf, 'app.py'), 'utf8');
      const afterCr = readFileSync(join(cr, 'app.py'), 'utf8');
      expect(afterLf, flags[0]).not.toBe(GRPC_FIXABLE);
      expect(afterCr, flags[0]).toBe(afterLf.replace(/\n/g, '\r'));
      const py = spawnSync('python3', ['-c', 'import ast,sys; ast.parse(sys.stdin.buffer.read().decode())'], { input: afterCr });
      expect(py.status, flags[0]).toBe(0);
    }
  });

  it('--fix of a stray-CR file keeps the stray CR', () => {
    const src = `import os\rimport sys\n${GRPC_FIXABLE}`;
    const dir = tempTree({ 'app.py': src });
    run(['check', 'app.py', '--no-cache', '--fix', '--unsafe-fixes'], dir);
    const after = readFileSync(join(dir, 'app.py'), 'utf8');
    expect(after).not.toBe(src);
    expect(after.startsWith('import os\rimport sys\n')).toBe(true);
  });
});

function recordsWith(change: (rec: Record<string, unknown>) => void): string {
  const lines = RECORDS.trim().split('\n');
  const first = JSON.parse(lines[0]!);
  change(first.record);
  return [JSON.stringify(first), ...lines.slice(1)].join('\n') + '\n';
}

describe('3. catastrophic messagePattern', () => {
  it('(a+)+$ runs in linear time: explain of a long message ends', () => {
    const dir = tempTree({ 'recs.jsonl': recordsWith((r) => (r.messagePattern = '(a+)+$')) });
    const r = run(['explain', '--no-bundled', '--records', 'recs.jsonl', '--format', 'json', `NotImplementedError: ${'a'.repeat(5000)}!`], dir, {
      timeout: 30_000,
    });
    expect(r.timedOut).toBe(false);
    expect(r.stderr).not.toContain('internal error');
  });

  it('a back-reference (no linear-time engine) is rejected with a one-line warning naming the field', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD, 'recs.jsonl': recordsWith((r) => (r.messagePattern = '(a)\\1')) });
    const r = run(['check', 'app.py', '--no-bundled', '--records', 'recs.jsonl', '--no-cache'], dir);
    expect(r.stderr).toMatch(/^raiselint: warning: recs\.jsonl:1: field 'messagePattern': not a regular expression a linear-time engine can run/);
    expect(r.code).toBe(1);
    const rc = run(['records', 'check', 'recs.jsonl'], dir);
    expect(rc.stdout).toContain("warning       field 'messagePattern': not a regular expression a linear-time engine can run");
  });
});

describe('4. record sizes', () => {
  it('a 10 MB sourceCode is skipped with a warning naming the field', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD, 'recs.jsonl': recordsWith((r) => (r.sourceCode = `${'x = 1\n'.repeat(1_800_000)}`)) });
    const r = run(['check', 'app.py', '--no-bundled', '--records', 'recs.jsonl', '--format', 'json', '--no-cache'], dir);
    expect(r.stderr).toMatch(/recs\.jsonl:1: field 'sourceCode': .*(longer|larger|exceeds)/);
    expect(r.stderr.length).toBeLessThan(2000);
  });
});

describe('10. the rest', () => {
  it('a 100,000-character select entry in config: one short line, exit 2', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD, 'raiselint.toml': `select = ["${'a*'.repeat(50_000)}"]\n` });
    const r = run(['check', '.', '--no-cache'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr.length).toBeLessThan(500);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a binary records file: one line without raw bytes or newlines', () => {
    const bin = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 256));
    const dir = tempTree({ 'app.py': GRPC_BAD, 'recs.jsonl': bin });
    const r = run(['check', '.', '--records', 'recs.jsonl', '--no-cache'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(/^[\x20-\x7e]+$/);
    expect(r.stderr.length).toBeLessThan(500);
  });

  it('a file name with a newline is printed escaped in text output', () => {
    const dir = tempTree({ 'a\nb.py': GRPC_BAD });
    const r = run(['check', '.', '--no-cache', '--format', 'concise'], dir);
    expect(r.stdout).toContain('a\\nb.py:6:19:');
    expect(r.stdout.split('\n').filter((l) => l.startsWith('b.py'))).toEqual([]);
  });

  it('a file name that is not UTF-8: named, not ENOENT', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD });
    writeFileSync(Buffer.concat([Buffer.from(dir + '/x'), Buffer.from([0xff]), Buffer.from('.py')]), GRPC_BAD);
    const r = run(['check', '.', '--format', 'json', '--no-cache'], dir);
    expect(r.stdout + r.stderr).not.toContain('ENOENT');
    const d = json(r);
    expect(d.map((x) => x.ruleId)).toEqual([RULE, 'raiselint/io-error']);
    expect(d[1]!.message).toMatch(/not valid UTF-8/);
  });

  it('an invalid pyproject.toml without [tool.raiselint] is at most a warning', () => {
    const dir = tempTree({
      'app.py': GRPC_BAD,
      'template/pyproject.toml': '[project]\nname = "{{cookiecutter.name}}"\n{{cookiecutter.extra}} = 1\n',
      'template/t.py': GRPC_BAD,
    });
    const r = run(['check', '.', '--format', 'json', '--no-cache'], dir);
    expect(r.code).toBe(1);
    expect(json(r).map((d) => d.file)).toEqual(['app.py', 'template/t.py']);
    // ...but a broken one that has [tool.raiselint] is still an error.
    const bad = tempTree({ 'app.py': GRPC_BAD, 'pyproject.toml': '[tool.raiselint]\nselect = [\n' });
    expect(run(['check', '.', '--no-cache'], bad).code).toBe(2);
  });

  it('--exclude applies relative to the project root, wherever the cwd is', () => {
    const dir = tempTree({
      'proj/raiselint.toml': '',
      'proj/app.py': GRPC_BAD,
      'proj/gen/out.py': GRPC_BAD,
      'proj/vendored.py': GRPC_BAD,
      'elsewhere/.keep': '',
    });
    mkdirSync(join(dir, 'elsewhere'), { recursive: true });
    const r = run(['check', join(dir, 'proj'), '--format', 'json', '--no-cache', '--exclude', 'gen/', '--exclude', 'vendored.py'], join(dir, 'elsewhere'));
    expect(json(r).map((d) => d.file)).toEqual([join(dir, 'proj', 'app.py')]);
    const inside = run(['check', '.', '--format', 'json', '--no-cache', '--exclude', 'gen/', '--exclude', 'vendored.py'], join(dir, 'proj'));
    expect(json(inside).map((d) => d.file)).toEqual(['app.py']);
  });
});
