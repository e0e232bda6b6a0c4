/**
 * A module's text with what holds no code blanked, read without a parse (semantic/projectfacts.ts
 * reads the project's modules this way): comments and plain string literals become spaces, so
 * that a name written there (`if base == 'Doc':`, a docstring's `>>> import zipfile`) is not taken
 * for a use. Offsets and line breaks are kept. Kept as written (they may hold code or a type):
 * f-strings, and a string that reads as a type name right after `->`, `:`, `[`, `,`, `|` or `(` on
 * its line (`def make() -> "zipfile.ZipFile":`, `Optional["Runtime"]`). An unterminated string
 * ends at its line's end (single quotes) or the text's end (triple quotes), as the tokenizer's
 * error recovery would leave it.
 */
import { IDENTIFIER } from './identifier.js';

/** A string annotation's text: a dotted name with subscripts, unions and commas. */
const TYPE_TEXT = /^[A-Za-z_][\w.[\], |]*$/;
const ANNOTATION_BEFORE = new Set(['>', ':', '[', ',', '|', '(']);
const HASH = 35;
const DQ = 34;
const SQ = 39;
const NL = 10;
const BACKSLASH = 92;

/** The text with comments and plain string literals replaced by spaces (line breaks kept). */
export function blankInert(text: string): string {
  const out: string[] = [];
  let from = 0;
  const blank = (start: number, end: number) => {
    out.push(text.slice(from, start), spaces(text, start, end));
    from = end;
  };
  const n = text.length;
  const next = /["'#]/g;
  for (let i = 0; i < n; ) {
    next.lastIndex = i;
    if (!next.exec(text)) break;
    i = next.lastIndex - 1;
    const c = text.charCodeAt(i);
    if (c === HASH) {
      const end = lineEnd(text, i);
      blank(i, end);
      i = end;
    } else if (c === DQ || c === SQ) {
      const start = prefixStart(text, i);
      const end = stringEnd(text, i, c);
      const f = start < i && /[fF]/.test(text.slice(start, i));
      if (!f && !isTypeText(text, start, i, end)) blank(start, end);
      i = end;
    }
  }
  if (!from) return text;
  out.push(text.slice(from));
  return out.join('');
}

/** Spaces for text[start, end), its line breaks kept. */
function spaces(text: string, start: number, end: number): string {
  let out = '';
  let at = start;
  for (let nl = text.indexOf('\n', at); nl >= 0 && nl < end; nl = text.indexOf('\n', at)) {
    out += ' '.repeat(nl - at) + '\n';
    at = nl + 1;
  }
  return out + ' '.repeat(end - at);
}

/** Where a string literal whose quote is at q starts: its prefix (`rb`, `f`, ...) when one is written, with no name character before it. */
function prefixStart(text: string, q: number): number {
  let s = q;
  while (s > q - 2 && s > 0 && 'rRbBuUfF'.includes(text[s - 1]!)) s--;
  return s === q || (s > 0 && isNameChar(text.charCodeAt(s - 1))) ? q : s;
}

function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}

function lineEnd(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  return nl < 0 ? text.length : nl;
}

/** The end (exclusive) of the string literal whose opening quote (char code `quote`) is at `q`. */
function stringEnd(text: string, q: number, quote: number): number {
  const triple = text.charCodeAt(q + 1) === quote && text.charCodeAt(q + 2) === quote;
  const n = text.length;
  for (let i = q + (triple ? 3 : 1); i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === NL && !triple) return i;
    else if (c === quote && (!triple || (text.charCodeAt(i + 1) === quote && text.charCodeAt(i + 2) === quote))) return i + (triple ? 3 : 1);
  }
  return n;
}

/** Whether the string at [start, end) (opening quote at q) may be a string annotation. */
function isTypeText(text: string, start: number, q: number, end: number): boolean {
  if (end - q > 200) return false;
  const body = text.slice(q + 1, end - 1);
  if (!TYPE_TEXT.test(body)) return false;
  let j = start - 1;
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
  return j >= 0 && ANNOTATION_BEFORE.has(text[j]!);
}

const NAME = new RegExp(IDENTIFIER, 'gu');
const WALRUS_OR_ASSIGN = new RegExp(`(${IDENTIFIER})\\s*:?=(?!=)`, 'gu');
const EXPORTING = /\b(return|yield|lambda|global|nonlocal)\b|^\s*@/;
const COMPOUND = /^\s*(async\s+)?(def|class)\b/;
/** A logical line longer than this many physical lines (an unbalanced bracket in an f-string): all its names count. */
const MAX_LOGICAL = 60;

/**
 * The names of a module's code (./blankInert's output) that may reach another module: those written
 * at module level or in a class body, in a `def` or `class` line, a decorator, a `return`, `yield`,
 * `lambda`, `global` or `nonlocal` line, or an assignment to an attribute or an item; and, in a
 * function, those of a line that binds a name which does in the same top-level function
 * (`zf = zipfile.ZipFile(p)` then `return zf`). A name used only inside function bodies (`with zipfile.ZipFile(p)
 * as zf: zf.write(x)`) is left out: what another module gets of this one (its names, what its
 * functions return, its classes' attributes) cannot hold it. With `want`, the answer is exact for those
 * names only (the set may lack others): the names a module holds that some rule has.
 */
