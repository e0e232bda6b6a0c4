/** Small helpers over tree-sitter-python nodes, shared by every stage. */
import type { Node } from './parser.js';
import { sourceName } from './nodecache.js';
import { FILE_NODES_SLOT as FILE_NODES } from './treeslots.js';
import {
  CANONICAL,
  FIELDS,
  NAMED,
  descendantWords,
  descendantsOfTypes,
  fastNodes,
  nodeOfWords,
  rawDescendants,
  rawFieldChild,
  rawNamedChildren,
  symbolList,
  treeMemo,
  type TreeMemo,
} from './fastnodes.js';

/**
 * Answers already asked of a tree: each question is a call into the WebAssembly parser that makes
 * new node objects, and the semantic model and the fix planner ask the same ones of the same nodes
 * many times (on the fixtures, ~4 field lookups and ~2 child lists per node). Node ids are unique
 * within a tree; trees are never edited, so an answer never changes. The answers are kept on the
 * node objects, and the one object for each id in a map kept on the tree object, so a new tree
 * (which may reuse a deleted one's ids) starts empty, and nothing outlives its tree.
 *
 * Each node the helpers return is the one object for its id (the first made): a node reached as
 * a field and again as a child is one object, so what is cached on it (its child lists, its type)
 * is computed once. Child lists and fields are read through fastnodes.ts when it is on.
 */
/** FIELDS: the fields asked of the node, as pairs (field id, child or null), a node being asked one to four (an array of just that size). */
type Memo = Node & { [FIELDS]?: (number | Node | null)[]; [NAMED]?: readonly Node[]; [CANONICAL]?: true };
type MemoTree = Node['tree'];
const memoOf = treeMemo;

/** The one object for `node`'s id (see above), `node` itself on first sight. */
function canonical(memo: TreeMemo, node: Node): Memo {
  // A node fastnodes.ts made is the one object for its id.
  if ((node as Memo)[CANONICAL]) return node;
  const n = memo.get(node.id);
  if (n) return n;
  memo.set(node.id, node);
  return node;
}

// Field ids by name, per grammar: `childForFieldName` searches the field list on every call.
const fieldIds = new WeakMap<object, Map<string, number>>();
let lastLanguage: object | undefined;
let lastIds: Map<string, number> | undefined;

function fieldId(lang: Node['tree']['language'], name: string): number {
  let ids = lastLanguage === lang ? lastIds : fieldIds.get(lang);
  if (!ids) fieldIds.set(lang, (ids = new Map()));
  lastLanguage = lang;
  lastIds = ids;
  let id = ids.get(name);
  if (id === undefined) ids.set(name, (id = lang.fieldIdForName(name) ?? -1));
  return id;
}

/** Each node's parent, asked once (web-tree-sitter finds a parent by walking down from the root; trees never change). */
const PARENTS = new WeakMap<Node, Node | null>();

/** `node.parent`, asked of the parser once per node object. */
export function parentOf(node: Node): Node | null {
  let p = PARENTS.get(node);
  if (p === undefined) PARENTS.set(node, (p = node.parent));
  return p;
}

export function field(node: Node, name: string): Node | null {
  const tree = node.tree as MemoTree;
  const id = fieldId(tree.language, name);
  if (id < 0) return null;
  const memo = memoOf(tree);
  const e = canonical(memo, node);
  const fields = e[FIELDS];
  if (fields !== undefined) for (let i = 0; i < fields.length; i += 2) if (fields[i] === id) return fields[i + 1] as Node | null;
  let c: Node | null;
  if (fastNodes()) c = rawFieldChild(e, id, memo);
  else {
    const k = e.childForFieldId(id);
    c = k && canonical(memo, k);
  }
  // A new array of the exact size (a push would give it room for 17).
  e[FIELDS] = fields === undefined ? [id, c] : withPair(fields, id, c);
  return c;
}

function withPair(fields: (number | Node | null)[], id: number, c: Node | null): (number | Node | null)[] {
  const n = fields.length;
  const out = new Array<number | Node | null>(n + 2);
  for (let i = 0; i < n; i++) out[i] = fields[i]!;
  out[n] = id;
  out[n + 1] = c;
  return out;
}

/** Named children without comments. One call into the parser for all children (`namedChild(i)` costs O(i) each); a copy, the caller's to change. */
export function namedChildren(node: Node): Node[] {
  return kids(node).slice();
}

