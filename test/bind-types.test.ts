/**
 * The type the binder knows an identifier argument to have (src/match/bind.ts): a class object
 * when it names a class the code defines, a function when a `def` alone binds it, an instance for a
 * call of a class the file defines over `object` alone, or the builtin type of its function's
 * parameter annotation when that says the class exactly and nothing rebinds it. Anything else: not known.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython, type Node } from '../src/parse/parser.js';
import { field } from '../src/parse/syntax.js';
import { bindArguments } from '../src/match/bind.js';
import { Scopes } from '../src/semantic/scopes.js';

beforeAll(async () => {
  await initParser();
});

const SOURCE = `
import typing

class Point:
    x: int

def hints(obj: object, secret: str, ratio: float, data: bytes, names: list[str], opt: str = "", *, kw: dict = None):
    class Local:
        y: str

    Alias = Point
    probe(Point)
    probe(Local)
    probe(obj)
    probe(Alias)
    probe(secret)
    probe(ratio)
    probe(data)
    probe(names)
    probe(opt)
    probe(kw)
    f = lambda secret: probe(secret)

def shadowed(Point: object, secret: str):
    probe(Point)
    secret = secret.encode()
    probe(secret)

def looped(items, secret: str):
    for secret in items:
        probe(secret)

def handler(event):
    return event

class Child(Point):
    pass

class Meta(type):
    pass

class WithMeta(metaclass=Meta):
    pass

class FromLib(typing.NamedTuple):
    pass

probe(handler)
probe(Child())
probe(WithMeta())
probe(FromLib())
probe(len)
`;

function typesOf(): string[] {
  const tree = parsePython(SOURCE);
  const root = tree.rootNode;
  const scopes = new Scopes(root);
  try {
    return root
      .descendantsOfType('call')
      .filter((c): c is Node => !!c && field(c, 'function')?.text === 'probe')
      .map((c) => {
        const b = bindArguments(c, [{ name: 'x', kind: 'normal' }], () => scopes);
        return `${field(c, 'arguments')!.text}: ${b?.params.get('x')?.type ?? '-'}`;
      });
  } finally {
    tree.delete();
  }
}

describe('the type of an identifier argument', () => {
  it('is a class or function the code defines, an instance of its own plain class, the annotated builtin type of an unrebound parameter, else not known', () => {
    expect(typesOf()).toEqual([
      '(Point): class',
      '(Local): class',
      '(obj): -',
      '(Alias): -', // bound by assignment: not only a class statement
      '(secret): str',
      '(ratio): -', // `float` takes an int
      '(data): -', // `bytes` takes a bytearray
      '(names): list',
      '(opt): str',
      '(kw): -', // `= None`: None when not passed
      '(secret): -', // the lambda's own parameter
      '(Point): -', // a parameter named like the class
      '(secret): -', // rebound before the call
      '(secret): -', // a loop target
      '(handler): function',
      '(Child()): instance', // a class of the file over `object` and the file's own classes
      '(WithMeta()): -', // a metaclass
      '(FromLib()): -', // a base from a library
      '(len): -', // a builtin function: not bound by a `def` of the file
    ]);
  });
});
