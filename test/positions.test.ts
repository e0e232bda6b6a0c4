/** The one line index (src/diagnostics/positions.ts): offsets to positions as reporters write them. */
import { describe, expect, it } from 'vitest';
import { lineStarts, positionAt, positionEdits } from '../src/diagnostics/positions.js';

describe('line index', () => {
  it('\\n, \\r\\n and a lone \\r each end a line (as CPython and LSP count)', () => {
    expect(lineStarts('a\nb\r\nc\rd')).toEqual([0, 2, 5, 7]);
    expect(lineStarts('')).toEqual([0]);
    expect(lineStarts('x\n')).toEqual([0, 2]);
  });

  it('positions are 0-based rows and UTF-16 columns; an offset at a line break is the end of its line', () => {
    const text = 's = "\u{1F600}"\r\nx = 1\n';
    const starts = lineStarts(text);
    expect(positionAt(starts, text.indexOf('x'))).toEqual({ row: 1, column: 0 });
    expect(positionAt(starts, text.indexOf('\r'))).toEqual({ row: 0, column: 8 });
    expect(positionAt(starts, text.length)).toEqual({ row: 2, column: 0 });
  });

  it('edits become 1-based, end-exclusive positions; one that does not fit the text makes none', () => {
    const text = 'a = 1\rb = 2\n';
    expect(
      positionEdits(text, [
        { start: 6, end: 11, text: 'b = 3' },
        { start: 12, end: 12, text: 'c\n' },
      ]),
    ).toEqual([
      { line: 2, column: 1, endLine: 2, endColumn: 6, text: 'b = 3' },
      { line: 3, column: 1, endLine: 3, endColumn: 1, text: 'c\n' },
    ]);
    expect(positionEdits(text, [{ start: 0, end: 13, text: '' }])).toBeUndefined();
    expect(positionEdits(text, [{ start: 3, end: 2, text: '' }])).toBeUndefined();
    expect(positionEdits(text, [{ start: -1, end: 0, text: '' }])).toBeUndefined();
    expect(positionEdits(text, [])).toEqual([]);
  });
});
