/**
 * Stand-ins for the file's classes (src/match/standin.ts) in literal-call runs (src/analysis/probe.ts):
 * when a class or an instance of one gets a stand-in, and what a run decides with it. python3 runs
 * both the stand-in and the real class: they must agree whenever the stand-in's run decides.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython } from '../src/parse/parser.js';
import { Scopes } from '../src/semantic/scopes.js';
import { literalArguments } from '../src/match/literalargs.js';
import { runAll, type Probe } from '../src/analysis/probe.js';

beforeAll(async () => {
  await initParser();
});

const python = { executable: 'python3', version: '3' };

/** The runner's forms of the arguments of the last `inspect.getattr_static(...)` / `operator.length_hint(...)` call of `src`. */
function argsOf(src: string): string[] | undefined {
  const tree = parsePython(src);
  const calls = tree.rootNode.descendantsOfType('call').filter((c) => !!c && /^(inspect\.getattr_static|operator\.length_hint)\(/.test(c.text));
  return literalArguments(calls[calls.length - 1]!, new Scopes(tree.rootNode))?.args;
}

/** What running the call with its stand-ins decides: 'ok', the error's class, or 'skip'. */
function run(src: string, module: string, path: string): string {
  const args = argsOf(src);
  if (!args) return 'no stand-in';
  const p: Probe = { module, path, args, kwargs: [] };
  const o = runAll(python, [p]).get(JSON.stringify([p.module, p.path, p.args, p.kwargs]));
  return o?.ok ? 'ok' : o?.exc ? o.exc[0]!.replace(/^builtins\./, '') : 'skip';
}

/** What the real program does at its last line: 'ok' or the error's class. */
function real(src: string): string {
  const lines = src.trimEnd().split('\n');
  const last = lines.pop()!.trim();
  const script = `${lines.join('\n')}\ntry:\n    ${last}\n    print('ok')\nexcept Exception as e:\n    print(type(e).__name__)\n`;
  return execFileSync('python3', ['-c', script], { encoding: 'utf8' }).trim();
}

const header = 'import inspect, operator, types\n';

describe('a class of the file passed to a pure call', () => {
  const cases: [string, string][] = [
    ['class A:\n    x = 1\ninspect.getattr_static(A, "x")', 'ok'],
    ['class A:\n    x = 1\ninspect.getattr_static(A, "y")', 'AttributeError'],
    ['class A:\n    def m(self, a, *b, c=1, **d): pass\nclass B(A):\n    pass\ninspect.getattr_static(B(), "m")', 'ok'],
    ['class A:\n    __slots__ = ["v"]\n    def __init__(self, v):\n        self.v = v\ninspect.getattr_static(A(1), "v")', 'ok'],
    ['class A:\n    def __init__(self, v):\n        self.v = v\ninspect.getattr_static(A(1), "w")', 'AttributeError'],
    ['class M(type):\n    tag = "t"\nclass A(metaclass=M):\n    pass\ninspect.getattr_static(A, "tag")', 'ok'],
    ['class A:\n    @property\n    def p(self):\n        raise KeyError\n    @p.setter\n    def p(self, v): pass\ninspect.getattr_static(A(), "p")', 'ok'],
    ['class D:\n    def __get__(self, o, t):\n        return 1\nclass A:\n    d = D()\ninspect.getattr_static(A(), "d")', 'ok'],
    ['class A:\n    def __getattr__(self, n):\n        return n\ninspect.getattr_static(A(), "zz")', 'AttributeError'],
  ];
  it.each(cases)('is built as a stand-in that decides as the class does: %s', (src, want) => {
    expect(real(header + src)).toBe(want);
    expect(run(header + src, 'inspect', 'getattr_static')).toBe(want);
  });

  it('decides nothing when the run reaches the stand-in of its code', () => {
    const src = `${header}class A:\n    def __length_hint__(self):\n        return "many"\noperator.length_hint(A())`;
    expect(real(src)).toBe('TypeError');
    expect(run(src, 'operator', 'length_hint')).toBe('skip');
    // No such method: the default, without running any code of the class.
    const none = `${header}class A:\n    pass\noperator.length_hint(A(), 3)`;
    expect(run(none, 'operator', 'length_hint')).toBe('ok');
  });

  const none: [string, string][] = [
    ['a decorated class', 'import functools\n@functools.total_ordering\nclass A:\n    pass\ninspect.getattr_static(A, "x")'],
    ['a statement that is no binding of a literal or a method', 'class A:\n    x = compute()\ninspect.getattr_static(A, "x")'],
    ['an unknown decorator', 'def deco(f):\n    return f\nclass A:\n    @deco\n    def m(self): pass\ninspect.getattr_static(A, "m")'],
    ['an attribute set from outside', 'class A:\n    pass\nA.x = 1\ninspect.getattr_static(A, "x")'],
    ['setattr on it', 'class A:\n    pass\nsetattr(A, "x", 1)\ninspect.getattr_static(A, "x")'],
    ['a base that is not known', 'class A(Unknown):\n    pass\ninspect.getattr_static(A, "x")'],
    ['an __init__ that does more', 'class A:\n    def __init__(self):\n        self.setup()\ninspect.getattr_static(A(), "x")'],
    ['an own __new__', 'class A:\n    def __new__(cls):\n        return 1\ninspect.getattr_static(A(), "x")'],
    ['a library base (for an instance)', 'import threading\nclass A(threading.Thread):\n    pass\ninspect.getattr_static(A(), "x")'],
  ];
  it.each(none)('has no stand-in with %s', (_, src) => {
    expect(argsOf(header + src)).toBeUndefined();
  });

  it('reads an instance held by a local only when nothing used the local since its binding', () => {
    const body = (between: string, loop = false) =>
      `${header}class A:\n    x = 1\ndef f(items):\n    a = A()\n${between}${loop ? '    for i in items:\n        ' : '    '}inspect.getattr_static(a, "x")\n`;
    expect(argsOf(body(''))?.[0]).toMatch(/^new:/);
    expect(argsOf(body('    del a.x\n'))).toBeUndefined();
    expect(argsOf(body('    a.x = 2\n'))).toBeUndefined();
    expect(argsOf(body('    print(a)\n'))).toBeUndefined();
    // On an earlier pass of the loop, the call itself used it.
    expect(argsOf(body('', true))).toBeUndefined();
  });
});
