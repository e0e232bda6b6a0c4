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
import { contextIdentity } from '../src/compile/condition/context.js';

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
  /** Python run on the object after construction: calls of methods not in changedBy, after which the test gives the same. */
  after?: string;
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
    // zipfile's `_ZipWriteFile(self, ...)`: a class of the module that stores the archive and only
    // sets its other attributes: handing `self` to it does not change `fp` (src/compile/condition/handed.ts).
    src: `class W:
    def __init__(self, zf, name):
        self._zf = zf
        self._name = name
        zf._writing = True
    def close(self):
        self._zf._writing = False
        self._zf.names.append(self._name)
class A:
    def __init__(self, f):
        self.fp = f
        self._writing = False
        self.names = []
    def open(self, name):
        return W(self, name)
    def writestr(self, name, data):
        if not self.fp:
            raise ValueError("closed")
        w = self.open(name)
        w.close()
    def close(self):
        self.fp = None`,
    make: 'A(open("/dev/null"))',
    attr: 'fp',
    test: 'truthy',
    fresh: true,
    changedBy: ['__init__', 'close'],
    after: 'o.writestr("a", b""); o.writestr("b", b""); o.open("c").close()',
  },
  {
    // The handed object's class unsets the attribute through its reference: the handing method changes it.
    src: `class W:
    def __init__(self, owner):
        self._owner = owner
    def finish(self):
        self._owner.fp = None
class B:
    def __init__(self, f):
        self.fp = f
    def start(self):
        return W(self)
    def close(self):
        self.fp = None`,
    make: 'B(open("/dev/null"))',
    attr: 'fp',
    test: 'truthy',
    fresh: true,
    changedBy: ['__init__', 'close', 'start'],
  },
  {
    // ... or passes it on, or calls one of its methods that changes it.
    src: `class W:
    def __init__(self, owner):
        self._owner = owner
    def finish(self, sink):
        sink(self._owner)
class V:
    def __init__(self, owner):
        self._owner = owner
    def finish(self):
        self._owner.close()
class C:
    def __init__(self, f):
        self.fp = f
    def start(self):
        return W(self)
    def begin(self):
        return V(self)
    def read(self):
        return self.fp.read()
    def close(self):
        self.fp = None`,
    make: 'C(open("/dev/null"))',
    attr: 'fp',
    test: 'truthy',
    fresh: true,
    changedBy: ['__init__', 'begin', 'close', 'start'],
    after: 'o.read()',
  },
  {
    // A property's setter is a method of the property's name: one that unsets the attribute changes it.
    src: `class P:
    def __init__(self, f):
        self.fp = f
        self._comment = b""
    @property
    def comment(self):
        return self._comment
    @comment.setter
    def comment(self, c):
        self._comment = c
    @property
    def closed(self):
        return self.fp is None
    @closed.setter
    def closed(self, v):
        if v:
            self.fp = None
    def close(self):
        self.fp = None`,
    make: 'P(open("/dev/null"))',
    attr: 'fp',
    test: 'truthy',
    fresh: true,
    changedBy: ['__init__', 'close', 'closed'],
    after: 'o.comment = b"x"',
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

function python(c: Case, after = ''): boolean {
  const expr = c.test === 'truthy' ? `bool(o.${c.attr})` : `o.${c.attr} is None`;
  const out = execFileSync('python3', ['-c', `${c.src}\no = ${c.make}\n${after}\nprint(${expr})`], { encoding: 'utf8' }).trim();
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
          if (c.after) expect(python(c, c.after)).toBe(fact.fresh);
        }
      } finally {
        tree.delete();
      }
    });
  }
});

