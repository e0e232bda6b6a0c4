/**
 * The alternative of a fix pattern (the `except` body, the isinstance branch, the "after" part),
 * read into plain data: its text, statements, identifiers (the placeholders), the names it binds,
 * and where its value sits when it is one statement of the protected statement's form.
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { isAtomic, targetNames } from '../../python/bindings.js';
import { riskyIn } from '../../python/risky.js';
import type { Alternative, Ident, Protected, SinkKind } from '../../rules/types.js';

function lineStartOf(text: string, i: number): number {
  return text.lastIndexOf('\n', i - 1) + 1;
}

function lineEndOf(text: string, i: number): number {
  const j = text.indexOf('\n', i);
  const e = j < 0 ? text.length : j;
  return e > 0 && text[e - 1] === '\r' ? e - 1 : e;
}

export function alternative(text: string, stmts: Node[], prot: Protected): Alternative {
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
    risky: [],
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
  alt.risky = riskyIn(stmts);
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
const TIGHT_PARENTS = new Set([
  'attribute',
  'subscript',
  'call',
  'await',
  'binary_operator',
  'unary_operator',
  'comparison_operator',
  'not_operator',
  'boolean_operator',
]);

function walkNames(n: Node, scopes: Set<string>[], ids: Ident[], leaking: Set<string>, scoped: Set<string>, depth: number, alt: Alternative): void {
  if (n.type === 'return_statement' && depth > 0) alt.nestedReturn = true;
  if (SCOPES.has(n.type)) {
    const names = new Set<string>();
    if (n.type === 'lambda') {
      const ps = field(n, 'parameters');
      for (const p of ps ? namedChildren(ps) : []) targetNames(p.type === 'default_parameter' ? (field(p, 'name') ?? p) : p, names);
    } else {
      for (const c of namedChildren(n))
        if (c.type === 'for_in_clause') {
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
