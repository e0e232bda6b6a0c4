#!/usr/bin/env node
// Builds dist/bundle/main.cjs straight from the TypeScript in src/ with esbuild (no tsc: `npm
// install` of a clone, pre-commit's hook install and `npx raiselint` need only this). It is the
// one build of the code in the package: the CLI, the language server (a lazy part of the same
// file) and the worker threads (a worker runs the same file; see the entry below) all run it.
// Why one CommonJS file: Node 20's ES module loader costs ~2-5 ms per module on a small machine,
// and bin/raiselint.js compiles a classic script through vm.Script with a V8 code cache (written
// on a first run to the cache directory, see bin/codecache.cjs; never shipped). web-tree-sitter's
// CommonJS build is inside, and the parser's two .wasm files are copied next to the bundle, so the
// package depends only on the language server's libraries (kept outside: loaded when `lsp` runs).
// The licenses of everything bundled are collected into dist/bundle/THIRD-PARTY-LICENSES.txt.
// dist/bundle/ is as deep as src/<stage>/, so every `import.meta.url`-relative path is the same.
//
// The build is skipped when its inputs (src/, this script, package.json, the lock file) hash to
// what dist/bundle/inputs.sha256 recorded (`npx raiselint` in a clone runs `prepare` on its first
// call: ~50 ms, not a rebuild); `--force` rebuilds. `tsc` (npm test, npm run build) only checks
// types and writes dist/<stage>/ for development; bin/raiselint.js prefers the bundle.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(ROOT, 'dist', 'bundle');
const stampPath = join(out, 'inputs.sha256');

function inputsHash() {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(join(ROOT, 'src'));
  files.sort();
  files.push(fileURLToPath(import.meta.url), join(ROOT, 'package.json'), join(ROOT, 'package-lock.json'));
  const h = createHash('sha256');
  for (const f of files)
    h.update(`${relative(ROOT, f)}\0`)
      .update(existsSync(f) ? readFileSync(f) : '')
      .update('\0');
  return h.digest('hex');
}

const hash = inputsHash();
if (!process.argv.includes('--force') && existsSync(join(out, 'main.cjs')) && existsSync(stampPath) && readFileSync(stampPath, 'utf8').trim() === hash) {
  // Up to date; made newer than what `tsc` may just have written to dist/<stage>/ from the same
  // sources, since bin/raiselint.js runs the newer of the two (the bundle, with its code cache).
  // Touched only then: otherwise an unchanged bundle keeps its mtime (nothing was built).
  const compiled = join(ROOT, 'dist', 'cli', 'main.js');
  if (existsSync(compiled) && statSync(compiled).mtimeMs >= statSync(join(out, 'main.cjs')).mtimeMs) {
    const now = new Date();
    for (const f of ['main.cjs', 'eslint.mjs']) if (existsSync(join(out, f))) utimesSync(join(out, f), now, now);
  }
  process.exit(0);
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  process.stderr.write('bundle: esbuild is not installed (a dev dependency): cannot build dist/bundle/main.cjs\n');
  process.exit(1);
}

// The entry: the CLI on the main thread; in a worker thread (src/engine/batch.ts starts this very
// file), the thread's loop.
// A thread is told by the mark in its argv (src/engine/threadurl.ts, THREAD_MARK), not by
// node:worker_threads' isMainThread: the CLI's start-up then never loads that module.
const ENTRY = `if (!process.argv.includes(require('./src/engine/threadurl.ts').THREAD_MARK)) module.exports = require('./src/cli/main.ts');
else require('./src/engine/thread.ts');
`;
// jsonc-parser's default (UMD) build loads its parts with a require esbuild cannot follow: its ES build goes in.
const JSONC = join(ROOT, 'node_modules', 'jsonc-parser', 'lib', 'esm', 'main.js');

// commander loads node:child_process at start-up for the executable subcommands raiselint has
// none of (~3 ms of every run: child_process, dgram and their bindings): it is loaded on first use.
const LAZY_CHILD_PROCESS = {
  name: 'lazy-child-process',
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error(`bundle: ${args.path} no longer has ${eager} (update LAZY_CHILD_PROCESS)`);
      return { contents: source.replace(eager, "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };"), loader: 'js' };
    });
  },
};

const JS_EXTERNAL = ['vscode-languageserver', 'vscode-languageserver/*', 'vscode-languageserver-textdocument', 'typescript', 'eslint', '@typescript-eslint/*'];

/**
 * In the ES module bundle, the CommonJS packages outside it are required, not imported: Node
 * imports a CommonJS module into an ES module only after cjs-module-lexer has read its whole
 * source for the names it exports, 350 ms for typescript.js (9 MB) in an ESLint run that has
 * already required it. Each such import becomes a module of the bundle that requires the package
 * with the banner's `require`.
 */
