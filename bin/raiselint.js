#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json): Node starts a CommonJS entry point a few milliseconds sooner than
// an ES module one, and the CLI itself is a CommonJS bundle (see ./codecache.cjs).
const { statSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const ROOT = join(__dirname, '..');

// The bundles (scripts/bundle.mjs) start faster; one is used only when it is newer than the
// compiled code it replaces (`tsc` rewrites every file), so a stale bundle never runs.
function fresh(bundle, compiled) {
  try {
    return statSync(join(ROOT, bundle)).mtimeMs >= statSync(join(ROOT, compiled)).mtimeMs;
  } catch {
    return false;
  }
}

async function load() {
  if (fresh('dist/bundle/main.cjs', 'dist/cli/main.js') && !process.env.RAISELINT_NO_CODE_CACHE) {
    // The CommonJS bundle, compiled with a V8 code cache; on any problem, the ES module bundle.
    try {
      return require('./codecache.cjs').loadCached(pathToFileURL(join(ROOT, 'dist', 'bundle', 'main.cjs')));
    } catch {
      // fall through
    }
  }
  const entry = fresh('dist/bundle/main.js', 'dist/cli/main.js') ? join(ROOT, 'dist', 'bundle', 'main.js') : join(ROOT, 'dist', 'cli', 'main.js');
  return import(pathToFileURL(entry).href);
}

// A closed pipe (`raiselint check . | head`) ends output quietly, as other CLIs do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

load()
  .then(({ main }) => main(process.argv.slice(2)))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`raiselint: internal error: ${err && err.message ? err.message : String(err)}\n`);
      process.exitCode = 2;
    },
  );
