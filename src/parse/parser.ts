/**
 * The parse stage (shared by every later one): the tree-sitter Python parser.
 *
 * We use `web-tree-sitter` (tree-sitter's official WebAssembly binding) with the grammar
 * shipped by `tree-sitter-python`: it needs no native build, frees each tree deterministically
 * with `tree.delete()`, and is as fast as the native binding on this workload
 * (see ../../docs/design.md).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Language, Node, Parser, Tree } from 'web-tree-sitter';
import { speedUpTransfers } from './transfer.js';
import { cacheNodeFacts, keepSource } from './nodecache.js';
import { installFastNodes } from './fastnodes.js';

export type { Node, Tree };

const require = createRequire(import.meta.url);
let language: Language | undefined;
let parser: Parser | undefined;
let initPromise: Promise<void> | undefined;

/** A WebAssembly file: next to the bundle (dist/bundle/, all the package has), else in its npm package. */
function wasmFile(pkg: string, name: string): string {
  const local = fileURLToPath(new URL(`./${name}`, import.meta.url));
  return existsSync(local) ? local : require.resolve(`${pkg}/${name}`);
}

/**
 * Loads the WebAssembly runtime and the Python grammar once per process (or worker). The binding
 * itself is loaded here too, not when this module is imported: commands and runs that parse
 * nothing do not pay for it.
 */
export function initParser(): Promise<void> {
  initPromise ??= (async () => {
    const { Language, Node, Parser, Tree } = await import('web-tree-sitter');
    cacheNodeFacts(Node);
    // The runtime's .wasm (scripts/bundle.mjs copies both next to the bundle).
    // Emscripten makes these options its module object: see transfer.ts.
    const module = { locateFile: (name: string) => wasmFile('web-tree-sitter', name) };
    await Parser.init(module);
    speedUpTransfers(module);
    installFastNodes(module, Node, Tree);
    language = await Language.load(wasmFile('tree-sitter-python', 'tree-sitter-python.wasm'));
    parser = new Parser();
    parser.setLanguage(language);
  })();
  return initPromise;
}

/** Parses Python source. `initParser()` must have resolved. The caller must `delete()` the tree. */
export function parsePython(source: string): Tree {
  if (!parser) throw new Error('parser not initialised: await initParser() first');
  const tree = parser.parse(source);
  if (!tree) throw new Error('tree-sitter returned no tree');
  keepSource(tree, source);
  return tree;
}

/** Parses, runs `fn` on the tree and always frees the tree. */
export function withTree<T>(source: string, fn: (tree: Tree) => T): T {
  const tree = parsePython(source);
  try {
    return fn(tree);
  } finally {
    tree.delete();
  }
}
