/**
 * A raise after a retry loop's last failed attempt (src/compile/condition/path.ts `retryLoop`): the
 * loop counts attempts it never reads, returns on success and has no `break`. Such a raise is the
 * environment's failure (`tempfile.mkdtemp` after TMP_MAX names taken), off by default as control
 * flow; a loop over data, one whose counter is read, or one a `break` leaves is not one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython } from '../src/parse/parser.js';
import { retryLoop } from '../src/compile/condition/path.js';

beforeAll(async () => {
  await initParser();
});

function isRetry(loop: string): boolean {
  const tree = parsePython(`def f(names, tries):\n${loop.replace(/^/gm, '    ')}\n    raise OSError("none left")\n`);
  try {
    return retryLoop(tree.rootNode.descendantsOfType('for_statement')[0]!);
  } finally {
    tree.delete();
  }
}

describe('a retry loop', () => {
  it.each([
    ['for seq in range(TMP_MAX):\n    name = next(names)\n    try:\n        return make(name)\n    except FileExistsError:\n        continue', true],
    ['for _ in range(100):\n    if not exists(x := next(names)):\n        return x', true],
    ['for i in range(TMP_MAX):\n    if ok(i):\n        return i', false], // the counter is read: a search, not a retry
    ['for name in names:\n    try:\n        return make(name)\n    except OSError:\n        pass', false], // over data
    ['for _ in range(tries):\n    return make()', false], // a count the caller passes
    ['for _ in range(10):\n    if done():\n        break\n    return make()', false], // a `break` leaves before the last attempt
    ['for _ in range(10):\n    make()', false], // no return on success
    ['for _ in range(10):\n    for y in names:\n        break\n    return make()', true], // an inner loop's break
  ])('%s: %s', (loop, want) => {
    expect(isRetry(loop)).toBe(want);
  });
});
