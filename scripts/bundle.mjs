#!/usr/bin/env node
// Bundles the compiled code (run after `tsc`) into dist/bundle/: main.js (what bin/raiselint.js
// runs), thread.js (what worker threads run) and the chunks they share; code loaded on demand
// (the language server) is a separate chunk, loaded when needed, sharing the same module instances.
// Why: Node 20's ES module loader costs ~2-5 ms per module on a small machine (resolution,
// reading, linking); the CLI has ~50. One file starts ~0.15-0.25 s faster here (see README).
// dist/bundle/ is as deep as dist/<stage>/, so every `import.meta.url`-relative path is the same.
// web-tree-sitter (loaded only when a file is parsed) and the language server's libraries stay
// outside. bin/raiselint.js uses the bundle only when it is newer than the compiled code (`tsc`
// rewrites every file): a stale bundle never runs. Without esbuild (a production install),
// nothing is bundled and nothing changes.
import { rmSync } from 'node:fs';
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
  // CommonJS dependencies (commander, ignore, picocolors) call require() for Node's modules.
  banner: { js: "import { createRequire as __raiselintRequire } from 'node:module'; const require = __raiselintRequire(import.meta.url);" },
  logLevel: 'warning',
});