describe('fixtures/state/fresh.py under python3', () => {
  it('the `# ok` calls on a fresh archive do not raise; the reported ones after close or reset do', () => {
    const script = `
import os, sys, tempfile
sys.path.insert(0, ${JSON.stringify(new URL('../fixtures/state', import.meta.url).pathname)})
import fresh
d = tempfile.mkdtemp()
os.chdir(d)
open('n.txt', 'w').write('x')
fresh.first_write('a.zip', b'x')
fresh.second_write('a.zip', b'x')
fresh.each_in_loop('a.zip', ['n.txt'])
fresh.comment_then_write('a.zip', b'x')
fresh.read_member('a.zip', 'a.txt')
fresh.read_member_str_password('a.zip', 'a.txt')  # not encrypted: the possible finding's condition is false here
fresh.closed_on_one_branch('a.zip', b'x', False)
for f, args in ((fresh.two_archives, ('a.zip', 'b.zip', b'x')), (fresh.fp_reset, ('a.zip', b'x')), (fresh.write_after_close, ('a.zip', 'n.txt')), (fresh.after_close, ('a.zip', b'x')), (fresh.write_after_close_and_read, ('a.zip', b'x')), (fresh.closed_on_one_branch, ('a.zip', b'x', True))):
    try:
        f(*args)
        print(f.__name__, 'no error')
    except ValueError as e:
        print(f.__name__, e)
`;
    const out = execFileSync('python3', ['-B', '-c', script], { encoding: 'utf8' }).trim().split('\n');
    expect(out).toEqual([
      'two_archives Attempt to write to ZIP archive that was already closed',
      'fp_reset Attempt to write to ZIP archive that was already closed',
      'write_after_close Attempt to write to ZIP archive that was already closed',
      'after_close Attempt to write to ZIP archive that was already closed',
      'write_after_close_and_read Attempt to write to ZIP archive that was already closed',
      'closed_on_one_branch Attempt to write to ZIP archive that was already closed',
    ]);
  });
});

describe('the receiver compared with what runs the caller', () => {
  const read = (expr: string) => {
    const cmp = parsePython(`${expr}\n`).rootNode.descendantsOfType('comparison_operator')[0]!;
    const [a, b] = namedChildren(cmp);
    return contextIdentity(a!, b!);
  };
  it('`self is current_thread()`, either way round and through a module, is a context fact; a getter with arguments or another object is not', () => {
    expect(read('self is current_thread()')).toEqual({ attr: 'current_thread()', fresh: false, changedBy: [], context: true });
    expect(read('threading.current_thread() is self')?.attr).toBe('current_thread()');
    expect(read('self is not tasks.current_task()')?.context).toBe(true);
    expect(read('self is current_thread(x)')).toBeUndefined();
    expect(read('other is current_thread()')).toBeUndefined();
    expect(read('self is registry_default()')).toBeUndefined();
  });
  it('python3 agrees: a thread the calling function constructs is never current_thread(), before start, while running, after join', () => {
    const script = `import threading
def run():
    t = threading.Thread(target=lambda: None)
    seen = [t is threading.current_thread()]
    t.start()
    seen.append(t is threading.current_thread())
    t.join()
    seen.append(t is threading.current_thread())
    return seen
print(run())`;
    expect(execFileSync('python3', ['-B', '-c', script], { encoding: 'utf8' }).trim()).toBe('[False, False, False]');
  });
});

describe('the words of a state test', () => {
  it('`x is not None` before the raise reads `x is None` on the way to it, and its fact says the same', async () => {
    const { compileCondition } = await import('../src/compile/condition/compile.js');
    const { condText } = await import('../src/rules/condition/words.js');
    const src = `class R:
    def __init__(self):
        self._exception = None
    def set_exception(self, e):
        self._exception = e
    def read(self, n):
        if self._exception is not None:
            raise self._exception
        if n < 0:
            raise ValueError("negative")
`;
    const tree = parsePython(src);
    const def = tree.rootNode.descendantsOfType('function_definition').find((d) => field(d!, 'name')?.text === 'read')!;
    const c = compileCondition(def, 9, tree.rootNode, { dropFirst: true, entries: ['read'] });
    expect(condText(c.when)).toBe('n < 0 and self._exception is None');
    const atom = (c.when as { es: { k: string; state?: { fresh: boolean } }[] }).es.find((e) => e.state)!;
    // A fresh R has no exception: the test on the way to the raise holds.
    expect(atom.state!.fresh).toBe(true);
    tree.delete();
  });
});

describe('the words of a parameter rebound under a guard', () => {
  it('read the value the guard puts there: `check_hostname = context.check_hostname` (http.client)', async () => {
    const { compileCondition } = await import('../src/compile/condition/compile.js');
    const { condText } = await import('../src/rules/condition/words.js');
    const src = `class C:
    def __init__(self, host, context=None, check_hostname=None):
        will_verify = context.verify_mode != CERT_NONE
        if check_hostname is None:
            check_hostname = context.check_hostname
        if check_hostname and not will_verify:
            raise ValueError("check_hostname needs a SSL context")
`;
    const tree = parsePython(src);
    const def = tree.rootNode.descendantsOfType('function_definition')[0]!;
    const c = compileCondition(def, 6, tree.rootNode, { dropFirst: true, entries: ['__init__'] });
    const text = condText(c.when);
    expect(text).toContain('check_hostname is None and context.check_hostname');
    expect(text).not.toContain('check_hostname is None and check_hostname');
    tree.delete();
  });
});
