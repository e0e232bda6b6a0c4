// Seeded generators for the fuzz suite (scripts/fuzz.mjs, test/fuzz.test.ts): the same seed and
// run index give the same input, so a failure is reproduced with `npm run fuzz -- --seed S --only I`.

/** mulberry32: a small seeded PRNG. */
export function rng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
  return r;
}

/** The generator of run `i` of seed `seed` (independent of the runs before it). */
export function rngFor(seed, i) {
  return rng((seed * 2654435761 + i * 40503 + 1) >>> 0);
}

// Python that the bundled records report on (certain and possible findings, safe and unsafe
// fixes), and clean code around them.
export const PY_SEEDS = [
  `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime

from .messages import AGENT_METADATA, LoadStateRequest, SaveStateRequest


async def main(agent_id):
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    state = await runtime.agent_save_state(agent_id)
    return state
`,
  `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime

from .messages import AGENT_METADATA


async def main(agent):
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    metadata = await runtime.agent_metadata(agent)
    return metadata
`,
  `from autogen_core import AgentRuntime
from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime

from .messages import AGENT_METADATA, LoadStateRequest, SaveStateRequest


async def save(runtime: AgentRuntime, agent):
    state = await runtime.agent_save_state(agent)
    return state
`,
  `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime

from .messages import AGENT_METADATA, LoadStateRequest, SaveStateRequest


class Host:
    def __init__(self):
        self.rt = GrpcWorkerAgentRuntime(host_address="h:1")

    async def run(self, a, s):
        try:
            await self.rt.agent_load_state(a, s)
        except NotImplementedError:
            pass
        await self.rt.save_state()
        return await self.rt.load_state({})  # raiselint: ignore[autogen/loading-state-is-not-yet-implemented]
`,
  `import json
from autogen_core import SingleThreadedAgentRuntime

from .messages import AGENT_METADATA, LoadStateRequest, SaveStateRequest


async def main(agent_id):
    runtime = SingleThreadedAgentRuntime()
    data = json.loads("{}")
    if data:
        return await runtime.agent_save_state(agent_id)
    return [x for x in range(3) if x]
`,
  `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime as R

from .messages import AGENT_METADATA, LoadStateRequest, SaveStateRequest

rt = R(host_address="x")


def f(agent):
    return rt.agent_metadata(agent) if agent else None


async def g(a):
    x = await rt.agent_save_state(a); y = 1
    return x, y
`,
];

const TOKENS = [
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ':',
  ',',
  '.',
  '=',
  '\n',
  '\r\n',
  '\r',
  '    ',
  '\t',
  '\f',
  ' ',
  '\\',
  '\\\n',
  '#',
  '# raiselint: ignore[',
  '# raiselint: ignore[autogen/agent-save-state-is-not-yet-implemented]',
  '# raiselint: ignore',
  '# raiselint: ingore[x]',
  '"""',
  "'''",
  '"',
  "'",
  'f"{x}"',
  'try:',
  'except Exception:',
  'finally:',
  'if x:',
  'else:',
  'elif y:',
  'while True:',
  'for a in b:',
  'with c as d:',
  'def h(self):',
  'class K:',
  'return',
  'yield',
  'lambda: 0',
  'await ',
  'async ',
  'pass',
  'raise',
  'import os',
  'from x import *',
  'global g',
  'nonlocal n',
  'del q',
  '@decorator',
  '*',
  '**',
  '->',
  ':=',
  'runtime.agent_save_state(a)',
  'await runtime.agent_metadata(agent)',
  'GrpcWorkerAgentRuntime()',
  'isinstance(runtime, GrpcWorkerAgentRuntime)',
  '\x00',
  '\x1b',
  '\u00e9',
  '\u{1f600}',
  '\u2028',
  '\ufeff',
  '\u200b',
  '\ud800',
  '\u0301',
  '\u00a0',
  'é = 1',
  '变量 = 2',
  'match x:\n    case 1:\n        pass\n',
  '...',
  '0x',
  '1e',
  '\u00c0'.repeat(50),
];

function lines(text) {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n|$)/g).filter((l, i, a) => l || i < a.length - 1);
}

