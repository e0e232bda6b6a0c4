/**
 * What the prefilter reads around the names it finds (src/prefilter/index.ts), still without
 * parsing: which module roots the file imports, which names its import statements list, and
 * whether a name is written as an attribute (`x.name`).
 *
 * The semantic model resolves a qualified name only from an import (src/semantic/statements.ts:
 * `import a.b [as c]`, `from a.b import x [as y]`, also relative ones) or from a bare built-in
 * exception name (`builtins.ValueError`). So the root of every qualified name it builds is the
 * first segment of a module written in an import statement. Every reading here errs on the side
 * of more: a miss would reject a file that can match, an extra only lets one more file through.
 *  - Every `import` token counts, in code, strings and comments alike (tree-sitter's error
 *    recovery makes `x = 1 import os` an import statement). It belongs to a from-import when the
 *    same logical line has `from <dotted name>` right before it; otherwise it is read as a plain
 *    import, whose list's first names are roots.
 *  - A from-import's root is the first name after `from` and its dots (`from .m import x` is
 *    `.m.x`, which a symbol of an empty module can match).
 *  - Every name in an import statement's list (after `import`: names, dotted parts, aliases) is
 *    recorded as imported, up to the end of the statement: a newline outside parentheses, `;`,
 *    the closing parenthesis, the next `import`, or a byte no import list holds. Where the names
 *    are is recorded only for a list that surely is one (at the start of a statement, ending
 *    cleanly, with no continuation or comment): those occurrences are then not read as uses.
 *  - A name is dotted when a `.` precedes it across spaces, line continuations, line ends and
 *    comments (tree-sitter keeps `x. # c` / `y` one attribute); it is accessed when `[` or `.`
 *    follows it on its line (a subscript or an attribute of it: never the value itself).
 */
import { ID_BYTE } from './nametable.js';

const IMPORT = Buffer.from('import', 'latin1');
const DOT = 46;
const HASH = 35;
const NL = 10;
const CR = 13;

/** Space, tab, form feed. */
const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 12;
/**
 * A byte of an ASCII identifier. Other bytes end names, as in the name tables: a non-ASCII name
 * is never a root or an entry read here (./needs.ts takes such roots as imported), and
 * a byte-order mark before `import` or `from` does not hide the keyword.
 */
const isWord = (c: number): boolean => ID_BYTE[c] !== 0;

export interface ImportContext {
  /** First segments of the modules the file's import statements name. */
  roots: Set<string>;
  /** Some import is relative (`from .m import x`, `from .. import m`): of the file's own project. */
  relative: boolean;
  /** Every ASCII name written in an import statement's list. */
  imported: Set<string>;
  /** Where those names start, each with whether `as` follows it (`from m import x as y`: x's value goes to another name). */
  listed: Map<number, boolean>;
}

/** The import statements of buf[0, n), read from the bytes. */
export function importContext(buf: Uint8Array, n: number): ImportContext {
  const b = Buffer.from(buf.buffer, buf.byteOffset, n);
  const out: ImportContext = { roots: new Set(), imported: new Set(), listed: new Map(), relative: false };
  for (let at = b.indexOf(IMPORT); at >= 0; at = b.indexOf(IMPORT, at + IMPORT.length)) {
    const end = at + IMPORT.length;
    if (!startsToken(b, at) || (end < n && isWord(b[end]!))) continue;
    const from = fromRoot(b, at);
    if (from && from.root) out.roots.add(from.root);
    if (from?.relative) out.relative = true;
    const list = readList(b, end, n, out, from === null);
    // Where its names are (their value goes to their local names): only for a list that is surely
    // an import statement's, at the start of a statement, on one line or in its parentheses.
    if (list.clean && atStatementStart(b, from ? from.at : at))
      for (const [s, aliased] of list.names) if (aliased || !out.listed.has(s)) out.listed.set(s, aliased);
  }
  return out;
}

/**
 * A keyword at i starts a token: no word byte before it, or the word bytes before it start with a
 * digit (a number: `1import os` is `1` then `import`, as tree-sitter reads it).
 */
function startsToken(b: Uint8Array, i: number): boolean {
  let s = i;
  while (s > 0 && isWord(b[s - 1]!)) s--;
  return s === i || isDigit(b[s]!);
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** True when only spaces lie between the start of the line (or `;`, `:`) and i. */
function atStatementStart(b: Uint8Array, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && isBlank(b[j]!)) j--;
  return j < 0 || b[j] === NL || b[j] === CR || b[j] === 59 || b[j] === 58;
}

/** Skips spaces and line continuations backwards from i; the index of the byte before them (-1 at the start). */
function backOverBlanks(b: Uint8Array, i: number): number {
  for (;;) {
    while (i >= 0 && isBlank(b[i]!)) i--;
    // A line continuation: `\` then `\n`, `\r\n` or `\r`.
    if (i > 0 && (b[i] === NL || b[i] === CR)) {
      let j = i;
      if (b[j] === NL && b[j - 1] === CR) j--;
      if (j > 0 && b[j - 1] === 92) {
        i = j - 2;
        continue;
      }
    }
    return i;
  }
}

