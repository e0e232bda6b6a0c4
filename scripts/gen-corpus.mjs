#!/usr/bin/env node
// Generates a Python corpus for equivalence tests and benchmarks. Deterministic.
//
//   node scripts/gen-corpus.mjs --out DIR [--files 200] [--seed 7] [--records FILE.jsonl --record-count N]
//
// Files mix: top-level units (functions, classes) cut from fixtures/autogen (real library usage,
// findings certain and possible), calls to the synthetic records of scripts/gen-records.mjs
// (when --records is given, the same records are written there), and decoys that mention trigger
// names without being able to match (a method name and no class name, names in comments and
// strings, names glued to other identifier characters or to non-ASCII letters). A few special
// files: a latin-1 coding cookie, invalid UTF-8, a UTF-8 BOM, CRLF line ends, a syntax error,
// an empty file.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateRecords } from './gen-records.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splits a fixture into its import block and its top-level units. */
function units(text) {
  const lines = text.split('\n');
  const imports = [];
  const out = [];
  let cur = null;
  let inImport = false;
  for (const line of lines) {
    if (inImport) {
      imports.push(line);
      if (line.includes(')')) inImport = false;
      continue;
    }
    if (/^(import |from )/.test(line)) {
      imports.push(line);
      inImport = line.includes('(') && !line.includes(')');
      continue;
    }
    if (/^[A-Z_]+ = /.test(line)) {
      imports.push(line);
      continue;
    }
    if (/^(async def |def |class |@)/.test(line)) {
      if (cur && cur.decorated) {
        cur.lines.push(line);
        cur.decorated = line.startsWith('@');
        continue;
      }
      if (cur) out.push(cur.lines.join('\n'));
      cur = { lines: [line], decorated: line.startsWith('@') };
      continue;
    }
    if (cur && (line === '' || /^[ \t#]/.test(line))) {
      cur.lines.push(line);
      continue;
    }
    if (cur) out.push(cur.lines.join('\n'));
    cur = null;
  }
  if (cur) out.push(cur.lines.join('\n'));
  return { imports: imports.join('\n'), units: out };
}

const DECOYS = [
  // A method name with no known class in the file: cannot match.
  (k) => `def decoy_${k}(store):\n    store.save_state()\n    store.load_state({})\n    return store.metadata\n`,
  (k) =>
    `class Snapshot${k}:\n    def save_state(self):\n        return {}\n\n    def agent_save_state(self, a):\n        return a\n\n\nSnapshot${k}().agent_save_state(1)\n`,
  // Names in comments and strings only.
  (k) =>
    `# GrpcWorkerAgentRuntime.agent_save_state() is documented elsewhere (${k})\nNOTE_${k} = "call runtime.agent_load_state(agent) on a GrpcWorkerAgentRuntime"\n`,
  // Names glued to other identifier characters.
  (k) =>
    `def my_save_state_${k}(x_agent_save_state):\n    GrpcWorkerAgentRuntimeX = x_agent_save_state\n    return GrpcWorkerAgentRuntimeX.agent_save_state_v2()\n`,
  // Non-ASCII letters next to names (one identifier for Python).
  (k) => `def f${k}(é):\n    ésave_state = é\n    return ésave_state\n`,
  // Plain code.
  (k) => `def total_${k}(xs):\n    t = 0\n    for x in xs:\n        if x % 2:\n            t += x\n    return t\n`,
  (k) =>
    `class Point${k}:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\n    def norm(self):\n        return (self.x ** 2 + self.y ** 2) ** 0.5\n`,
  // A suppression comment with nothing to suppress (reported as unused).
  (k) => `value_${k} = sum([1, 2])  # raiselint: ignore[autogen/agent-save-state-is-not-yet-implemented]\n`,
];

function synthUnit(u, k, rand) {
  const lines = [...u.imports];
  if (u.errorImport) lines.push(u.errorImport);
  const body = [];
  if (u.receiverClass) body.push(`    client = ${u.receiverClass}()`);
  const call = u.call.startsWith('await ') ? u.call : u.call;
  const mode = Math.floor(rand() * 4);
  if (mode === 0) body.push(`    return ${call}`);
  else if (mode === 3) body.push(`    return ${call}  # raiselint: ignore[${u.ruleId}] -- known`);
  else if (mode === 1 && u.errorClass) body.push('    try:', `        return ${call}`, `    except ${u.errorClass}:`, '        return None');
  else if (mode === 1) body.push('    try:', `        return ${call}`, '    except Exception:', '        return None');
  else body.push(`    value = ${call}`, '    print(value)');
  const args = call.match(/\((\w+)\)\s*$/)?.[1] ?? 'x';
  return { imports: lines.join('\n'), unit: `async def use_${k}(${args}):\n${body.join('\n')}\n` };
}

export function generateCorpus(out, { files = 200, seed = 7, recordsFile, recordCount = 100 } = {}) {
  const rand = rng(seed);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const fixDir = join(ROOT, 'fixtures', 'autogen');
  const fixtures = readdirSync(fixDir)
    .filter((n) => n.endsWith('.py') && !n.includes('syntax_error'))
    .sort()
    .map((n) => units(readFileSync(join(fixDir, n), 'utf8')))
    .filter((f) => f.units.length);
  const records = recordsFile ? generateRecords(recordCount, seed) : [];
  if (recordsFile) writeFileSync(recordsFile, records.map((r) => JSON.stringify(r.line)).join('\n') + '\n');
  mkdirSync(out, { recursive: true });
  const written = [];
  for (let i = 0; i < files; i++) {
    const dir = join(out, `pkg${i % 7}`, i % 3 ? 'sub' : '');
    mkdirSync(dir, { recursive: true });
    const imports = new Set();
    const body = [];
    const n = 1 + Math.floor(rand() * 5);
    const decoysOnly = rand() < 0.25;
    for (let j = 0; j < n; j++) {
      const r = decoysOnly ? 1 : rand();
      if (r < 0.45) {
        const f = pick(fixtures);
        imports.add(f.imports);
        body.push(pick(f.units));
      } else if (r < 0.7 && records.length) {
        const s = synthUnit(pick(records).usage, `${i}_${j}`, rand);
        imports.add(s.imports);
        body.push(s.unit);
      } else body.push(pick(DECOYS)(`${i}_${j}`));
    }
    let text = `"""Generated corpus file ${i}."""\n${[...imports].join('\n')}\n\n\n${body.join('\n\n')}\n`;
    let bytes = Buffer.from(text, 'utf8');
    const special = i % 37;
    if (special === 5)
      bytes = Buffer.concat([Buffer.from('# -*- coding: iso-8859-1 -*-\n'), Buffer.from(text.replace('"""Generated', '"""Caf\u00e9 generated'), 'latin1')]);
    else if (special === 9) bytes = Buffer.concat([bytes, Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a])]);
    else if (special === 13) bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
    else if (special === 17) bytes = Buffer.from(text.replace(/\n/g, '\r\n'), 'utf8');
    else if (special === 21) bytes = Buffer.from(`${text}\ndef broken(:\n    runtime.agent_save_state(\n`, 'utf8');
    else if (special === 25) bytes = Buffer.alloc(0);
    const file = join(dir, `mod_${i}.py`);
    writeFileSync(file, bytes);
    written.push(file);
  }
  return written;
}

function main() {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
  };
  const out = opt('out', undefined);
  if (!out) {
    process.stderr.write('gen-corpus: --out DIR is required\n');
    process.exit(2);
  }
  const n = generateCorpus(out, {
    files: Number(opt('files', '200')),
    seed: Number(opt('seed', '7')),
    recordsFile: opt('records', undefined),
    recordCount: Number(opt('record-count', '100')),
  }).length;
  process.stdout.write(`gen-corpus: wrote ${n} files to ${out}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
