/**
 * Child lists and fields read straight from the WebAssembly parser's transfer buffer.
 *
 * web-tree-sitter makes every node it returns with `new Node(INTERNAL, { id, tree, ... })`: an
 * options object, the class's field initialisers, a constructor call, then the object grows as
 * nodecache.ts and syntax.ts keep answers on it (a new hidden class at each step). On a
 * dataset-scale run that was ~560 ns per child returned by `namedChildren`, and the semantic model
 * asks for ~3 million nodes (child lists and fields). Here the same WebAssembly functions
 * (`ts_node_named_children_wasm`, `ts_node_child_by_field_id_wasm`) are called with the node
 * written into the transfer buffer exactly as web-tree-sitter's `marshalNode` writes it, the
 * answer is read back as its `unmarshalNode` reads it, and each new node is made by one
 * constructor that gives it its final shape at once (the Node fields, then the cache slots;
 * `_children` and `_namedChildren`, which web-tree-sitter fills on first use, are left absent).
 * Their prototype is Node.prototype below a few getters (fastPrototype), so every Node method and
 * getter works on them. The root (`tree.rootNode`), child lists, siblings and fields are made here
 * too, so the hot helpers see nodes of one hidden class only: a second class for the same role
 * (web-tree-sitter's own nodes, growing as answers were kept on them) made V8 throw away their
 * optimised code again and again.
 *
 * Anything unexpected (another web-tree-sitter's module shape, a big-endian host) leaves these
 * off, and syntax.ts uses the Node API.
 */
import { endianness } from 'node:os';
import type { Node, Point } from 'web-tree-sitter';
import { END_SLOT, TEXT_SLOT, TYPE_SLOT } from './nodecache.js';
import { MEMO_SLOT as MEMO } from './treeslots.js';

interface Module {
  HEAP32?: Int32Array;
  _ts_init?: () => number;
  _ts_node_named_children_wasm?: (tree: number) => void;
  _ts_node_child_by_field_id_wasm?: (tree: number, field: number) => void;
  _ts_node_descendants_of_type_wasm?: (tree: number, symbols: number, count: number, r0: number, c0: number, r1: number, c1: number) => void;
  _ts_node_symbol_wasm?: (tree: number) => number;
  _ts_node_end_index_wasm?: (tree: number) => number;
  _ts_node_parent_wasm?: (tree: number) => void;
  _ts_node_child_wasm?: (tree: number, index: number) => void;
  _ts_node_named_child_wasm?: (tree: number, index: number) => void;
  _ts_node_children_by_field_id_wasm?: (tree: number, field: number) => void;
  _ts_node_children_wasm?: (tree: number) => void;
  _ts_node_next_sibling_wasm?: (tree: number) => void;
  _ts_node_prev_sibling_wasm?: (tree: number) => void;
  _ts_node_next_named_sibling_wasm?: (tree: number) => void;
  _ts_node_prev_named_sibling_wasm?: (tree: number) => void;
  _ts_tree_root_node_wasm?: (tree: number) => void;
  _malloc?: (size: number) => number;
  _free?: (ptr: number) => void;
}

/** What syntax.ts keeps on a node: its child for each field id, its named children without comments. */
export const FIELDS = Symbol('raiselint.fields');
export const NAMED = Symbol('raiselint.named');
/** Where a node made here starts (row, column): `startPosition` is made from them when asked. */
const ROW = Symbol('raiselint.row');
const COLUMN = Symbol('raiselint.column');
/** True on the prototype of the nodes made here: each is the one object for its id (no memo lookup needed). */
export const CANONICAL = Symbol('raiselint.canonical');

type Tree = Node['tree'];
type Raw = Node & { 0?: number; [ROW]?: number; [COLUMN]?: number; tree: Tree & { 0: number } };
type MakeNode = new (tree: Tree, id: number, start: number, row: number, column: number, other: number) => Node;

/** The one object for each node id of a tree, kept on the tree (a new tree, which may reuse a deleted one's ids, starts empty). */
export type TreeMemo = Map<number, Node>;

export function treeMemo(tree: Tree): TreeMemo {
  const t = tree as Tree & { [MEMO]?: TreeMemo };
  return (t[MEMO] ??= new Map());
}

let mod: Required<Module> | undefined;
/** The transfer buffer, as an index into HEAP32. */
let buffer = 0;
let Make: MakeNode | undefined;

