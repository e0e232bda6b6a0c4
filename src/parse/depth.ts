/**
 * Deep nesting: `f(f(f(...)))` 5,000 deep, or a 20,000-term sum (a left-leaning tree as deep as
 * it is long), overflows the JavaScript stack of the recursive walks that read the tree. Such a
 * file is read again with each subtree below a depth limit blanked out: the same length, the
 * same line breaks, a placeholder expression (`(0   )`) where the deep code was. Its findings
 * elsewhere are kept; the blanked code is "not analysed here" (raiselint/too-deep).
 */
import { parsePython, type Node } from './parser.js';

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
  'call', 'argument_list', 'binary_operator', 'boolean_operator', 'comparison_operator', 'unary_operator', 'not_operator',
  'parenthesized_expression', 'list', 'tuple', 'dictionary', 'set', 'subscript', 'attribute', 'conditional_expression',
  'lambda', 'await', 'list_comprehension', 'dictionary_comprehension', 'set_comprehension', 'generator_expression',
  'string', 'concatenated_string',
]);

/** The placeholder for `text[start, end)`: same length, same line breaks. */
function placeholder(text: string, start: number, end: number): string {
  const blank = text.slice(start, end).replace(/[^\r\n]/g, ' ');
  if (blank.length < 3) return '0'.padEnd(blank.length, ' ');
  return `(0${blank.slice(2, -1)})`;
}

/** Subtrees at `limit` levels or deeper (outermost only), found without recursion. */
export function deepRegions(root: Node, limit: number): DeepRegion[] {
  const out: DeepRegion[] = [];
  const cursor = root.walk();
  let depth = 0;
  try {
    for (;;) {
      const n = cursor.currentNode;
      const blank = depth >= limit && n.isNamed && EXPRESSIONS.has(n.type) && n.endIndex - n.startIndex >= 3;
      if (blank) out.push({ start: n.startIndex, end: n.endIndex, row: n.startPosition.row, column: n.startPosition.column, endRow: n.endPosition.row });
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

/** The text with its subtrees deeper than `limit` blanked, and where they were (none: the text as it is). */
export function shallowSource(text: string, limit: number): { text: string; regions: DeepRegion[] } {
  const tree = parsePython(text);
  let regions: DeepRegion[];
  try {
    regions = deepRegions(tree.rootNode, limit);
  } finally {
    tree.delete();
  }
  if (!regions.length) return { text, regions };
  let out = '';
  let at = 0;
  for (const r of regions) {
    out += text.slice(at, r.start) + placeholder(text, r.start, r.end);
    at = r.end;
  }
  return { text: out + text.slice(at), regions };
}

/** A JavaScript stack overflow (the only error a deep tree causes). */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}
