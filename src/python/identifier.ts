/** Python identifiers as the tokenizer reads them (a Unicode letter or `_`, then letters, digits and `_`): one pattern for every reader. */

/** The pattern's source: build a RegExp with the `u` flag around it (`^...$`, a capture, `g` for a scan). */
export const IDENTIFIER = '[\\p{ID_Start}_][\\p{ID_Continue}]*';

const WHOLE = new RegExp(`^${IDENTIFIER}$`, 'u');

/** `s` is one identifier (a keyword's spelling included). */
export function isIdentifier(s: string): boolean {
  return WHOLE.test(s);
}

/** Python's hard keywords (`keyword.kwlist`, the same from 3.7 on): never a name. Soft keywords (`match`, `type`) are names. */
export const HARD_KEYWORDS: readonly string[] =
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  );