/** Turns the fast paths on for an initialised module and its Node class; returns whether it did. */
export function installFastNodes(module: object, NodeClass: { prototype: Node }, TreeClass: { prototype: Tree }): boolean {
  const m = module as Module;
  if (endianness() !== 'LE' || !(m.HEAP32 instanceof Int32Array)) return false;
  const needed = [
    '_ts_init',
    '_free',
    '_malloc',
    '_ts_node_named_children_wasm',
    '_ts_node_child_by_field_id_wasm',
    '_ts_node_descendants_of_type_wasm',
    '_ts_node_symbol_wasm',
    '_ts_node_end_index_wasm',
    '_ts_node_parent_wasm',
  ] as const;
  const more = [
    '_ts_node_child_wasm',
    '_ts_node_named_child_wasm',
    '_ts_node_children_by_field_id_wasm',
    '_ts_node_children_wasm',
    ...SIBLINGS.map((s) => s[1]),
    '_ts_tree_root_node_wasm',
  ] as const;
  if (needed.some((f) => typeof m[f] !== 'function') || more.some((f) => typeof m[f] !== 'function')) return false;
  const rootDesc = Object.getOwnPropertyDescriptor(TreeClass.prototype, 'rootNode');
  if (!rootDesc?.get || !rootDesc.configurable) return false;
  // `ts_init` only writes two version numbers into the buffer and returns its address.
  buffer = m._ts_init!() >> 2;
  mod = m as Required<Module>;
  const F = function (this: Record<PropertyKey, unknown>, tree: unknown, id: number, start: number, row: number, column: number, other: number) {
    // web-tree-sitter keeps the fifth word (an alias symbol, mostly 0) at index 0. An absent
    // index reads as undefined, which the transfer buffer stores as 0 (ToInt32(undefined) is 0):
    // only a non-zero one is kept, so that most nodes need no element store.
    if (other !== 0) this[0] = other;
    this.id = id;
    this.startIndex = start;
    this[ROW] = row;
    this[COLUMN] = column;
    this.tree = tree;
    // The answers' slots, so that a node keeps one shape as they are filled.
    this[TYPE_SLOT] = undefined;
    this[END_SLOT] = undefined;
    this[TEXT_SLOT] = undefined;
    this[FIELDS] = undefined;
    this[NAMED] = undefined;
  };
  F.prototype = fastPrototype(NodeClass.prototype);
  Make = F as unknown as MakeNode;
  // The root too is the one object of its id, made here: every node the helpers meet has one shape.
  Object.defineProperty(TreeClass.prototype, 'rootNode', {
    configurable: true,
    enumerable: rootDesc.enumerable,
    get(this: Tree & { 0: number }) {
      mod!._ts_tree_root_node_wasm(this[0]);
      return nodeAt(heap(), buffer, this, treeMemo(this));
    },
  });
  return true;
}

/** Node getters that answer one node, and the WebAssembly function each calls (made here, so that they give the one object of the id). */
const SIBLINGS = [
  ['nextSibling', '_ts_node_next_sibling_wasm'],
  ['previousSibling', '_ts_node_prev_sibling_wasm'],
  ['nextNamedSibling', '_ts_node_next_named_sibling_wasm'],
  ['previousNamedSibling', '_ts_node_prev_named_sibling_wasm'],
] as const;

/**
 * The prototype of the nodes made here: web-tree-sitter's Node.prototype below a few getters and
 * methods of its own. `startPosition` is made when asked (a node keeps two numbers, not an
 * object); `type` and `endIndex` are asked of the parser once, through the buffer written here
 * (not web-tree-sitter's generic transfers); `parent`, `child`, `namedChild`,
 * `childrenForFieldId` (and so `childrenForFieldName`) and `descendantsOfType` give the one object
 * for each id, as field and child lists do.
 */
