/**
 * Values a raise condition reads from a parameter through a path (rules/condition/derived.ts):
 * `name[0]`, `name[1:]`, `name[1:].isdigit()`, `version.startswith("HTTP/1.")`. python3 is the
 * oracle: every path over every value gives what Python computes, or "not known" (an error there,
 * or text outside ASCII for a string method); never a different answer.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { follow, splitPath } from '../src/rules/condition/derived.js';
import { pyRepr } from '../src/rules/condition/literal.js';
import type { PyVal } from '../src/rules/condition/types.js';

const str = (v: string): PyVal => ({ t: 'str', v });
const VALUES: PyVal[] = [
  str(''),
  str('.0'),
  str('.12'),
  str('b'),
  str('HTTP/1.1'),
  str('  Ab_c9 \t'),
  str('ABC'),
  str('abc'),
  str('x1'),
  str('_x'),
  str('9x'),
  str('\x1c'),
  str('café'),
  str('١٢'),
  { t: 'bytes', v: 'ab' },
  { t: 'tuple', items: [str('a'), { t: 'int', v: 2 }] },
  { t: 'list', items: [] },
  { t: 'int', v: 5 },
  { t: 'dict', entries: [[str('style'), str('{')]] },
];
const PATHS = [
  '[0]',
  '[-1]',
  '[1]',
  '[1:]',
  '[:-1]',
  '[-2:]',
  '[1:].isdigit()',
  '[0].isupper()',
  '.isdigit()',
  '.isdecimal()',
  '.isnumeric()',
  '.isalpha()',
  '.isalnum()',
  '.isidentifier()',
  '.isspace()',
  '.isupper()',
  '.islower()',
  '.isascii()',
  '.lower()',
  '.upper()',
  '.strip()',
  '.lstrip()',
  '.rstrip()',
  '.strip().isalnum()',
  '.startswith("HTTP/1.")',
  '.endswith(".1")',
  '[1:].startswith("")',
  '.startswith(("HTTP/1.","ab"))',
  '.endswith((".1",))',
  '[1:].startswith(("b","c"))',
  '["style"]',
  '["style"].isalpha()',
];

/** A value as the oracle script writes it. */
function norm(v: PyVal): unknown {
  if (v.t === 'tuple' || v.t === 'list') return [v.t, v.items.map(norm)];
  if (v.t === 'str' || v.t === 'bytes' || v.t === 'int' || v.t === 'bool') return [v.t, v.v];
  return ['other', pyRepr(v)];
}

describe('condition paths', () => {
  it('follow a parameter as python3 does, or say "not known"', () => {
    const cases = VALUES.flatMap((v) => PATHS.map((p) => ({ v, p })));
    const script = [
      'import sys, json',
      'def norm(x):',
      '    if isinstance(x, bool): return ["bool", x]',
      '    if isinstance(x, int): return ["int", x]',
      '    if isinstance(x, str): return ["str", x]',
      '    if isinstance(x, bytes): return ["bytes", x.decode("latin-1")]',
      '    if isinstance(x, (tuple, list)): return [type(x).__name__, [norm(i) for i in x]]',
      '    return ["other", repr(x)]',
      'out = []',
      'for v, p in json.loads(sys.stdin.read()):',
      '    try:',
      '        out.append(norm(eval("x" + p, {"x": eval(v)})))',
      '    except Exception as e:',
      '        out.append(None)',
      'print(json.dumps(out))',
    ].join('\n');
    const input = JSON.stringify(cases.map(({ v, p }) => [pyRepr(v), p]));
    const want = JSON.parse(execFileSync('python3', ['-c', script], { input, encoding: 'utf8' })) as unknown[];
    let decided = 0;
    cases.forEach(({ v, p }, i) => {
      const path = splitPath(`x${p}`);
      expect(path, p).toBeDefined();
      const got = follow(v, path!.steps);
      if (got === undefined) return;
      decided++;
      expect(norm(got), `${pyRepr(v)}${p}`).toEqual(want[i]);
    });
    // Most cases are decided: the oracle is not passed by answering nothing.
    expect(decided).toBeGreaterThan(cases.length / 2);
  });

  it('a plain name has no path; a name with anything else than steps is not read', () => {
    expect(splitPath('name')).toBeUndefined();
    expect(splitPath('name[0]')?.base).toBe('name');
    expect(splitPath('name[0](x)')).toBeUndefined();
    expect(splitPath('name.__class__')).toBeUndefined();
  });
});
