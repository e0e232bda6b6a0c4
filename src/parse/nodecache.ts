/**
 * A node's type and end, asked once per node object.
 *
 * `node.type` and `node.endIndex` (which `node.text` reads too) are calls into the WebAssembly
 * parser on every read (web-tree-sitter writes the node into a transfer buffer and asks). The
 * analysis reads them again and again of the same nodes — on 180 standard-library files with a
 * 1,000-record dataset, 3.3 million symbol and 1.2 million end calls — and neither ever changes
 * (trees are never edited). So both getters are wrapped to keep the answer on the node object:
 * the first read asks the parser, the others read a property. With the helpers of syntax.ts,
 * which hand out one object per node, most reads are property reads.
 */
import type { Node } from 'web-tree-sitter';
import { SOURCE_SLOT as SOURCE, shapeTree } from './treeslots.js';

const TYPE = Symbol('raiselint.nodeType');
const END = Symbol('raiselint.nodeEnd');
const TEXT = Symbol('raiselint.nodeText');
type Cached = Node & { [TYPE]?: string; [END]?: number; [TEXT]?: string; tree: { [SOURCE]?: string } };
/** The keys this file keeps answers under (fastnodes.ts makes nodes with them in place). */
export { TYPE as TYPE_SLOT, END as END_SLOT, TEXT as TEXT_SLOT };

/** Wraps the getter `name` of `proto` so that each object computes it once, kept under `key`. */
function once(proto: Cached, name: 'type' | 'endIndex', key: typeof TYPE | typeof END): void {
  const desc = Object.getOwnPropertyDescriptor(proto, name);
  const get = desc?.get;
  if (!desc || !get || !desc.configurable || Object.prototype.hasOwnProperty.call(proto, key)) return;
  // The prototype holds the key too (undefined): every node object has the same lookup for it.
  Object.defineProperty(proto, key, { value: undefined, writable: true, configurable: false, enumerable: false });
  Object.defineProperty(proto, name, {
    configurable: true,
    enumerable: desc.enumerable,
    get(this: Cached) {
      let v: unknown = this[key];
      // Assigned, it is an own property of this node (the prototype's stays undefined).
      if (v === undefined) (this as unknown as Record<symbol, unknown>)[key] = v = get.call(this) as unknown;
      return v;
    },
  });
}

/**
 * Wraps `text`: kept on the node too (the model reads a name's text 2.5 times on average), and
 * read from the source when the tree kept it (keepSource), as web-tree-sitter's getter reads it
 * from the string it parsed: a name's as the longest run of name characters from its start, as
 * the parser's lexer takes it, without asking the parser for the end (a name with a character
 * outside ASCII is asked of the parser); any other node's as the slice from start to end.
 */
function cacheText(proto: Cached): void {
  const desc = Object.getOwnPropertyDescriptor(proto, 'text');
  const get = desc?.get;
  if (!desc || !get || !desc.configurable || Object.prototype.hasOwnProperty.call(proto, TEXT)) return;
  Object.defineProperty(proto, TEXT, { value: undefined, writable: true, configurable: false, enumerable: false });
  Object.defineProperty(proto, 'text', {
    configurable: true,
    enumerable: desc.enumerable,
    get(this: Cached) {
      let v = this[TEXT];
      if (v !== undefined) return v;
      const src = this.tree[SOURCE];
      if (src !== undefined) v = this.type === 'identifier' ? asciiName(src, this.startIndex) : src.slice(this.startIndex, this.endIndex);
      if (v === undefined) v = get.call(this) as string;
      this[TEXT] = v;
      return v;
    },
  });
}

/** The ASCII name starting at `at`, or undefined when it has another character (or none). */
function asciiName(s: string, at: number): string | undefined {
  let j = at;
  for (;;) {
    const c = s.charCodeAt(j);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c >= 48 && c <= 57)) j++;
    else if (c >= 128) return undefined;
    else break;
  }
  return j > at ? s.slice(at, j) : undefined;
}

/**
 * Keeps the text a tree was parsed from on the tree, when the tree has no error (a syntax error
 * can leave a name the parser inserted, with no text): names are then read from it (above), and
 * a string's prefix too (plainString).
 */
export function keepSource(tree: Node['tree'], source: string): void {
  // Every slot first (treeslots.ts): the root node read below is kept in the tree's memo.
  shapeTree(tree);
  if (!tree.rootNode.hasError) (tree as Cached['tree'])[SOURCE] = source;
}

/** The text of the name starting at `start`, read from the source the tree kept (as the `text` getter reads it), or undefined (no source kept, or a character outside ASCII). */
export function sourceName(tree: Node['tree'], start: number): string | undefined {
  const src = (tree as Cached['tree'])[SOURCE];
  return src === undefined ? undefined : asciiName(src, start);
}

/** Whether the string literal starting at `at` in `source` has an `f` or `t` prefix: an f-string or t-string, which holds code in its interpolations. */
export function interpolatingPrefix(source: string, at: number): boolean {
  for (let i = at; ; i++) {
    const c = source[i];
    if (c === 'f' || c === 'F' || c === 't' || c === 'T') return true;
    if (c !== 'r' && c !== 'R' && c !== 'b' && c !== 'B' && c !== 'u' && c !== 'U') return false;
  }
}

/** False only for a string literal that cannot hold an interpolation (see interpolatingPrefix; read when the tree kept its source). */
export function mayInterpolate(node: Node): boolean {
  const src = (node as Cached).tree[SOURCE];
  return src === undefined || interpolatingPrefix(src, node.startIndex);
}

/** Wraps `Node.prototype.type`, `endIndex` and `text` (once per process or worker). */
export function cacheNodeFacts(NodeClass: { prototype: Node }): void {
  const proto = NodeClass.prototype as Cached;
  once(proto, 'type', TYPE);
  once(proto, 'endIndex', END);
  cacheText(proto);
}
