/**
 * Constant expressions of literals (src/rules/condition/fold.ts through literalOf), with python3 as
 * the oracle: every expression the reader folds has the value Python gives; those it leaves alone
 * are the ones that raise, overflow a JS number or grow too long.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython } from '../src/parse/parser.js';
import { literalOf, pyRepr } from '../src/rules/condition/literal.js';

beforeAll(async () => {
  await initParser();
});

const FOLDED = [
  '2 ** 32',
  '2 ** 52 + 1',
  '1 << 16',
  '-7 // 2',
  '7 // -2',
  '-7 % 3',
  '7 % -3',
  '0xff & 0x0f',
  '0x10 | 1',
  '6 ^ 3',
  '~5',
  '-(2 ** 10)',
  '1 + True',
  '7 / 2',
  '1.5 * 2',
  '0.1 + 0.2',
  "'ab' + 'cd'",
  "b'x' * 3",
  "'-' * 0",
  "'-' * -2",
  "3 * 'ab'",
  '[0.25] * 4',
  '(1, 2) + (3,)',
  '[1] + [2, 3]',
  '(1 + 2) * 3',
  '255 >> 4',
];

// `2 ** 53 - 1`: the intermediate 2 ** 53 is past a JS number's exact integers.
const LEFT = ['2 ** 53 - 1', '1 / 0', '1 // 0', '5 % 0', '1 << -1', '2 ** 64', '2 ** -1', "'a' * 100000", "'a' + 1", '[1] + (2,)', '1.5 % 2', 'x + 1'];

function python(exprs: string[]): string[] {
  const script = `import sys\nfor e in sys.stdin.read().split('\\n'):\n    print(repr(eval(e)))`;
  return execFileSync('python3', ['-c', script], { input: exprs.join('\n'), encoding: 'utf8' })
    .trim()
    .split('\n');
}

function read(e: string): string | undefined {
  const tree = parsePython(`x = ${e}\n`);
  try {
    const right = tree.rootNode.descendantsOfType('assignment')[0]!.childForFieldName('right');
    const v = literalOf(right);
    return v && pyRepr(v);
  } finally {
    tree.delete();
  }
}

describe('constant expressions of literals', () => {
  it('fold to the value Python computes', () => {
    const want = python(FOLDED);
    expect(FOLDED.map(read)).toEqual(want);
  });

  it('are not literals when Python raises, the integer overflows a JS number, or the result is huge', () => {
    for (const e of LEFT) expect(read(e), e).toBeUndefined();
  });
});
