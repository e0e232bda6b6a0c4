/**
 * Built-in conversions read by their Python rules (src/rules/condition/convert.ts): for each value,
 * the error `int()`, `float()` and `operator.index()` raise (or none) must be the one python3 raises.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { conversionError, type Conversion } from '../src/rules/condition/convert.js';
import { pyRepr } from '../src/rules/condition/literal.js';
import type { PyVal } from '../src/rules/condition/types.js';

const str = (v: string): PyVal => ({ t: 'str', v });
const TEXTS = [
  '12',
  ' 12 ',
  '+7',
  '-0',
  '1_000',
  '1__000',
  '_1',
  '1_',
  '0x10',
  '010',
  '1.0',
  '',
  ' ',
  '١٢',
  '\u00a012\u3000',
  '\x1c5',
  '\ufeff1',
  '\x851',
  '\x0b2\u2028',
  '1.5',
  '.5',
  '5.',
  '.',
  '1e9',
  '1E-3',
  '1e',
  'e1',
  '1e1_0',
  '1_000.5_0',
  'inf',
  '-Infinity',
  'nan',
  '+NaN',
  'in f',
  'infinit',
  '1.5.2',
  'yesterday',
  '٣.٥',
];
const VALUES: PyVal[] = [
  ...TEXTS.map(str),
  { t: 'bytes', v: '12' },
  { t: 'bytes', v: ' 1.5 ' },
  { t: 'bytes', v: 'x' },
  { t: 'int', v: 3 },
  { t: 'bool', v: true },
  { t: 'float', v: 2.5 },
  { t: 'float', v: Infinity },
  { t: 'float', v: NaN },
  { t: 'none' },
  { t: 'list', items: [] },
  { t: 'tuple', items: [{ t: 'int', v: 1 }] },
  { t: 'dict', entries: [] },
];

function python(conv: Conversion, values: PyVal[]): (string | null)[] {
  const lit = (v: PyVal) => (v.t === 'float' && !Number.isFinite(v.v) ? `float('${v.v}')` : pyRepr(v));
  const script = [
    'import json, operator',
    `f = ${conv === 'index' ? 'operator.index' : conv}`,
    'out = []',
    `for v in [${values.map(lit).join(', ')}]:`,
    '    try:',
    '        f(v)',
    '        out.append(None)',
    '    except Exception as e:',
    '        out.append(type(e).__name__)',
    'print(json.dumps(out))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script], { encoding: 'utf8' })) as (string | null)[];
}

describe('a built-in conversion of a literal', () => {
  it.each(['int', 'float', 'index'] as Conversion[])('raises what python3 raises: %s()', (conv) => {
    const want = python(conv, VALUES);
    const got = VALUES.map((v) => conversionError(conv, v));
    expect(got.map((g, i) => `${pyRepr(VALUES[i]!)}: ${g}`)).toEqual(want.map((w, i) => `${pyRepr(VALUES[i]!)}: ${w}`));
  });
});
