/** Reads the Python code inside a record (validationCode, typeGuard, tryCatchPattern, ...) with tree-sitter. */
import type { Node } from '../../parse/parser.js';
import { parseOnce } from './trees.js';
import { descendantsOfType, dottedName, field, kids, namedChildren } from '../../parse/syntax.js';
import { caughtNames } from '../../python/excepts.js';
import { classList, guardFunction, isinstanceCall } from '../../python/guards.js';
import { importedNames, importTarget } from '../../python/imports.js';
import { parameters } from '../../python/params.js';

export interface SnippetCall {
  /** Resolved dotted callee (`pkg.loads`, `Klass.from_string`) through the snippet's imports, if any. */
  qname?: string;
  /** Callee as written. */
  text: string;
  /** For `x.m(...)` with a plain variable receiver: the variable and method. */
  receiver?: string;
  method?: string;
  /** For `Q(...).m(...)`: the callee of the receiver call as written (`pathlib.WindowsPath`). */
  receiverCall?: string;
  /** This call is the receiver of an outer method call (`Q(...)` in `Q(...).m()`). */
  chained: boolean;
  /** Which snippet and whether it sits in a `try` body (the protected call). */
  from: string;
  inTryBody: boolean;
  inElse: boolean;
  /** An attribute read (`v.prop`), kept in `reads`, not a call. */
  read?: boolean;
}

export interface SnippetFacts {
  /** Local name → qualified name it is bound to by an import. */
  imports: Map<string, string>;
  /** Every module an import statement names (`import a.b` → `a.b`; `from a.b import c` → `a.b`). */
  modules: Set<string>;
  /** variable → classes (as written, resolved later) from `v = Q(...)`, `with Q(...) as v` and `v: Q` parameters. */
  varClasses: Map<string, string[]>;
  /** variable → classes (as written, resolved through imports where possible), from `isinstance(var, C)`. */
  isinstance: Map<string, string[]>;
  calls: SnippetCall[];
  /** `v.name` read (not called) on a plain variable: a property access. */
  reads: SnippetCall[];
  guards: { name: string; param: number; classes: string[]; negated: boolean }[];
  classDefs: { name: string; bases: string[] }[];
  excepts: string[];
}

export function emptyFacts(): SnippetFacts {
  return { imports: new Map(), modules: new Set(), varClasses: new Map(), isinstance: new Map(), calls: [], reads: [], guards: [], classDefs: [], excepts: [] };
}

/** Code spans of a prose field: `code` in backticks. */
export function codeSpans(text: string): string[] {
  const out: string[] = [];
  const re = /```(?:python|py)?\n?([\s\S]*?)```|`([^`\n]+)`/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push((m[1] ?? m[2] ?? '').trim());
  return out.filter(Boolean);
}

/** `# before ... # after ...` → the before part (what users write today). */
export function beforePart(exampleFix: string): string {
  const m = /#\s*before\b[^\n]*\n([\s\S]*?)(?:#\s*after\b|$)/i.exec(exampleFix);
  return m ? m[1]! : '';
}

export function afterPart(exampleFix: string): string {
  const m = /#\s*after\b[^\n]*\n([\s\S]*)$/i.exec(exampleFix);
  return m ? m[1]! : exampleFix;
}

/**
 * What each snippet told, by field and text: records of one library repeat their snippets (a
 * quarter of the snippet bytes of the standard library's records), and a snippet's facts depend
 * on nothing else. Bounded: emptied when full.
 */
const told = new Map<string, SnippetFacts>();
const MAX_TOLD = 20_000;

export function readSnippet(code: string, from: string, facts: SnippetFacts): void {
  const key = `${from}\0${code}`;
  let mine = told.get(key);
  if (!mine) {
    const fresh = emptyFacts();
    parseOnce(code, (tree) => readTree(tree.rootNode, from, fresh));
    if (told.size >= MAX_TOLD) told.clear();
    told.set(key, (mine = fresh));
  }
  addFacts(mine, facts);
  // Resolve isinstance classes and callee names through the imports seen in every snippet so far.
}

/** Adds one snippet's facts as reading it into `facts` would have (copies: resolveAll changes them in place). */
function addFacts(d: SnippetFacts, facts: SnippetFacts): void {
  for (const [k, v] of d.imports) facts.imports.set(k, v);
  for (const m of d.modules) facts.modules.add(m);
  for (const [v, cs] of d.varClasses) for (const c of cs) addVarClass(facts, v, c);
  for (const [v, cs] of d.isinstance) facts.isinstance.set(v, [...(facts.isinstance.get(v) ?? []), ...cs]);
  for (const c of d.calls) facts.calls.push({ ...c });
  for (const c of d.reads) facts.reads.push({ ...c });
  for (const g of d.guards) facts.guards.push({ ...g, classes: [...g.classes] });
  for (const x of d.classDefs) facts.classDefs.push({ ...x, bases: [...x.bases] });
  for (const e of d.excepts) facts.excepts.push(e);
}

