/**
 * Stage 7a: the record's fix patterns, read with tree-sitter into plain data (the trees are freed).
 *
 * A pattern is a protected statement (the call the record protects, as the record writes it:
 * `state = await runtime.agent_save_state(agent_id)`) and an alternative (the `except` body of
 * `tryCatchPattern`, the isinstance branch of `validationCode`, the "after" part of `exampleFix`).
 * The protected statement names the placeholders (receiver, arguments, assignment target) that
 * ./bind.ts binds to the user's code. Nothing here is specific to a record.
 */
import { withTree, type Node } from '../parse/parser.js';
import { dottedName, field, namedChildren } from '../parse/syntax.js';
import { afterPart, beforePart } from '../rules/snippets.js';
import type { Rule } from '../rules/types.js';

export interface Span {
  start: number;
  end: number;
}

export type SinkKind = 'expr' | 'assign' | 'return';

/** The statement around the protected call, in a snippet. */
export interface Protected {
  sink: SinkKind;
  /** The assignment target as written (`state`), for `assign`. */
  target?: string;
  /** The receiver expression as written (`runtime`), for method calls. */
  receiver?: string;
  awaited: boolean;
  /** Placeholder arguments: identifiers passed for a parameter (by position or keyword). */
  args: { name: string; index?: number; keyword?: string }[];
}

export interface Ident extends Span {
  name: string;
  /** Bound by a comprehension or lambda of the alternative itself (never a placeholder). */
  scoped: boolean;
  /** Written as an attribute chain head, call target, subscript value...: needs parentheses around a complex substitution. */
  tight: boolean;
}

/** The alternative code: statements of a snippet, kept as text with the facts rendering needs. */
export interface Alternative {
  text: string;
  /** From the first statement to the end of the last statement's line (its trailing comment included). */
  region: Span;
  /** End of the last statement node (without a trailing comment). */
  stmtEnd: number;
  baseIndent: string;
  unit: string;
  statements: (Span & { type: string })[];
  /** When the alternative is one statement of the protected statement's form: where its value is. */
  sink?: {
    kind: SinkKind;
    target?: string;
    stmt: Span;
    value: Span;
    awaited: boolean;
    /** The value without its `await`. */
    core: Span;
    /** The value has a call or await (worth keeping as an expression statement). */
    effectful: boolean;
    atomic: boolean;
    coreAtomic: boolean;
  };
  ids: Ident[];
  /** Names the alternative binds in the enclosing scope (loop variables, assignment targets). */
  leaking: string[];
  /** Names bound by comprehensions and lambdas inside the alternative. */
  scopedNames: string[];
  /** Offsets of line starts that lie inside a string (never re-indented). */
  inString: number[];
  /** `return` statements nested below the top level of the alternative. */
  nestedReturn: boolean;
}

export interface Pattern {
  prot: Protected;
  alt: Alternative;
  /** `except E as e:` alias, when the alternative uses it. */
  exceptAs?: string;
  /** The alternative calls the raising function again (a re-check would report it too). */
  callsRaiser?: string;
  /** The handler's class as the pattern writes it (`TOMLDecodeError`, `ipaddress.AddressValueError`), when it names the record's class. */
  exceptName?: string;
}

export interface SnippetImport {
  /** Qualified name the local name stands for. */
  q: string;
  /** The import statement that binds it, as the record writes it. */
  stmt: string;
  /** Top-level package. */
  top: string;
}

export interface RulePatterns {
  /** How the protected call is written: a method name, or a dotted path the callee ends with (`loads`, `ChatCompletion.create`). */
  names: string[];
  isAsync: boolean;
  /** Parameter names of the raising function (after self/cls), when the record's source shows them. */
  params?: string[];
  tryExcept?: Pattern;
  guard?: Pattern;
  replace?: Pattern;
  /** Names the record's snippets import, with how. */
  imports: Map<string, SnippetImport>;
  handling?: 'try-except' | 'type-guard';
  /** Why a strategy is unavailable. */
  missing: { tryExcept?: string; guard?: string; replace?: string };
}

const cache = new WeakMap<Rule, RulePatterns>();

export function rulePatterns(rule: Rule): RulePatterns {
  let p = cache.get(rule);
  if (!p) cache.set(rule, (p = readPatterns(rule)));
  return p;
}

