#!/usr/bin/env node
// Generates error records in the upstream dataset format (one `{"record": {...}, "datasetVersion": "..."}`
// object per line, schemaVersion 2) from the real raise statements of a Python standard library: a
// thin caller of `raiselint records generate --stdlib` (src/records/generate/, read with tree-sitter:
// the raising def's window, message and pattern, stable id, code and prose fields), with a seeded
// sample on top.
//
//   node scripts/gen-stdlib-records.mjs [--stdlib DIR] [--python python3] [--sample N] [--seed S] [--out file.jsonl]
//
// The standard library is this machine's python3's unless --stdlib names one; the version in ids and
// links is python3's. Deterministic: the same library and options give the same bytes.
// --sample N keeps N records chosen by --seed (default 1), in file order.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { die, intOption, mulberry32, readOptions, writeLines } from './lib/dataset.mjs';

const TOOL = 'gen-stdlib-records';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export function defaultStdlib(python = 'python3') {
  return execFileSync(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: 'utf8' }).trim();
}

function pythonVersion(python) {
  return execFileSync(python, ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])'], { encoding: 'utf8' }).trim();
}

/** The built generator (dist/: `npm run build`). */
async function generator() {
  const entry = join(ROOT, 'dist', 'records', 'generate', 'index.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build`);
  return import(pathToFileURL(entry).href);
}

/** Every record of the library at `stdlib` (file order), or `sample` of them chosen by `seed`. */
export async function generateStdlibRecords({ stdlib, python = 'python3', sample, seed = 1 } = {}) {
  const root = stdlib ?? defaultStdlib(python);
  const { generateRecords } = await generator();
  let records = (await generateRecords([{ path: root, stdlib: { version: pythonVersion(python) } }])).lines;
  if (sample !== undefined && sample < records.length) {
    const rand = mulberry32(seed);
    const idx = records.map((_, i) => i);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    const keep = new Set(idx.slice(0, sample));
    records = records.filter((_, i) => keep.has(i));
  }
  return records;
}

async function main() {
  const opts = readOptions(TOOL, process.argv.slice(2), ['stdlib', 'python', 'sample', 'seed', 'out']);
  const sample = opts.sample === undefined ? undefined : intOption(TOOL, opts, 'sample', 0);
  const seed = intOption(TOOL, opts, 'seed', 1, -(2 ** 31));
  const python = opts.python ?? 'python3';
  let stdlib = opts.stdlib;
  if (stdlib !== undefined) {
    stdlib = resolve(stdlib);
    if (!existsSync(stdlib) || !statSync(stdlib).isDirectory()) die(TOOL, `--stdlib ${stdlib}: not a directory`);
  }
  let lines;
  try {
    lines = await generateStdlibRecords({ stdlib, python, sample, seed });
  } catch (e) {
    die(TOOL, `cannot read the raise sites with ${python}: ${String(e.message ?? e).split('\n')[0]}`);
  }
  writeLines(lines, opts.out);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
