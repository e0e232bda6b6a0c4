/**
 * A record's `messagePattern` (a Python `re` pattern) run by a linear-time engine (RE2, through
 * `re2js`): records are untrusted data, and a backtracking engine takes exponential time on a
 * pattern like `(a+)+$`. What RE2 cannot run (back-references, look-around) is rejected with a
 * warning when the record loads, and the record's `errorMessage` is matched instead.
 */
import { RE2JS } from 're2js';

/** Longer patterns are rejected (a message pattern is a line of text, not a program). */
export const MAX_PATTERN_LENGTH = 2000;

export interface MessagePattern {
  /** `re.search` semantics: the pattern matches somewhere in the message. */
  test(message: string): boolean;
}

/** Python syntax RE2 spells differently: `\Z` (end of string) is RE2's `\z`; `(?P=name)` has no RE2 form. */
function toRe2(pattern: string): string {
  return pattern.replace(/(^|[^\\])((?:\\\\)*)\\Z/g, '$1$2\\z');
}

const cache = new Map<string, MessagePattern | string>();

/**
 * Patterns RE2 always compiles: literal characters (no surrogates), escaped ASCII punctuation or
 * space (RE2 reads `\` before any ASCII non-alphanumeric as that character) and `.`, each maybe
 * repeated (`*`, `+`, `?`, greedy or lazy). Most recorded messages are such (`Invalid mode: .*?`,
 * `region\.`): they are compiled when first run, not when the record loads (RE2JS.compile was
 * ~0.1 ms a pattern, two thirds of loading a stdlib record).
 */
const ALWAYS_VALID = /^(?:(?:[^\\^$.|?*+()[\]{}\uD800-\uDFFF]|\\[ -/:-@[-`{-~]|\.)(?:[*+?]\??)?)*$/;

/** Compiles a pattern, or returns why it cannot be used (one line). */
export function compileMessagePattern(pattern: string): MessagePattern | string {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  let out: MessagePattern | string;
  if (pattern.length > MAX_PATTERN_LENGTH) out = `longer than ${MAX_PATTERN_LENGTH} characters (${pattern.length})`;
  else if (ALWAYS_VALID.test(pattern)) {
    let re: RE2JS | undefined;
    out = { test: (m: string) => (re ??= RE2JS.compile(toRe2(pattern))).matcher(m).find() };
  } else {
    try {
      const re = RE2JS.compile(toRe2(pattern));
      out = { test: (m: string) => re.matcher(m).find() };
    } catch (e) {
      const why = (e as Error).message.replace(/^error parsing regexp: /, '');
      out = `not a regular expression a linear-time engine can run (${why.length > 120 ? `${why.slice(0, 120)}...` : why}); errorMessage is matched instead`;
    }
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(pattern, out);
  return out;
}