/** A rule's patterns as JSON-safe data (kept in the compiled-rules snapshot: reading them parses snippets). */
export function patternsData(p: RulePatterns): unknown {
  return { ...p, imports: [...p.imports] };
}

/** Uses patterns saved by patternsData for a rule (the same rule, read back from the snapshot). */
export function usePatternsData(rule: Rule, data: unknown): void {
  const d = data as Omit<RulePatterns, 'imports'> & { imports: [string, SnippetImport][] };
  cache.set(rule, { ...d, imports: new Map(d.imports) });
}

function readPatterns(rule: Rule): RulePatterns {
  const r = rule.record;
  const names = [...new Set(rule.targets.map((t) => (t.kind === 'method' ? t.method : t.symbol.path)))];
  const def = raisingDef(r.sourceCode, r.lineNumber - r.sourceCodeStart);
  const out: RulePatterns = { names, isAsync: def?.isAsync ?? false, params: def?.params, imports: new Map(), missing: {} };
  for (const code of [r.validationCode, r.tryCatchPattern, r.exampleFix, r.typeGuard]) if (code) readImports(code, out.imports);
  const hs = (r.handlingStrategy ?? '').toLowerCase();
  if (/try|catch|except/.test(hs)) out.handling = 'try-except';
  else if (/guard|valid|check|isinstance/.test(hs)) out.handling = 'type-guard';

  if (r.tryCatchPattern) {
    const p = tryPattern(r.tryCatchPattern, names, rule.errorClass);
    if (typeof p === 'string') out.missing.tryExcept = p;
    else out.tryExcept = p;
  } else out.missing.tryExcept = 'the record has no tryCatchPattern';
  if (r.validationCode) {
    const p = guardPattern(r.validationCode, names);
    if (typeof p === 'string') out.missing.guard = p;
    else out.guard = p;
  } else out.missing.guard = 'the record has no validationCode';
  if (!out.guard && out.tryExcept && !r.validationCode) {
    // Without validationCode, the guard takes its alternative from the try/except pattern.
    out.guard = out.tryExcept;
    delete out.missing.guard;
  }
  if (r.exampleFix && /#\s*after\b/i.test(r.exampleFix)) {
    const p = replacePattern(beforePart(r.exampleFix), afterPart(r.exampleFix), names, out.tryExcept?.prot);
    if (typeof p === 'string') out.missing.replace = p;
    // An "after" written for another statement than the one it shows no call in: the validation alternative fits better.
    else if (!p.ownStatement && out.guard && out.guard !== out.tryExcept) out.replace = out.guard;
    else out.replace = p.pattern;
  } else out.missing.replace = 'the record has no exampleFix with an "after" part';
  if (!out.replace && out.guard && out.guard !== out.tryExcept) {
    out.replace = out.guard;
    delete out.missing.replace;
  }
  if (out.isAsync === false && [out.tryExcept, out.guard, out.replace].some((p) => p?.prot.awaited)) out.isAsync = true;
  return out;
}

// ------------------------------------------------------------------ the raising def

function raisingDef(source: string, row: number): { isAsync: boolean; params?: string[] } | undefined {
  if (!source) return undefined;
  return withTree(source, (tree) => {
    const line = source.split('\n')[row] ?? '';
    const col = Math.max(0, line.length - line.trimStart().length);
    let n: Node | null = tree.rootNode.descendantForPosition({ row, column: col });
    while (n && n.type !== 'function_definition') n = n.parent;
    if (!n) return undefined;
    const isAsync = n.child(0)?.type === 'async';
    const ps = field(n, 'parameters');
    const params: string[] = [];
    for (const p of ps ? namedChildren(ps) : []) {
      if (p.type === 'list_splat_pattern' || p.type === 'dictionary_splat_pattern' || p.type === 'keyword_separator' || p.type === 'positional_separator') continue;
      const name = p.type === 'identifier' ? p.text : (field(p, 'name') ?? namedChildren(p).find((c) => c.type === 'identifier'))?.text;
      if (name) params.push(name);
    }
    if (params[0] === 'self' || params[0] === 'cls') params.shift();
    return { isAsync, params };
  });
}

// ------------------------------------------------------------------ imports of the snippets