function fastPrototype(base: Node): object {
  const proto = Object.create(base) as Record<PropertyKey, unknown>;
  const getters: Record<string, (this: Raw) => unknown> = {
    startPosition() {
      return { row: this[ROW]!, column: this[COLUMN]! };
    },
    type() {
      const r = this as Raw & { [TYPE_SLOT]?: string };
      let v = r[TYPE_SLOT];
      if (v === undefined) {
        marshal(r);
        r[TYPE_SLOT] = v = r.tree.language.types[mod!._ts_node_symbol_wasm(r.tree[0])] || 'ERROR';
      }
      return v;
    },
    endIndex() {
      const r = this as Raw & { [END_SLOT]?: number };
      let v = r[END_SLOT];
      if (v === undefined) {
        marshal(r);
        r[END_SLOT] = v = mod!._ts_node_end_index_wasm(r.tree[0]);
      }
      return v;
    },
    parent() {
      marshal(this);
      mod!._ts_node_parent_wasm(this.tree[0]);
      return nodeAt(heap(), buffer, this.tree, treeMemo(this.tree));
    },
  };
  // Child lists as new arrays of the one objects (web-tree-sitter's own add `_children` or `_namedChildren` to the node: a new hidden class).
  getters.children = function (this: Raw) {
    marshal(this);
    mod!._ts_node_children_wasm(this.tree[0]);
    return readList(this.tree, treeMemo(this.tree));
  };
  getters.namedChildren = function (this: Raw) {
    return rawNamedChildren(this, treeMemo(this.tree));
  };
  for (const [name, fn] of SIBLINGS) {
    getters[name] = function (this: Raw) {
      marshal(this);
      mod![fn](this.tree[0]);
      return nodeAt(heap(), buffer, this.tree, treeMemo(this.tree));
    };
  }
  for (const [name, get] of Object.entries(getters)) Object.defineProperty(proto, name, { get, configurable: true, enumerable: false });
  const methods: Record<string, (this: Raw, ...args: never[]) => unknown> = {
    child(index: number) {
      marshal(this);
      mod!._ts_node_child_wasm(this.tree[0], index);
      return nodeAt(heap(), buffer, this.tree, treeMemo(this.tree));
    },
    namedChild(index: number) {
      marshal(this);
      mod!._ts_node_named_child_wasm(this.tree[0], index);
      return nodeAt(heap(), buffer, this.tree, treeMemo(this.tree));
    },
    childForFieldId(fieldId: number) {
      return rawFieldChild(this, fieldId, treeMemo(this.tree));
    },
    childrenForFieldId(fieldId: number) {
      marshal(this);
      mod!._ts_node_children_by_field_id_wasm(this.tree[0], fieldId);
      return readList(this.tree, treeMemo(this.tree));
    },
    descendantsOfType(types: string | string[], start?: Point, end?: Point) {
      // A range: web-tree-sitter's own.
      if ((start && (start.row || start.column)) || (end && (end.row || end.column))) return base.descendantsOfType.call(this, types, start, end);
      return descendantsOfTypes(this, typeof types === 'string' ? [types] : types, treeMemo(this.tree));
    },
  };
  for (const [name, value] of Object.entries(methods)) Object.defineProperty(proto, name, { value, configurable: true, enumerable: false, writable: true });
  Object.defineProperty(proto, CANONICAL, { value: true });
  return proto;
}

/** Whether the fast paths are on. */
export function fastNodes(): boolean {
  return mod !== undefined;
}

function heap(): Int32Array {
  return mod!.HEAP32;
}

/** Writes `node` into the transfer buffer as web-tree-sitter's marshalNode does. */
function marshal(node: Raw): void {
  const h = heap();
  h[buffer] = node.id;
  h[buffer + 1] = node.startIndex;
  const row = node[ROW];
  if (row !== undefined) {
    h[buffer + 2] = row;
    h[buffer + 3] = node[COLUMN]!;
  } else {
    // A node web-tree-sitter made (the root, a cursor's node).
    h[buffer + 2] = node.startPosition.row;
    h[buffer + 3] = node.startPosition.column;
  }
  h[buffer + 4] = node[0]!;
}

/** The node written at HEAP32 index `at` (five words, as unmarshalNode reads them), the one object for its id in `memo`. */
function nodeAt(h: Int32Array, at: number, tree: Tree, memo: TreeMemo): Node | null {
  const id = h[at]!;
  if (id === 0) return null;
  let n = memo.get(id);
  if (!n) memo.set(id, (n = new Make!(tree, id, h[at + 1]!, h[at + 2]!, h[at + 3]!, h[at + 4]!)));
  return n;
}

/** `node.namedChildren`, each child the one object for its id in `memo`. */
export function rawNamedChildren(node: Node, memo: TreeMemo): Node[] {
  const raw = node as Raw;
  marshal(raw);
  mod!._ts_node_named_children_wasm(raw.tree[0]);
  // readList reads the view again: the call may have grown the memory.
  return readList(node.tree, memo);
}

/** `node.childForFieldId(id)`, the one object for its id in `memo`. */
export function rawFieldChild(node: Node, fieldId: number, memo: TreeMemo): Node | null {
  const raw = node as Raw;
  marshal(raw);
  mod!._ts_node_child_by_field_id_wasm(raw.tree[0], fieldId);
  return nodeAt(heap(), buffer, node.tree, memo);
}