function resolve(facts: SnippetFacts, dotted: string): string {
  const [head, ...rest] = dotted.split('.');
  const base = facts.imports.get(head!);
  return base ? [base, ...rest].join('.') : dotted;
}

export function resolveAll(facts: SnippetFacts): void {
  for (const [v, cs] of facts.isinstance)
    facts.isinstance.set(
      v,
      cs.map((c) => resolve(facts, c)),
    );
  for (const [v, cs] of facts.varClasses)
    facts.varClasses.set(
      v,
      cs.map((c) => resolve(facts, c)),
    );
  for (const c of facts.calls) {
    const head = c.text.split('.')[0]!;
    if (facts.imports.has(head)) c.qname = resolve(facts, c.text);
    if (c.receiverCall) c.receiverCall = resolve(facts, c.receiverCall);
  }
  for (const g of facts.guards) g.classes = g.classes.map((c) => resolve(facts, c));
  facts.excepts = facts.excepts.map((e) => resolve(facts, e));
  for (const d of facts.classDefs) d.bases = d.bases.map((b) => resolve(facts, b));
}

interface Ctx {
  inTryBody: boolean;
  inElse: boolean;
}

type Visit = (node: Node, from: string, facts: SnippetFacts, ctx: Ctx) => void;

/** Per node type: what the node tells (its descendants are read too, those of an import aside: see readTree). */
const VISITORS: Record<string, Visit> = {
  import_statement: (node, _from, facts) => {
    for (const i of importedNames(node)) {
      facts.imports.set(i.local, importTarget(i));
      facts.modules.add(i.module);
    }
  },
  import_from_statement: (node, _from, facts) => {
    const mod = field(node, 'module_name')?.text ?? '';
    if (mod && !mod.startsWith('.')) facts.modules.add(mod);
    for (const i of importedNames(node)) facts.imports.set(i.local, importTarget(i));
  },
  function_definition: (node, _from, facts) => {
    for (const p of parameters(node)) {
      const cls = p.annotation ? dottedName(namedChildren(p.annotation)[0] ?? p.annotation) : undefined;
      if (cls && looksLikeClass(cls) && !TYPING_NAMES.has(cls.split('.').pop()!)) addVarClass(facts, p.name, cls);
    }
    const name = field(node, 'name')?.text;
    const g = name ? guardFunction(node) : undefined;
    const classes = g
      ? classList(g.classes)
          .map((x) => dottedName(x))
          .filter((x): x is string => !!x)
      : [];
    if (name && g && classes.length) facts.guards.push({ name, param: g.param, classes, negated: g.negated });
  },
  class_definition: (node, _from, facts) => {
    const name = field(node, 'name')?.text;
    const sup = field(node, 'superclasses');
    if (name)
      facts.classDefs.push({
        name,
        bases: sup
          ? namedChildren(sup)
              .map((b) => dottedName(b))
              .filter((b): b is string => !!b)
          : [],
      });
  },
  assignment: (node, _from, facts) => {
    // `v = Q(...)`: v is an instance of Q when Q looks like a class.
    const left = field(node, 'left');
    const right = field(node, 'right');
    const inner = right?.type === 'await' ? namedChildren(right)[0] : right;
    const cls = inner?.type === 'call' ? dottedName(field(inner, 'function')) : undefined;
    if (left?.type === 'identifier' && cls && looksLikeClass(cls)) addVarClass(facts, left.text, cls);
  },
  with_item: (node, _from, facts) => {
    const v = field(node, 'value');
    if (v?.type === 'as_pattern') {
      const [inner] = namedChildren(v);
      const alias = field(v, 'alias');
      const target = alias ? namedChildren(alias)[0] : undefined;
      const cls = inner?.type === 'call' ? dottedName(field(inner, 'function')) : undefined;
      if (target?.type === 'identifier' && cls && looksLikeClass(cls)) addVarClass(facts, target.text, cls);
    }
  },
  call: (node, from, facts, ctx) => {
    const inst = isinstanceCall(node);
    if (inst) facts.isinstance.set(inst.variable, [...(facts.isinstance.get(inst.variable) ?? []), ...inst.classes]);
    else readCall(node, from, facts, ctx);
  },
  attribute: (node, from, facts, ctx) => {
    // `v.prop` read, not called and not the object of a longer chain.
    const obj = field(node, 'object');
    const attr = field(node, 'attribute')?.text;
    const p = node.parent;
    const called = p?.type === 'call' && field(p, 'function')?.id === node.id;
    if (obj?.type === 'identifier' && attr && !called && p?.type !== 'attribute') {
      facts.reads.push({ text: node.text, receiver: obj.text, method: attr, chained: false, from, inTryBody: ctx.inTryBody, inElse: ctx.inElse, read: true });
    }
  },
};

