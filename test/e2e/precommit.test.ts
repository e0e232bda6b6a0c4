/**
 * End to end: the pre-commit hook (.pre-commit-hooks.yaml) installed by Debian's `pre-commit` from a
 * local clone of this repository at HEAD, run by `git commit` in a temporary repository.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cloneHead } from '../helpers/git.js';
import { ONE, R } from '../helpers/project.js';

const ROOT = join(import.meta.dirname, '..', '..');
const LONG = 900_000;

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8' });
  return { code: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

function ensurePreCommit(): void {
  if (sh('sh', ['-c', 'command -v pre-commit'], ROOT).code === 0) return;
  // Debian's package (PyPI is not reachable); `apt-get update` first or the index may be empty.
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const up = sh('apt-get', ['update', '-qq'], ROOT, env);
  const inst = sh('apt-get', ['install', '-y', '-qq', 'pre-commit'], ROOT, env);
  if (inst.code !== 0) throw new Error(`cannot install pre-commit: ${up.out}\n${inst.out}`);
}

describe('pre-commit hook', () => {
  it('the hook definition is a node hook for Python files running `raiselint check`', () => {
    const text = readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8');
    expect(text).toMatch(/^- id: raiselint$/m);
    expect(text).toMatch(/^ {2}entry: raiselint check$/m);
    expect(text).toMatch(/^ {2}language: node$/m);
    expect(text).toMatch(/^ {2}types: \[python\]$/m);
    // One process for all staged files (one report, one summary), never split across two.
    expect(text).toMatch(/^ {2}require_serial: true$/m);
  });

  it("README's example points `rev:` at the release tag of this version", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(readme).toContain(`    rev: v${version}\n    hooks:\n      - id: raiselint`);
  });

  it(
    'a staged bad file fails the commit with the finding shown; a clean one passes; other files are skipped',
    () => {
      ensurePreCommit();
      const tmp = mkdtempSync(join(tmpdir(), 'raiselint-precommit-'));
      onTestFinished(() => rmSync(tmp, { recursive: true, force: true }));
      const hook = join(tmp, 'hook');
      const sha = cloneHead(hook);
      const repo = join(tmp, 'repo');
      mkdirSync(repo);
      // NODE_ENV=production: the hook must build even where npm would omit dev dependencies.
      const env = {
        ...process.env,
        PRE_COMMIT_HOME: join(tmp, 'cache'),
        NODE_ENV: 'production',
        NO_COLOR: '1',
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.com',
      };
      const git = (...args: string[]) => sh('git', args, repo, env);
      git('init', '-q');
      writeFileSync(join(repo, '.pre-commit-config.yaml'), `repos:\n  - repo: ${hook}\n    rev: ${sha}\n    hooks:\n      - id: raiselint\n`);
      const install = sh('pre-commit', ['install'], repo, env);
      expect(install.code, install.out).toBe(0);
      // The first install of the hook's environment (clone, `npm install`, `npm pack`, global install):
      // measured and printed, not asserted (the machine is shared). No tsc: only esbuild builds.
      const t0 = performance.now();
      const hooks = sh('pre-commit', ['install-hooks'], repo, env);
      const seconds = (performance.now() - t0) / 1000;
      console.log(`pre-commit: first install of the hook environment took ${seconds.toFixed(1)} s`);
      expect(hooks.code, hooks.out).toBe(0);
      git('add', '.pre-commit-config.yaml');

      writeFileSync(join(repo, 'app.py'), ONE);
      git('add', 'app.py');
      const bad = git('commit', '-q', '-m', 'bad');
      expect(bad.out).toMatch(/raiselint\.+Failed/);
      expect(bad.out).toContain(`app.py:6:11: ${R.save} runtime.save_state() raises NotImplementedError`);
      expect(bad.out).toContain('Found 1 finding (1 certain, 0 possible).');
      expect(bad.code).not.toBe(0);
      expect(git('rev-parse', '-q', '--verify', 'HEAD').code).not.toBe(0); // nothing committed

      writeFileSync(
        join(repo, 'app.py'),
        ONE.replace('await runtime.save_state()', `try:\n        await runtime.save_state()\n    except NotImplementedError:\n        pass`),
      );
      writeFileSync(join(repo, 'notes.txt'), ONE); // not Python: not checked
      git('add', 'app.py', 'notes.txt');
      const good = git('commit', '-q', '-m', 'good');
      expect(good.out).toMatch(/raiselint\.+Passed/);
      expect(good.code, good.out).toBe(0);
      expect(git('rev-parse', '-q', '--verify', 'HEAD').code).toBe(0);

      writeFileSync(join(repo, 'notes.txt'), `${ONE}\n# more`);
      git('add', 'notes.txt');
      const other = git('commit', '-q', '-m', 'text only');
      expect(other.out).toMatch(/raiselint\.+\(no files to check\)Skipped/);
      expect(other.code, other.out).toBe(0);
    },
    LONG,
  );
});
