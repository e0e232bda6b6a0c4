/**
 * The npm package as users get it: `npm pack` of this checkout (contents, size), installed globally
 * into a temporary prefix, run from another folder (check, the language server, the code cache).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRPC_BAD } from './helpers.js';

const ROOT = join(import.meta.dirname, '..');
const LONG = 600_000;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  files: string[];
};

interface PackInfo {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}

let tmp: string;
let info: PackInfo;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'raiselint-pack-'));
  // --ignore-scripts: `prepare` (the bundle) already ran in `npm test`; the tarball holds what is built.
  const r = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack failed: ${r.stderr}`);
  info = (JSON.parse(r.stdout) as PackInfo[])[0]!;
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  console.log(`npm pack: ${info.filename}: ${info.entryCount} files, ${kb(info.size)} packed, ${kb(info.unpackedSize)} unpacked`);
}, LONG);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('npm pack', () => {
  it('holds one build of the code (the bundle the CLI runs), the parser, the rules and the docs; no sources, tests, fixtures or maps', () => {
    const paths = info.files.map((f) => f.path).sort();
    expect(paths).toEqual(
      [
        'LICENSE',
        'README.md',
        'bin/codecache.cjs',
        'bin/package.json',
        'bin/raiselint.js',
        'dist/bundle/THIRD-PARTY-LICENSES.txt',
        'dist/bundle/eslint.mjs',
        'dist/bundle/main.cjs',
        'dist/bundle/tree-sitter-python.wasm',
        'dist/bundle/web-tree-sitter.wasm',
        'package.json',
        ...readdirSync(join(ROOT, 'rules', 'curated')).map((f) => `rules/curated/${f}`),
        ...readdirSync(join(ROOT, 'rules', 'records')).map((f) => `rules/records/${f}`),
      ].sort(),
    );
    for (const p of paths) expect(p).not.toMatch(/(^|\/)(src|test|fixtures|scripts)\/|\.map$|\.ts$|v8cache/);
  });

  it("depends only on what the bundle loads at run time (the language server libraries; the JS/TS checker's as optional)", () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['vscode-languageserver', 'vscode-languageserver-textdocument']);
    // Loaded only when JS/TS rules are: optional, so the VS Code extension's server leaves them out (--omit=optional).
    expect(Object.keys(pkg.optionalDependencies).sort()).toEqual(['@typescript-eslint/parser', '@typescript-eslint/utils', 'eslint', 'typescript']);
    const bundle = readFileSync(join(ROOT, 'dist', 'bundle', 'main.cjs'), 'utf8');
    const required = new Set([...bundle.matchAll(/require\("([^".][^"]*)"\)/g)].map((m) => m[1]!).filter((n) => !n.startsWith('node:')));
    const builtins = new Set([
      'fs',
      'path',
      'url',
      'os',
      'crypto',
      'module',
      'util',
      'events',
      'child_process',
      'worker_threads',
      'stream',
      'assert',
      'tty',
      'process',
      'net',
      'buffer',
      'string_decoder',
      'readline',
      'vm',
      'zlib',
      'perf_hooks',
      'fs/promises',
    ]);
    const outside = [...required].filter((n) => !builtins.has(n)).map((n) => (n.startsWith('@') ? n.split('/').slice(0, 2).join('/') : n.split('/')[0]!));
    expect([...new Set(outside)].sort()).toEqual([...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies)].sort());
  });

  it('README states the packed size and file count', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const m = /`npm pack` gives (\d+) files, ([\d.]+) kB packed \(([\d.]+) MB unpacked\)/.exec(readme);
    expect(m, 'README: "`npm pack` gives N files, X kB packed (Y MB unpacked)"').not.toBeNull();
    expect(Number(m![1])).toBe(info.entryCount);
    // README.md itself is in the package: its own edits move the size a little.
    expect(Math.abs(Number(m![2]) * 1000 - info.size) / info.size).toBeLessThan(0.05);
    expect(Math.abs(Number(m![3]) * 1e6 - info.unpackedSize) / info.unpackedSize).toBeLessThan(0.05);
  });
});

describe('installed from the tarball', () => {
  it(
    'a global install into a temporary prefix runs `raiselint check` and `raiselint lsp` from another folder',
    async () => {
      const prefix = join(tmp, 'prefix');
      const inst = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', join(tmp, info.filename)], { encoding: 'utf8' });
      expect(inst.status, inst.stderr).toBe(0);
      const installed = join(prefix, 'lib', 'node_modules', 'raiselint');
      expect(readdirSync(join(installed, 'node_modules')).sort()).not.toContain('web-tree-sitter');
      const bin = join(prefix, 'bin', 'raiselint');
      const work = join(tmp, 'project');
      mkdirSync(work);
      writeFileSync(join(work, 'app.py'), GRPC_BAD);
      const env = { ...process.env, NO_COLOR: '1', PATH: `${join(prefix, 'bin')}:${process.env.PATH}` };
      const r = spawnSync(bin, ['check', '--format', 'concise'], { cwd: work, encoding: 'utf8', env });
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('app.py:6:19: autogen/agent-save-state-is-not-yet-implemented');
      expect(r.status).toBe(1);
      // The V8 code cache goes to the project's cache directory, never into the package.
      expect(readdirSync(join(work, '.raiselint_cache')).some((f) => /^code-[0-9a-f]+\.v8cache$/.test(f))).toBe(true);
      expect(readdirSync(join(installed, 'dist', 'bundle')).filter((f) => f.includes('v8cache'))).toEqual([]);
      const again = spawnSync(bin, ['check', '--format', 'concise'], { cwd: work, encoding: 'utf8', env });
      expect(again.stdout).toBe(r.stdout);
      expect(await lspInitialize(bin, work, env)).toMatchObject({ capabilities: { codeActionProvider: expect.anything() } });
      // The ESLint plugin (`raiselint/eslint`): its default export compiles the bundled records into
      // the project's snapshot (the parser's .wasm found beside the ES module bundle), then reads it.
      const plugin = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(join(installed, 'dist', 'bundle', 'eslint.mjs'))}); console.log(Object.keys(m.default.rules).join(','), m.default.configs.recommended.processor);`,
        ],
        { cwd: work, encoding: 'utf8', env },
      );
      expect(plugin.stderr).toBe('');
      expect(plugin.stdout.trim()).toBe('records raiselint/confidence');
      expect(readdirSync(join(work, '.raiselint_cache', 'rules')).some((f) => f.endsWith('.snap'))).toBe(true);
    },
    LONG,
  );
});

/** Starts `raiselint lsp`, sends `initialize` and returns the result (the server's libraries load from the install). */
function lspInitialize(bin: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ capabilities: unknown }> {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, ['lsp'], { cwd, env });
    let buf = Buffer.alloc(0);
    let err = '';
    const timer = setTimeout(() => (p.kill(), reject(new Error(`no answer to initialize: ${err}`))), 30_000);
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.stdout.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const m = /Content-Length: (\d+)\r\n\r\n/.exec(buf.toString('latin1'));
      if (!m) return;
      const start = m.index + m[0].length;
      if (buf.length < start + Number(m[1])) return;
      clearTimeout(timer);
      p.kill();
      resolve((JSON.parse(buf.subarray(start, start + Number(m[1])).toString('utf8')) as { result: { capabilities: unknown } }).result);
    });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    p.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}
