/**
 * How a record's snippets are read (src/compile/python/snippets.ts, patterns.ts): a snippet's nodes
 * in document order, found by one walk inside the parser, each with its context (in a `try` body,
 * in an `else` clause) from the regions around it; the except clauses of each `try` in order;
 * nothing inside an import. And what is parsed for the fix patterns: no text that cannot tell.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Parser, TreeCursor } from 'web-tree-sitter';
import { initParser } from '../src/parse/parser.js';
import type { LoadedRecord } from '../src/records/types.js';
import { ClassRegistry } from '../src/rules/classes.js';
import { compileOne } from '../src/compile/python/cached.js';
import { emptyFacts, readSnippet, resolveAll, type SnippetFacts } from '../src/compile/python/snippets.js';
import { ExceptionHierarchy } from '../src/rules/exceptions.js';

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
    expect(f.calls.map((c) => c.qname ?? null)).toEqual([
      'pkg.Client',
      null,
      'pkg.io.load',
      null,
      'pkg.report',
      null,
      'pkg.io.Reader',
      null,
      null,
      'pkg.cleanup',
      'pkg.io.Reader',
    ]);
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
    names.forEach(
      (n, i) =>
        (proto[n] = function (this: unknown, ...a: unknown[]) {
          moves++;
          return saved[i]!.apply(this, a);
        }),
    );
    try {
      read(`${CODE}\n# another text: not read before\n`);
    } finally {
      names.forEach((n, i) => (proto[n] = saved[i]!));
    }
    expect(moves).toBe(0);
  });
});

/** The texts parsed while `fn` runs. */
function parsed(fn: () => void): string[] {
  const proto = Parser.prototype as unknown as { parse: (...a: unknown[]) => unknown };
  const parse = proto.parse;
  const texts: string[] = [];
  proto.parse = function (this: unknown, ...a: unknown[]) {
    if (typeof a[0] === 'string') texts.push(a[0]);
    return parse.apply(this, a);
  };
  try {
    fn();
  } finally {
    proto.parse = parse;
  }
  return texts;
}

describe('fix patterns', () => {
  const record = (n: number): LoadedRecord => ({
    source: { file: 'mem.jsonl', line: n },
    record: {
      id: `r${n}`,
      repo: 'acme/pkg',
      slug: `load-empty-${n}`,
      errorMessage: 'empty path',
      errorClass: 'ValueError',
      filePath: 'pkg/io.py',
      lineNumber: 12,
      sourceCodeStart: 10,
      sourceCode: `def load(p):\n    if not p:\n        raise ValueError("empty path")\n    return p  # ${n}\n`,
      tryCatchPattern: 'import pkg\ntry:\n    v = pkg.load(p)\nexcept ValueError:\n    v = None\n',
      validationCode: 'import pkg\nif isinstance(p, str):\n    v = None\nelse:\n    v = pkg.load(p)\n',
      exampleFix: `# before\nv = pkg.load(p)  # ${n}\n# after\nv = pkg.load(p) if p else None\n`,
      tags: ['python'],
    },
  });

  it('are read without parsing a whole exampleFix that has no import (its parts are parsed)', () => {
    const lr = record(1);
    let rule: ReturnType<typeof compileOne>['rule'];
    const texts = parsed(() => (rule = compileOne(lr, new ExceptionHierarchy(), new ClassRegistry(), true).rule));
    expect(rule?.patterns?.tryExcept?.prot).toMatchObject({ sink: 'assign', target: 'v', receiver: 'pkg', args: [{ name: 'p', index: 0 }] });
    expect(rule?.patterns?.replace).toBeDefined();
    expect(rule?.patterns?.imports.map((i) => i.stmt)).toEqual(['import pkg']);
    const fix = lr.record.exampleFix!;
    expect(texts).not.toContain(fix);
    expect(texts).toContain('v = pkg.load(p)  # 1\n');
    // Each text once: the record's trees are shared by its facts and its patterns.
    expect(new Set(texts).size).toBe(texts.length);
  });
});
