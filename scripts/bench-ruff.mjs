#!/usr/bin/env node
// Ruff's WebAssembly build as a benchmark anchor (scripts/bench-dataset.mjs): one process, one rule,
// every .py file of the folders given (or of a list file after `--list`), one `Workspace.check` per
// file. Prints `<files> files, <diagnostics> diagnostics`.
//   node scripts/bench-ruff.mjs [--rule E711] <dir>... | --list files.txt
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

// Installed by scripts/bench.mjs on first use into node_modules/.cache/raiselint-bench-tools (not a devDependency).
const require = createRequire(join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'raiselint-bench-tools', 'noop.js'));
const { Workspace, PositionEncoding } = require('@astral-sh/ruff-wasm-nodejs');

const args = process.argv.slice(2);
let rule = 'E711';
const roots = [];
let list;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rule') rule = args[++i];
  else if (args[i] === '--list') list = args[++i];
  else roots.push(args[i]);
}

function pyFiles(dir, out) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === '__pycache__' || e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) pyFiles(p, out);
    else if (e.isFile() && e.name.endsWith('.py')) out.push(p);
  }
  return out;
}

const files = list ? readFileSync(list, 'utf8').split('\n').filter(Boolean) : roots.flatMap((r) => pyFiles(r, []));
const ws = new Workspace({ lint: { select: [rule] } }, PositionEncoding.Utf16);
const decoder = new TextDecoder('utf-8');
let diagnostics = 0;
for (const f of files) {
  // Ruff reads UTF-8; the few latin-1 files of the standard library decode with replacement characters.
  const text = decoder.decode(readFileSync(f));
  try {
    diagnostics += ws.check(text).length;
  } catch {
    // a file Ruff cannot handle: skipped, as `ruff check` reports and goes on
  }
}
process.stdout.write(`${files.length} files, ${diagnostics} diagnostics\n`);
