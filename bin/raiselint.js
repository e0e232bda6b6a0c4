#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json): Node starts a CommonJS entry point a few milliseconds sooner than
// an ES module one, and the CLI itself is one CommonJS file, dist/bundle/main.cjs (built from src/
// by scripts/bundle.mjs; see ./codecache.cjs for its V8 code cache).
const { statSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const ROOT = join(__dirname, '..');
const BUNDLE = join(ROOT, 'dist', 'bundle', 'main.cjs');
const COMPILED = join(ROOT, 'dist', 'cli', 'main.js');

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * The cache directory the command will use (`--cache-dir DIR`, else .raiselint_cache in the
 * current directory), where the code cache goes. Read from the arguments before they are parsed.
 */
function cacheDir(argv) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') break;
    if (argv[i] === '--cache-dir' && argv[i + 1] !== undefined) return argv[i + 1];
    if (argv[i].startsWith('--cache-dir=')) return argv[i].slice('--cache-dir='.length);
  }
  return '.raiselint_cache';
}

async function load(argv) {
  // The package holds only the bundle. In a clone, `tsc` also writes dist/<stage>/: the newer wins,
  // so a stale bundle never runs.
  const bundle = mtime(BUNDLE);
  if (bundle >= 0 && bundle >= mtime(COMPILED)) {
    if (process.env.RAISELINT_NO_CODE_CACHE) return require(BUNDLE);
    try {
      const codeCache = require('./codecache.cjs');
      const dir = cacheDir(argv);
      codeCache.cacheDependencies(BUNDLE, dir);
      return codeCache.loadCached(BUNDLE, dir);
    } catch {
      return require(BUNDLE);
    }
  }
  return import(pathToFileURL(COMPILED).href);
}

// A closed pipe (`raiselint check . | head`) ends output quietly, as other CLIs do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

/**
 * Ends the process once the command is done and its output handed to the system, instead of
 * waiting for the event loop to drain: what is left then is the engine's clean-up (a garbage
 * collection scheduled as a task: 15-30 ms of a 20-file run), nothing the user can see. When
 * output is still queued in a stream (a pipe on POSIX is written asynchronously), the process
 * ends as before, when the loop has written it. `exit` listeners (the code cache,
 * ./codecache.cjs) run either way.
 */
function exitWhenFlushed(code) {
  process.exitCode = code;
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
}

const argv = process.argv.slice(2);
load(argv)
  .then(({ main }) => main(argv))
  .then(
    (code) => {
      exitWhenFlushed(code);
    },
    (err) => {
      process.stderr.write(`raiselint: internal error: ${err && err.message ? err.message : String(err)}\n`);
      process.exitCode = 2;
    },
  );