function readImports(code: string, into: Map<string, SnippetImport>): void {
  withTree(code, (tree) => {
    for (const s of namedChildren(tree.rootNode)) {
      if (s.type === 'import_from_statement') {
        const mod = field(s, 'module_name');
        if (!mod || mod.type === 'relative_import') continue;
        for (const c of s.childrenForFieldName('name')) {
          if (!c) continue;
          const name = c.type === 'aliased_import' ? field(c, 'name')?.text : c.text;
          const local = c.type === 'aliased_import' ? field(c, 'alias')?.text : c.text;
          if (!name || !local || into.has(local)) continue;
          into.set(local, { q: `${mod.text}.${name}`, stmt: `from ${mod.text} import ${name}${local !== name ? ` as ${local}` : ''}`, top: mod.text.split('.')[0]! });
        }
      } else if (s.type === 'import_statement') {
        for (const c of namedChildren(s)) {
          if (c.type === 'dotted_name') {
            const head = c.text.split('.')[0]!;
            if (!into.has(head)) into.set(head, { q: head, stmt: `import ${c.text}`, top: head });
          } else if (c.type === 'aliased_import') {
            const name = field(c, 'name')?.text;
            const alias = field(c, 'alias')?.text;
            if (name && alias && !into.has(alias)) into.set(alias, { q: name, stmt: `import ${name} as ${alias}`, top: name.split('.')[0]! });
          }
        }
      }
    }
  });
}

// ------------------------------------------------------------------ the three patterns

function tryPattern(code: string, names: string[], errorClass: string): Pattern | string {
  return withTree(code, (tree) => {
    if (tree.rootNode.hasError) return 'the tryCatchPattern does not parse';
    const tryStmt = tree.rootNode.descendantsOfType('try_statement')[0];
    if (!tryStmt) return 'the tryCatchPattern has no try statement';
    const body = field(tryStmt, 'body');
    const call = body ? protectedCall(body, names) : undefined;
    if (!call) return `the tryCatchPattern's try body does not call ${names.join('/')}`;
    const prot = protectedOf(call);
    if (typeof prot === 'string') return prot;
    const clauses = namedChildren(tryStmt).filter((c) => c.type === 'except_clause');
    const last = errorClass.split('.').pop()!;
    const named = clauses.find((c) => exceptNames(c).some((n) => n === errorClass || n.split('.').pop() === last));
    const clause =
      named ??
      clauses.find((c) => exceptNames(c).some((n) => n === 'Exception' || n === 'BaseException')) ??
      clauses.find((c) => exceptNames(c).length === 0);
    if (!clause) return `the tryCatchPattern has no handler for ${errorClass}`;
    const blk = namedChildren(clause).find((c) => c.type === 'block');
    const stmts = blk ? namedChildren(blk) : [];
    if (!stmts.length) return 'the tryCatchPattern handler is empty';
    if (stmts.length === 1 && stmts[0]!.type === 'raise_statement') return 'the tryCatchPattern handler only re-raises';
    const value = namedChildren(clause).find((c) => c.type !== 'block');
    const asName = value?.type === 'as_pattern' ? namedChildren(field(value, 'alias') ?? value).find((c) => c.type === 'identifier')?.text ?? field(value, 'alias')?.text : undefined;
    const alt = alternative(code, stmts, prot);
    const exceptName = named ? exceptNames(named).find((n) => n === errorClass || n.split('.').pop() === last) : undefined;
    const again = stmts.map((st) => protectedCall(st, names)).find((c) => !!c);
    return { prot, alt, exceptAs: asName && alt.ids.some((i) => i.name === asName) ? asName : undefined, exceptName, callsRaiser: again ? (field(again, 'function')?.text ?? again.text) : undefined };
  });
}

