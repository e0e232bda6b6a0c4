/** End-to-end through bin/raiselint.js: the flags a Ruff user expects (issue 17), each with what breaks it. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLEAN, GRPC_BAD, cli, tempTree } from './helpers.js';

const SAVE = 'autogen/agent-save-state-is-not-yet-implemented';
const POSSIBLE = `from autogen_core import AgentRuntime


async def snapshot(runtime: AgentRuntime, agent_id):
    return await runtime.agent_save_state(agent_id)
`;
const files = (r: { stdout: string }) => JSON.parse(r.stdout).diagnostics.map((d: { file: string }) => d.file);

describe('--config <file> and --isolated', () => {
  const tree = () =>
    tempTree({
      'pkg/a.py': GRPC_BAD,
      'pkg/raiselint.toml': `ignore = ["${SAVE}"]\n`,
      'ci/strict.toml': 'min-confidence = "possible"\nextend-exclude = ["skipped/"]\n',
      'skipped/b.py': GRPC_BAD,
    });

  it('--config uses that file for every file instead of the config files found', () => {
    const dir = tree();
    expect(files(cli(['check', '.', '--format', 'json'], dir))).toEqual(['skipped/b.py']); // pkg/raiselint.toml ignores the rule
    const r = cli(['check', '.', '--format', 'json', '--config', 'ci/strict.toml'], dir);
    expect(files(r)).toEqual(['pkg/a.py']); // pkg/raiselint.toml not read; extend-exclude relative to the current folder
    expect(r.code).toBe(1);
  });

  it('--config with a missing file or a pyproject.toml without [tool.raiselint] is exit 2, one line', () => {
    const dir = tempTree({ 'a.py': GRPC_BAD, 'pyproject.toml': '[project]\nname = "x"\n' });
    const missing = cli(['check', '.', '--config', 'nope.toml'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('raiselint: error: nope.toml: no such config file (--config)\n');
    const none = cli(['check', '.', '--config', 'pyproject.toml'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('raiselint: error: pyproject.toml: no [tool.raiselint] table (--config)\n');
  });

  it('--isolated reads no config file; it refuses --config', () => {
    const dir = tree();
    expect(files(cli(['check', '.', '--format', 'json', '--isolated'], dir))).toEqual(['pkg/a.py', 'skipped/b.py']);
    const both = cli(['check', '.', '--isolated', '--config', 'ci/strict.toml'], dir);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--config cannot be used with --isolated');
  });

  it('--show-config follows --config', () => {
    const dir = tree();
    const r = cli(['check', '--show-config', 'pkg/a.py', '--config', 'ci/strict.toml'], dir);
    expect(r.stdout).toContain('ci/strict.toml');
    expect(r.stdout).not.toContain('pkg/raiselint.toml');
  });
});

describe('--exclude, --extend-exclude, --force-exclude', () => {
  const tree = () => tempTree({ 'src/a.py': GRPC_BAD, 'build/b.py': GRPC_BAD, 'gen/c.py': GRPC_BAD });

  it('--extend-exclude adds to the built-in exclusions; --exclude replaces them (as Ruff)', () => {
    const dir = tree();
    expect(files(cli(['check', '.', '--format', 'json'], dir))).toEqual(['src/a.py', 'gen/c.py'].sort());
    expect(files(cli(['check', '.', '--format', 'json', '--extend-exclude', 'gen/'], dir))).toEqual(['src/a.py']);
    expect(files(cli(['check', '.', '--format', 'json', '--exclude', 'gen/'], dir))).toEqual(['build/b.py', 'src/a.py']);
  });

  it("--exclude replaces a config's exclude, its extend-exclude stays", () => {
    const dir = tempTree({
      'raiselint.toml': 'exclude = ["src/"]\nextend-exclude = ["gen/"]\n',
      'src/a.py': GRPC_BAD,
      'gen/c.py': GRPC_BAD,
      'other/d.py': GRPC_BAD,
    });
    expect(files(cli(['check', '.', '--format', 'json'], dir))).toEqual(['other/d.py']);
    expect(files(cli(['check', '.', '--format', 'json', '--exclude', 'other/'], dir))).toEqual(['src/a.py']);
  });

  it('a named file is checked unless --force-exclude applies the exclusions to it', () => {
    const dir = tree();
    expect(files(cli(['check', 'build/b.py', 'gen/c.py', '--format', 'json', '--extend-exclude', 'gen/'], dir))).toEqual(['build/b.py', 'gen/c.py']);
    const forced = cli(['check', 'build/b.py', 'gen/c.py', 'src/a.py', '--format', 'json', '--extend-exclude', 'gen/', '--force-exclude'], dir);
    expect(files(forced)).toEqual(['src/a.py']);
    const none = cli(['check', 'build/b.py', '--force-exclude'], dir);
    expect(none.stderr).toContain('No Python files found');
    expect(none.code).toBe(0);
  });
});

describe('extend-include', () => {
  it("a config's extend-include adds files to check as Python (walked and named), relative to the config", () => {
    const dir = tempTree({ 'raiselint.toml': 'extend-include = ["tools/*.cgi"]\n', 'tools/run.cgi': GRPC_BAD, 'other/run.cgi': GRPC_BAD, 'a.py': CLEAN });
    expect(files(cli(['check', '.', '--format', 'json'], dir))).toEqual(['tools/run.cgi']);
    expect(files(cli(['check', 'tools/run.cgi', '--format', 'json'], dir))).toEqual(['tools/run.cgi']);
    expect(files(cli(['check', '.', '--format', 'json', '--isolated'], dir))).toEqual([]);
    const bad = cli(['check', '.'], tempTree({ 'raiselint.toml': 'extend-include = "x"\n' }));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("key 'extend-include'");
  });
});

describe('--show-files', () => {
  it('lists the files that would be checked on stdout, and what was skipped and why on stderr; checks nothing', () => {
    const dir = tempTree({
      '.gitignore': 'gen/\n',
      'src/a.py': GRPC_BAD,
      'src/b.pyi': '',
      'build/x.py': '',
      'gen/y.py': '',
      'env/pyvenv.cfg': '',
      'env/z.py': '',
      'notes.txt': '',
    });
    const r = cli(['check', '.', 'notes.txt', '--show-files', '--extend-exclude', 'src/b.pyi'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('src/a.py\n');
    expect(r.stderr.split('\n').filter(Boolean).sort()).toEqual(
      [
        'raiselint: skipped build/: a built-in exclusion',
        'raiselint: skipped env/: a virtualenv (holds pyvenv.cfg)',
        'raiselint: skipped gen/: ignored by .gitignore',
        'raiselint: skipped notes.txt: not a Python file (.py, .pyi, .pyw, .ipynb or a python shebang)',
        'raiselint: skipped src/b.pyi: excluded by --exclude / --extend-exclude',
      ].sort(),
    );
    expect(existsSync(join(dir, '.raiselint_cache'))).toBe(false); // nothing was checked
  });
});

describe('exit codes: --exit-zero, --max-warnings', () => {
  it('--exit-zero exits 0 with error findings (still reported: an undecodable file is one, raiselint/io-error), but 2 when the run cannot go on', () => {
    const dir = tempTree({ 'a.py': GRPC_BAD });
    expect(cli(['check', '.'], dir).code).toBe(1);
    const r = cli(['check', '.', '--exit-zero'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`a.py:6:19: ${SAVE}`);
    writeFileSync(join(dir, 'bad.py'), Buffer.from([0x78, 0x3d, 0xff, 0xfe, 0x0a]));
    const io = cli(['check', '.', '--exit-zero'], dir);
    expect(io.code).toBe(0);
    expect(io.stdout).toContain('bad.py:1:1: raiselint/io-error cannot decode file: not valid UTF-8');
    expect(cli(['check', '.', '--exit-zero', '--records', 'missing.jsonl'], dir).code).toBe(2);
    expect(cli(['check', '.', '--diff', '--unsafe-fixes', '--exit-zero'], tempTree({ 'a.py': GRPC_BAD })).code).toBe(0);
    const both = cli(['check', '.', '--exit-zero', '--exit-non-zero-on-fix'], dir);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--exit-zero cannot be used with --exit-non-zero-on-fix');
  });

  it('--max-warnings N: exit 1 when more than N possible (warning) findings', () => {
    const dir = tempTree({ 'a.py': POSSIBLE, 'b.py': POSSIBLE });
    expect(cli(['check', '.'], dir).code).toBe(0);
    expect(cli(['check', '.', '--max-warnings', '2'], dir).code).toBe(0);
    const over = cli(['check', '.', '--max-warnings', '1'], dir);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('raiselint: 2 warnings found, more than --max-warnings 1');
    expect(cli(['check', '.', '--max-warnings', '0', '--min-confidence', 'certain'], dir).code).toBe(0);
    const bad = cli(['check', '.', '--max-warnings', '-1'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected a whole number');
  });
});

describe('--quiet and --output-format', () => {
  it('--quiet prints the findings without the summary, and nothing on a clean run', () => {
    const dir = tempTree({ 'a.py': GRPC_BAD });
    const r = cli(['check', '.', '--quiet', '--output-format', 'concise'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `a.py:6:19: ${SAVE} runtime.agent_save_state() raises NotImplementedError (GrpcWorkerAgentRuntime.agent_save_state()): Agent save_state is not yet implemented.\n`,
    );
    const clean = cli(['check', '.', '-q'], tempTree({ 'ok.py': CLEAN }));
    expect(clean.stdout).toBe('');
    expect(clean.code).toBe(0);
    expect(cli(['check', '.', '-q', '--statistics'], dir).stdout).toMatch(
      /^1\tautogen\/agent-save-state-is-not-yet-implemented\tNotImplementedError \(1 certain, 0 possible\)\n$/,
    );
  });

  it('--output-format is --format', () => {
    const dir = tempTree({ 'a.py': GRPC_BAD });
    const r = cli(['check', '.', '--output-format', 'json'], dir);
    expect(JSON.parse(r.stdout).diagnostics).toHaveLength(1);
    expect(cli(['check', '.', '--output-format', 'sarif'], dir).stdout).toContain('"version": "2.1.0"');
    expect(cli(['check', '.', '--output-format', 'xml'], dir).code).toBe(2);
    const clash = cli(['check', '.', '--output-format', 'json', '--format', 'sarif'], dir);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('disagree');
  });
});

describe('No Python files found', () => {
  it('a folder with no Python file: a warning on stderr, exit 0; exit 2 under --strict-paths', () => {
    const dir = tempTree({ 'docs/readme.md': '# x\n', 'src/a.py': CLEAN });
    const r = cli(['check', 'docs'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('raiselint: warning: No Python files found under the given path(s)\n');
    const strict = cli(['check', 'docs', 'src', '--strict-paths'], dir);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toBe('raiselint: error: docs: no Python files to check (--strict-paths)\n');
    expect(cli(['check', 'src', '--strict-paths'], dir).code).toBe(0);
    expect(cli(['check', 'docs', '-q'], dir).stderr).toBe('');
  });

  it('every given path a non-Python file: warned, exit 2 (as ESLint); a python script without extension is checked', () => {
    const dir = tempTree({ 'notes.txt': GRPC_BAD, tool: `#!/usr/bin/env python3\n${GRPC_BAD}`, 'a.py': CLEAN });
    const r = cli(['check', 'notes.txt'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('raiselint: warning: notes.txt: not a Python file, skipped');
    expect(r.stderr).toContain('No Python files found');
    const mixed = cli(['check', 'notes.txt', 'a.py'], dir);
    expect(mixed.code).toBe(0);
    expect(mixed.stderr).toBe('raiselint: warning: notes.txt: not a Python file, skipped\n');
    expect(cli(['check', 'notes.txt', 'a.py', '--strict-paths'], dir).code).toBe(2);
    expect(files(cli(['check', 'tool', '--format', 'json'], dir))).toEqual(['tool']);
  });
});

describe('--statistics marks', () => {
  it('[-] for a rule whose fixes are all unsafe (--fix alone fixes nothing), [*] with --unsafe-fixes', () => {
    // The file imports what the record's alternative uses: its fix applies with --unsafe-fixes.
    const dir = tempTree({ 'a.py': GRPC_BAD.replace('\n\n\nasync def', '\nfrom .messages import SaveStateRequest\n\n\nasync def') });
    const r = cli(['check', '.', '--statistics'], dir);
    expect(r.stdout).toContain(`1\t${SAVE}\t[-] NotImplementedError`);
    expect(r.stdout).toContain('[-] only unsafe fixes: applied with `--fix --unsafe-fixes`');
    expect(r.stdout).not.toContain('[*]');
    expect(cli(['check', '.', '--fix'], dir).stderr + cli(['check', '.', '--diff'], dir).stderr).toContain('No fixes to apply.');
    const u = cli(['check', '.', '--statistics', '--unsafe-fixes'], dir);
    expect(u.stdout).toContain(`1\t${SAVE}\t[*] NotImplementedError`);
    expect(u.stdout).toContain('[*] fixable with `--fix --unsafe-fixes`');
  });

  it('[*] for a rule with a safe fix', () => {
    // An unused suppression: its removal is a safe fix.
    const dir = tempTree({ 'a.py': `x = 1  # raiselint: ignore[${SAVE}]\n` });
    const r = cli(['check', '.', '--statistics'], dir);
    expect(r.stdout).toContain('raiselint/unused-ignore\t[*] ');
    expect(r.stdout).toContain('[*] fixable with `--fix`');
    expect(JSON.parse(cli(['check', '.', '--statistics', '--format', 'json'], dir).stdout)[0]).toMatchObject({ fixable: 1, unsafeFixable: 0 });
  });
});

describe('raiselint clean', () => {
  it('removes the raiselint caches here and below, nothing else', () => {
    const dir = tempTree({ 'a.py': GRPC_BAD, 'sub/b.py': GRPC_BAD, 'other/.raiselint_cache/keep.txt': 'not ours' });
    cli(['check', '.'], dir);
    cli(['check', '.'], join(dir, 'sub'));
    expect(existsSync(join(dir, '.raiselint_cache'))).toBe(true);
    expect(existsSync(join(dir, 'sub', '.raiselint_cache'))).toBe(true);
    const r = cli(['clean'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Removing cache at: .raiselint_cache\nRemoving cache at: sub/.raiselint_cache\n');
    expect(existsSync(join(dir, '.raiselint_cache'))).toBe(false);
    expect(existsSync(join(dir, 'sub', '.raiselint_cache'))).toBe(false);
    expect(existsSync(join(dir, 'other', '.raiselint_cache', 'keep.txt'))).toBe(true);
    expect(cli(['clean'], dir).stderr).toBe('No cache found.\n');
  });

  it('--cache-dir removes that cache, and refuses a folder raiselint did not make', () => {
    const dir = tempTree({ 'a.py': GRPC_BAD });
    cli(['check', '.', '--cache-dir', 'c1'], dir);
    expect(existsSync(join(dir, 'c1'))).toBe(true);
    expect(cli(['clean', '--cache-dir', 'c1'], dir).code).toBe(0);
    expect(existsSync(join(dir, 'c1'))).toBe(false);
    mkdirSync(join(dir, 'mine'));
    writeFileSync(join(dir, 'mine', 'data.txt'), 'x');
    const r = cli(['clean', '--cache-dir', 'mine'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not a raiselint cache');
    expect(existsSync(join(dir, 'mine', 'data.txt'))).toBe(true);
  });
});