const REQUIRE_EXTERNAL = {
  name: 'require-external',
  setup(build) {
    const filter = /^(typescript|eslint|@typescript-eslint\/[^/]+)$/;
    build.onResolve({ filter }, (args) => (args.namespace === 'required' ? { path: args.path, external: true } : { path: args.path, namespace: 'required' }));
    build.onLoad({ filter: /.*/, namespace: 'required' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};
rmSync(out, { recursive: true, force: true });
const result = await esbuild.build({
  stdin: { contents: ENTRY, resolveDir: ROOT, sourcefile: 'raiselint-entry.cjs', loader: 'js' },
  outfile: join(out, 'main.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: false,
  // Everything in the one file (no dynamic import(): a vm.Script cannot import without an
  // experimental flag); the language server is a lazily initialised part of it.
  supported: { 'dynamic-import': false },
  // src/parse/parser.ts tells web-tree-sitter where its .wasm file is.
  alias: { 'web-tree-sitter': join(ROOT, 'node_modules', 'web-tree-sitter', 'web-tree-sitter.cjs'), 'jsonc-parser': JSONC },
  // The JS/TS checker's libraries (loaded only when JS/TS rules are) stay outside too: runtime dependencies.
  external: JS_EXTERNAL,
  plugins: [LAZY_CHILD_PROCESS],
  define: { 'import.meta.url': '__raiselintUrl' },
  banner: { js: "var __raiselintUrl = require('node:url').pathToFileURL(__filename).href;" },
  metafile: true,
  logLevel: 'warning',
});
for (const [pkg, name] of [
  ['web-tree-sitter', 'web-tree-sitter.wasm'],
  ['tree-sitter-python', 'tree-sitter-python.wasm'],
]) {
  copyFileSync(join(ROOT, 'node_modules', pkg, name), join(out, name));
}
// The ESLint plugin (`raiselint/eslint`, package.json exports) as one ES module beside the CLI.
const plugin = await esbuild.build({
  entryPoints: [join(ROOT, 'src', 'eslint', 'index.ts')],
  outfile: join(out, 'eslint.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: false,
  // web-tree-sitter goes in (a dev dependency); its .wasm files sit beside this file as beside main.cjs.
  alias: { 'web-tree-sitter': join(ROOT, 'node_modules', 'web-tree-sitter', 'web-tree-sitter.cjs'), 'jsonc-parser': JSONC },
  external: JS_EXTERNAL,
  plugins: [REQUIRE_EXTERNAL],
  // CommonJS dependencies call require() for Node's modules, and web-tree-sitter finds its .wasm by __dirname
  // (compiling records: loadPlugin's snapshot is built on a first run).
  banner: {
    js: "import { createRequire as __raiselintRequire } from 'node:module'; import { fileURLToPath as __raiselintPath } from 'node:url'; const require = __raiselintRequire(import.meta.url); const __filename = __raiselintPath(import.meta.url); const __dirname = __filename.replace(/[\\\\/][^\\\\/]*$/, '');",
  },
  metafile: true,
  logLevel: 'warning',
});
asciiOnly(join(out, 'main.cjs'));
writeFileSync(join(out, 'THIRD-PARTY-LICENSES.txt'), thirdPartyLicenses([...Object.keys(result.metafile.inputs), ...Object.keys(plugin.metafile.inputs)]));
writeFileSync(stampPath, `${hash}\n`);

/**
 * esbuild escapes non-ASCII characters in code but keeps them in the comments it keeps (`→` in a
 * doc comment): one such character makes V8 hold the whole 1.5 MB source as a two-byte string
 * (3 MB; decoded from UTF-8 at every start, scanned twice as wide for each function compiled
 * lazily). Escaped here too; in a comment `\u2192` reads as well.
 */
function asciiOnly(file) {
  const src = readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(src)) return;
  writeFileSync(
    file,
    src.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/** The name, version and license text of each npm package with code in the bundle, and of the grammar. */
function thirdPartyLicenses(inputs) {
  const pkgs = new Set(['tree-sitter-python']);
  for (const input of inputs) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) pkgs.add(m[1]);
  }
  const parts = ['raiselint bundles the following packages (dist/bundle/main.cjs, *.wasm).\n'];
  for (const name of [...pkgs].sort()) {
    const dir = join(ROOT, 'node_modules', name);
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
    const text = file ? readFileSync(join(dir, file), 'utf8').trim() : `License: ${meta.license}`;
    parts.push(`${'-'.repeat(72)}\n${name}@${meta.version} (${meta.license})\n\n${text}\n`);
  }
  return parts.join('\n');
}