function guardPattern(code: string, names: string[]): Pattern | string {
  return withTree(code, (tree) => {
    if (tree.rootNode.hasError) return 'the validationCode does not parse';
    for (const ifs of tree.rootNode.descendantsOfType('if_statement')) {
      if (!ifs) continue;
      let cond = field(ifs, 'condition');
      let negated = false;
      while (cond && (cond.type === 'not_operator' || cond.type === 'parenthesized_expression')) {
        if (cond.type === 'not_operator') negated = !negated;
        cond = cond.type === 'not_operator' ? field(cond, 'argument') : (namedChildren(cond)[0] ?? null);
      }
      if (!cond || cond.type !== 'call' || field(cond, 'function')?.text !== 'isinstance') {
        const whole = field(ifs, 'condition');
        if (whole?.descendantsOfType('call').some((c) => !!c && field(c, 'function')?.text === 'isinstance')) return `the validationCode's condition is more than an isinstance check (\`${whole.text}\`)`;
        continue;
      }
      const cons = field(ifs, 'consequence');
      const elseClause = ifs.childrenForFieldName('alternative').find((a) => a?.type === 'else_clause');
      const elseBody = elseClause ? (field(elseClause, 'body') ?? namedChildren(elseClause).find((c) => c.type === 'block') ?? null) : null;
      // The branch taken for the raising class holds the alternative; the other one the original call.
      const [altBlock, origBlock] = negated ? [elseBody, cons] : [cons, elseBody];
      const call = origBlock ? protectedCall(origBlock, names) : undefined;
      if (!call || !altBlock) continue;
      if (protectedCall(altBlock, names)) continue;
      const prot = protectedOf(call);
      if (typeof prot === 'string') return prot;
      return { prot, alt: alternative(code, namedChildren(altBlock), prot) };
    }
    return 'the validationCode has no `if isinstance(...)` with the alternative in one branch and the call in the other';
  });
}

function replacePattern(before: string, after: string, names: string[], fallback: Protected | undefined): { pattern: Pattern; ownStatement: boolean } | string {
  let prot: Protected | string | undefined = before.trim()
    ? withTree(before, (tree) => {
        const call = protectedCall(tree.rootNode, names);
        return call ? protectedOf(call) : undefined;
      })
    : undefined;
  const ownStatement = typeof prot === 'object';
  if (typeof prot === 'string' || !prot) prot = fallback;
  if (!prot) return 'the exampleFix "before" part does not show the call';
  const p = prot;
  return withTree(after, (tree) => {
    if (tree.rootNode.hasError) return 'the exampleFix "after" part does not parse';
    const stmts = namedChildren(tree.rootNode);
    if (!stmts.length) return 'the exampleFix "after" part is empty';
    if (protectedCall(tree.rootNode, names)) return 'the exampleFix "after" part still calls the raising function';
    return { pattern: { prot: p, alt: alternative(after, stmts, p) }, ownStatement };
  });
}

function exceptNames(clause: Node): string[] {
  let v = namedChildren(clause).find((c) => c.type !== 'block');
  if (!v) return [];
  if (v.type === 'as_pattern') v = namedChildren(v)[0];
  if (!v) return [];
  const list = v.type === 'tuple' || v.type === 'parenthesized_expression' ? namedChildren(v) : [v];
  return list.map((n) => dottedName(n)).filter((x): x is string => !!x);
}

/** The first call (or attribute read) of one of `names` under `root`. */
function protectedCall(root: Node, names: string[]): Node | undefined {
  const stack: Node[] = [root];
  const found: Node[] = [];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'call') {
      const fn = field(n, 'function');
      const text = dottedName(fn) ?? (fn?.type === 'attribute' ? `?.${field(fn, 'attribute')?.text}` : undefined);
      if (text && names.some((p) => text === p || text.endsWith(`.${p}`))) found.push(n);
    }
    for (let i = n.namedChildCount - 1; i >= 0; i--) {
      const c = n.namedChild(i);
      if (c) stack.push(c);
    }
  }
  found.sort((a, b) => a.startIndex - b.startIndex);
  return found[0];
}

function protectedOf(call: Node): Protected | string {
  const up = unparenUp(call);
  const awaitNode = up.parent?.type === 'await' ? up.parent : undefined;
  const top = unparenUp(awaitNode ?? call);
  const parent = top.parent;
  let sink: SinkKind | undefined;
  let target: string | undefined;
  if (parent?.type === 'expression_statement') sink = 'expr';
  else if (parent?.type === 'return_statement') sink = 'return';
  else if (parent?.type === 'assignment' && field(parent, 'right')?.id === top.id && parent.parent?.type === 'expression_statement') {
    sink = 'assign';
    target = field(parent, 'left')?.text;
  }
  if (!sink) return 'the protected call is part of a larger expression in the record';
  const fn = field(call, 'function');
  const receiver = fn?.type === 'attribute' ? field(fn, 'object')?.text : undefined;
  const args: Protected['args'] = [];
  const argList = field(call, 'arguments');
  let index = 0;
  for (const a of argList ? namedChildren(argList) : []) {
    if (a.type === 'keyword_argument') {
      const v = field(a, 'value');
      const k = field(a, 'name')?.text;
      if (v?.type === 'identifier' && k) args.push({ name: v.text, keyword: k });
    } else if (a.type === 'list_splat' || a.type === 'dictionary_splat') {
      index++;
    } else {
      if (a.type === 'identifier') args.push({ name: a.text, index });
      index++;
    }
  }
  return { sink, target, receiver, awaited: !!awaitNode, args };
}