/** The named node types that are tokens, never with children (tree-sitter-python's node-types.json): not asked of the parser. */
const TOKENS = new Set([
  'comment',
  'ellipsis',
  'escape_interpolation',
  'escape_sequence',
  'false',
  'float',
  'identifier',
  'integer',
  'line_continuation',
  'none',
  'string_end',
  'string_start',
  'true',
  'type_conversion',
]);
/** Empty, yet of the packed kind of the lists of fastnodes.ts (see there): one hidden class for every child list. */
const NO_NODES: Node[] = [null as unknown as Node];
NO_NODES.pop();

/** `namedChildren` without the copy: the one array kept for the node, read-only (the hot paths of the semantic model). */
export function kids(node: Node): readonly Node[] {
  const memo = memoOf(node.tree as MemoTree);
  const e = canonical(memo, node);
  const out = e[NAMED];
  if (out) return out;
  if (TOKENS.has(e.type)) return (e[NAMED] = NO_NODES);
  const all = fastNodes() ? rawNamedChildren(e, memo) : e.namedChildren.map((c) => c && canonical(memo, c));
  // The type is read of the one object for the child, where it stays cached. Comments are rare: the list itself is kept when it has none.
  let plain = true;
  for (const k of all) if (!k || k.type === 'comment') plain = false;
  return (e[NAMED] = plain ? (all as Node[]) : all.filter((k): k is Node => !!k && k.type !== 'comment'));
}

/**
 * The node types that later stages look for anywhere in a file (src/python/flows.ts for the
 * model's analysis on demand, src/rules/condition/literal.ts for module constants): all are found
 * in one walk of the tree. A walk costs about a seventh of the parse, whatever it looks for.
 */
const FILE_TYPES = [
  ...['assignment', 'augmented_assignment', 'named_expression', 'for_statement', 'for_in_clause', 'as_pattern', 'import_statement'],
  ...['import_from_statement', 'match_statement', 'class_definition', 'function_definition', 'return_statement', 'decorated_definition'],
  ...['string', 'comment', 'global_statement'],
];
const FILE_TYPE_SET = new Set(FILE_TYPES);
type WalkTree = MemoTree & { [FILE_NODES]?: Map<number, Node[]> };
/** The symbols of FILE_TYPES (every symbol a type's name stands for, as descendantsOfType finds them), per grammar. */
const fileSymbols = new WeakMap<object, { list: number; count: number }>();

/** The descendants of `node` whose type is in `types`, in document order: from one walk per node when all are FILE_TYPES. */
export function descendantsIn(node: Node, types: ReadonlySet<string>): Node[] {
  for (const t of types) if (!FILE_TYPE_SET.has(t)) return node.descendantsOfType([...types]).map((n) => canonical(memoOf(node.tree), n!));
  const tree = node.tree as WalkTree;
  const walks = (tree[FILE_NODES] ??= new Map<number, Node[]>());
  let all: Node[] | undefined = walks.get(node.id);
  if (!all) {
    all = walkFileTypes(node, memoOf(tree));
    walks.set(node.id, all);
  }
  return all.filter((n) => types.has(n.type));
}

function walkFileTypes(node: Node, memo: TreeMemo): Node[] {
  if (!fastNodes()) return node.descendantsOfType(FILE_TYPES).map((n) => canonical(memo, n!));
  const lang = node.tree.language;
  let syms = fileSymbols.get(lang);
  if (!syms) {
    const ids: number[] = [];
    lang.types.forEach((t, i) => FILE_TYPES.includes(t) && ids.push(i));
    fileSymbols.set(lang, (syms = { list: symbolList(ids), count: ids.length }));
  }
  return rawDescendants(node, syms.list, syms.count, memo);
}

/** `node.descendantsOfType(types)` for any node (the root too), each the one object for its id. */
export function descendantsOfType(node: Node, types: string | readonly string[]): Node[] {
  const list = typeof types === 'string' ? [types] : types;
  const memo = memoOf(node.tree);
  if (fastNodes()) return descendantsOfTypes(node, list, memo);
  const out: Node[] = [];
  for (const n of node.descendantsOfType([...list])) if (n) out.push(canonical(memo, n));
  return out;
}

