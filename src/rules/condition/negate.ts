/** Negating a test written as Python text (a data atom of a condition, ./types.ts). */
const FLIP: Record<string, string> = { '==': '!=', '!=': '==', is: 'is not', 'is not': 'is', in: 'not in', 'not in': 'in' };

/**
 * The negation of a test's text, written as Python would (`self.headers is not None` gives
 * `self.headers is None`, `not self._eof` gives `self._eof`), when it is one comparison of one of
 * `==`, `!=`, `is`, `in` (or their negations) or a `not` of a whole; undefined otherwise.
 * (`not` binds looser than a comparison: `not a is b` is `not (a is b)`.)
 */
export function negatedText(text: string): string | undefined {
  const ops: { at: number; op: string; len: number }[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'") {
      const end = text.indexOf(ch, i + 1);
      if (end < 0) return undefined;
      i = end;
      continue;
    }
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    if (depth !== 0) continue;
    const rest = text.slice(i);
    const word = /^ (and|or|if|else|for|lambda) /.exec(rest);
    if (word || (i === 0 && /^lambda\b/.test(rest))) return undefined;
    const m = /^ (is not|not in|is|in|==|!=|<=|>=|<|>) /.exec(rest);
    if (m) {
      ops.push({ at: i, op: m[1]!, len: m[0].length });
      i += m[0].length - 1;
    }
  }
  if (depth !== 0) return undefined;
  if (/^not /.test(text)) return text.slice(4);
  const only = ops.length === 1 ? ops[0]! : undefined;
  const flipped = only && FLIP[only.op];
  if (!only || !flipped) return undefined;
  return `${text.slice(0, only.at)} ${flipped} ${text.slice(only.at + only.len)}`;
}
