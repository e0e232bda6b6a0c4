/**
 * State that `__init__` stores from one of its own parameters (`self.allow_none = allow_none`):
 * the fact's value is the test of what the constructor call passed, or of the parameter's default
 * (src/compile/condition/state.ts, src/rules/condition/eval.ts). python3 is the oracle: each class
 * is constructed with each call below and the attribute's truth (or `is None`) printed.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython } from '../src/parse/parser.js';
import { field, namedChildren } from '../src/parse/syntax.js';
import { ClassState } from '../src/compile/condition/state.js';
import { evaluate } from '../src/rules/condition/eval.js';
import { ctorArgs } from '../src/match/match.js';

beforeAll(async () => {
  await initParser();
});

interface Case {
  src: string;
  attr: string;
  test: 'truthy' | 'none';
  /** Constructor calls; undefined in `known` where the call does not say. */
  calls: string[];
  /** The parameter stored there, when not the attribute's own name. */
  param?: string;
  /** No fact at all: the reader cannot tell what the attribute holds from the arguments. */
  none?: true;
}

const CASES: Case[] = [
  {
    // xmlrpc.client.Marshaller's shape.
    src: `class M:
    def __init__(self, encoding=None, allow_none=False):
        self.memo = {}
        self.encoding = encoding
        self.allow_none = allow_none
    def dump_nil(self, value, write):
        if not self.allow_none:
            raise TypeError("cannot marshal None unless allow_none is enabled")`,
    attr: 'allow_none',
    test: 'truthy',
    calls: ['M()', 'M(allow_none=True)', 'M(None, 1)', "M('utf-8', '')", 'M(allow_none=0)', 'M(encoding=None)'],
  },
  {
    // Keyword-only, tested for None.
    src: `class K:
    def __init__(self, name="k", *, strict=None):
        self.strict = strict`,
    attr: 'strict',
    test: 'none',
    calls: ['K()', 'K("x", strict=0)', 'K(strict=None)', 'K("a")'],
  },
  {
    // statistics.NormalDist's shape: stored as a float.
    src: `class N:
    def __init__(self, mu=0.0, sigma=1.0):
        self._sigma = float(sigma)`,
    attr: '_sigma',
    param: 'sigma',
    test: 'truthy',
    calls: ['N()', 'N(0, 0)', 'N(sigma=False)', 'N(1, 2.5)', 'N(mu=1)'],
  },
  {
    // smtplib.SMTP's shape: connected in __init__ only when a host is given.
    src: `class S:
    sock = None
    def __init__(self, host='', port=0):
        self.timeout = 1
        if host:
            self.connect(host, port)
    def connect(self, host, port):
        self.sock = object()
    def close(self):
        self.sock = None`,
    attr: 'sock',
    param: 'host',
    test: 'truthy',
    calls: ['S()', "S('')", 'S(port=25)'],
  },
  {
    // Rebound before it is stored: not the argument.
    src: `class R:
    def __init__(self, timeout=None):
        timeout = timeout or 10
        self.timeout = timeout`,
    attr: 'timeout',
    test: 'none',
    calls: ['R()'],
    none: true,
  },
  {
    // The argument on one branch, a literal on the other: known where the literal is (flag false).
    src: `class B:
    def __init__(self, flag=False, value=None):
        if flag:
            self.value = value
        else:
            self.value = 1`,
    attr: 'value',
    test: 'none',
    param: 'flag',
    calls: ['B()', 'B(0, 5)', 'B(value=None)'],
  },
];

function python(src: string, call: string, attr: string, test: 'truthy' | 'none'): boolean {
  const expr = test === 'truthy' ? `bool(o.${attr})` : `o.${attr} is None`;
  return execFileSync('python3', ['-c', `${src}\no = ${call}\nprint(${expr})`], { encoding: 'utf8' }).trim() === 'True';
}

