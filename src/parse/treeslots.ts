/**
 * What later parse helpers keep on a tree object, given its final shape when the tree is made.
 *
 * nodecache.ts keeps the parsed text on the tree, fastnodes.ts the one node object per id,
 * syntax.ts the nodes of its file-wide walk. Added one by one as each is first asked for, the
 * tree object took a different hidden class per order (and a tree with a syntax error, which
 * keeps no text, another): every `node.tree` read in the hot helpers saw several, and V8 threw
 * away their optimised code each time a new one came by. Each tree is given all three slots at
 * once, in one order (shapeTree), before anything reads it.
 */
import type { Node } from 'web-tree-sitter';

/** The text the tree was parsed from, when it has no syntax error (nodecache.ts). */
export const SOURCE_SLOT = Symbol('raiselint.source');
/** The one node object for each id (fastnodes.ts treeMemo). */
export const MEMO_SLOT = Symbol('raiselint.syntaxMemo');
/** The nodes of the file-wide walk, per node id walked (syntax.ts descendantsIn). */
export const FILE_NODES_SLOT = Symbol('raiselint.fileNodes');

export type SlottedTree = Node['tree'] & {
  [SOURCE_SLOT]?: string;
  [MEMO_SLOT]?: Map<number, Node>;
  [FILE_NODES_SLOT]?: Map<number, Node[]>;
};

/** Gives a new tree every slot (empty), in the one order; the text is set by keepSource. */
export function shapeTree(tree: Node['tree']): void {
  const t = tree as SlottedTree;
  t[SOURCE_SLOT] = undefined;
  t[MEMO_SLOT] = new Map();
  t[FILE_NODES_SLOT] = undefined;
}
