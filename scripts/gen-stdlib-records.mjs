#!/usr/bin/env node
// Generates error records in the upstream dataset format (one `{"record": {...}, "datasetVersion": "..."}`
// object per line, schemaVersion 2) from the real raise statements of a Python standard library: for each
// `raise SomeError(...)` inside a public module function, a public method (instance, class, static,
// property) of a public module-level class, or `__init__` of a public class (a constructor record).
//
//   node scripts/gen-stdlib-records.mjs [--stdlib DIR] [--python python3] [--sample N] [--seed S] [--out file.jsonl]
//
// The raise sites come from python3's own `ast` (scripts/lib/stdlib_sites.py); the standard library is
// this machine's python3's unless --stdlib names one. Each record has what the dataset has: `repo`
// python/cpython, `filePath` Lib/..., the 37-line `sourceCode` window centred on the raise (clipped at
// the file's ends, never moved to include the `def`), the literal message and its pattern, a stable id,
// a githubUrl at the version's tag, code fields showing the public entry point as a dataset author
// writes them (`import m` / `m.f(...)`; `from m import C`, `obj = C(...)`, `obj.meth(...)`;
// `isinstance(obj, C)`), and prose. Deterministic: the same library and options give the same bytes.
// --sample N keeps N records chosen by --seed (default 1), in file order.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { datasetLine, die, intOption, mulberry32, readOptions, regexEscape, writeLines } from './lib/dataset.mjs';
import { codeFields, proseFields } from './lib/stdlib-fields.mjs';

const TOOL = 'gen-stdlib-records';
const HELPER = join(dirname(fileURLToPath(import.meta.url)), 'lib', 'stdlib_sites.py');
const HALF = 18;
/** The dataset's fixed stamp (generated records must not change with the clock). */
const STAMP = '2026-08-15T17:31:12.345Z';

/** Raise sites and file texts of `stdlib`, through python3's ast. */
export function readSites(stdlib, python = 'python3') {
  const out = execFileSync(python, [HELPER, stdlib], { encoding: 'utf8', maxBuffer: 1 << 30 });
  return JSON.parse(out);
}

export function defaultStdlib(python = 'python3') {
  return execFileSync(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: 'utf8' }).trim();
}

function messageOf(s) {
  if (s.messageKind === 'literal') return { message: s.message, pattern: regexEscape(s.message) };
  if (s.messageKind === 'format') {
    const holes = /\{[^{}]*\}|%[-#0 +]*\d*(?:\.\d+)?[sdrifxXeEgGc%]/g;
    const parts = s.message.split(holes).map(regexEscape);
    return { message: s.message, pattern: parts.join('.*?') };
  }
  if (s.messageKind === 'expr' && s.message) return { message: s.message, pattern: '.*' };
  return { message: `${s.errorClass} raised by ${s.className ? `${s.className}.` : ''}${s.func}()`, pattern: null };
}

function slugOf(s, message) {
  const words = `${s.func} ${message}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .slice(0, 9);
  return words.join('-').slice(0, 72).replace(/-+$/, '') || 'raise';
}

function windowOf(lines, line) {
  const start = Math.max(1, line - HALF);
  const end = Math.min(lines.length, start + 2 * HALF);
  return { start, end, code: lines.slice(start - 1, end).join('\n') };
}

function recordOf(s, text, version, slugs) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const filePath = `Lib/${s.file}`;
  const w = windowOf(lines, s.line);
  const { message, pattern } = messageOf(s);
  let slug = slugOf(s, message);
  for (let n = 2; slugs.has(slug); n++) slug = `${slugOf(s, message)}-${n}`;
  slugs.add(slug);
  const id = createHash('sha256').update(`python/cpython ${version} ${filePath}:${s.line}:${s.col} ${s.errorClass}`).digest('hex').slice(0, 16);
  // As the dataset names it: the class's own name (the code fields qualify it in their `except` clauses).
  const errorClass = s.errorClass.split('.').pop();
  const code = codeFields(s, id);
  const prose = proseFields(s, message, code);
  return {
    id,
    repo: 'python/cpython',
    slug,
    errorCode: null,
    errorMessage: message,
    messagePattern: pattern,
    errorType: 'exception',
    errorClass,
    httpStatus: null,
    severity: 'error',
    filePath,
    lineNumber: s.line,
    sourceCode: w.code,
    sourceCodeStart: w.start,
    sourceCodeEnd: w.end,
    githubUrl: `https://github.com/python/cpython/blob/v${version}/${filePath}#L${w.start}-L${w.end}`,
    documentation: prose.documentation,
    triggerScenarios: prose.triggerScenarios,
    commonSituations: prose.commonSituations,
    solutions: prose.solutions,
    exampleFix: code.exampleFix,
    handlingStrategy: code.handlingStrategy,
    validationCode: code.validationCode,
    typeGuard: code.typeGuard,
    tryCatchPattern: code.tryCatchPattern,
    preventionTips: prose.preventionTips,
    tags: ['python', 'cpython', 'stdlib', s.module.split('.')[0], s.kind],
    backgroundTag: null,
    analyzedSha: null,
    analyzedAt: STAMP,
    schemaVersion: 2,
  };
}

/** Every record of the library at `stdlib` (file order), or `sample` of them chosen by `seed`. */
export function generateStdlibRecords({ stdlib, python = 'python3', sample, seed = 1 } = {}) {
  const root = stdlib ?? defaultStdlib(python);
  const { version, sites, files } = readSites(root, python);
  const slugs = new Set();
  let records = sites.map((s) => recordOf(s, files[s.file], version, slugs));
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
  return records.map((r) => datasetLine(r, STAMP));
}

function main() {
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
    lines = generateStdlibRecords({ stdlib, python, sample, seed });
  } catch (e) {
    die(TOOL, `cannot read the raise sites with ${python}: ${String(e.message ?? e).split('\n')[0]}`);
  }
  writeLines(lines, opts.out);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
