/**
 * A str argument known by its first characters (src/rules/condition/literal.ts strPrefix,
 * derived.ts followPrefix): `'gi.repository.' + name` never starts with ".", `f"/etc/{x}"[0]` is
 * "/". python3 is the oracle: each expression, for several values of x, starts with the prefix read.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython } from '../src/parse/parser.js';
import { namedChildren } from '../src/parse/syntax.js';
import { strPrefix } from '../src/rules/condition/literal.js';
import { followPrefix, splitPath } from '../src/rules/condition/derived.js';

beforeAll(async () => {
  await initParser();
});

const prefixOf = (expr: string): string | undefined => {
  const tree = parsePython(`${expr}\n`);
  try {
    return strPrefix(namedChildren(namedChildren(tree.rootNode)[0]!)[0]);
  } finally {
    tree.delete();
  }
};

const EXPRS: [string, string | undefined][] = [
  ["'gi.repository.' + x", 'gi.repository.'],
  ['f"plugins.{x}.y"', 'plugins.'],
  ['"~/%spydistutils.cfg" % x', '~/'],
  ['"x-{}".format(x)', 'x-'],
  ['("a" "b") + x', 'ab'],
  ['"a" f"b{x}"', 'ab'],
  ["'a' + ('b' + x)", 'ab'],
  ['(x + "a")', undefined],
  ['"%s/a" % x', undefined],
  ['"{}a".format(x)', undefined],
  ['f"{x}a"', undefined],
  ['f"a{{b{x}"', 'a'], // an escaped brace: the prefix stops before it
  ['b"a" + x', undefined], // bytes
];

describe('the first characters of a str argument', () => {
  it.each(EXPRS)('%s: %s', (expr, want) => {
    expect(prefixOf(expr)).toBe(want);
  });

  it('python3 agrees: each expression starts with what is read, for x in "", "q", "/", "."', () => {
    const known = EXPRS.filter(([, p]) => p !== undefined) as [string, string][];
    const script = `import json
out = []
for e, p in json.loads(${JSON.stringify(JSON.stringify(known))}):
    for x in ("", "q", "/", "."):
        out.append(eval(e, {"x": x}).startswith(p))
print(all(out), len(out))`;
    expect(execFileSync('python3', ['-c', script], { encoding: 'utf8' }).trim()).toBe(`True ${known.length * 4}`);
  });

  it('a path reads the prefix only as far as it goes', () => {
    const read = (path: string, prefix: string) => followPrefix(prefix, splitPath(`p${path}`)!.steps);
    expect(read('[0]', '~/')).toEqual({ t: 'str', v: '~' });
    expect(read('[2]', '~/')).toBeUndefined();
    expect(read('.startswith(".")', 'gi.')).toEqual({ t: 'bool', v: false });
    expect(read('.startswith("gi.repository")', 'gi.')).toBeUndefined();
    expect(read('.startswith("gx.repository")', 'gi.')).toEqual({ t: 'bool', v: false });
    expect(read('[:2]', 'gi.')).toEqual({ t: 'str', v: 'gi' });
    expect(read('[1:]', 'gi.')).toBeUndefined();
    expect(read('.endswith("x")', 'gi.')).toBeUndefined();
    // A tuple: true when one is, false when each is, else not known.
    expect(read('.startswith(("x","gi"))', 'gi.')).toEqual({ t: 'bool', v: true });
    expect(read('.startswith(("x","."))', 'gi.')).toEqual({ t: 'bool', v: false });
    expect(read('.startswith(("x","gi.repository"))', 'gi.')).toBeUndefined();
  });
});
