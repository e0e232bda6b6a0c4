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

const TYPE = Symbol('raiselint.nodeType');
const END = Symbol('raiselint.nodeEnd');
type Cached = Node & { [TYPE]?: string; [END]?: number };
/** The keys this file keeps answers under (fastnodes.ts makes nodes with them in place). */
export { TYPE as TYPE_SLOT, END as END_SLOT };

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

/** Wraps `Node.prototype.type` and `endIndex` (once per process or worker). */
export function cacheNodeFacts(NodeClass: { prototype: Node }): void {
  const proto = NodeClass.prototype as Cached;
  once(proto, 'type', TYPE);
  once(proto, 'endIndex', END);
}