function unparenUp(n: Node): Node {
  let cur = n;
  while (cur.parent?.type === 'parenthesized_expression') cur = cur.parent;
  return cur;
}

const ATOMIC = new Set(['identifier', 'attribute', 'call', 'subscript', 'string', 'concatenated_string', 'integer', 'float', 'true', 'false', 'none', 'list', 'dictionary', 'set', 'tuple', 'parenthesized_expression', 'list_comprehension', 'dictionary_comprehension', 'set_comprehension', 'generator_expression', 'ellipsis']);

export function isAtomic(type: string): boolean {
  return ATOMIC.has(type);
}

function lineStartOf(text: string, i: number): number {
  return text.lastIndexOf('\n', i - 1) + 1;
}

function lineEndOf(text: string, i: number): number {
  const j = text.indexOf('\n', i);
  const e = j < 0 ? text.length : j;
  return e > 0 && text[e - 1] === '\r' ? e - 1 : e;
}

function alternative(text: string, stmts: Node[], prot: Protected): Alternative {
  const first = stmts[0]!;
  const last = stmts[stmts.length - 1]!;
  const ls = lineStartOf(text, first.startIndex);
  const baseIndent = text.slice(ls, first.startIndex);
  const region = { start: first.startIndex, end: lineEndOf(text, last.endIndex) };
  // The snippet's indentation unit: its first indented line (snippets start at column 0).
  const m = /\n([ \t]+)\S/.exec(text);
  const unit = m ? m[1]! : '    ';
  const alt: Alternative = {
    text,
    region,
    stmtEnd: last.endIndex,
    baseIndent,
    unit,
    statements: stmts.map((s) => ({ start: s.startIndex, end: s.endIndex, type: s.type })),
    ids: [],
    leaking: [],
    scopedNames: [],
    inString: [],
    nestedReturn: false,
  };
  const leaking = new Set<string>();
  const scoped = new Set<string>();
  for (const s of stmts) walkNames(s, [], alt.ids, leaking, scoped, 0, alt);
  // A dotted receiver (`self.runtime`, `app.state.rt`) is one placeholder: its whole chain is replaced.
  if (prot.receiver && !/^[A-Za-z_]\w*$/.test(prot.receiver)) {
    const want = prot.receiver.replace(/\s+/g, '');
    const chains: Ident[] = [];
    for (const st of stmts) {
      for (const a of st.descendantsOfType('attribute')) {
        if (!a || a.text.replace(/\s+/g, '') !== want) continue;
        if (chains.some((c) => c.start <= a.startIndex && a.endIndex <= c.end)) continue;
        chains.push({ start: a.startIndex, end: a.endIndex, name: prot.receiver, scoped: false, tight: !!a.parent && TIGHT_PARENTS.has(a.parent.type) });
      }
    }
    alt.ids = [...alt.ids.filter((i) => !chains.some((c) => c.start <= i.start && i.end <= c.end)), ...chains].sort((x, y) => x.start - y.start);
  }
  alt.leaking = [...leaking];
  alt.scopedNames = [...scoped];
  for (const s of stmts) {
    for (const str of s.descendantsOfType(['string', 'concatenated_string'])) {
      if (!str || str.startPosition.row === str.endPosition.row) continue;
      for (let i = text.indexOf('\n', str.startIndex); i >= 0 && i < str.endIndex - 1; i = text.indexOf('\n', i + 1)) alt.inString.push(i + 1);
    }
  }
  if (stmts.length === 1) alt.sink = sinkOf(stmts[0]!, prot);
  return alt;
}

