/** Definitions → facts: decorators, `async`, the class around a def, and the def enclosing a line. */
import type { Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';

/** A def or class without its decorators (`decorated_definition` → its definition). */
export function definitionOf(st: Node): Node | null {
  return st.type === 'decorated_definition' ? field(st, 'definition') : st;
}

/** The decorator nodes of a def or class. */
export function decoratorNodes(def: Node): Node[] {
  const dec = def.parent?.type === 'decorated_definition' ? def.parent : null;
  return dec ? namedChildren(dec).filter((d) => d.type === 'decorator') : [];
}

/** Decorator names as written, without `@` and arguments (`functools.cached_property`, `app.route`). */
export function decoratorNames(def: Node): string[] {
  return decoratorNodes(def).map((d) => d.text.replace(/^@/, '').split('(')[0]!.trim());
}

/** `async def`. */
export function isAsyncDef(fn: Node): boolean {
  return fn.child(0)?.type === 'async';
}

const SCOPES = new Set(['function_definition', 'lambda', 'class_definition']);

/** A `yield` of `def` itself (not of a function, lambda or class nested in it): one search of the tree, not a walk node by node. */
export function ownYield(def: Node): boolean {
  return def.descendantsOfType('yield').some((y) => {
    for (let p = y?.parent; p && p.id !== def.id; p = p.parent) if (SCOPES.has(p.type)) return false;
    return !!y;
  });
}

/** An `async def` that does not yield, with no decorator: calling it gives a coroutine (one that yields gives an async generator). */
export function isCoroutineFunction(def: Node | undefined): boolean {
  return def?.type === 'function_definition' && isAsyncDef(def) && !decoratorNodes(def).length && !ownYield(def);
}

/** The innermost `function_definition` around the first non-blank character of line `row` (0-based) of `text`. */
export function enclosingDef(root: Node, text: string, row: number): Node | undefined {
  const line = text.split('\n')[row] ?? '';
  const col = Math.max(0, line.length - line.trimStart().length);
  let n: Node | null = root.descendantForPosition({ row, column: col });
  while (n && n.type !== 'function_definition') n = n.parent;
  return n ?? undefined;
}

/** The nearest enclosing class or function definition of a def (its own decorators looked through). */
export function enclosingScopeDef(fn: Node): Node | undefined {
  const dec = fn.parent?.type === 'decorated_definition' ? fn.parent : fn;
  let c: Node | null = dec.parent;
  while (c && c.type !== 'class_definition' && c.type !== 'function_definition') c = c.parent;
  return c ?? undefined;
}

/**
 * A `class` statement whose bases are `object` or classes `plainBase` accepts (by name), with no
 * keyword (no metaclass): no built-in value, class object or function is an instance of it.
 * Shared by the library's classes (src/compile/condition/helpers.ts) and the checked file's (src/match/bind.ts).
 */
export function plainClass(cls: Node | undefined, plainBase: (base: Node) => boolean): boolean {
  if (cls?.type !== 'class_definition') return false;
  const bases = field(cls, 'superclasses');
  return !bases || namedChildren(bases).every((b) => b.type === 'comment' || (b.type === 'identifier' && (b.text === 'object' || plainBase(b))));
}
