/**
 * How a record's snippet is read (src/rules/compile/snippets.ts): its nodes in document order, found
 * by one walk inside the parser, each with its context (in a `try` body, in an `else` clause) from
 * the regions around it; the except clauses of each `try` in order; nothing inside an import.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TreeCursor } from 'web-tree-sitter';
import { initParser } from '../src/parse/parser.js';
import { emptyFacts, readSnippet, resolveAll, type SnippetFacts } from '../src/rules/compile/snippets.js';

beforeAll(async () => {
  await initParser();
});

const CODE = `import pkg
from pkg.io import load as ld, Reader
try:  # the call
    c = pkg.Client(1)
    try:
        c.run(ld(x))
    except (pkg.Busy, OSError):
        c.retry()
    else:
        c.done
except pkg.Error as e:
    try:
        pkg.report(e)
    except ValueError:
        pass
else:
    if c.ok:
        c.close()
    else:
        with Reader(p) as r:
            r.read().strip()
finally:
    pkg.cleanup()
def guard(v: Reader) -> bool:
    return isinstance(v, Reader)
class Local(pkg.Base):
    x = Reader()
`;

function read(code: string, from = 'tryCatchPattern'): SnippetFacts {
  const facts = emptyFacts();
  readSnippet(code, from, facts);
  resolveAll(facts);
  return facts;
}

describe('snippet facts', () => {
  it('each call and read with its context, in document order (as a recursive visit reads them)', () => {
    // The expectations are what the recursive cursor visit read of CODE.
    const f = read(CODE);
    expect(f.calls.map((c) => [c.text, c.inTryBody, c.inElse, c.chained])).toEqual([
      ['pkg.Client', true, false, false],
      ['c.run', true, false, false],
      ['ld', true, false, false],
      ['c.retry', false, false, false],
      ['pkg.report', true, false, false],
      ['c.close', false, true, false],
      ['Reader', false, true, false],
      ['<call>.strip', false, true, false],
      ['r.read', false, true, true],
      ['pkg.cleanup', false, false, false],
      ['Reader', false, false, false],
    ]);
    expect(f.calls.map((c) => c.qname ?? null)).toEqual(['pkg.Client', null, 'pkg.io.load', null, 'pkg.report', null, 'pkg.io.Reader', null, null, 'pkg.cleanup', 'pkg.io.Reader']);
    expect(f.reads.map((c) => [c.text, c.inTryBody, c.inElse])).toEqual([
      ['pkg.Busy', false, false],
      ['c.done', false, true],
      ['pkg.Error', false, false],
      ['c.ok', false, true],
      ['pkg.Base', false, false],
    ]);
    expect(f.excepts).toEqual(['pkg.Busy', 'OSError', 'pkg.Error', 'ValueError']);
    expect([...f.imports]).toEqual([
      ['pkg', 'pkg'],
      ['ld', 'pkg.io.load'],
      ['Reader', 'pkg.io.Reader'],
    ]);
    expect([...f.varClasses]).toEqual([
      ['c', ['pkg.Client']],
      ['r', ['pkg.io.Reader']],
      ['v', ['pkg.io.Reader']],
      ['x', ['pkg.io.Reader']],
    ]);
    expect(f.guards).toEqual([{ name: 'guard', param: 0, classes: ['pkg.io.Reader'], negated: false }]);
    expect(f.classDefs).toEqual([{ name: 'Local', bases: ['pkg.Base'] }]);
  });

  it('code after a try is outside it', () => {
    const f = read('try:\n    a.b()\nexcept E:\n    c.d()\ne.f()\n', 'validationCode');
    expect(f.calls.map((c) => [c.text, c.inTryBody])).toEqual([
      ['a.b', true],
      ['c.d', false],
      ['e.f', false],
    ]);
  });

  it('walks the tree inside the parser: no cursor moves from JavaScript', () => {
    // The recursive visit moved a TreeCursor node by node (~390,000 calls into WebAssembly for 1,000 stdlib records).
    const proto = TreeCursor.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
    const names = ['gotoFirstChild', 'gotoNextSibling', 'gotoParent'] as const;
    const saved = names.map((n) => proto[n]!);
    let moves = 0;
    names.forEach((n, i) => (proto[n] = function (this: unknown, ...a: unknown[]) {
      moves++;
      return saved[i]!.apply(this, a);
    }));
    try {
      read(`${CODE}\n# another text: not read before\n`);
    } finally {
      names.forEach((n, i) => (proto[n] = saved[i]!));
    }
    expect(moves).toBe(0);
  });
});