export function exportedNames(code: string, want?: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  // Per top-level function (by its line's index; nested functions and class bodies in it share it):
  // the names its exporting lines hold, and its other lines (what they bind is read only when needed).
  const locals = new Map<number, Set<string>>();
  const binds: { fn: number; text: string; names: string[]; bound?: string[] }[] = [];
  const stack: { indent: number; def: boolean }[] = [];
  let outer = -1;
  let line = 0;
  for (const { text, indent, whole } of logicalLines(code)) {
    line++;
    while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
    if (!stack.some((s) => s.def)) outer = -1;
    const compound = COMPOUND.exec(text);
    // A class body is read as the module's (its attributes reach other modules), even in a function.
    const inDef = !!stack[stack.length - 1]?.def;
    if (compound) {
      stack.push({ indent, def: compound[2] === 'def' });
      if (outer < 0 && compound[2] === 'def') outer = line;
    }
    const names = text.match(NAME) ?? [];
    if (whole || !inDef || compound || EXPORTING.test(text) || storesInto(text)) {
      for (const n of names) out.add(n);
      if (outer >= 0) addAll(local(locals, outer), names);
      continue;
    }
    if (names.length) binds.push({ fn: outer, text, names });
  }
  // Asked about some names only (the rules' names a module holds), and each is exported already: done.
  if (want && [...want].every((n) => out.has(n))) return out;
  // A function's name bound from others carries them where it goes (`zf = zipfile.ZipFile(p)`, then
  // `return zf` in the same function; a local of another function of the same name does not). A line
  // binds only names it holds: what it binds is read once one of them is the function's.
  for (let changed = true; changed; ) {
    changed = false;
    for (const b of binds) {
      const own = local(locals, b.fn);
      if (!b.names.some((n) => own.has(n))) continue;
      b.bound ??= boundNames(b.text);
      if (!b.bound.some((x) => own.has(x))) continue;
      for (const n of b.names) {
        if (own.has(n)) continue;
        own.add(n);
        out.add(n);
        changed = true;
      }
    }
  }
  return out;
}

function local(locals: Map<number, Set<string>>, fn: number): Set<string> {
  let set = locals.get(fn);
  if (!set) locals.set(fn, (set = new Set()));
  return set;
}

function addAll(set: Set<string>, names: Iterable<string>): void {
  for (const n of names) set.add(n);
}

/** The logical lines of code: brackets and backslashes join physical lines. */
function* logicalLines(code: string): Generator<{ text: string; indent: number; whole: boolean }> {
  let depth = 0;
  let parts: string[] = [];
  let indent = 0;
  for (const line of code.split('\n')) {
    if (!parts.length) {
      if (!line.trim()) continue;
      indent = line.length - line.trimStart().length;
    }
    parts.push(line);
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (c === '(' || c === '[' || c === '{') depth++;
      else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    }
    const joined = depth > 0 || line.trimEnd().endsWith('\\');
    if (joined && parts.length < MAX_LOGICAL) continue;
    yield { text: parts.join('\n'), indent, whole: joined };
    parts = [];
    depth = 0;
  }
  if (parts.length) yield { text: parts.join('\n'), indent, whole: true };
}

/** An assignment (plain or augmented) whose target holds an attribute or an item. */
function storesInto(text: string): boolean {
  const target = assignTarget(text);
  return target !== undefined && /[.[]/.test(target);
}

/** The text before a statement's first assignment `=` at bracket depth 0 (undefined: none). */
function assignTarget(text: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === '=' && depth === 0 && text[i + 1] !== '=' && !'=<>!:'.includes(text[i - 1] ?? '')) return text.slice(0, i);
  }
  return undefined;
}

/** The names a line binds: assignment targets, `as` and `for` targets, walrus targets, keyword names (a superset). */
function boundNames(text: string): string[] {
  const out: string[] = [];
  const target = assignTarget(text);
  if (target !== undefined) out.push(...(target.match(NAME) ?? []));
  for (const m of text.matchAll(/\b(?:as|for)\s+([^:=]*?)(?=\bin\b|[:,)]|$)/gu)) out.push(...(m[1]!.match(NAME) ?? []));
  for (const m of text.matchAll(WALRUS_OR_ASSIGN)) out.push(m[1]!);
  return out;
}

/** `if TYPE_CHECKING:` (or `if typing.TYPE_CHECKING:`) starting a line, with its indentation and what follows the colon on the line. */
const TYPE_CHECKING_IF = /^([ \t]*)if[ \t]+(?:[A-Za-z_][\w.]*\.)?TYPE_CHECKING[ \t]*:([^\n]*)$/gm;

/**
 * The spans of a module's text (comments and strings blanked: ./blankInert) that only a type
 * checker runs: the bodies of `if TYPE_CHECKING:` blocks, read by indentation (the block ends at the
 * first non-blank line indented no deeper than its `if`, an `else:` too). What is imported there is
 * never imported when the program runs.
 */
export function typeCheckingSpans(code: string): [number, number][] {
  const out: [number, number][] = [];
  // A multiline `^` tries every position of a large text: only when the name is there.
  if (!code.includes('TYPE_CHECKING')) return out;
  for (const m of code.matchAll(TYPE_CHECKING_IF)) {
    const start = m.index + m[0].length - m[2]!.length;
    if (m[2]!.trim()) {
      out.push([start, m.index + m[0].length]);
      continue;
    }
    const indent = m[1]!.length;
    let end = m.index + m[0].length;
    for (let at = end + 1; at < code.length; ) {
      const nl = code.indexOf('\n', at);
      const line = code.slice(at, nl < 0 ? code.length : nl);
      const body = line.trimStart();
      if (body && line.length - body.length <= indent) break;
      end = nl < 0 ? code.length : nl;
      at = end + 1;
    }
    out.push([start, end]);
  }
  return out;
}
