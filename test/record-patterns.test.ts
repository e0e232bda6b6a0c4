/**
 * A record's messagePattern (src/records/pattern.ts): a pattern RE2 always compiles (literal
 * characters, escaped punctuation, `.`, repeated or not) is compiled when first run, not when its
 * record loads; every other pattern is compiled at load, and rejected with a reason when RE2
 * cannot run it. Either way the answer is RE2's.
 */
import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { compileMessagePattern } from '../src/records/pattern.js';

/** Calls of RE2JS.compile while `fn` runs. */
function compiles(fn: () => void): number {
  const compile = RE2JS.compile;
  let n = 0;
  RE2JS.compile = ((...a: Parameters<typeof compile>) => {
    n++;
    return compile(...a);
  }) as typeof compile;
  try {
    fn();
  } finally {
    RE2JS.compile = compile;
  }
  return n;
}

describe('message patterns', () => {
  it('a plain pattern is compiled when first run, once', () => {
    let p: ReturnType<typeof compileMessagePattern> = '';
    expect(compiles(() => (p = compileMessagePattern('Invalid mode: .*? \\(plain\\)')))).toBe(0);
    if (typeof p === 'string') throw new Error(p);
    const pattern = p;
    expect(compiles(() => expect(pattern.test('Invalid mode: rw+ (plain)')).toBe(true))).toBe(1);
    expect(compiles(() => expect(pattern.test('Invalid mode: rw+ (plain')).toBe(false))).toBe(0);
  });

  it('any other pattern is compiled at load; one RE2 cannot run is rejected', () => {
    expect(compiles(() => expect(typeof compileMessagePattern('bad (?:value|mode) [0-9]+ here')).toBe('object'))).toBe(1);
    expect(compileMessagePattern('(?P<n>x)(?P=n) again')).toMatch(/^not a regular expression a linear-time engine can run/);
    expect(compileMessagePattern('lookahead (?=x) here')).toMatch(/^not a regular expression a linear-time engine can run/);
  });

  it('accepts and rejects as RE2 does, whatever the pattern', () => {
    const re2 = (p: string) => {
      try {
        RE2JS.compile(p.replace(/(^|[^\\])((?:\\\\)*)\\Z/g, '$1$2\\z'));
        return true;
      } catch {
        return false;
      }
    };
    const alphabet = [
      'a',
      'Z',
      '0',
      ' ',
      '\\',
      '.',
      '*',
      '+',
      '?',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      '^',
      '$',
      '|',
      '-',
      '_',
      '/',
      ':',
      '@',
      '`',
      '~',
      '\n',
      'é',
      '\t',
      '"',
      ',',
    ];
    let seed = 11;
    const next = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % k);
    const patterns: string[] = [];
    for (let c = 0; c < 0x250; c++) patterns.push(`\\${String.fromCharCode(c)}`, `x\\${String.fromCharCode(c)}*?`);
    for (let i = 0; i < 20_000; i++) patterns.push(Array.from({ length: 1 + next(7) }, () => alphabet[next(alphabet.length)]).join(''));
    for (const p of new Set(patterns)) expect(typeof compileMessagePattern(p) === 'object', JSON.stringify(p)).toBe(re2(p));
  });
});