function sinkOf(s: Node, prot: Protected): Alternative['sink'] {
  let value: Node | undefined;
  let target: string | undefined;
  let kind: SinkKind | undefined;
  if (s.type === 'return_statement' && prot.sink === 'return') {
    value = namedChildren(s)[0];
    kind = 'return';
  } else if (s.type === 'expression_statement') {
    const e = namedChildren(s)[0];
    if (e?.type === 'assignment' && prot.sink === 'assign') {
      const left = field(e, 'left');
      const right = field(e, 'right');
      if (left && right && right.type !== 'assignment' && left.text === prot.target) {
        value = right;
        target = left.text;
        kind = 'assign';
      }
    } else if (e && e.type !== 'assignment' && e.type !== 'augmented_assignment' && prot.sink === 'expr') {
      value = e;
      kind = 'expr';
    }
  }
  if (!value || !kind) return undefined;
  let core = value;
  let awaited = false;
  if (value.type === 'await') {
    awaited = true;
    core = namedChildren(value)[0] ?? value;
  }
  const effectful = value.type === 'await' || value.descendantsOfType(['call', 'await']).some((x) => !!x && x.isNamed);
  return {
    kind,
    target,
    stmt: { start: s.startIndex, end: s.endIndex },
    value: { start: value.startIndex, end: value.endIndex },
    awaited,
    core: { start: core.startIndex, end: core.endIndex },
    effectful,
    atomic: isAtomic(value.type),
    coreAtomic: isAtomic(core.type),
  };
}

const SCOPES = new Set(['list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression', 'lambda']);
const TIGHT_PARENTS = new Set(['attribute', 'subscript', 'call', 'await', 'binary_operator', 'unary_operator', 'comparison_operator', 'not_operator', 'boolean_operator']);

function walkNames(n: Node, scopes: Set<string>[], ids: Ident[], leaking: Set<string>, scoped: Set<string>, depth: number, alt: Alternative): void {
  if (n.type === 'return_statement' && depth > 0) alt.nestedReturn = true;
  if (SCOPES.has(n.type)) {
    const names = new Set<string>();
    if (n.type === 'lambda') {
      const ps = field(n, 'parameters');
      for (const p of ps ? namedChildren(ps) : []) targetNames(p.type === 'default_parameter' ? (field(p, 'name') ?? p) : p, names);
    } else {
      for (const c of namedChildren(n)) if (c.type === 'for_in_clause') {
        const left = field(c, 'left');
        if (left) targetNames(left, names);
      }
    }
    for (const x of names) scoped.add(x);
    const inner = [...scopes, names];
    for (const c of namedChildren(n)) walkNames(c, inner, ids, leaking, scoped, depth + 1, alt);
    return;
  }
  if (n.type === 'identifier') {
    const p = n.parent;
    if (p?.type === 'attribute' && field(p, 'attribute')?.id === n.id) return;
    if (p?.type === 'keyword_argument' && field(p, 'name')?.id === n.id) return;
    const tight = !!p && TIGHT_PARENTS.has(p.type);
    ids.push({ start: n.startIndex, end: n.endIndex, name: n.text, scoped: scopes.some((s) => s.has(n.text)), tight });
    return;
  }
  if (!scopes.length) {
    if (n.type === 'assignment' || n.type === 'augmented_assignment') {
      const left = field(n, 'left');
      if (left) targetNames(left, leaking);
    } else if (n.type === 'for_statement') {
      const left = field(n, 'left');
      if (left) targetNames(left, leaking);
    } else if (n.type === 'named_expression') {
      const name = field(n, 'name');
      if (name) leaking.add(name.text);
    } else if (n.type === 'as_pattern') {
      const alias = field(n, 'alias');
      if (alias) targetNames(namedChildren(alias)[0] ?? alias, leaking);
    } else if (n.type === 'function_definition' || n.type === 'class_definition') {
      const name = field(n, 'name');
      if (name) leaking.add(name.text);
    }
  }
  const nextDepth = n.type === 'block' ? depth + 1 : depth;
  for (const c of namedChildren(n)) walkNames(c, scopes, ids, leaking, scoped, nextDepth, alt);
}

/** Names bound by an assignment target (`a`, `a, b`, `[a, *b]`); attributes and subscripts bind none. */
export function targetNames(t: Node, into: Set<string>): void {
  switch (t.type) {
    case 'identifier':
      into.add(t.text);
      return;
    case 'pattern_list':
    case 'tuple_pattern':
    case 'list_pattern':
    case 'tuple':
    case 'list':
    case 'expression_list':
    case 'parenthesized_expression':
    case 'list_splat_pattern':
    case 'list_splat':
      for (const c of namedChildren(t)) targetNames(c, into);
      return;
    default:
      return;
  }
}
