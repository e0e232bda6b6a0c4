/**
 * The type the binder knows an identifier argument to have (src/match/bind.ts): a class object
 * when it names a class the code defines, or the builtin type of its function's parameter
 * annotation when that says the class exactly and nothing rebinds it. Anything else: not known.
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
  it('is a class for a class the code defines, the annotated builtin type of an unrebound parameter, else not known', () => {
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
    ]);
  });
});