/** One mutation of Python source text. */
function mutate(r, text) {
  const at = r.int(text.length + 1);
  switch (r.int(12)) {
    case 0:
      return text.replace(/\r?\n/g, r.pick(['\r\n', '\r', '\n']));
    case 1:
      return text.replace(/\n/g, () => (r.chance(0.2) ? r.pick(['\r\n', '\r', '\n\r']) : '\n'));
    case 2:
    case 3:
      return text.slice(0, at) + r.pick(TOKENS) + text.slice(at);
    case 4:
      return text.slice(0, at) + text.slice(Math.min(text.length, at + 1 + r.int(40)));
    case 5: {
      const ls = lines(text);
      const i = r.int(ls.length);
      ls.splice(i, 0, ls[r.int(ls.length)] ?? '');
      return ls.join('');
    }
    case 6: {
      const ls = lines(text);
      const i = r.int(ls.length);
      const j = r.int(ls.length);
      [ls[i], ls[j]] = [ls[j], ls[i]];
      return ls.join('');
    }
    case 7:
      return text.replace(/^/gm, () => (r.chance(0.3) ? r.pick([' ', '\t', '  ']) : ''));
    case 8: {
      const n = r.chance(0.1) ? 1000 + r.int(3000) : 1 + r.int(60);
      const open = r.pick(['f(', '[', '(', '{1: ', 'not ', '-', 'a.b(']);
      const close = { 'f(': ')', '[': ']', '(': ')', '{1: ': '}', 'not ': '', '-': '', 'a.b(': ')' }[open];
      return text.slice(0, at) + `\nx = ${open.repeat(n)}0${close.repeat(n)}\n` + text.slice(at);
    }
    case 9:
      return text + r.pick(PY_SEEDS);
    case 10: {
      const n = r.chance(0.1) ? 2000 + r.int(10000) : 1 + r.int(100);
      return (
        text.slice(0, at) +
        `\ny = ${Array(n)
          .fill('1')
          .join(r.pick([' + ', ' and ', ' * ', ' if 1 else ']))}\n` +
        text.slice(at)
      );
    }
    default: {
      // Random characters, a few printable-weighted.
      let s = '';
      for (let k = 1 + r.int(8); k > 0; k--) s += r.chance(0.7) ? String.fromCharCode(32 + r.int(95)) : String.fromCharCode(r.int(0x3000));
      return text.slice(0, at) + s + text.slice(at);
    }
  }
}

/** Mutated Python source text. */
export function pythonSource(r) {
  let text = r.pick(PY_SEEDS);
  const n = r.chance(0.15) ? 0 : 1 + r.int(4);
  for (let k = 0; k < n; k++) text = mutate(r, text);
  return text;
}

/** Python source as bytes in some encoding, with a BOM, a coding cookie, invalid bytes. */
export function encodedSource(r) {
  const text = pythonSource(r);
  switch (r.int(7)) {
    case 0:
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 1:
      return Buffer.from(`# -*- coding: latin-1 -*-\n${text}`, 'latin1');
    case 2:
      return Buffer.from(`# coding: ${r.pick(['utf-16', 'bogus-enc', 'cp1252', 'euc-jp', 'shift_jis', 'ascii', 'utf8', 'UTF_8_SIG'])}\n${text}`, 'utf8');
    case 3: {
      const b = Buffer.from(text, 'utf8');
      const at = r.int(b.length + 1);
      return Buffer.concat([b.subarray(0, at), Buffer.from([r.pick([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xf5])]), b.subarray(at)]);
    }
    case 4:
      return Buffer.from(`\ufeff${text}`, 'utf16le');
    case 5:
      return Buffer.concat([Buffer.from('#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\n'), Buffer.from(text, 'latin1')]);
    default:
      return Buffer.from(text, 'utf8');
  }
}

const HOSTILE_PATTERNS = [
  '(a+)+$',
  '(a|a)*b',
  '(?P<x>a)(?P=x)',
  '(a)\\1',
  '(?=x)y',
  '(?<!a)b',
  '[',
  '(',
  '\\',
  '.*'.repeat(200),
  'x'.repeat(3000),
  '(?i)agent',
  '\\A\\Z',
  '(?s).',
  '\\p{L}+',
  '(?P<n>\\w+) is (?P=n)',
  '((((((((((a))))))))))*',
];

