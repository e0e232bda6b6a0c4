/** The package builds on `npm install` of a clone (esbuild only, no tsc) even where npm would omit dev dependencies (see .npmrc). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cloneHead } from './helpers/git.js';

const ROOT = join(import.meta.dirname, '..');
const LONG = 900_000;
const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8' });
  return { code: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

describe('install from a clone', () => {
  it(
    '`npm install` in a clone builds the bundle (no tsc) even when the environment omits dev dependencies (.npmrc); `npx raiselint` does not build it again',
    () => {
      const tmp = mkdtempSync(join(tmpdir(), 'raiselint-npmi-'));
      onTestFinished(() => rmSync(tmp, { recursive: true, force: true }));
      const clone = join(tmp, 'clone');
      cloneHead(clone);
      expect(existsSync(join(clone, 'dist'))).toBe(false);
      const env = { ...process.env, NODE_ENV: 'production', npm_config_omit: 'dev' };
      const inst = sh('npm', ['install', '--no-save', '--no-audit', '--no-fund'], clone, env);
      expect(inst.code, inst.out).toBe(0);
      const bundle = join(clone, 'dist', 'bundle', 'main.cjs');
      expect(existsSync(bundle)).toBe(true);
      expect(existsSync(join(clone, 'dist', 'cli')), 'the install ran tsc').toBe(false);
      const built = statSync(bundle).mtimeMs;
      // `npx raiselint` in the clone installs the clone into npx's cache, which runs `prepare`: the
      // bundle is up to date, so nothing is rebuilt (was: tsc and the bundle, ~8 s, on a first call).
      const npx = sh('npx', ['--yes', 'raiselint', '--version'], clone, {
        ...env,
        npm_config_cache: join(tmp, 'npm-cache'),
        npm_config_prefer_offline: 'true',
      });
      expect(npx.out.trim().split('\n').at(-1), npx.out).toBe(VERSION);
      expect(statSync(bundle).mtimeMs).toBe(built);
      const again = sh(process.execPath, [join(clone, 'scripts', 'bundle.mjs')], clone, env);
      expect(again.code, again.out).toBe(0);
      expect(statSync(bundle).mtimeMs).toBe(built);
      // `npm pack` prints only the tarball name on stdout (pre-commit reads it as a path).
      const pack = spawnSync('npm', ['pack'], { cwd: clone, env, encoding: 'utf8' });
      expect(pack.status).toBe(0);
      expect(pack.stdout.trim()).toBe(`raiselint-${VERSION}.tgz`);
    },
    LONG,
  );
});
