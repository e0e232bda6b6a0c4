/**
 * Raise conditions, arguments and versions (issue 12), through what users run: `raiselint check`
 * (bin/raiselint.js with its compiled-rules snapshot) and `raiselint records check`; plus the
 * version pins read from project files.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import picomatch from 'picomatch';
import { isPinFile, PIN_FILES_GLOB, pinsFor } from '../src/config/pins.js';
import { rangeState } from '../src/rules/condition/versions.js';
import { BIN } from './helpers/project.js';

const ROOT = join(import.meta.dirname, '..');
const RECORDS = join(ROOT, 'fixtures', 'conditions', 'records.jsonl');
const tmp = mkdtempSync(join(tmpdir(), 'raiselint-cond-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function check(cwd: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(
    process.execPath,
    [BIN, 'check', '--no-bundled', '--records', RECORDS, '--no-cache', '--no-config', '--cache-dir', join(tmp, 'cache'), ...args],
    { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function project(name: string, files: Record<string, string>): string {
  const dir = join(tmp, name);
  spawnSync('mkdir', ['-p', dir]);
  // A `.git` marks the repository root: pins are not searched above it.
  spawnSync('mkdir', ['-p', join(dir, '.git')]);
  for (const [f, text] of Object.entries(files)) {
    spawnSync('mkdir', ['-p', dirname(join(dir, f))]);
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

describe('the JSON condition field and the text output', () => {
  it('says why a finding is certain or possible, in one line', () => {
    const dir = project('why', {
      'app.py':
        'from zipfile import ZipFile\nfrom random import Random\n\ndef f(p, seq):\n    ZipFile(p, "rw")\n    ZipFile(p, "r")\n    Random().choice(seq)\n',
    });
    const r = check(dir, ['--format', 'json', 'app.py']);
    const diags = (JSON.parse(r.stdout) as { diagnostics: { line: number; confidence: string; condition: string }[] }).diagnostics;
    expect(diags.map((d) => [d.line, d.confidence, d.condition])).toEqual([
      [5, 'certain', "mode='rw' is not one of 'r', 'w', 'x', 'a'"],
      [7, 'possible', 'raises when seq is empty; seq is not known here'],
    ]);
    const text = check(dir, ['app.py']).stdout;
    expect(text).toContain("= when: mode='rw' is not one of 'r', 'w', 'x', 'a'");
    expect(text).toContain('= when: raises when seq is empty; seq is not known here');
  });

  it('records check prints each rule condition in words', () => {
    // The records alone (--python none): a window that shows no def gives an unknown condition.
    const r = spawnSync(process.execPath, [BIN, 'records', 'check', RECORDS, '--python', 'none'], { encoding: 'utf8' });
    expect(r.stdout).toContain("condition     raises when mode not in ('r', 'w', 'x', 'a') (decided by the call's mode)");
    expect(r.stdout).toContain('condition     raises when default passed and default_factory passed');
    expect(r.stdout).toContain('condition     depends on data: raises when n < 1 (findings are possible)');
    expect(r.stdout).toContain('condition     always raises (on every path through the def)');
    expect(r.stdout).toContain('condition     not known: sourceCode shows no def around the raise (findings are possible)');
    // Grounded in the installed standard library (this machine's python3), the same record's def is read whole.
    const g = spawnSync(process.execPath, [BIN, 'records', 'check', RECORDS], { encoding: 'utf8' });
    expect(g.stdout).not.toContain('sourceCode shows no def around the raise');
    expect(g.stdout).toMatch(/derived from {2}raiser: the installed .*zipfile\.py/);
  });
});

describe('constant expressions of the libraries a file imports', () => {
  it("string's documented constants, alone, added, through a module constant or a from-import, are known non-empty", () => {
    const dir = project('strconst', {
      'app.py': [
        'import string',
        'from random import Random',
        'from string import ascii_letters, digits',
        '',
        'ALPHABET = string.ascii_letters + string.digits',
        '',
        'def f(rng: Random, seq):',
        '    rng.choice(string.ascii_letters + string.digits)',
        '    rng.choice(ALPHABET)',
        '    rng.choice(ascii_letters + digits)',
        '    rng.choice(string.whitespace)',
        '    rng.choice(string.digits[:0])',
        '    rng.choice(seq)',
        '',
      ].join('\n'),
    });
    const r = check(dir, ['--format', 'json', 'app.py']);
    const diags = (JSON.parse(r.stdout) as { diagnostics: { line: number; confidence: string }[] }).diagnostics;
    // `string.digits[:0]` is not read (a slice of a constant): possible, as `seq` is.
    expect(diags.map((d) => [d.line, d.confidence])).toEqual([
      [12, 'possible'],
      [13, 'possible'],
    ]);
  });
});

describe('versions', () => {
  const app = 'from random import Random\n\ndef f(rng: Random):\n    return rng.sample({1, 2}, 1)\n';
  it('--target-version decides a Python-version-dependent raise, and a bad value is a usage error', () => {
    const dir = project('target', { 'app.py': app });
    const at = (v: string[]) =>
      (JSON.parse(check(dir, ['--format', 'json', ...v, 'app.py']).stdout) as { diagnostics: { confidence: string; condition: string }[] }).diagnostics;
    expect(at([]).map((d) => d.confidence)).toEqual(['possible']);
    expect(at([]).map((d) => d.condition)).toEqual(['population={1, 2} is not a Sequence; Python >= 3.11 only; no Python version pinned']);
    expect(at(['--target-version', 'py312']).map((d) => [d.confidence, d.condition])).toEqual([
      ['certain', 'population={1, 2} is not a Sequence; Python >= 3.11 only; target-version py312'],
    ]);
    expect(at(['--target-version', 'py310'])).toEqual([]);
    const bad = check(dir, ['--target-version', 'python3', 'app.py']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'python3' is not a Python version");
  });

  it('reads requires-python, .python-version, Poetry, requirements and lock files', () => {
    const a = project('pins-a', {
      'pyproject.toml':
        '[project]\nname = "a"\nrequires-python = ">=3.10"\ndependencies = ["attrs>=23", "Requests[socks] ==2.31.0 ; python_version > \'3.8\'"]\n',
      'x.py': '',
    });
    expect(pinsFor(join(a, 'x.py'))).toEqual({
      python: { spec: '>=3.10', from: 'requires-python >=3.10 (pyproject.toml)' },
      packages: {
        attrs: { spec: '>=23', from: 'attrs>=23 (pyproject.toml)' },
        requests: { spec: '==2.31.0', from: "Requests[socks] ==2.31.0 ; python_version > '3.8' (pyproject.toml)" },
      },
    });
    const b = project('pins-b', {
      '.python-version': '3.12\n',
      'requirements-dev.txt': 'pytest==8.2.0  # tests\n-r requirements.txt\n',
      'poetry.lock': '[[package]]\nname = "openai"\nversion = "1.30.1"\n',
      'x.py': '',
    });
    expect(pinsFor(join(b, 'x.py'))).toEqual({
      python: { spec: '==3.12.*', from: 'Python 3.12 (.python-version)' },
      packages: {
        openai: { spec: '==1.30.1', from: 'openai 1.30.1 (poetry.lock)' },
        pytest: { spec: '==8.2.0', from: 'pytest==8.2.0 (requirements-dev.txt)' },
      },
    });
    const c = project('pins-c', {
      'pyproject.toml': '[tool.poetry.dependencies]\npython = "^3.9"\n',
      'Pipfile.lock': '{"default": {"numpy": {"version": "==1.26.4"}}}',
      'x.py': '',
    });
    expect(pinsFor(join(c, 'x.py'))).toEqual({
      python: { spec: '>=3.9,<4', from: 'python ^3.9 (pyproject.toml, Poetry)' },
      packages: { numpy: { spec: '==1.26.4', from: 'numpy 1.26.4 (Pipfile.lock)' } },
    });
    const d = project('pins-d', { 'pyproject.toml': 'not [valid toml', 'x.py': '' });
    expect(pinsFor(join(d, 'x.py'))).toEqual({ packages: {} });
  });

  it('the nearest folder pins each kind, up to the repository root', () => {
    const top = project('pins-nest', {
      'requirements.txt': 'flask==3.0.0\n',
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/.python-version': '3.10\n',
      'repo/requirements.txt': 'attrs==23.1.0\n',
      'repo/pkg/pyproject.toml': '[project]\nname = "p"\nrequires-python = ">=3.12"\n',
      'repo/pkg/a.py': '',
      'repo/pkg/locked/uv.lock': '[[package]]\nname = "httpx"\nversion = "0.27.0"\n',
      'repo/pkg/locked/b.py': '',
      'repo/c.py': '',
    });
    const attrs = { attrs: { spec: '==23.1.0', from: 'attrs==23.1.0 (requirements.txt)' } };
    expect(pinsFor(join(top, 'repo/pkg/a.py'))).toEqual({ python: { spec: '>=3.12', from: 'requires-python >=3.12 (pyproject.toml)' }, packages: attrs });
    expect(pinsFor(join(top, 'repo/pkg/locked/b.py'))).toEqual({
      python: { spec: '>=3.12', from: 'requires-python >=3.12 (pyproject.toml)' },
      packages: { httpx: { spec: '==0.27.0', from: 'httpx 0.27.0 (uv.lock)' } },
    });
    // The walk stops at the folder holding .git: the requirements above it are another project's.
    expect(pinsFor(join(top, 'repo/c.py'))).toEqual({ python: { spec: '==3.10.*', from: 'Python 3.10 (.python-version)' }, packages: attrs });
    expect(pinsFor(join(top, 'repo/pkg/a.py'), 'py311')).toEqual({ python: { spec: '==3.11.*', from: 'target-version py311' }, packages: attrs });
  });

  it('the files that pin are one list: what the folder reading counts, the watchers watch and a change reloads', () => {
    const pinning = ['.python-version', 'poetry.lock', 'uv.lock', 'Pipfile.lock', 'requirements.txt', 'requirements-dev.txt'];
    const not = ['requirements.in', 'dev-requirements.txt', 'setup.py', 'a.python-version', 'requirements.txt.bak'];
    const watched = picomatch(PIN_FILES_GLOB, { dot: true });
    for (const name of pinning) {
      expect(isPinFile(name), name).toBe(true);
      expect(watched(`some/folder/${name}`), name).toBe(true);
    }
    for (const name of not) {
      expect(isPinFile(name), name).toBe(false);
      expect(watched(`some/folder/${name}`), name).toBe(false);
    }
    // pyproject.toml pins too, but is watched as a config file.
    expect(isPinFile('pyproject.toml')).toBe(true);
    // Every requirements file of a folder counts, in name order.
    const top = project('pins-reqs', { 'requirements-dev.txt': 'attrs==23.1.0\n', 'requirements.in': 'flask==3.0.0\n', 'a.py': '' });
    expect(pinsFor(join(top, 'a.py')).packages).toEqual({ attrs: { spec: '==23.1.0', from: 'attrs==23.1.0 (requirements-dev.txt)' } });
  });

  it('a pinned range is inside, partly inside or outside a record range', () => {
    const pin = (spec: string) => ({ spec, from: spec });
    expect(rangeState('>=3.11', pin('>=3.11'), true)).toBe('inside');
    expect(rangeState('>=3.11', pin('>=3.8'), true)).toBe('partial');
    expect(rangeState('>=3.11', pin('==3.10.*'), true)).toBe('off');
    expect(rangeState('<3.12', pin('>=3.9,<3.12'), true)).toBe('inside');
    expect(rangeState('<3.12', undefined, true)).toBe('unpinned');
    expect(rangeState('>=1.0.0', pin('==0.28.1'), false)).toBe('off');
    expect(rangeState('>=1.0.0', pin('>=1.3,<2'), false)).toBe('inside');
  });
});
