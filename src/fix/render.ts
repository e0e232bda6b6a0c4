/** Fix planning: text. The user's code and the record's alternative, re-indented for where they go. */
import type { FixEdit } from '../diagnostics/types.js';
import type { Alternative } from '../rules/types.js';
import { PlanNames } from './names.js';

export abstract class PlanRender extends PlanNames {
  /** User text, with `extra` indentation after each line break outside strings, and replacements. */
  protected userCopy(start: number, end: number, extra: string, repl: FixEdit[]): string {
    const text = this.user.text;
    const rs = [...repl].sort((a, b) => a.start - b.start);
    let out = '';
    let i = start;
    let k = 0;
    while (i < end) {
      const r = rs[k];
      if (r && i === r.start) {
        out += r.text;
        i = r.end;
        k++;
        continue;
      }
      const stop = Math.min(end, r ? r.start : end);
      const j = text.indexOf('\n', i);
      if (j < 0 || j >= stop) {
        out += text.slice(i, stop);
        i = stop;
        continue;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
      const lineEmpty = text.slice(i, this.user.lineEnd(i)).trim() === '';
      if (extra && !this.inString.has(i) && !lineEmpty && i < end) out += extra;
    }
    return out;
  }

  /** Pattern text from `start` to `end`, edits applied, re-indented to `indent` with the file's unit and line endings. */
  protected render(alt: Alternative, start: number, end: number, edits: FixEdit[], indent: string): string {
    const text = alt.text;
    // An edit that covers others (the statement's sink) wins over those inside it.
    const es = edits.filter((e) => e.start >= start && e.end <= end).sort((a, b) => a.start - b.start || b.end - a.end);
    let out = '';
    let i = start;
    let k = 0;
    const inString = new Set(alt.inString);
    while (i < end) {
      const e = es[k];
      if (e && i === e.start) {
        out += e.text;
        i = e.end;
        k++;
        while (es[k] && es[k]!.start < i) k++;
        continue;
      }
      const ch = text[i]!;
      if (ch === '\r' && text[i + 1] === '\n') {
        i++;
        continue;
      }
      if (ch !== '\n') {
        out += ch;
        i++;
        continue;
      }
      out += this.eol;
      i++;
      if (inString.has(i)) continue;
      let j = i;
      while (j < end && (text[j] === ' ' || text[j] === '\t')) j++;
      if (j >= end || text[j] === '\n' || text[j] === '\r') {
        i = j;
        continue;
      }
      out += indent + this.convertIndent(text.slice(i, j), alt);
      i = j;
    }
    return out;
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