/** What is not looked inside: an import's names are read by its visitor. */
const PRUNED = new Set(['import_statement', 'import_from_statement']);
const EXCEPT_CLAUSES = new Set(['except_clause', 'except_group_clause']);
/** The nodes readTree reads: those with a visitor, and those that set the context of what they hold. */
const READ_TYPES = [...Object.keys(VISITORS), 'try_statement', 'else_clause', ...EXCEPT_CLAUSES];

/** A part of the snippet where the context is `ctx`, up to `end` (a node's end). */
interface Region {
  end: number;
  ctx: Ctx;
}

/**
 * Reads the snippet's nodes in document order (a preorder walk, as a recursive visit would meet
 * them), found by one walk of the tree inside the parser: walking it node by node from here
 * (a cursor) crossed into WebAssembly ~4 times per node (~390,000 times for 1,000 records). The context of
 * a node comes from the regions around it, by position (a node of these types is never empty, so
 * one that starts before a region's end is inside it): a `try` body (inTryBody), the rest of the
 * `try` (not: its except, else and finally clauses), an `else` clause (inElse). The except
 * clauses of a `try` tell what it catches (facts.excepts, in document order).
 */
function readTree(root: Node, from: string, facts: SnippetFacts): void {
  const open: Region[] = [];
  const base: Ctx = { inTryBody: false, inElse: false };
  const catches = new Set<number>();
  let skipTo = -1;
  for (const node of descendantsOfType(root, READ_TYPES)) {
    const at = node.startIndex;
    if (at < skipTo) continue;
    while (open.length && at >= open[open.length - 1]!.end) open.pop();
    const ctx = open.length ? open[open.length - 1]!.ctx : base;
    const type = node.type;
    if (type === 'try_statement') {
      open.push({ end: node.endIndex, ctx: { ...ctx, inTryBody: false } });
      const body = field(node, 'body');
      if (body) open.push({ end: body.endIndex, ctx: { ...ctx, inTryBody: true } });
      for (const c of kids(node)) if (EXCEPT_CLAUSES.has(c.type)) catches.add(c.id);
    } else if (type === 'else_clause') open.push({ end: node.endIndex, ctx: { ...ctx, inElse: true } });
    else if (EXCEPT_CLAUSES.has(type)) {
      if (catches.has(node.id)) facts.excepts.push(...caughtNames(node));
    } else {
      VISITORS[type]!(node, from, facts, ctx);
      if (PRUNED.has(type)) skipTo = node.endIndex;
    }
  }
}

function readCall(node: Node, from: string, facts: SnippetFacts, ctx: Ctx): void {
  const fn = field(node, 'function');
  const text = dottedName(fn) ?? chainText(fn);
  if (!text) return;
  const parentFn = node.parent?.type === 'attribute' && node.parent.parent?.type === 'call' && field(node.parent.parent, 'function')?.id === node.parent.id;
  const call: SnippetCall = { text, from, chained: parentFn, inTryBody: ctx.inTryBody, inElse: ctx.inElse };
  if (fn?.type === 'attribute') {
    const obj = field(fn, 'object');
    call.method = field(fn, 'attribute')?.text;
    if (obj?.type === 'identifier') call.receiver = obj.text;
    else if (obj?.type === 'call') call.receiverCall = dottedName(field(obj, 'function'));
  }
  facts.calls.push(call);
}

const TYPING_NAMES = new Set([
  'Any',
  'Optional',
  'Union',
  'Callable',
  'Awaitable',
  'Coroutine',
  'Iterable',
  'Iterator',
  'Mapping',
  'Sequence',
  'Type',
  'TypeVar',
  'Self',
  'Never',
  'NoReturn',
  'Protocol',
  'Generic',
  'Literal',
  'Annotated',
  'ClassVar',
  'Final',
]);

/** PEP 8 class names are CapWords: `pkg.Klass`, `Klass`. */
export function looksLikeClass(dotted: string): boolean {
  return /^[A-Z]/.test(dotted.split('.').pop() ?? '');
}

function addVarClass(facts: SnippetFacts, v: string, cls: string): void {
  if (!v) return;
  const list = facts.varClasses.get(v) ?? [];
  if (!list.includes(cls)) list.push(cls);
  facts.varClasses.set(v, list);
}

/** `Q(...).m` → `<call>.m`: a method called on a call's result (the receiver is recorded apart). */
function chainText(fn: Node | null): string | undefined {
  if (fn?.type !== 'attribute') return undefined;
  const obj = field(fn, 'object');
  const attr = field(fn, 'attribute')?.text;
  return obj?.type === 'call' && attr ? `<call>.${attr}` : undefined;
}