/** The texts of the identifiers under `node` (the root too): read from the kept source where it can, without making a node for each. */
export function identifierNames(node: Node): Set<string> {
  const out = new Set<string>();
  if (!fastNodes()) {
    for (const n of descendantsOfType(node, 'identifier')) out.add(n.text);
    return out;
  }
  const tree = node.tree;
  const memo = memoOf(tree);
  const w = descendantWords(node, IDENTIFIER);
  for (let i = 0; i < w.length; i += 5) {
    // A node already made keeps its text; else the source's name, else (not ASCII, or no source kept) the node's.
    const made = memo.get(w[i]!);
    out.add(made ? made.text : (sourceName(tree, w[i + 1]!) ?? nodeOfWords(w, i, tree, memo).text));
  }
  return out;
}
const IDENTIFIER = ['identifier'];

/** Dotted name of an `identifier` / `attribute` chain (`a.b.c`), or undefined for anything else. */
export function dottedName(node: Node | null): string | undefined {
  if (!node) return undefined;
  const type = node.type;
  if (type === 'identifier') return node.text;
  if (type === 'attribute') {
    const obj = dottedName(field(node, 'object'));
    const attr = field(node, 'attribute');
    return obj && attr ? `${obj}.${attr.text}` : undefined;
  }
  return undefined;
}

/** A node's text without whitespace (`cfg .get( s )` is `cfg.get(s)`): expressions compared as written. */
export function flatText(node: Node | null | undefined): string {
  return node?.text.replace(/\s+/g, '') ?? '';
}

/** Statement-like node types whose body is a new scope. */
export const SCOPE_TYPES = new Set(['function_definition', 'lambda', 'class_definition']);

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v' };

/**
 * The characters a string literal's source text stands for (the text between its quotes, not a raw
 * string): `\n`, `\x41`, `\u00e9`, `\U0001F600`, octal `\012`, a line continuation. An unknown
 * escape (`\d`) stays as written, as Python keeps it.
 */
export function unescapePython(text: string): string {
  return text.replace(/\\(\r?\n|[\\'"abfnrtv]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3})/g, (e, k: string) => {
    if (k.startsWith('\r') || k === '\n') return '';
    if (k in ESCAPES) return ESCAPES[k]!;
    if (/^[0-7]+$/.test(k)) return String.fromCharCode(parseInt(k, 8));
    return String.fromCodePoint(parseInt(k.slice(1), 16));
  });
}

/** The text value of a Python string literal node, when it has no interpolation (escapes as written: unescapePython decodes them). */
export function stringValue(node: Node): string | undefined {
  if (node.type === 'concatenated_string') {
    let s = '';
    for (const c of namedChildren(node)) {
      const v = stringValue(c);
      if (v === undefined) return undefined;
      s += v;
    }
    return s;
  }
  if (node.type !== 'string') return undefined;
  let s = '';
  for (const c of namedChildren(node)) {
    if (c.type === 'string_content') s += c.text;
    else if (c.type === 'interpolation') return undefined;
    else if (c.type === 'escape_sequence') s += c.text;
  }
  return s;
}

/** True when `inner` lies within `outer` (inclusive). */
export function contains(outer: Node, inner: Node): boolean {
  return inner.startIndex >= outer.startIndex && inner.endIndex <= outer.endIndex;
}

/** Collects the first syntax error of a tree as a 0-based position, if any. */
export function firstSyntaxError(root: Node): { row: number; column: number; text: string } | undefined {
  if (!root.hasError) return undefined;
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.isError || n.isMissing) {
      return { row: n.startPosition.row, column: n.startPosition.column, text: n.isMissing ? `missing ${n.type}` : 'invalid syntax' };
    }
    if (!n.hasError) continue;
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c) stack.push(c);
    }
  }
  return undefined;
}

/** Shortens an expression for messages: `AgentProxy(AgentId("a", "b"), rt)` → `AgentProxy(...)`. */
export function abbreviate(text: string, max = 40): string {
  let t = text.replace(/\s+/g, ' ');
  if (t.length <= max) return t;
  let out = '';
  let depth = 0;
  for (const ch of t) {
    if (ch === '(' || ch === '[' || ch === '{') {
      if (depth === 0) out += ch + '...';
      depth++;
    } else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) out += ch;
    } else if (depth === 0) out += ch;
  }
  t = out;
  return t.length <= max ? t : `${t.slice(0, max - 3)}...`;
}
