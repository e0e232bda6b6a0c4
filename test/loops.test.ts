/**
 * Loop variables as argument values (src/match/loops.ts): the items a `for` over a literal
 * sequence gives the names its target binds, and when it gives none.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython } from '../src/parse/parser.js';
import { Scopes } from '../src/semantic/scopes.js';
import { loopItems } from '../src/match/loops.js';

beforeAll(async () => {
  await initParser();
});

/** The items for the call `f(...)` in `body` (the body of `def g(counts):`), as plain [name, value] lists. */
function items(body: string, args = ['n']): unknown {
  const tree = parsePython(`K = (1, 2)\ndef g(counts):\n${body.replace(/^/gm, '    ')}\n`);
  try {
    const call = tree.rootNode.descendantsOfType('call').find((c) => c?.text.startsWith('f('))!;
    const consts = new Map([
      [
        'K',
        {
          t: 'tuple' as const,
          items: [
            { t: 'int' as const, v: 1 },
            { t: 'int' as const, v: 2 },
          ],
        },
      ],
    ]);
    const out = loopItems(call, new Set(args), new Scopes(tree.rootNode), (n) => consts.get(n));
    return out?.map((m) => [...m].map(([k, v]) => [k, 'v' in v ? v.v : v.t]));
  } finally {
    tree.delete();
  }
}

describe('loop items as argument values', () => {
  it('gives each item of a literal or constant sequence, unpacked into the target names', () => {
    expect(items('for n in (0, 2):\n    f(n)')).toEqual([[['n', 0]], [['n', 2]]]);
    expect(items('for n in K:\n    f(n)')).toEqual([[['n', 1]], [['n', 2]]]);
    expect(items('for n, s in [(1, "a"), (2, "b")]:\n    f(n)')).toEqual([
      [
        ['n', 1],
        ['s', 'a'],
      ],
      [
        ['n', 2],
        ['s', 'b'],
      ],
    ]);
    // The innermost loop that binds an argument.
    expect(items('for n in (5,):\n    for m in counts:\n        f(n)')).toEqual([[['n', 5]]]);
    // An inner loop over data that binds an argument too: nothing is enumerated.
    expect(items('for n in (5,):\n    for m in counts:\n        f(n, m)', ['n', 'm'])).toBeUndefined();
  });
  it('gives nothing for a name the body binds again, an iterable that is no literal, uneven items, or a list item read before the call', () => {
    expect(items('for n in (1, 2):\n    n -= 1\n    f(n)')).toBeUndefined();
    expect(items('for n in counts:\n    f(n)')).toBeUndefined();
    expect(items('for n, s in [(1, "a"), (2,)]:\n    f(n)')).toBeUndefined();
    expect(items('for n in ([1], [2]):\n    n.append(0)\n    f(n)')).toBeUndefined();
    expect(items('for n in ([1], [2]):\n    f(n)')).toEqual([[['n', 'list']], [['n', 'list']]]);
    expect(items('for x in (1, 2):\n    f(n)')).toBeUndefined();
  });
  it('fixtures/literal_args/loops.py under python3: the ok loops run, the first certain one raises', () => {
    const script = `
import asyncio, sys, traceback
sys.path.insert(0, ${JSON.stringify(new URL('../fixtures/literal_args', import.meta.url).pathname)})
import loops
try:
    asyncio.run(loops.barriers([1]))
except ValueError as e:
    print([f for f in traceback.extract_tb(e.__traceback__) if f.filename.endswith('loops.py')][-1].lineno, e)
`;
    expect(execFileSync('python3', ['-B', '-c', script], { encoding: 'utf8' }).trim()).toBe('15 parties must be > 0');
  });
});
