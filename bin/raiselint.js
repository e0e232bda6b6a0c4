#!/usr/bin/env node
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';

// The one-file bundle (scripts/bundle.mjs) starts faster; it is used only when it is newer than
// the compiled code it replaces (`tsc` rewrites every file), so a stale bundle never runs.
function fresh(bundle, compiled) {
  try {
    return statSync(new URL(bundle, import.meta.url)).mtimeMs >= statSync(new URL(compiled, import.meta.url)).mtimeMs;
  } catch {
    return false;
  }
}

async function load() {
  if (fresh('../dist/bundle/main.cjs', '../dist/cli/main.js') && !process.env.RAISELINT_NO_CODE_CACHE) {
    // The CommonJS bundle, compiled with a V8 code cache (./codecache.cjs); any problem: the ES module bundle.
    try {
      const { loadCached } = createRequire(import.meta.url)('./codecache.cjs');
      return loadCached(new URL('../dist/bundle/main.cjs', import.meta.url));
    } catch {
      // fall through
    }
  }
  return import(fresh('../dist/bundle/main.js', '../dist/cli/main.js') ? '../dist/bundle/main.js' : '../dist/cli/main.js');
}
const { main } = await load();

// A closed pipe (`raiselint check . | head`) ends output quietly, as other CLIs do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`raiselint: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
