'use strict';
// Runs the CommonJS bundle of the CLI (dist/bundle/main.cjs, see scripts/bundle.mjs) with a V8 code
// cache: the bytecode of the functions a run compiled. Node 20 has no compile cache for ES modules;
// vm.Script takes one (`cachedData`). The cache is never shipped: a first run writes it, at exit,
// into the run's cache directory (`--cache-dir`, default .raiselint_cache), only when that
// directory exists by then (check, lsp, rules and explain create it; `--help` writes nothing), as
// `code-<hash of the bundle's path>.v8cache` (two installs sharing a project do not take turns).
//
// The cache file is `RLV8CC1 <node version> <arch> <bundle size> <bundle mtime>\n<sha256 of the
// data>\n<data>`. A cache for another bundle or Node, a truncated or corrupt one (checked with the
// sha256 before V8 sees it) or one V8 rejects (other V8 flags) is ignored, and replaced when the
// process exits (written to a temporary file, then renamed). Nothing here can change what a run
// prints: without a usable cache the same code is compiled from source; errors writing are ignored.
const { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { createRequire } = require('node:module');
const { dirname, join, resolve } = require('node:path');
const vm = require('node:vm');

const MAGIC = 'RLV8CC1';

function headerOf(st) {
  return `${MAGIC} ${process.version} ${process.arch} ${st.size} ${st.mtimeMs}`;
}

function sha256(data) {
  return createHash('sha256').update(data).digest('hex');
}

/** The cached data, when the file is a complete, intact cache for this bundle and this Node. */
function readCache(path, header) {
  let buf;
  try {
    buf = readFileSync(path);
  } catch {
    return undefined;
  }
  const nl = buf.indexOf(10);
  if (nl < 0 || buf.toString('latin1', 0, nl) !== header) return undefined;
  const end = nl + 1 + 64;
  if (buf.length <= end || buf[end] !== 10) return undefined;
  const data = buf.subarray(end + 1);
  return sha256(data) === buf.toString('latin1', nl + 1, end) ? data : undefined;
}

function writeCache(path, header, data) {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${header}\n${sha256(data)}\n`, 'latin1'), data]));
    renameSync(tmp, path);
  } catch {
    // read-only install or full disk: run without a cache
    try {
      unlinkSync(tmp);
    } catch {
      // never written
    }
  }
}

/** Where the code cache of the bundle at `file` goes in the cache directory `dir`. */
function cachePathFor(file, dir) {
  return join(resolve(dir), `code-${createHash('sha256').update(file).digest('hex').slice(0, 16)}.v8cache`);
}

function isDir(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Loads the bundle at `file` and returns its exports; its code cache lives in the directory `dir`. */
function loadCached(file, dir) {
  const st = statSync(file);
  const source = readFileSync(file, 'utf8');
  const cachePath = cachePathFor(file, dir);
  const header = headerOf(st);
  const cachedData = readCache(cachePath, header);
  // The wrapper Node itself puts around a CommonJS module.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  if (!cachedData || script.cachedDataRejected) {
    // At exit: the cache then holds every function this run compiled, not only the top level.
    process.once('exit', () => {
      try {
        if (isDir(dirname(cachePath))) writeCache(cachePath, header, script.createCachedData());
      } catch {
        // the cache is an optimisation
      }
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

module.exports = { loadCached, readCache, headerOf, cachePathFor };
