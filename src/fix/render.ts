/** Fix planning: text. The user's code and the record's alternative, re-indented for where they go. */
import type { FixEdit } from '../diagnostics/types.js';
import type { Alternative } from '../rules/types.js';
import { PlanNames } from './names.js';

/**
 * The one loop under both re-indentations: `text[start, end)` with `edits` spliced in (an edit
 * that covers others wins over those inside it); at each line break of the text itself,
 * `lineBreak(at)` (`at`: the offset after the `\n`) gives what to write for the break and where
 * to go on. `dropCr`: the `\r` of a `\r\n` is not copied (the break writes the line ending).
 */
function splice(
  text: string,
  start: number,
  end: number,
  edits: readonly FixEdit[],
  dropCr: boolean,
  lineBreak: (at: number) => { text: string; at: number },
): string {
  const es = edits.filter((e) => e.start >= start && e.end <= end).sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let i = start;
  let k = 0;
  while (i < end) {
    while (es[k] && es[k]!.start < i) k++;
    const e = es[k];
    if (e && i === e.start) {
      out += e.text;
      i = e.end;
      k++;
      continue;
    }
    const stop = e ? e.start : end;
    const j = text.indexOf('\n', i);
    const cut = j < 0 || j >= stop ? stop : j;
    out += text.slice(i, dropCr && text[cut - 1] === '\r' && text[cut] === '\n' ? cut - 1 : cut);
    if (cut === stop) {
      i = stop;
      continue;
    }
    const r = lineBreak(j + 1);
    out += r.text;
    i = r.at;
  }
  return out;
}

export abstract class PlanRender extends PlanNames {
  /** User text, with `extra` indentation after each line break outside strings, and replacements. */
  protected userCopy(start: number, end: number, extra: string, repl: FixEdit[]): string {
    const text = this.user.text;
    return splice(text, start, end, repl, false, (at) => {
      const lineEmpty = text.slice(at, this.user.lineEnd(at)).trim() === '';
      return { text: extra && !this.inString.has(at) && !lineEmpty && at < end ? `\n${extra}` : '\n', at };
    });
  }

  /** Pattern text from `start` to `end`, edits applied, re-indented to `indent` with the file's unit and line endings. */
  protected render(alt: Alternative, start: number, end: number, edits: FixEdit[], indent: string): string {
    const text = alt.text;
    const inString = new Set(alt.inString);
    return splice(text, start, end, edits, true, (at) => {
      if (inString.has(at)) return { text: this.eol, at };
      let j = at;
      while (j < end && (text[j] === ' ' || text[j] === '\t')) j++;
      // A blank line loses its whitespace.
      if (j >= end || text[j] === '\n' || text[j] === '\r') return { text: this.eol, at: j };
      return { text: this.eol + indent + this.convertIndent(text.slice(at, j), alt), at: j };
    });
  }

  protected convertIndent(ws: string, alt: Alternative): string {
    let rel = ws.startsWith(alt.baseIndent) ? ws.slice(alt.baseIndent.length) : ws;
    let out = '';
    while (alt.unit && rel.startsWith(alt.unit)) {
      out += this.unit;
      rel = rel.slice(alt.unit.length);
    }
    return out + rel;
  }
}
