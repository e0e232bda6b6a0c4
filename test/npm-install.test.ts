/** The package builds on `npm install` of a clone even where npm would omit dev dependencies (see .npmrc). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cloneHead } from './helpers/git.js';

const ROOT = join(import.meta.dirname, '..');
const LONG = 900_000;

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8' });
  return { code: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

describe('install from a clone', () => {
  it(
    '`npm install` in a clone builds dist/ even when the environment omits dev dependencies (.npmrc)',
    () => {
      const tmp = mkdtempSync(join(tmpdir(), 'raiselint-npmi-'));
      onTestFinished(() => rmSync(tmp, { recursive: true, force: true }));
      const clone = join(tmp, 'clone');
      cloneHead(clone);
      expect(existsSync(join(clone, 'dist'))).toBe(false);
      const env = { ...process.env, NODE_ENV: 'production', npm_config_omit: 'dev' };
      const inst = sh('npm', ['install', '--no-save', '--no-audit', '--no-fund'], clone, env);
      expect(inst.code, inst.out).toBe(0);
      expect(existsSync(join(clone, 'dist', 'cli', 'main.js'))).toBe(true);
      // `npm pack` prints only the tarball name on stdout (pre-commit reads it as a path).
      const pack = spawnSync('npm', ['pack'], { cwd: clone, env, encoding: 'utf8' });
      expect(pack.status).toBe(0);
      expect(pack.stdout.trim()).toBe('raiselint-0.1.0.tgz'.replace('0.1.0', JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version));
    },
    LONG,
  );
});
