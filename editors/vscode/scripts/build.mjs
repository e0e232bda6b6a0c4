#!/usr/bin/env node
// Builds the extension: dist/extension.js (the client, bundled with vscode-languageclient by esbuild;
// `vscode` is the editor's), and server/, the raiselint package the extension starts: `npm pack`
// of the repository (the bundle `prepare` built), unpacked, with its two dependencies installed.
// Then `vsce package --no-dependencies` puts both in the .vsix (see .vscodeignore).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = join(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = join(HERE, '..', '..');
// esbuild is the repository's dev dependency (resolved from ../../node_modules).
const esbuild = await import('esbuild');

rmSync(join(HERE, 'dist'), { recursive: true, force: true });
await esbuild.build({
  entryPoints: [join(HERE, 'src', 'extension.ts')],
  outfile: join(HERE, 'dist', 'extension.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  sourcemap: false,
  logLevel: 'warning',
});

const server = join(HERE, 'server');
rmSync(server, { recursive: true, force: true });
const tmp = mkdtempSync(join(tmpdir(), 'raiselint-vsix-'));
try {
  // Without the npm_config_* of a calling npm (`npm test` passes the repository's include=dev on).
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
  const npm = (args, cwd) => execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const tarball = npm(['pack', '--silent', '--pack-destination', tmp], REPO).trim().split('\n').pop();
  execFileSync('tar', ['-xzf', join(tmp, tarball), '-C', tmp]);
  renameSync(join(tmp, 'package'), server);
  npm(
    ['install', '--omit=dev', '--omit=optional', '--include=prod', '--ignore-scripts', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error'],
    server,
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
copyFileSync(join(REPO, 'LICENSE'), join(HERE, 'LICENSE'));
mkdirSync(join(HERE, 'dist'), { recursive: true });
process.stdout.write(
  `built dist/extension.js and server/ (raiselint ${JSON.parse(execFileSync('node', ['-p', 'JSON.stringify(require("./server/package.json").version)'], { cwd: HERE, encoding: 'utf8' }))}; ${readdirSync(join(server, 'node_modules')).length} dependencies)\n`,
);
