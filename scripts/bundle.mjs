#!/usr/bin/env node
// Bundles the compiled code (run after `tsc`) into dist/bundle/: main.cjs (what bin/raiselint.js
// runs, see below), main.js (its ES module twin, run when main.cjs cannot be), thread.js (what worker
// threads run) and the chunks they share; code loaded on demand
// (the language server) is a separate chunk, loaded when needed, sharing the same module instances.
// Why: Node 20's ES module loader costs ~2-5 ms per module on a small machine (resolution,
// reading, linking); the CLI has ~50. One file starts ~0.15-0.25 s faster here (see README).
// dist/bundle/ is as deep as dist/<stage>/, so every `import.meta.url`-relative path is the same.
// web-tree-sitter (loaded only when a file is parsed) and the language server's libraries stay
// outside. bin/raiselint.js uses the bundle only when it is newer than the compiled code (`tsc`
// rewrites every file): a stale bundle never runs. Without esbuild (a production install),
// nothing is bundled and nothing changes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  process.stderr.write('bundle: esbuild is not installed; the CLI runs unbundled\n');
  process.exit(0);
}

const out = join(ROOT, 'dist', 'bundle');
// jsonc-parser's default (UMD) build loads its parts with a require esbuild cannot follow: its ES build goes in.
const JSONC = join(ROOT, 'node_modules', 'jsonc-parser', 'lib', 'esm', 'main.js');
rmSync(out, { recursive: true, force: true });
await esbuild.build({
  entryPoints: { main: join(ROOT, 'dist', 'cli', 'main.js'), thread: join(ROOT, 'dist', 'engine', 'thread.js') },
  outdir: out,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['web-tree-sitter', 'vscode-languageserver', 'vscode-languageserver/*', 'vscode-languageserver-textdocument'],
  alias: { 'jsonc-parser': JSONC },
  // CommonJS dependencies (commander, ignore, picocolors) call require() for Node's modules.
  banner: { js: "import { createRequire as __raiselintRequire } from 'node:module'; const require = __raiselintRequire(import.meta.url);" },
  logLevel: 'warning',
});

// The CLI once more as one CommonJS file, main.cjs, which bin/raiselint.js compiles itself with a
// V8 code cache (main.cjs.v8cache, written after a run when missing or rejected): no time spent
// compiling the CLI's functions again on each start. Node 20 has no compile cache for ES modules
// (module.enableCompileCache is Node 22), and vm.Script has one, for classic scripts only.
// Everything is in the one file (no dynamic import(): a vm.Script cannot import without an
// experimental flag).
await esbuild.build({
  entryPoints: { main: join(ROOT, 'dist', 'cli', 'main.js') },
  outdir: out,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  supported: { 'dynamic-import': false },
  // web-tree-sitter's CommonJS build goes in too (its code is then in the code cache as well);
  // src/parse/parser.ts tells it where its .wasm file is.
  alias: { 'web-tree-sitter': join(ROOT, 'node_modules', 'web-tree-sitter', 'web-tree-sitter.cjs'), 'jsonc-parser': JSONC },
  external: ['vscode-languageserver', 'vscode-languageserver/*', 'vscode-languageserver-textdocument'],
  define: { 'import.meta.url': '__raiselintUrl' },
  banner: { js: "var __raiselintUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});

// A first run writes the code cache (bin/codecache.cjs): one that parses files, plans fixes and
// prints them, so the cache holds those functions too. Without the fixtures (an installed
// package), the user's first run writes it.
const fixtures = join(ROOT, 'fixtures', 'autogen');
if (existsSync(fixtures)) {
  const tmp = mkdtempSync(join(tmpdir(), 'raiselint-bundle-'));
  try {
    spawnSync(process.execPath, [join(ROOT, 'bin', 'raiselint.js'), 'check', fixtures, '--no-config', '--no-cache', '--cache-dir', tmp, '--jobs', '1'], { cwd: tmp, stdio: 'ignore' });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
