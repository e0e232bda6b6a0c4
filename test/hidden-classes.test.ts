/**
 * Objects of one role share one shape (the same own keys, in the same order), so V8 gives them one
 * hidden class and keeps the optimised code of the functions that read them: trees whatever was
 * asked of them first (and with a syntax error), every node the helpers hand out (the root too),
 * the model's atoms of every kind, its contexts, parameters.
 */
import { describe, expect, it } from 'vitest';
import { initParser, parsePython } from '../src/parse/parser.js';
import { descendantsIn, field, kids } from '../src/parse/syntax.js';
import { classAtom, funcAtom, instAtom, NONE, refAtom, seqAtom, tupleAtom, UNKNOWN, union } from '../src/semantic/types.js';
import { fnCtx, inert } from '../src/semantic/env.js';
import { parameters } from '../src/python/params.js';

const keys = (o: object) => Reflect.ownKeys(o).map(String);

describe('one shape per role', () => {
  it('trees and nodes', async () => {
    await initParser();
    const a = parsePython('def f(x, *, y=1, **k):\n    return g(x).h\n');
    const b = parsePython('def f(:\n  pass\n');
    try {
      // Asked in different orders: the file-wide walk first, or a field first.
      descendantsIn(a.rootNode, new Set(['function_definition']));
      field(kids(b.rootNode)[0]!, 'name');
      descendantsIn(b.rootNode, new Set(['function_definition']));
      expect(keys(a)).toEqual(keys(b));
      const nodes = [a.rootNode, b.rootNode, ...kids(a.rootNode), ...a.rootNode.children, ...a.rootNode.namedChildren];
      const def = kids(a.rootNode)[0]!;
      nodes.push(field(def, 'body')!, def.childForFieldName('name')!, def.nextSibling ?? def, def.firstChild!, def.parent!);
      for (const n of nodes) n.text;
      for (const n of nodes) expect(keys(n)).toEqual(keys(nodes[0]!));
    } finally {
      a.delete();
      b.delete();
    }
  });

  it('atoms, contexts and parameters', async () => {
    await initParser();
    const tree = parsePython('def f(a, b: int, c=1, *d, e: str = "", **g):\n    pass\n');
    try {
      const def = kids(tree.rootNode)[0]!;
      const atoms = [
        refAtom('m.f'),
        classAtom('m.C'),
        instAtom('m.C'),
        instAtom('m.C', { x: NONE }, ['m.D']),
        funcAtom(def),
        funcAtom(def, 'm.C'),
        tupleAtom([NONE]),
        seqAtom(UNKNOWN),
        ...NONE,
        ...UNKNOWN,
        ...union([refAtom('a')], [refAtom('b')], NONE),
      ];
      for (const x of atoms) expect(keys(x)).toEqual(keys(atoms[0]!));
      const ctxs = [inert(), fnCtx(def, true, 'm.C'), { ...inert(), record: false }];
      for (const c of ctxs) expect(keys(c)).toEqual(keys(ctxs[0]!));
      const ps = parameters(def);
      expect(ps.map((p) => p.name)).toEqual(['a', 'b', 'c', 'd', 'e', 'g']);
      for (const p of ps) expect(keys(p)).toEqual(keys(ps[0]!));
    } finally {
      tree.delete();
    }
  });
});
