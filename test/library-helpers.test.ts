/**
 * A raise condition read through the raising module's own small helpers and plain classes
 * (src/compile/condition/helpers.ts): `_is_instance_mock(spec)` is its returned expression over the
 * caller's argument, and no literal, class object, function or instance of a class of the checked
 * file is an instance of a plain library class. python3 is the oracle for the plain classes it
 * reads off the standard library, and for what each call below does.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython, type Node } from '../src/parse/parser.js';
import { field } from '../src/parse/syntax.js';
import { compileCondition } from '../src/compile/condition/compile.js';
import { bindArguments } from '../src/match/bind.js';
import { evaluate } from '../src/rules/condition/eval.js';
import { condText } from '../src/rules/condition/words.js';
import { plainClasses } from '../src/records/ground.js';
import { Scopes } from '../src/semantic/scopes.js';

beforeAll(async () => {
  await initParser();
});

const py = (code: string): string => execFileSync('python3', ['-c', code], { encoding: 'utf8' }).trim();

const LIBRARY = `
class Base(object):
    pass

class Special(Base):
    def check(self):
        return True

class Registered(metaclass=type):
    pass

def _is_special(obj):
    """Whether obj is one."""
    return issubclass(type(obj), Special)

def _is_seq(obj):
    return type(obj) in (list, tuple)

def _two(a, b):
    return a and b

def make(spec, other=None):
    if _is_seq(spec):
        raise TypeError("no sequences")
    if _is_special(spec):
        raise ValueError("already special")
    if _two(spec, other):
        raise KeyError(spec)
    if isinstance(other, Registered):
        raise LookupError(other)
`;

const CALLER = `
class Mine:
    pass

def hook():
    pass

make(Mine)
make(Mine())
make(hook)
make([1])
make((1,))
make(True)
make(unknown)
make(Special())
`;

/** The condition of the raise on `line` (its text), and how each call of CALLER decides it (or `?`). */
function decide(raiseText: string): { text: string; calls: string[] } {
  const lib = parsePython(LIBRARY);
  const user = parsePython(CALLER);
  try {
    const root = lib.rootNode;
    const def = root.descendantsOfType('function_definition').find((d) => field(d!, 'name')?.text === 'make')!;
    const row = LIBRARY.split('\n').findIndex((l) => l.includes(raiseText));
    const rc = compileCondition(def, row, root, { dropFirst: false, entries: ['make'], plainClasses: ['Base', 'Special'] });
    const scopes = new Scopes(user.rootNode);
    const calls = user.rootNode
      .descendantsOfType('call')
      .filter((c): c is Node => !!c && field(c, 'function')?.text === 'make')
      .map((c) => {
        const b = bindArguments(c, rc.params, () => scopes)!;
        const v = evaluate(rc.when, b);
        return `${field(c, 'arguments')!.text}: ${v === undefined ? '?' : v}`;
      });
    return { text: condText(rc.when), calls };
  } finally {
    lib.delete();
    user.delete();
  }
}

describe('a condition read through the module helper it calls', () => {
  it('reads `type(x) in (...)` exactly: a bool is no int there', () => {
    const { text, calls } = decide('no sequences');
    expect(text).toBe('type(spec) in (list, tuple)');
    expect(calls).toEqual([
      '(Mine): false',
      '(Mine()): false',
      '(hook): false',
      '([1]): true',
      '((1,)): true',
      '(True): false',
      '(unknown): ?',
      '(Special()): ?',
    ]);
  });

  it('reads `issubclass(type(x), Plain)` as an isinstance no class object, function, literal or own instance meets', () => {
    const { text, calls } = decide('already special');
    expect(text).toBe('isinstance(spec, Special) and type(spec) not in (list, tuple)');
    expect(calls).toEqual([
      '(Mine): false',
      '(Mine()): false',
      '(hook): false',
      '([1]): false',
      '((1,)): false',
      '(True): false',
      '(unknown): ?',
      '(Special()): ?',
    ]);
  });

  it('maps a two-parameter helper onto the caller’s parameters', () => {
    expect(decide('KeyError').text).toContain('spec and other');
  });

  it('leaves a class with a metaclass keyword undecided', () => {
    const { text } = decide('LookupError');
    expect(text).toContain('isinstance(other, Registered)');
    expect(text).not.toContain('false');
  });

  it('agrees with python3 on each decided call', () => {
    const out = py(`
class Base(object): pass
class Special(Base): pass
class Mine: pass
def hook(): pass
for v in (Mine, Mine(), hook, [1], (1,), True):
    print(type(v) in (list, tuple), issubclass(type(v), Special))`);
    expect(out.split('\n')).toEqual(['False False', 'False False', 'False False', 'True False', 'True False', 'False False']);
  });
});

describe('the plain classes read off an installed module', () => {
  const stdlib = py('import sysconfig; print(sysconfig.get_paths()["stdlib"])');
  const MODULES = ['unittest/mock.py', 'zipfile.py', 'numbers.py', 'asyncio/futures.py', 'collections/__init__.py', 'tarfile.py', 'email/message.py'];

  it.each(MODULES)('%s: each is a class of type `type` that no literal, class, function or plain instance is an instance of', (rel) => {
    const names = plainClasses(readFileSync(join(stdlib, rel), 'utf8').split('\n'));
    const mod = rel.replace(/\/__init__\.py$|\.py$/, '').replace(/\//g, '.');
    if (!names.length) return;
    const out = py(`
import importlib, abc
m = importlib.import_module(${JSON.stringify(mod)})
class Mine: pass
values = [1, 'a', b'b', [], (), {}, set(), None, True, 1.5, int, len, lambda: 0, Mine, Mine()]
for n in ${JSON.stringify(names)}:
    c = getattr(m, n)
    bad = [repr(v) for v in values if isinstance(v, c)]
    print(n, isinstance(c, type) and type(c) is type and not bad)`);
    expect(out.split('\n').filter((l) => !l.endsWith(' True'))).toEqual([]);
  });

  it('finds NonCallableMock and ZipInfo plain, and no ABC of numbers', () => {
    const read = (rel: string) => plainClasses(readFileSync(join(stdlib, rel), 'utf8').split('\n'));
    expect(read('unittest/mock.py')).toContain('NonCallableMock');
    expect(read('zipfile.py')).toContain('ZipInfo');
    expect(read('numbers.py')).toEqual([]);
  });
});