/** A hostile records file: valid records with fields set to hostile values, garbage lines. */
export function recordsText(r, base) {
  const lines = base.trim().split('\n');
  const out = [];
  for (const line of lines) {
    if (r.chance(0.2)) continue;
    const obj = JSON.parse(line);
    const rec = obj.record;
    for (let k = r.int(4); k > 0; k--) {
      const key = r.pick([
        ...Object.keys(rec),
        'messagePattern',
        'sourceCode',
        'solutions',
        'tags',
        'lineNumber',
        'sourceCodeStart',
        'id',
        'exampleFix',
        'validationCode',
        'typeGuard',
      ]);
      rec[key] = r.pick([
        () => r.pick(HOSTILE_PATTERNS),
        () => null,
        () => r.int(1e9) - 5e8,
        () => [],
        () => ['x'.repeat(r.int(70000))],
        () => 'y'.repeat(r.chance(0.05) ? 300_000 : r.int(200)),
        () => ({ nested: { deep: [1, 2, 3] } }),
        () => pythonSource(r),
        () => '\u0000\ud800\uffff',
        () => Array.from({ length: 1001 }, () => 'z'),
        () => true,
      ])();
    }
    if (r.chance(0.1)) out.push(JSON.stringify(rec));
    else out.push(JSON.stringify(obj));
  }
  if (r.chance(0.1))
    out.splice(
      r.int(out.length + 1),
      0,
      r.pick(['{', '[1,2]', '"str"', 'null', '{"record": 5}', String.fromCharCode(...Array.from({ length: 200 }, () => r.int(256))), '']),
    );
  let text = out.join(r.pick(['\n', '\r\n'])) + '\n';
  if (r.chance(0.05)) text = `[${out.join(',\n')}]`;
  if (r.chance(0.05)) text = `\ufeff${text}`;
  return text;
}

const CONFIG_SEEDS = [
  'select = ["autogen"]\nignore = ["autogen/agent-*"]\nmin-confidence = "certain"\n',
  '[tool.raiselint]\nselect = ["autogen/agent-save-state-is-not-yet-implemented"]\nextend-exclude = ["gen/"]\n[tool.raiselint.per-file-ignores]\n"tests/**" = ["autogen/loading-*"]\n',
  'severity = { "autogen/saving-*" = "warning" }\nfix-strategy = "try-except"\nrecords = ["recs"]\n',
  '[project]\nname = "{{cookiecutter.name}}"\n{{cookiecutter.extra}} = 1\n',
  'root = true\nexclude = ["build/", "*.gen.py"]\n',
];
const CONFIG_TOKENS = [
  '[',
  ']',
  '"',
  "'",
  '=',
  '\n',
  '{',
  '}',
  ',',
  '*',
  '**/',
  'select',
  'ignore',
  '[tool.raiselint]',
  '[tool]',
  '"""',
  '\\u0000',
  '\x00',
  '#',
  'a*'.repeat(300),
  'true',
  '1979-05-27',
  'inf',
  'nan',
  '{{x}}',
];

/** A hostile config file text. */
export function configText(r) {
  let t = r.pick(CONFIG_SEEDS);
  for (let k = r.int(5); k > 0; k--) {
    const at = r.int(t.length + 1);
    t = r.chance(0.7) ? t.slice(0, at) + r.pick(CONFIG_TOKENS) + t.slice(at) : t.slice(0, at) + t.slice(at + 1 + r.int(10));
  }
  return t;
}

/** A JSON-RPC message to frame. */
export function rpcMessage(r, id) {
  return r.pick([
    { jsonrpc: '2.0', id, method: 'textDocument/hover', params: { textDocument: { uri: 'file:///x.py' }, position: { line: 0, character: 0 } } },
    {
      jsonrpc: '2.0',
      method: 'textDocument/didOpen',
      params: { textDocument: { uri: `file:///f${id}.py`, languageId: 'python', version: 1, text: pythonSource(r) } },
    },
    { jsonrpc: '2.0', id, result: null },
    { jsonrpc: '2.0', id, method: 'x/\u00e9\u{1f600}', params: { s: '\r\n\r\nContent-Length: 3\r\n' } },
  ]);
}

export function frame(body, lfOnly = false) {
  const b = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}${lfOnly ? '\n\n' : '\r\n\r\n'}`, 'latin1'), b]);
}

/** Garbage that the framing must drop without losing the frames around it (it has no Content-Length header of a usable length). */
export function framingGarbage(r) {
  return r.pick([
    () => Buffer.from('Content-Length: abc\r\n\r\n{"id": 1}', 'latin1'),
    () => Buffer.from('Content-Length: -5\r\n\r\n', 'latin1'),
    () => Buffer.from('\r\n\r\n{"jsonrpc":"2.0","id":99,"method":"x"}', 'latin1'),
    () => Buffer.from('Content-Length: 3\r\nContent-Length: 99999\r\n\r\n', 'latin1'),
    () => frame('{"id": 5,'),
    () => frame('[1, 2]'),
    () => frame('"just a string"'),
    () => Buffer.from('Content-Length: 99999999999999\r\n\r\n', 'latin1'),
    () => {
      const b = Buffer.from(Array.from({ length: 1 + r.int(300) }, () => r.int(256)));
      // No marker inside (it would be a real header).
      return Buffer.from(b.toString('latin1').replace(/content-length:/gi, 'xx'), 'latin1');
    },
  ])();
}
