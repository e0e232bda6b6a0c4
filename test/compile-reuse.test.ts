/**
 * What the first compile no longer does twice (src/compile/python/): a snippet text met again in
 * another record is not parsed again (its facts are copied, so one record's resolution cannot
 * reach another's), and a sourceCode window that can show no def is not parsed. Each check
 * compares with the answer of a compile that cannot reuse anything.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../src/parse/parser.js';
import { emptyFacts, readSnippet, resolveAll, type SnippetFacts } from '../src/compile/python/snippets.js';
import { readWindow, windowStarts } from '../src/compile/python/window.js';
import { withRecordTrees } from '../src/compile/python/trees.js';

beforeAll(async () => {
  await initParser();
});

/** Plain data of facts (Maps and Sets as entry lists), to compare two reads. */
const plain = (f: SnippetFacts) => JSON.parse(JSON.stringify(f, (_k, v: unknown) => (v instanceof Map || v instanceof Set ? [...v] : v))) as unknown;

const SNIPPETS: [string, string][] = [
  ['validationCode', 'from pkg import Client\nimport pkg.io as pio\n\nc = Client()\nif isinstance(c, Client):\n    c.run(1)\n'],
  ['tryCatchPattern', 'import pkg\nc = pkg.Client()\ntry:\n    c.run(1)\n    pio.load(c.state)\nexcept pkg.Error as e:\n    pass\nelse:\n    c.close()\n'],
  ['typeGuard', 'def is_client(obj: object) -> bool:\n    return isinstance(obj, Client)\n'],
  ['exampleFix', 'class Local(pkg.Base):\n    pass\nwith pkg.open(p) as fh:\n    fh.read()\nc: Client = make()\n'],
];

/** Facts of the snippets read in order, resolved, inside one record's tree scope. */
function read(list: [string, string][]): SnippetFacts {
  const facts = emptyFacts();
  withRecordTrees(() => {
    for (const [from, code] of list) readSnippet(code, from, facts);
  });
  resolveAll(facts);
  return facts;
}

describe('snippet facts met again', () => {
  it('are the facts of a first read, in the same order, whatever came before', () => {
    // Each snippet text first (fresh reads), then the same texts again in another order and company.
    const first = SNIPPETS.map((s) => plain(read([s])));
    const again = SNIPPETS.map((s) => plain(read([s])));
    expect(again).toEqual(first);
    const together = plain(read(SNIPPETS));
    const reversed = [...SNIPPETS].reverse();
    expect(plain(read(SNIPPETS))).toEqual(together);
    // Merging is order-sensitive (imports resolve through later snippets, lists keep their order): a
    // different order must give what a fresh read in that order gives, not a cached whole.
    const fresh = plain(read(reversed.map(([f, c]) => [f, `${c}\n`])));
    expect(plain(read(reversed))).toEqual(fresh);
  });

  it('are copies: resolving one record does not change the next', () => {
    const a = read([
      ['validationCode', 'c = Client()\nc.run()\n'],
      ['tryCatchPattern', 'from pkg import Client\n'],
    ]);
    expect(a.calls.find((c) => c.text === 'Client')?.qname).toBe('pkg.Client');
    // The same first snippet without the import: nothing resolves it.
    const b = read([['validationCode', 'c = Client()\nc.run()\n']]);
    expect(b.calls.find((c) => c.text === 'Client')?.qname).toBeUndefined();
    expect(b.varClasses.get('c')).toEqual(['Client']);
  });

  it('keep the field they were read from', () => {
    const code = 'import pkg\npkg.go()\n';
    const a = read([['validationCode', code]]);
    const b = read([['tryCatchPattern', code]]);
    expect(a.calls.map((c) => c.from)).toEqual(['validationCode']);
    expect(b.calls.map((c) => c.from)).toEqual(['tryCatchPattern']);
  });
});

describe('sourceCode windows', () => {
  // Starts mid-block (so the whole excerpt does not settle); the statement-start window holds no def.
  const source = ['            x = 1', '        y = 2', '        if y:', '            z = 3', '    w = 4', '    raise ValueError(w)'].join('\n');

  it('a window with no def up to the raise and no class is not read', () => {
    const read: string[] = [];
    const got = readWindow(source, 5, (code) => {
      read.push(code);
      return { def: undefined, settled: false };
    });
    expect(windowStarts(source, 5).length).toBeGreaterThan(0);
    // Only the whole excerpt was parsed: every window start lacks both words.
    expect(read).toEqual([source]);
    expect(got.offset).toBe(0);
  });

  it('a window with a def, or with a class after the raise, is read', () => {
    const withDef = ['        pass', '    def f(self):', '        raise ValueError()'].join('\n');
    const seen: string[] = [];
    readWindow(withDef, 2, (code) => (seen.push(code), { def: undefined, settled: false }));
    expect(seen.length).toBe(2);
    const withClass = ['        pass', '    x = 1', '    raise E()', '    class E(Exception): pass'].join('\n');
    const seen2: string[] = [];
    readWindow(withClass, 2, (code) => (seen2.push(code), { def: undefined, settled: false }));
    expect(seen2.length).toBeGreaterThan(1);
  });
});
