/**
 * Deep nesting: `f(f(f(...)))` 5,000 deep, or a 20,000-term sum (a left-leaning tree as deep as
 * it is long), overflows the JavaScript stack of the recursive walks that read the tree. Such a
 * file is read again with each subtree below a depth limit blanked out: the same length, the
 * same line breaks, a placeholder expression (`(0   )`) where the deep code was. Its findings
 * elsewhere are kept; the blanked code is "not analysed here" (raiselint/too-deep).
 */
import { parsePython, type Node } from './parser.js';
import { firstSyntaxError } from './syntax.js';

type SyntaxProblem = ReturnType<typeof firstSyntaxError>;

/** A blanked subtree: offsets in the text, and where it starts (0-based row, UTF-16 column). */
export interface DeepRegion {
  start: number;
  end: number;
  row: number;
  column: number;
  endRow: number;
}

/** Node types that a parenthesized placeholder can stand for. */
const EXPRESSIONS = new Set([
  'call',
  'argument_list',
  'binary_operator',
  'boolean_operator',
  'comparison_operator',
  'unary_operator',
  'not_operator',
  'parenthesized_expression',
  'list',
  'tuple',
  'dictionary',
  'set',
  'subscript',
  'attribute',
  'conditional_expression',
  'lambda',
  'await',
  'list_comprehension',
  'dictionary_comprehension',
  'set_comprehension',
  'generator_expression',
  'string',
  'concatenated_string',
]);

/** The placeholder for `text[start, end)`: same length, same line breaks. */
function placeholder(text: string, start: number, end: number): string {
  const blank = text.slice(start, end).replace(/[^\r\n]/g, ' ');
  if (blank.length < 3) return '0'.padEnd(blank.length, ' ');
  return `(0${blank.slice(2, -1)})`;
}

/** Subtrees at `limit` levels or deeper (outermost only), found without recursion (cursor fields only: no node objects). */
export function deepRegions(root: Node, limit: number): DeepRegion[] {
  const out: DeepRegion[] = [];
  const cursor = root.walk();
  let depth = 0;
  try {
    for (;;) {
      const blank = depth >= limit && cursor.nodeIsNamed && EXPRESSIONS.has(cursor.nodeType) && cursor.endIndex - cursor.startIndex >= 3;
      if (blank) {
        const s = cursor.startPosition;
        out.push({ start: cursor.startIndex, end: cursor.endIndex, row: s.row, column: s.column, endRow: cursor.endPosition.row });
      }
      if (!blank && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

const OPERATOR_WORDS = ['and', 'or', 'not', 'if', 'else', 'lambda', 'await', 'in', 'is', 'for'];
/** OPERATOR_WORDS by length, so that a word of the text is compared in place (no string made per word). */
const WORDS_BY_LENGTH: string[][] = [];
for (const w of OPERATOR_WORDS) (WORDS_BY_LENGTH[w.length] ??= []).push(w);

function isOperatorWord(text: string, i: number, len: number): boolean {
  const words = WORDS_BY_LENGTH[len];
  if (!words) return false;
  next: for (const w of words) {
    for (let k = 0; k < len; k++) if (text.charCodeAt(i + k) !== w.charCodeAt(k)) continue next;
    return true;
  }
  return false;
}
/** Characters that chain an expression one level deeper: `+-*%/@<>=!&|^~.:`. */
const OPERATOR_CHARS = new Uint8Array(128);
for (const ch of '+-*/%@<>=!&|^~.:') OPERATOR_CHARS[ch.charCodeAt(0)] = 1;

/** What the depth scan does at an ASCII character: nothing (spaces, `$`), skip a word, or look closer. */
const PLAIN = 0;
const WORD = 1;
const SPECIAL = 2;
const CHAR_KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95) CHAR_KIND[c] = WORD;
  else if (OPERATOR_CHARS[c] || '\n\r#"\'([{)]},;'.includes(String.fromCharCode(c))) CHAR_KIND[c] = SPECIAL;
}

/**
 * A cheap bound, from the text alone, of how deep its syntax tree can be: indentation levels,
 * bracket nesting, and operators chained within one element of a bracket (`1 + 1 + ...` is a
 * tree as deep as it is long). When it is under `limit` the tree is not walked: the walk costs
 * as much as the parse, and almost no file needs it. (Strings and comments are skipped; adjacent
 * strings and commas do not deepen a tree.)
 */
export function mayBeDeeper(text: string, limit: number): boolean {
  const indents: number[] = [0];
  const ops: number[] = [0];
  let sum = 0; // sum of ops
  let lineStart = true;
  const n = text.length;
  // Without a `\r`, a comment ends before the next `\n`: found by the runtime's search.
  const noCR = text.indexOf('\r') < 0;
  const bump = () => {
    ops[ops.length - 1]!++;
    sum++;
    return 3 * indents.length + 2 * ops.length + sum >= limit;
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (lineStart && ops.length === 1) {
      let w = 0;
      while (i < n && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) {
        w++;
        i++;
      }
      if (i >= n) break;
      const d = text.charCodeAt(i);
      if (d !== 10 && d !== 13 && d !== 35) {
        while (indents.length > 1 && w < indents[indents.length - 1]!) indents.pop();
        if (w > indents[indents.length - 1]!) indents.push(w);
        sum -= ops[0]!;
        ops[0] = 0;
        if (3 * indents.length >= limit) return true;
      }
      lineStart = false;
      i--;
      continue;
    }
    const kind = c < 128 ? CHAR_KIND[c]! : WORD;
    if (kind === PLAIN) continue;
    if (kind === WORD) {
      // A whole word at once: only one that starts with a lowercase letter can be an operator word.
      let j = i + 1;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d < 128 && CHAR_KIND[d] !== WORD) break;
      }
      if (c >= 97 && c <= 122 && isOperatorWord(text, i, j - i) && bump()) return true;
      i = j - 1;
      continue;
    }
    if (c === 10 || c === 13) lineStart = true;
    else if (c === 35) i = commentEnd(text, i, noCR);
    else if (c === 34 || c === 39) i = skipString(text, i);
    else if (c === 40 || c === 91 || c === 123) {
      ops.push(0);
      if (3 * indents.length + 2 * ops.length + sum >= limit) return true;
    } else if (c === 41 || c === 93 || c === 125) {
      if (ops.length > 1) sum -= ops.pop()!;
      if (bump()) return true; // a call or subscript chains: f()()[0]
    } else if (c === 44 || c === 59) {
      sum -= ops[ops.length - 1]!;
      ops[ops.length - 1] = 0;
    } else if (OPERATOR_CHARS[c]) {
      if (bump()) return true;
    }
  }
  return false;
}

