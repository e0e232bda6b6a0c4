/**
 * One parse per piece of code while a record compiles: the record's code fields are read by
 * ./snippets.ts (facts) and again by ./patterns.ts (fix patterns), often the same text
 * (`exampleFix`, its `# before` part, `tryCatchPattern`). Inside `withRecordTrees`, `parseOnce`
 * keeps each text's tree until the record is done; outside it, each call parses and frees its own.
 */
import { parsePython, withTree, type Tree } from '../../parse/parser.js';

let scope: Map<string, Tree> | undefined;

/**
 * Installed modules' sources (grounded records: ../ground.ts) are whole files, and the records of one
 * module follow each other: between `openSourceTrees` and its close (a whole compile), the last few large
 * sources keep their trees, so a file is parsed once for all its records, not once per record.
 */
let sources: Map<string, Tree> | undefined;
const MAX_SOURCE_TREES = 4;
/** Smaller texts (a record's 37-line window) are parsed per use: cheap, and too many to keep. */
const MIN_KEPT_SOURCE = 8192;

/** Starts keeping the last few large sources' trees (a compile); the function returned frees them all. */
export function openSourceTrees(): () => void {
  if (sources) return () => {};
  const mine = new Map<string, Tree>();
  sources = mine;
  return () => {
    sources = undefined;
    for (const t of mine.values()) t.delete();
  };
}

/** `fn` on the tree of a source file's text: kept for the next record of the same file while source trees are open. */
export function parseSource<T>(code: string, fn: (tree: Tree) => T): T {
  if (!sources || code.length < MIN_KEPT_SOURCE) return withTree(code, fn);
  let tree = sources.get(code);
  if (tree) {
    // Most recently used last.
    sources.delete(code);
    sources.set(code, tree);
  } else {
    tree = parsePython(code);
    sources.set(code, tree);
    if (sources.size > MAX_SOURCE_TREES) {
      const [oldest, t] = sources.entries().next().value as [string, Tree];
      sources.delete(oldest);
      t.delete();
    }
  }
  return fn(tree);
}

/** Runs `fn` with a tree per distinct text, all freed when it returns (or throws). */
export function withRecordTrees<T>(fn: () => T): T {
  if (scope) return fn();
  const mine = new Map<string, Tree>();
  scope = mine;
  try {
    return fn();
  } finally {
    scope = undefined;
    for (const t of mine.values()) t.delete();
  }
}

/** `fn` on the tree of `code`: the record's tree for this text when one is open (trees are read, never changed). */
export function parseOnce<T>(code: string, fn: (tree: Tree) => T): T {
  if (!scope) return withTree(code, fn);
  let tree = scope.get(code);
  if (!tree) scope.set(code, (tree = parsePython(code)));
  return fn(tree);
}
