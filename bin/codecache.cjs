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
const Module = require('node:module');
const { createRequire } = Module;
const { dirname, join, resolve, sep } = require('node:path');
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

/**
 * The packages the bundle requires (eslint, @typescript-eslint/* and theirs: ~550 CommonJS files
 * on a JS/TS run) get a code cache too: one file for all of them,
 * `deps-<hash of the bundle's path>.v8cache` in the same directory, `RLV8DEPS1 <node version>
 * <arch>\n<sha256 of the rest>\n<JSON index>\n<data>`. The index gives, for each module's path, the
 * size and mtime its entry was made from and where its data is. A module whose file has another
 * size or mtime, or whose entry V8 rejects, is compiled from source, and the file is rewritten at
 * exit (the entries of this run, and those of other runs' modules this one did not load). Only
 * files under a node_modules folder are cached. Left to Node: a module that starts with `#!`, and
 * one whose text has `import(` anywhere (in code, a comment or a string: not told apart), since on
 * Node 20 a vm.Script made from cached data cannot run `import()`. typescript.js is one of those.
 */
const DEPS_MAGIC = 'RLV8DEPS1';
const DYNAMIC_IMPORT = /\bimport\s*\(/;

function depsHeader() {
  return `${DEPS_MAGIC} ${process.version} ${process.arch}`;
}

function depsPathFor(file, dir) {
  return join(resolve(dir), `deps-${createHash('sha256').update(file).digest('hex').slice(0, 16)}.v8cache`);
}

/** The index and data of an intact dependency cache, or an empty one. */
function readDeps(path) {
  const empty = { index: {}, data: Buffer.alloc(0) };
  const data = readCache(path, depsHeader());
  if (!data) return empty;
  const nl = data.indexOf(10);
  if (nl < 0) return empty;
  try {
    const index = JSON.parse(data.toString('utf8', 0, nl));
    return index && typeof index === 'object' ? { index, data: data.subarray(nl + 1) } : empty;
  } catch {
    return empty;
  }
}

function writeDeps(path, entries) {
  const index = {};
  const parts = [];
  let at = 0;
  for (const [file, e] of entries) {
    index[file] = [e.size, e.mtimeMs, at, e.bytes.length];
    parts.push(e.bytes);
    at += e.bytes.length;
  }
  writeCache(path, depsHeader(), Buffer.concat([Buffer.from(`${JSON.stringify(index)}\n`), ...parts]));
}

/** Installs the dependency code cache for this process (see above); `bundle` names its file, `dir` is the cache directory. */
function cacheDependencies(bundle, dir) {
  const path = depsPathFor(bundle, dir);
  const { index, data } = readDeps(path);
  const entries = new Map();
  for (const [file, [size, mtimeMs, at, length]] of Object.entries(index))
    if (at + length <= data.length) entries.set(file, { size, mtimeMs, bytes: data.subarray(at, at + length) });
  const fresh = [];
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    if (!filename.includes(`${sep}node_modules${sep}`) || content.startsWith('#!') || DYNAMIC_IMPORT.test(content))
      return compile.call(this, content, filename);
    let fn;
    try {
      const st = statSync(filename);
      const old = entries.get(filename);
      const cachedData = old && old.size === st.size && old.mtimeMs === st.mtimeMs ? old.bytes : undefined;
      // `import()` in the module resolves as Node's own loader would (from the module's file).
      const script = new vm.Script(Module.wrap(content), { filename, cachedData });
      if (!cachedData || script.cachedDataRejected) fresh.push({ filename, script, st });
      fn = script.runInThisContext({ displayErrors: true });
    } catch {
      return compile.call(this, content, filename);
    }
    const mod = this;
    const req = (id) => mod.require(id);
    req.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
    req.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
    req.main = process.mainModule;
    req.extensions = Module._extensions;
    req.cache = Module._cache;
    return fn.call(mod.exports, mod.exports, req, mod, filename, dirname(filename));
  };
  process.once('exit', () => {
    if (!fresh.length) return;
    try {
      if (!isDir(dirname(path))) return;
      for (const f of fresh) entries.set(f.filename, { size: f.st.size, mtimeMs: f.st.mtimeMs, bytes: f.script.createCachedData() });
      writeDeps(path, entries);
    } catch {
      // the cache is an optimisation
    }
  });
}

module.exports = { loadCached, cacheDependencies, readCache, readDeps, headerOf, depsHeader, cachePathFor, depsPathFor };