describe('state stored from a constructor parameter (python3 as the oracle)', () => {
  for (const c of CASES) {
    const name = /^class (\w+)/m.exec(c.src)![1]!;
    it(`${name}.${c.attr} (${c.test})`, () => {
      const tree = parsePython(`${c.src}\n${c.calls.join('\n')}\n`);
      try {
        const cls = tree.rootNode.descendantsOfType('class_definition')[0]!;
        const def = namedChildren(field(cls, 'body')!).find((d) => d.type === 'function_definition')!;
        const fact = ClassState.of(def, () => undefined)?.fact(c.attr, c.test);
        if (c.none) {
          expect(fact?.arg).toBeUndefined();
          return;
        }
        expect(fact?.arg?.name).toBe(c.param ?? c.attr);
        const calls = tree.rootNode.descendantsOfType('call').filter((x) => x?.startPosition.row === x?.endPosition.row && /^[A-Z]\(/.test(x!.text));
        expect(calls.map((x) => x!.text)).toEqual(c.calls);
        for (const [i, call] of calls.entries()) {
          const b = {
            params: new Map(),
            keywords: new Set<string>(),
            kwSplat: false,
            fresh: { called: new Set<string>(), args: ctorArgs(call!) },
          };
          const held = python(c.src, c.calls[i]!, c.attr, c.test);
          expect([c.calls[i], evaluate({ k: 'data', text: '', state: fact! }, b)]).toEqual([c.calls[i], held]);
          expect([c.calls[i], evaluate({ k: 'data', text: '', state: { ...fact!, fresh: false } }, b)]).toEqual([c.calls[i], !held]);
          // Once the attribute is set or a method that changes it runs, nothing is known.
          expect(evaluate({ k: 'data', text: '', state: fact! }, { ...b, fresh: { ...b.fresh, called: new Set([c.attr]) } })).toBeUndefined();
        }
      } finally {
        tree.delete();
      }
    });
  }
  it('a call through **options or *args says nothing of a parameter it does not name', () => {
    const tree = parsePython('M(**o)\nM(*a)\nM(*a, allow_none=True)\n');
    try {
      const [a, b, c] = tree.rootNode.descendantsOfType('call').map((x) => ctorArgs(x!));
      const state = {
        attr: 'allow_none',
        fresh: true,
        changedBy: [],
        arg: { name: 'allow_none', index: 1, default: { t: 'bool' as const, v: false }, test: 'truthy' as const },
      };
      const at = (args: typeof a) =>
        evaluate({ k: 'data', text: '', state }, { params: new Map(), keywords: new Set(), kwSplat: false, fresh: { called: new Set(), args } });
      expect([at(a), at(b), at(c)]).toEqual([undefined, undefined, true]);
    } finally {
      tree.delete();
    }
  });
});

describe('fixtures/state/ctor_args.py under python3', () => {
  it('the certain calls raise, the `# ok` ones do not (the constructors of spread() one by one)', () => {
    const script = `
import sys
sys.path.insert(0, ${JSON.stringify(new URL('../fixtures/state', import.meta.url).pathname)})
import ctor_args as m
out = []
for f in (m.defaults, m.allowed, m.allowed_by_position, m.refused_by_position, m.set_since):
    try:
        f([].append)
        out.append(f.__name__ + ' ok')
    except TypeError as e:
        out.append(f.__name__ + ' ' + str(e))
import after
try:
    after.feed_after_close(b'<a/>')
except ValueError as e:
    out.append('feed_after_close ' + str(e))
after.feed_after_maybe_close(b'<a/>', False)
import smtplib
try:
    m.not_connected('x', '')
except smtplib.SMTPServerDisconnected as e:
    out.append('not_connected ' + str(e))
from statistics import NormalDist, StatisticsError
for make in (lambda: NormalDist(0, 0), lambda: NormalDist(), lambda: NormalDist(mu=5, sigma=0.0), lambda: NormalDist(5, 2)):
    try:
        make().zscore(1.0)
        out.append('zscore ok')
    except StatisticsError as e:
        out.append('zscore ' + str(e))
print('\\n'.join(out))
`;
    const out = execFileSync('python3', ['-B', '-c', script], { encoding: 'utf8' }).trim().split('\n');
    expect(out).toEqual([
      'defaults cannot marshal None unless allow_none is enabled',
      'allowed ok',
      'allowed_by_position ok',
      'refused_by_position cannot marshal None unless allow_none is enabled',
      'set_since ok',
      'feed_after_close feed() called after end of stream',
      'not_connected please run connect() first',
      'zscore zscore() not defined when sigma is zero',
      'zscore ok',
      'zscore zscore() not defined when sigma is zero',
      'zscore ok',
    ]);
  });
});

describe('the state a method leaves on every way it returns (python3 as the oracle)', () => {
  const src = `class Z:
    def __init__(self, path, mode="r"):
        self.fp = open(path, "rb")
    def close(self):
        if self.fp is None:
            return
        try:
            self.flush()
        finally:
            fp = self.fp
            self.fp = None
            fp.close()
    def flush(self):
        pass
    def reset(self, fp):
        if fp:
            self.fp = fp
        else:
            self.fp = None
    def shutdown(self):
        self._close()
    def _close(self):
        self.fp = None
    def write(self, data):
        if not self.fp:
            raise ValueError("closed")`;
  it('close() and what calls a method that unsets it leave fp None; a method that may set it leaves it unknown', () => {
    const tree = parsePython(src);
    try {
      const cls = tree.rootNode.descendantsOfType('class_definition')[0]!;
      const write = namedChildren(field(cls, 'body')!).find((d) => d.type === 'function_definition' && field(d, 'name')?.text === 'write')!;
      const fact = ClassState.of(write, () => undefined)?.fact('fp', 'truthy');
      expect(fact?.changedBy).toEqual(['__init__', '_close', 'close', 'reset', 'shutdown']);
      expect(fact?.after).toEqual({ _close: false, close: false, shutdown: false });
      const script = `${src}\nimport sys\nfor m in ('close', '_close', 'shutdown'):\n    o = Z(sys.executable)\n    getattr(o, m)()\n    print(m, bool(o.fp))\n`;
      const out = execFileSync('python3', ['-c', script], { encoding: 'utf8' }).trim().split('\n');
      expect(out).toEqual(['close False', '_close False', 'shutdown False']);
    } finally {
      tree.delete();
    }
  });
});