/** The index of the last character of the comment starting at `i`, before the line break (`noCR`: the text has no `\r`). */
function commentEnd(text: string, i: number, noCR: boolean): number {
  const n = text.length;
  if (noCR) {
    const nl = text.indexOf('\n', i);
    return nl < 0 ? n - 1 : nl - 1;
  }
  while (i + 1 < n && text.charCodeAt(i + 1) !== 10 && text.charCodeAt(i + 1) !== 13) i++;
  return i;
}

/**
 * The index of the last quote of the triple-quoted string whose body starts at `j` (`q`: its
 * quote): each quote found by the runtime's search is escaped when an odd run of backslashes
 * precedes it (as a scan that skips the character after each backslash reads it).
 */
function tripleEnd(text: string, j: number, q: number): number {
  const quote = q === 34 ? '"' : "'";
  for (let p = text.indexOf(quote, j); p >= 0; p = text.indexOf(quote, p + 1)) {
    let k = 0;
    while (p - 1 - k >= j && text.charCodeAt(p - 1 - k) === 92) k++;
    if (k % 2 === 0 && text.charCodeAt(p + 1) === q && text.charCodeAt(p + 2) === q) return p + 2;
  }
  return text.length;
}

/** The index of the last character of the string literal starting at `i` (a quote). */
function skipString(text: string, i: number): number {
  const q = text.charCodeAt(i);
  const n = text.length;
  const triple = text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q;
  if (triple) return tripleEnd(text, i + 3, q);
  for (let j = i + 1; j < n; j++) {
    const ch = text.charCodeAt(j);
    if (ch === 92) j++;
    else if (ch === q || ch === 10 || ch === 13) return j;
  }
  return n;
}

/** The text with its subtrees deeper than `limit` blanked, and where they were (none: the text as it is). */
export function shallowSource(text: string, limit: number): { text: string; regions: DeepRegion[]; syntax?: SyntaxProblem } {
  const tree = parsePython(text);
  let regions: DeepRegion[];
  let syntax: SyntaxProblem | undefined;
  try {
    regions = deepRegions(tree.rootNode, limit);
    // The original's syntax error (it may lie in a blanked subtree): fixes are not made to a file that does not parse.
    syntax = firstSyntaxError(tree.rootNode);
  } finally {
    tree.delete();
  }
  if (!regions.length) return { text, regions, syntax };
  let out = '';
  let at = 0;
  for (const r of regions) {
    out += text.slice(at, r.start) + placeholder(text, r.start, r.end);
    at = r.end;
  }
  return { text: out + text.slice(at), regions, syntax };
}

/** A JavaScript stack overflow (the only error a deep tree causes). */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}
