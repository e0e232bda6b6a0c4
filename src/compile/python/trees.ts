/**
 * One parse per piece of code while a record compiles: the record's code fields are read by
 * ./snippets.ts (facts) and again by ./patterns.ts (fix patterns), often the same text
 * (`exampleFix`, its `# before` part, `tryCatchPattern`). Inside `withRecordTrees`, `parseOnce`
 * keeps each text's tree until the record is done; outside it, each call parses and frees its own.
 */
import { parsePython, withTree, type Tree } from '../../parse/parser.js';

let scope: Map<string, Tree> | undefined;

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
