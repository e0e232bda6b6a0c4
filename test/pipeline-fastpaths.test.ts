/** The per-file pipeline's fast paths (issue 13, s6p): each gives what the slow path gave. */
import { describe, expect, it } from 'vitest';
import { oneLine } from '../src/parse/files.js';
import { codingCookie } from '../src/parse/source.js';
import { mayBeDeeper } from '../src/parse/depth.js';
import { NameTable } from '../src/prefilter/nametable.js';

describe('oneLine', () => {
  it('returns plain text as it is, cut at max code units', () => {
    expect(oneLine('plain message', Infinity)).toBe('plain message');
    expect(oneLine('abcdef', 4)).toBe('abcd...');
    expect(oneLine('abcd', 4)).toBe('abcd');
    expect(oneLine('héllo wörld', 5)).toBe('héllo...');
  });
  it('escapes control characters, U+FFFD, surrogates and line separators (and non-ASCII when asked)', () => {
    expect(oneLine('a\nb\tc\x07', Infinity)).toBe('a\\nb\\tc\\x07');
    expect(oneLine('x\ufffdy\u2028', Infinity)).toBe('x\\ufffdy\\u2028');
    expect(oneLine('a😀b', Infinity)).toBe('a😀b');
    expect(oneLine('😀😀😀', 2)).toBe('😀...');
    expect(oneLine('\ud800', Infinity)).toBe('\\ud800');
    expect(oneLine('héllo', Infinity, true)).toBe('h\\u00e9llo');
    expect(oneLine('hello', Infinity, true)).toBe('hello');
  });
});

describe('codingCookie', () => {
  const b = (s: string) => Buffer.from(s, 'latin1');
  it('reads a cookie on line 1 or 2 only', () => {
    expect(codingCookie(b('# -*- coding: latin-1 -*-\nx = 1\n'))).toBe('latin-1');
    expect(codingCookie(b('#!/usr/bin/env python\n# vim: set fileencoding=utf-8 :\n'))).toBe('utf-8');
    expect(codingCookie(b('x = 1\n# coding: latin-1\n'))).toBeUndefined();
    expect(codingCookie(b('#!/usr/bin/env python\n\n# coding: latin-1\n'))).toBeUndefined();
    expect(codingCookie(b('import os\n'))).toBeUndefined();
    expect(codingCookie(b('s = "coding"\n'))).toBeUndefined();
  });
});

describe('mayBeDeeper', () => {
  it('bounds nesting, chained operators and operator words; strings, comments and longer words do not count', () => {
    expect(mayBeDeeper('f('.repeat(60) + ')'.repeat(60), 100)).toBe(true);
    expect(mayBeDeeper('x = ' + Array(120).fill('1').join(' + '), 100)).toBe(true);
    expect(mayBeDeeper('x = ' + Array(120).fill('a').join(' and '), 100)).toBe(true);
    expect(mayBeDeeper('x = ' + Array(120).fill('a').join(' android '), 100)).toBe(false);
    expect(mayBeDeeper('x = ' + Array(120).fill('a').join(' Xand '), 100)).toBe(false);
    expect(mayBeDeeper('s = "' + '('.repeat(300) + '"\n# ' + '['.repeat(300) + '\n', 100)).toBe(false);
    expect(mayBeDeeper('def f():\n    return 1\n', 100)).toBe(false);
    // Docstrings (escaped quotes inside) and comments, with `\n` or `\r\n` line ends, hide their brackets; the code after them counts.
    const deep = 'f('.repeat(60) + ')'.repeat(60);
    const q3 = '"'.repeat(3);
    for (const eol of ['\n', '\r\n']) {
      expect(mayBeDeeper(`s = ${q3} \\${q3} ${'('.repeat(300)} ${q3}${eol}# ${'['.repeat(300)}${eol}x = 1${eol}`, 100)).toBe(false);
      expect(mayBeDeeper(`s = ''' \\''' ' '' ${'('.repeat(300)} '''${eol}# c${eol}${deep}${eol}`, 100)).toBe(true);
      expect(mayBeDeeper(`s = ${q3} \\\\${q3} + ${deep}${eol}`, 100)).toBe(true);
    }
  });
});

describe('NameTable', () => {
  it('finds the same names on every scan (the names are made once)', () => {
    const t = NameTable.build([
      ['save_state', 1],
      ['load', 2],
    ]);
    const buf = Buffer.from('x.save_state(); load(); save_state; unload');
    for (let k = 0; k < 3; k++) {
      const found = new Map<string, number>();
      t.scanBytes(buf, buf.length, undefined, found);
      expect([...found]).toEqual([
        ['save_state', 1],
        ['load', 2],
      ]);
    }
  });
});