/**
 * Node lists are filled here, then copied out at their exact size. A list made with
 * `new Array(n)` is "holey" in V8, one filtered or written as `[]` "packed": a hidden class each,
 * and every reader of child lists (`kids(n)[0]`, `for (const c of kids(n))`) met both and lost its
 * optimised code. A copy of this packed list is packed too, and as small as `new Array(n)`.
 */
const scratch: Node[] = [null as unknown as Node];
scratch.pop();

/** The list of nodes a call left in the transfer buffer (count, address), freed once read. */
function readList(tree: Tree, memo: TreeMemo): Node[] {
  const h = heap();
  const count = h[buffer]!;
  if (count === 0) return listOf(h, 0, 0, tree, memo);
  const at = h[buffer + 1]!;
  const out = listOf(h, count, at, tree, memo);
  mod!._free(at);
  return out;
}

/** The `count` nodes of five words each at `at`, as a packed array of the one objects. */
function listOf(h: Int32Array, count: number, at: number, tree: Tree, memo: TreeMemo): Node[] {
  // Written from the start, never shortened (so its room is kept), and emptied again (so it holds no tree).
  for (let i = 0, p = at >> 2; i < count; i++, p += 5) scratch[i] = nodeAt(h, p, tree, memo)!;
  const out = scratch.slice(0, count);
  scratch.fill(null as unknown as Node, 0, count);
  return out;
}

/** The symbols of a list of type names, as web-tree-sitter's descendantsOfType finds them (every symbol of each name; ERROR's), kept per grammar and list. */
const typeSymbols = new WeakMap<object, Map<string, { list: number; count: number }>>();

/** `node.descendantsOfType(types)` (no range), each node the one object for its id in `memo`. */
export function descendantsOfTypes(node: Node, types: readonly string[], memo: TreeMemo): Node[] {
  const syms = symbolsOf(node.tree.language, types);
  return rawDescendants(node, syms.list, syms.count, memo);
}

function symbolsOf(lang: Tree['language'], types: readonly string[]): { list: number; count: number } {
  let lists = typeSymbols.get(lang);
  if (!lists) typeSymbols.set(lang, (lists = new Map()));
  const key = types.join(' ');
  let syms = lists.get(key);
  if (!syms) {
    const ids: number[] = [];
    lang.types.forEach((t, i) => types.includes(t) && ids.push(i));
    if (types.includes('ERROR')) ids.push(65535);
    lists.set(key, (syms = { list: symbolList(ids), count: ids.length }));
  }
  return syms;
}

/** The five words (id, start, row, column, alias) of each descendant of `types` (as descendantsOfTypes), without making a node. */
export function descendantWords(node: Node, types: readonly string[]): Int32Array {
  const syms = symbolsOf(node.tree.language, types);
  marshal(node as Raw);
  mod!._ts_node_descendants_of_type_wasm((node as Raw).tree[0], syms.list, syms.count, 0, 0, 0, 0);
  const h = heap();
  const at = h[buffer + 1]!;
  const words = h.slice(at >> 2, (at >> 2) + 5 * h[buffer]!);
  mod!._free(at);
  return words;
}

/** The node of the words at `i` (descendantWords), the one object for its id in `memo`. */
export function nodeOfWords(words: Int32Array, i: number, tree: Tree, memo: TreeMemo): Node {
  return nodeAt(words, i, tree, memo)!;
}

/** A list of symbols in the parser's memory, for rawDescendants (kept for the process: one per list of types asked for). */
export function symbolList(symbols: readonly number[]): number {
  const at = mod!._malloc(4 * Math.max(1, symbols.length));
  const h = heap();
  symbols.forEach((s, i) => (h[(at >> 2) + i] = s));
  return at;
}

/** `node.descendantsOfType(types)` for the symbols at `list` (symbolList), in document order, each the one object for its id in `memo`. */
export function rawDescendants(node: Node, list: number, count: number, memo: TreeMemo): Node[] {
  const raw = node as Raw;
  marshal(raw);
  // No range: the zero points mean the whole node, as web-tree-sitter's defaults.
  mod!._ts_node_descendants_of_type_wasm(raw.tree[0], list, count, 0, 0, 0, 0);
  const h = heap();
  const at = h[buffer + 1]!;
  const out = listOf(h, h[buffer]!, at, node.tree, memo);
  mod!._free(at);
  return out;
}
