/**
 * A library module's constants as raise conditions read them (src/rules/condition/literal.ts):
 * names assigned once from a literal, and the keys of a dict with literal keys for membership.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, withTree } from '../src/parse/parser.js';
import { moduleConstants, moduleDictKeys } from '../src/rules/condition/literal.js';

beforeAll(() => initParser());

const keysOf = (code: string) => withTree(code, (t) => Object.fromEntries([...moduleDictKeys(t.rootNode)].map(([k, v]) => [k, v])));

describe('module constants', () => {
  it('a literal assigned once is a constant; one assigned twice is not', () => {
    const got = withTree('MODES = ("r", "w")\nLIMIT = 1\nLIMIT = 2\n', (t) => [...moduleConstants(t.rootNode).keys()]);
    expect(got).toEqual(['MODES']);
  });

  it("a dict with literal keys and computed values gives its keys (logging's _STYLES)", () => {
    expect(keysOf("_STYLES = {'%': (PercentStyle, 1), '{': (StrFormatStyle, 2)}\n")).toEqual({
      _STYLES: {
        t: 'set',
        items: [
          { t: 'str', v: '%' },
          { t: 'str', v: '{' },
        ],
      },
    });
    // A key that is not a literal, or a `**` splat: no keys.
    expect(keysOf("_S = {name: 1, '%': 2}\n_T = {**base, '%': 2}\n")).toEqual({});
  });

  it('a dict whose keys change anywhere in the module gives none', () => {
    const cases = [
      "_S = {'%': f()}\ndef add(k):\n    _S[k] = g()\n",
      "_S = {'%': f()}\ndef drop(k):\n    del _S[k]\n",
      "_S = {'%': f()}\ndef drop(k, j):\n    del _S[k], other[j]\n",
      "_S = {'%': f()}\ndef more(k):\n    _S[k] += 1\n",
      "_S = {'%': f()}\n_S.update(extra)\n",
      "_S = {'%': f()}\ndef f():\n    _S.pop('%')\n",
    ];
    for (const c of cases) expect(keysOf(c), c).toEqual({});
    // Reading an item changes nothing.
    expect(Object.keys(keysOf("_S = {'%': f()}\ndef get(k):\n    return _S[k]\n"))).toEqual(['_S']);
  });
});