/**
 * For the `import` token at `at`: where `from` is and the root of `from <module> import` ('' for
 * a relative module without a name: `from . import x`), or null when it is not a from-import.
 */
function fromRoot(b: Buffer, at: number): { at: number; root: string; relative: boolean } | null {
  let i = backOverBlanks(b, at - 1);
  let root = '';
  let afterName = false;
  // Read backwards: the last byte seen before `from` is the first of the module (a dot: relative).
  let dot = false;
  for (;;) {
    if (i < 0) return null;
    const c = b[i]!;
    if (c === DOT) {
      dot = true;
      afterName = false;
      i = backOverBlanks(b, i - 1);
      continue;
    }
    if (!isWord(c)) return null;
    let s = i;
    while (s > 0 && isWord(b[s - 1]!)) s--;
    const word = b.toString('latin1', s, i + 1);
    // `from` itself, or after a number (`1from`: see startsToken; s is where the word bytes start).
    if (word === 'from' || (word.endsWith('from') && isDigit(b[s]!))) return { at: i - 3, root, relative: dot };
    // Two names without a dot between: not a module name.
    if (afterName) return null;
    dot = false;
    root = word;
    afterName = true;
    i = backOverBlanks(b, s - 1);
  }
}

/**
 * Reads an import list from p: every name into `imported`; with `roots`, the first name of each
 * item (at the start, after `,` or `(`) into `roots`. Returns where its names start (each with
 * whether `as` follows it), and whether it ended cleanly: at the end of its line or its closing
 * parenthesis, with no line continuation (else the bytes may be a comment's or a string's that
 * runs into code).
 */
function readList(b: Buffer, p: number, n: number, out: ImportContext, roots: boolean): { names: [number, boolean][]; clean: boolean } {
  const names: [number, boolean][] = [];
  let depth = 0;
  let first = true;
  let clean = true;
  let opened = false;
  while (p < n) {
    const c = b[p]!;
    if (isBlank(c)) p++;
    else if (c === 92) {
      // A line continuation (or a stray backslash: more is read, never less).
      clean = false;
      p++;
      if (b[p] === CR) p++;
      if (b[p] === NL) p++;
    } else if (c === NL || c === CR) {
      if (depth === 0) return { names, clean };
      p++;
    } else if (c === HASH) {
      // A comment (or a `#` in a string that ends on the line: then code follows).
      if (depth > 0) clean = false;
      while (p < n && b[p] !== NL && b[p] !== CR) p++;
    } else if (c === 40) {
      // Only a from-import's list may have parentheses, around all its names.
      if (roots || opened || names.length) clean = false;
      opened = true;
      depth++;
      first = true;
      p++;
    } else if (c === 41) {
      if (--depth <= 0) return { names, clean: clean && depth === 0 };
      p++;
    } else if (c === 44) {
      first = true;
      p++;
    } else if (c === DOT || c === 42) {
      if (depth > 0) clean = false;
      first = false;
      p++;
    } else if (isWord(c)) {
      const s = p;
      while (p < n && isWord(b[p]!)) p++;
      const word = b.toString('latin1', s, p);
      if (word === 'import') return { names, clean: false };
      if (word === 'as') {
        if (names.length) names[names.length - 1]![1] = true;
      } else {
        out.imported.add(word);
        names.push([s, false]);
      }
      if (roots && first) out.roots.add(word);
      first = false;
    } else return { names, clean: clean && c === 59 && depth === 0 };
  }
  return { names, clean: clean && depth === 0 };
}

/**
 * True when a `.` precedes the name starting at s: across spaces, line continuations and line
 * ends, and across comments ending those lines (any `#` of the line is taken as a comment's start).
 */
export function dotBefore(b: Uint8Array, s: number): boolean {
  let i = s - 1;
  let crossed = false;
  for (;;) {
    while (i >= 0) {
      const c = b[i]!;
      if (c === NL || c === CR) crossed = true;
      else if (!isBlank(c) && c !== 92) break;
      i--;
    }
    if (i < 0) return false;
    if (b[i] === DOT) return true;
    if (!crossed) return false;
    // b[i] ends a line: a comment may end it, after the dot.
    let ls = i;
    while (ls >= 0 && b[ls] !== NL && b[ls] !== CR) ls--;
    let further = false;
    for (let k = ls + 1; k <= i; k++) {
      if (b[k] !== HASH) continue;
      let j = k - 1;
      while (j > ls && isBlank(b[j]!)) j--;
      if (j <= ls) {
        // A line that is a comment: look further back.
        further = true;
        break;
      }
      if (b[j] === DOT) return true;
    }
    if (!further || ls < 0) return false;
    i = ls;
  }
}

/** True when `[` or `.` follows the name ending at e, on its line (across spaces and line continuations). */
export function accessAfter(b: Uint8Array, e: number, n: number): boolean {
  let p = e;
  for (;;) {
    while (p < n && isBlank(b[p]!)) p++;
    if (p < n && b[p] === 92) {
      p++;
      if (b[p] === CR) p++;
      if (b[p] === NL) p++;
      continue;
    }
    return p < n && (b[p] === 91 || b[p] === DOT);
  }
}
