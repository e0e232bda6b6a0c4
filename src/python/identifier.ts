/** Python identifiers as the tokenizer reads them (a Unicode letter or `_`, then letters, digits and `_`): one pattern for every reader. */

/** The pattern's source: build a RegExp with the `u` flag around it (`^...$`, a capture, `g` for a scan). */
export const IDENTIFIER = '[\\p{ID_Start}_][\\p{ID_Continue}]*';

const WHOLE = new RegExp(`^${IDENTIFIER}$`, 'u');

/** `s` is one identifier (a keyword's spelling included). */
export function isIdentifier(s: string): boolean {
  return WHOLE.test(s);
}
