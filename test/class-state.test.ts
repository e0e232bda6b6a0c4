/**
 * The state a method's test reads of its object, as the constructor leaves it
 * (src/compile/condition/state.ts), checked against python3: each class below is constructed and
 * the attribute's truth value (or `is None`) printed. A fact the reader gives must be what Python
 * says; classes the reader cannot read plainly give none.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython, type Node } from '../src/parse/parser.js';
import { field, namedChildren } from '../src/parse/syntax.js';
import { ClassState } from '../src/compile/condition/state.js';

beforeAll(async () => {
  await initParser();
});

interface Case {
  src: string;
  /** The constructor call, in Python. */
  make: string;
  attr: string;
  test: 'truthy' | 'none';
  /** undefined: the reader gives no fact. */
  fresh: boolean | undefined;
  changedBy?: string[];
}

const CASES: Case[] = [
  {
    // zipfile.ZipFile's shape: a file opened (or passed) in __init__, None after close().
    src: `class Z:
    fp = None
    def __init__(self, file, mode="r"):
        if isinstance(file, str):
            while True:
                try:
                    self.fp = open(file, "rb" if mode == "r" else "wb")
                except OSError:
                    raise
                break
        else:
            self.fp = file
        try:
            self.start = 0
        except:
            fp = self.fp
            self.fp = None
            raise
    def __enter__(self):
        return self
    def __exit__(self, *a):
        self.close()
    def close(self):
        fp, self.fp = self.fp, None
        if fp: fp.close()
    def write(self, data):
        if not self.fp:
            raise ValueError("closed")`,
    make: 'Z(__import__("io").BytesIO(), "w")',
    attr: 'fp',
    test: 'truthy',
    fresh: true,
    changedBy: ['__exit__', '__init__', 'close'],
  },
  {
    src: `class P:
    def __init__(self, args):
        self.args = args
        self._started = False
    def communicate(self, data=None):
        if self._started and data:
            raise ValueError("again")
        self._started = True`,
    make: 'P(["x"])',
    attr: '_started',
    test: 'truthy',
    fresh: false,
    changedBy: ['__init__', 'communicate'],
  },
  {
    src: `class N:
    def __init__(self, sock=None):
        self.sock = None
        if sock is not None:
            self.sock = sock
    def close(self):
        self.sock = None`,
    make: 'N()',
    attr: 'sock',
    test: 'none',
    fresh: undefined, // None or the argument: depends on the call
  },
  {
    // A value the caller feeds, never unset by another method: not a lifecycle flag.
    src: `class T:
    def __init__(self, timeout):
        self.timeout = timeout`,
    make: 'T(0)',
    attr: 'timeout',
    test: 'truthy',
    fresh: undefined,
  },
  {
    // Set only on one branch: absent (AttributeError) on the other.
    src: `class B:
    def __init__(self, flag):
        if flag:
            self.ready = True`,
    make: 'B(True)',
    attr: 'ready',
    test: 'truthy',
    fresh: undefined,
  },
  {
    // __init__ calls a method that sets the attribute: not read.
    src: `class C:
    def __init__(self, host):
        self.sock = None
        self.connect(host)
    def connect(self, host):
        self.sock = object()`,
    make: 'C("h")',
    attr: 'sock',
    test: 'none',
    fresh: undefined,
  },
  {
    // `self` handed on in __init__: other code may set the attribute.
    src: `class H:
    def __init__(self, reg):
        self.done = False
        reg(self)`,
    make: 'H(lambda o: None)',
    attr: 'done',
    test: 'truthy',
    fresh: undefined,
  },
  {
    // A base class may set it; __new__ may return an old object.
    src: `class Base:
    pass
class S(Base):
    def __init__(self):
        self.done = False`,
    make: 'S()',
    attr: 'done',
    test: 'truthy',
    fresh: undefined,
  },
  {
    src: `class Q:
    def __new__(cls):
        return super().__new__(cls)
    def __init__(self):
        self.done = False`,
    make: 'Q()',
    attr: 'done',
    test: 'truthy',
    fresh: undefined,
  },
  {
    // A loop that leaves by break only after the assignment; a class-level default covered by every path.
    src: `class L:
    buf = None
    def __init__(self, items):
        while True:
            self.buf = []
            break
        for i in items:
            self.count = i
    def reset(self):
        self.buf = None`,
    make: 'L([1])',
    attr: 'buf',
    test: 'none',
    fresh: false,
    changedBy: ['__init__', 'reset'],
  },
];

function classNode(root: Node, name: string): Node {
  return root.descendantsOfType('class_definition').find((c) => c && field(c, 'name')?.text === name)!;
}

function python(c: Case): boolean {
  const expr = c.test === 'truthy' ? `bool(o.${c.attr})` : `o.${c.attr} is None`;
  const out = execFileSync('python3', ['-c', `${c.src}\no = ${c.make}\nprint(${expr})`], { encoding: 'utf8' }).trim();
  return out === 'True';
}

describe('class state on a fresh object (python3 as the oracle)', () => {
  for (const c of CASES) {
    // The last class of the source is the one read.
    const name = [...c.src.matchAll(/^class (\w+)/gm)].at(-1)![1]!;
    it(`${name}.${c.attr} (${c.test})`, () => {
      const tree = parsePython(c.src);
      try {
        const cls = classNode(tree.rootNode, name);
        const def = namedChildren(field(cls, 'body')!).find((d) => d.type === 'function_definition')!;
        const fact = ClassState.of(def, () => undefined)?.fact(c.attr, c.test);
        expect(fact?.fresh).toBe(c.fresh);
        if (fact) {
          expect(fact.fresh).toBe(python(c));
          expect(fact.changedBy).toEqual(c.changedBy);
        }
      } finally {
        tree.delete();
      }
    });
  }
});
