/** Reads the Python code inside a record (validationCode, typeGuard, tryCatchPattern, ...) with tree-sitter. */
import { withTree, type Node } from '../parse/parser.js';
import { dottedName, field, namedChildren } from '../parse/syntax.js';

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

export function readSnippet(code: string, from: string, facts: SnippetFacts): void {
  withTree(code, (tree) => visit(tree.rootNode, from, facts, { inTryBody: false, inElse: false }));
  // Resolve isinstance classes and callee names through the imports seen in every snippet so far.
}

function resolve(facts: SnippetFacts, dotted: string): string {
  const [head, ...rest] = dotted.split('.');
  const base = facts.imports.get(head!);
  return base ? [base, ...rest].join('.') : dotted;
}

export function resolveAll(facts: SnippetFacts): void {
  for (const [v, cs] of facts.isinstance) facts.isinstance.set(v, cs.map((c) => resolve(facts, c)));
  for (const [v, cs] of facts.varClasses) facts.varClasses.set(v, cs.map((c) => resolve(facts, c)));
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

function visit(node: Node, from: string, facts: SnippetFacts, ctx: Ctx): void {
  switch (node.type) {
    case 'import_statement':
      for (const c of namedChildren(node)) {
        if (c.type === 'dotted_name') {
          facts.imports.set(c.text.split('.')[0]!, c.text.split('.')[0]!);
          facts.modules.add(c.text);
        } else if (c.type === 'aliased_import') {
          const n = field(c, 'name');
          const a = field(c, 'alias');
          if (n && a) facts.imports.set(a.text, n.text);
          if (n) facts.modules.add(n.text);
        }
      }
      return;
    case 'import_from_statement': {
      const mod = field(node, 'module_name')?.text ?? '';
      if (mod && !mod.startsWith('.')) facts.modules.add(mod);
      for (const c of node.childrenForFieldName('name')) {
        if (!c) continue;
        if (c.type === 'dotted_name') facts.imports.set(c.text, `${mod}.${c.text}`);
        else if (c.type === 'aliased_import') {
          const n = field(c, 'name');
          const a = field(c, 'alias');
          if (n && a) facts.imports.set(a.text, `${mod}.${n.text}`);
        }
      }
      return;
    }
    case 'function_definition': {
      const name = field(node, 'name')?.text;
      const params = field(node, 'parameters');
      const body = field(node, 'body');
      const names = params ? namedChildren(params).map((p) => paramName(p)) : [];
      for (const p of params ? namedChildren(params) : []) {
        const ann = field(p, 'type');
        const cls = ann ? dottedName(namedChildren(ann)[0] ?? ann) : undefined;
        if (cls && looksLikeClass(cls) && !TYPING_NAMES.has(cls.split('.').pop()!)) addVarClass(facts, paramName(p), cls);
      }
      // A guard: a body that returns (not) isinstance(param, C).
      const stmts = body ? namedChildren(body) : [];
      const ret = stmts.find((s) => s.type === 'return_statement');
      if (name && ret && stmts.length === 1 + stmts.filter((s) => s.type === 'expression_statement' && s.namedChild(0)?.type === 'string').length) {
        let expr = namedChildren(ret)[0];
        let negated = false;
        if (expr?.type === 'not_operator') {
          negated = true;
          expr = field(expr, 'argument') ?? undefined;
        }
        const inst = expr ? isinstanceCall(expr) : undefined;
        if (inst) {
          const param = names.indexOf(inst.variable);
          if (param >= 0) facts.guards.push({ name, param, classes: inst.classes, negated });
        }
      }
      break;
    }
    case 'class_definition': {
      const name = field(node, 'name')?.text;
      const sup = field(node, 'superclasses');
      if (name) facts.classDefs.push({ name, bases: sup ? namedChildren(sup).map((b) => dottedName(b)).filter((b): b is string => !!b) : [] });
      break;
    }
    case 'assignment': {
      // `v = Q(...)`: v is an instance of Q when Q looks like a class.
      const left = field(node, 'left');
      const right = field(node, 'right');
      const inner = right?.type === 'await' ? namedChildren(right)[0] : right;
      const cls = inner?.type === 'call' ? dottedName(field(inner, 'function')) : undefined;
      if (left?.type === 'identifier' && cls && looksLikeClass(cls)) addVarClass(facts, left.text, cls);
      break;
    }
    case 'with_item': {
      const v = field(node, 'value');
      if (v?.type === 'as_pattern') {
        const [inner] = namedChildren(v);
        const alias = field(v, 'alias');
        const target = alias ? namedChildren(alias)[0] : undefined;
        const cls = inner?.type === 'call' ? dottedName(field(inner, 'function')) : undefined;
        if (target?.type === 'identifier' && cls && looksLikeClass(cls)) addVarClass(facts, target.text, cls);
      }
      break;
    }
    case 'call': {
      const inst = isinstanceCall(node);
      if (inst) {
        facts.isinstance.set(inst.variable, [...(facts.isinstance.get(inst.variable) ?? []), ...inst.classes]);
        break;
      }
      const fn = field(node, 'function');
      const text = dottedName(fn) ?? chainText(fn);
      if (text) {
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
      break;
    }
    case 'try_statement': {
      const body = field(node, 'body');
      if (body) visit(body, from, facts, { ...ctx, inTryBody: true });
      for (const c of namedChildren(node)) {
        if (c === body || c.id === body?.id) continue;
        if (c.type === 'except_clause' || c.type === 'except_group_clause') {
          const v = namedChildren(c).find((x) => x.type !== 'block');
          const ex = v?.type === 'as_pattern' ? namedChildren(v)[0] : v;
          if (ex) {
            const list = ex.type === 'tuple' || ex.type === 'parenthesized_expression' ? namedChildren(ex) : [ex];
            for (const e of list) {
              const d = dottedName(e);
              if (d) facts.excepts.push(d);
            }
          }
        }
        visit(c, from, facts, { ...ctx, inTryBody: false });
      }
      return;
    }
    case 'attribute': {
      // `v.prop` read, not called and not the object of a longer chain.
      const obj = field(node, 'object');
      const attr = field(node, 'attribute')?.text;
      const p = node.parent;
      const called = p?.type === 'call' && field(p, 'function')?.id === node.id;
      if (obj?.type === 'identifier' && attr && !called && p?.type !== 'attribute') {
        facts.reads.push({ text: node.text, receiver: obj.text, method: attr, chained: false, from, inTryBody: ctx.inTryBody, inElse: ctx.inElse, read: true });
      }
      break;
    }
    case 'else_clause':
      for (const c of namedChildren(node)) visit(c, from, facts, { ...ctx, inElse: true });
      return;
  }
  for (const c of namedChildren(node)) visit(c, from, facts, ctx);
}

const TYPING_NAMES = new Set(['Any', 'Optional', 'Union', 'Callable', 'Awaitable', 'Coroutine', 'Iterable', 'Iterator', 'Mapping', 'Sequence', 'Type', 'TypeVar', 'Self', 'Never', 'NoReturn', 'Protocol', 'Generic', 'Literal', 'Annotated', 'ClassVar', 'Final']);

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

function paramName(p: Node): string {
  if (p.type === 'identifier') return p.text;
  const n = field(p, 'name') ?? namedChildren(p).find((c) => c.type === 'identifier');
  return n?.text ?? '';
}

/** `isinstance(x, C)` / `isinstance(x, (C, D))` with a plain variable. */
export function isinstanceCall(node: Node): { variable: string; classes: string[] } | undefined {
  if (node.type !== 'call') return undefined;
  if (field(node, 'function')?.text !== 'isinstance') return undefined;
  const args = field(node, 'arguments');
  const [v, c] = args ? namedChildren(args) : [];
  if (!v || !c || v.type !== 'identifier') return undefined;
  const list = c.type === 'tuple' || c.type === 'parenthesized_expression' ? namedChildren(c) : [c];
  const classes = list.map((x) => dottedName(x)).filter((x): x is string => !!x);
  return classes.length ? { variable: v.text, classes } : undefined;
}
