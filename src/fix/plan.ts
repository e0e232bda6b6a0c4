/**
 * The fix stage: planning fixes. For each finding, while the tree is alive, the rule's fix pattern (`rule.patterns`, read by ../rules/compile/patterns.ts)
 * is bound to the user's code: the pattern's receiver, arguments and assignment target become
 * the user's expressions, and the result is one of
 *   - try/except: the enclosing simple statement wrapped in `try:` / `except <errorClass>:` + alternative;
 *   - type guard: `if isinstance(<receiver>, <Class>): <alternative> else: <statement>`;
 *   - direct replacement: the record's "after" code instead of the call, when the receiver is certainly the raising class.
 * Findings in one statement share one fix. Every fix says how safe it is and why; a finding
 * that cannot be fixed gets strategy `none` and the reason.
 */
import type { Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';
import type { Finding } from '../match/match.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { Applicability, Fix, FixEdit, FixStrategy } from '../diagnostics/types.js';
import { isAtomic } from '../python/bindings.js';
import { rulePatterns } from '../rules/compile/patterns.js';
import type { Alternative, Pattern, RulePatterns, SinkKind, Span } from '../rules/types.js';
import { BUILTINS, FileFacts } from './scope.js';

export type StrategyOption = 'auto' | 'try-except' | 'type-guard';

export interface FixOptions {
  strategy?: StrategyOption;
}

type Action = 'try' | 'guard' | 'replace';

interface Site {
  finding: Finding;
  pats: RulePatterns;
  call: Node;
  awaitNode?: Node;
  /** The call, its `await` and enclosing parentheses. */
  top: Node;
  /** The simple statement to wrap, or the compound statement before which the value is hoisted. */
  stmt: Node;
  hoist?: 'if' | 'for';
  /** Why the statement cannot be wrapped around this call. */
  noWrap?: string;
  /** An `await` (or an event-loop runner) encloses the call inside the statement. */
  awaitedHere: boolean;
  action?: Action;
  pattern?: Pattern;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

class NoFix extends Error {}

const SIMPLE = new Set(['expression_statement', 'return_statement', 'assert_statement', 'raise_statement', 'delete_statement']);
const RUNNERS = new Set(['run', 'run_until_complete']);
const TIGHT = new Set(['attribute', 'subscript', 'call', 'await', 'binary_operator', 'unary_operator', 'comparison_operator', 'not_operator', 'boolean_operator', 'conditional_expression']);

export function planFixes(root: Node, text: string, findings: Finding[], rules: RuleSet, opts: FixOptions = {}): Map<Finding, Fix> {
  const out = new Map<Finding, Fix>();
  if (!findings.length) return out;
  const facts = new FileFacts(root, text);
  const groups = new Map<number, Site[]>();
  for (const f of findings) {
    const s = locate(f, facts);
    if (typeof s === 'string') {
      out.set(f, none(s));
      continue;
    }
    const g = groups.get(s.stmt.id) ?? [];
    g.push(s);
    groups.set(s.stmt.id, g);
  }
  for (const group of groups.values()) {
    let fix: Fix;
    try {
      fix = new GroupPlanner(group, facts, rules, opts.strategy ?? 'auto').plan();
    } catch (e) {
      // A planning failure costs the fix, never the findings.
      fix = none(e instanceof NoFix ? e.message : `internal error while planning the fix (${(e as Error).message})`);
    }
    for (const s of group) out.set(s.finding, fix);
  }
  return out;
}

function none(reason: string): Fix {
  return { applicability: 'display-only', strategy: 'none', reason: `no automatic fix: ${reason}`, edits: [] };
}

function unparenUp(n: Node): Node {
  let cur = n;
  while (cur.parent?.type === 'parenthesized_expression') cur = cur.parent;
  return cur;
}

function isStatement(n: Node): boolean {
  const type = n.type;
  return type.endsWith('_statement') || type === 'function_definition' || type === 'class_definition' || type === 'decorated_definition';
}

/** Finds the statement around a finding and what stands between them. */
function locate(f: Finding, facts: FileFacts): Site | string {
  const n = f.site.node;
  if (f.via.length) {
    return `the error is raised inside \`${f.via[0]}\` (via ${f.via.slice(1).join(' -> ')}), not by a call the record's patterns protect`;
  }
  if (n.type !== 'call') return 'the record protects a call; this is an attribute read';
  const pats = rulePatterns(f.rule);
  const up = unparenUp(n);
  const awaitNode = up.parent?.type === 'await' ? up.parent : undefined;
  const top = unparenUp(awaitNode ?? n);
  let noWrap: string | undefined;
  let awaitedHere = !!awaitNode;
  let child: Node = n;
  let cur: Node | null = n.parent;
  while (cur && !isStatement(cur)) {
    if (cur.type === 'lambda' && field(cur, 'body')?.id === child.id) noWrap ??= 'the call is in a lambda: it runs when the lambda is called, not here';
    else if (cur.type === 'generator_expression' && cur.parent?.type !== 'list_splat') noWrap ??= 'the call is in a generator expression: it runs when the generator is consumed, not here';
    else if (cur.type === 'decorator') noWrap ??= 'the call is in a decorator';
    else if (cur.type === 'default_parameter' || cur.type === 'typed_default_parameter') noWrap ??= 'the call is in a default argument';
    else if (cur.type === 'elif_clause') noWrap ??= 'the call is in an `elif` condition';
    else if (cur.type === 'case_clause') noWrap ??= 'the call is in a `case` guard';
    else if (cur.type === 'await' && child.id !== n.id) awaitedHere = true;
    else if (cur.type === 'call' && cur.id !== n.id) {
      const fn = field(cur, 'function');
      const name = fn?.type === 'attribute' ? field(fn, 'attribute')?.text : fn?.text;
      if (name && RUNNERS.has(name)) awaitedHere = true;
    }
    child = cur;
    cur = cur.parent;
  }
  if (!cur) return 'the call is not inside a statement';
  let stmt = cur;
  let hoist: Site['hoist'];
  if (!SIMPLE.has(stmt.type)) {
    const cond = stmt.type === 'if_statement' ? field(stmt, 'condition') : stmt.type === 'for_statement' ? field(stmt, 'right') : null;
    if (stmt.type === 'while_statement') noWrap ??= 'the call is in a `while` condition, evaluated on every iteration';
    else if (stmt.type === 'function_definition' || stmt.type === 'decorated_definition' || stmt.type === 'class_definition') noWrap ??= `the call is in the header of a ${stmt.type === 'class_definition' ? 'class' : 'function'} definition`;
    else if (cond && cond.startIndex <= top.startIndex && top.endIndex <= cond.endIndex) {
      const why = hoistable(top, cond);
      if (why) noWrap ??= `the call is in ${stmt.type === 'if_statement' ? 'an `if` condition' : 'a `for` header'} and ${why}`;
      hoist = stmt.type === 'if_statement' ? 'if' : 'for';
    } else noWrap ??= `the call is in the header of a \`${stmt.type.replace(/_statement$/, '')}\` statement`;
  }
  return { finding: f, pats, call: n, awaitNode, top, stmt, hoist, noWrap, awaitedHere };
}

/** Why the value cannot move before the header (undefined when it can: it runs first and always). */
function hoistable(top: Node, cond: Node): string | undefined {
  let child = top;
  let cur = top.parent;
  while (cur && child.id !== cond.id) {
    if (cur.type === 'boolean_operator' && field(cur, 'left')?.id !== child.id) return 'does not always run (it follows `and`/`or`)';
    if (cur.type === 'conditional_expression') return 'does not always run (conditional expression)';
    if (/comprehension|generator_expression|lambda/.test(cur.type)) return 'is inside a comprehension';
    child = cur;
    cur = cur.parent;
  }
  // Everything evaluated before it must be free of effects.
  for (const d of cond.descendantsOfType(['call', 'await', 'named_expression'])) {
    if (d && d.isNamed && d.endIndex <= top.startIndex) return `\`${d.text}\` runs before it`;
  }
  return undefined;
}

class GroupPlanner {
  private readonly indent: string;
  private readonly unit: string;
  /** `if x: stmt` on one line: the wrap starts after the colon, on a new line. */
  private readonly inlineBodyAt?: number;
  private readonly eol: string;
  private readonly stmt: Node;
  private readonly scopes: Node[];
  private readonly unsafe: string[] = [];
  private display?: string;
  private readonly imports = new Set<string>();
  private readonly inString = new Set<number>();

  constructor(
    private readonly sites: Site[],
    private readonly facts: FileFacts,
    private readonly rules: RuleSet,
    private readonly mode: StrategyOption,
  ) {
    this.stmt = sites[0]!.stmt;
    this.indent = facts.text.slice(facts.lineStart(this.stmt.startIndex), this.stmt.startIndex);
    this.unit = facts.unitFor(this.stmt);
    const block = this.stmt.parent;
    const header = block?.type === 'block' ? block.parent : null;
    if (header && !/^[ \t]*$/.test(this.indent) && namedChildren(block!).length === 1 && /:\s*$/.test(this.indent)) {
      const headerIndent = facts.text.slice(facts.lineStart(header.startIndex), header.startIndex);
      const after = facts.text.slice(this.stmt.endIndex, facts.lineEnd(this.stmt.endIndex));
      if (/^[ \t]*$/.test(headerIndent) && /^[ \t\f]*(#.*)?$/.test(after)) {
        this.unit = /^\t+$/.test(headerIndent) ? '\t' : facts.unit;
        this.indent = headerIndent + this.unit;
        this.inlineBodyAt = facts.text.lastIndexOf(':', this.stmt.startIndex) + 1;
      }
    }
    this.eol = facts.eolAt(this.stmt.startIndex);
    this.scopes = facts.scopesOf(this.stmt);
    for (const s of this.stmt.descendantsOfType(['string', 'concatenated_string'])) {
      if (!s || s.startPosition.row === s.endPosition.row) continue;
      for (let i = facts.text.indexOf('\n', s.startIndex); i >= 0 && i < s.endIndex - 1; i = facts.text.indexOf('\n', i + 1)) this.inString.add(i + 1);
    }
  }

  plan(): Fix {
    // One site per call node (two rules may match one call: the first decides).
    const byCall = new Map<number, Site>();
    for (const s of [...this.sites].sort((a, b) => (a.finding.rule.id < b.finding.rule.id ? -1 : 1))) if (!byCall.has(s.call.id)) byCall.set(s.call.id, s);
    const sites = [...byCall.values()].sort((a, b) => a.call.startIndex - b.call.startIndex);
    const wrap = this.chooseActions(sites);
    let strategy: FixStrategy;
    let edits: Edit[];
    let what: string;
    if (!wrap) {
      strategy = 'replace';
      edits = this.replaceAll(sites);
      const s = sites[0]!;
      what = `\`${s.call.text.length > 60 ? `${abbrev(field(s.call, 'function')?.text ?? '')}(...)` : abbrev(s.call.text)}\` always raises ${s.finding.rule.errorClass}: replaced by the record's fix`;
    } else {
      for (const s of sites) if (s.noWrap) throw new NoFix(s.noWrap);
      if (this.inlineBodyAt === undefined && !this.facts.aloneOnLines(this.stmt)) {
        const before = this.facts.text.slice(this.facts.lineStart(this.stmt.startIndex), this.stmt.startIndex).trim();
        throw new NoFix(before ? `the statement shares its line with \`${before}\`` : 'the statement shares its line with other code');
      }
      if (sites.some((s) => s.hoist) && sites.length > 1) throw new NoFix('several findings in one statement header');
      strategy = wrap === 'try' ? 'try-except' : 'type-guard';
      const r = wrap === 'try' ? this.tryExcept(sites) : this.typeGuard(sites);
      edits = r.edits;
      what = r.what;
    }
    edits.push(...this.importEdits());
    const again = sites.find((x) => x.action !== 'replace' && x.pattern?.callsRaiser)?.pattern?.callsRaiser;
    if (again) this.display ??= `the record's alternative calls \`${again}\` again, which is reported too`;
    let applicability: Applicability = 'safe';
    let reason = what;
    if (this.display) {
      applicability = 'display-only';
      reason = `${what}; shown only: ${this.display}`;
    } else if (this.unsafe.length) {
      applicability = 'unsafe';
      reason = `${what}; unsafe: ${[...new Set(this.unsafe)].join('; ')}`;
    }
    return { applicability, strategy, reason, edits: edits.sort((a, b) => a.start - b.start || a.end - b.end).map((e) => this.toFixEdit(e)) };
  }

  private toFixEdit(e: Edit): FixEdit {
    const a = this.facts.position(e.start);
    const b = this.facts.position(e.end);
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column, text: e.text };
  }

  // ---------------------------------------------------------------- strategy choice

  /** Sets each site's action and pattern; returns the wrap kind, or undefined when every site is replaced in place. */
  private chooseActions(sites: Site[]): 'try' | 'guard' | undefined {
    for (const s of sites) {
      const p = s.pats;
      if (s.finding.confidence === 'certain' && this.mode !== 'try-except' && p.replace) {
        s.action = 'replace';
        s.pattern = p.replace;
        continue;
      }
      let want: 'try' | 'guard' = this.mode === 'try-except' ? 'try' : this.mode === 'type-guard' ? 'guard' : p.handling === 'try-except' ? 'try' : p.handling === 'type-guard' ? 'guard' : p.guard ? 'guard' : 'try';
      if (want === 'guard' && (!p.guard || !this.receiverOf(s))) {
        if (this.mode === 'type-guard' || !p.tryExcept) throw new NoFix(!this.receiverOf(s) ? 'a type guard needs a receiver object; this call has none' : (p.missing.guard ?? 'no type-guard pattern'));
        want = 'try';
      }
      if (want === 'try' && !p.tryExcept) {
        if (this.mode === 'try-except' || !p.guard || !this.receiverOf(s)) throw new NoFix(p.missing.tryExcept ?? 'no try/except pattern');
        want = 'guard';
      }
      s.action = want;
      s.pattern = want === 'try' ? p.tryExcept : p.guard;
    }
    const wrapped = sites.filter((s) => s.action !== 'replace');
    if (!wrapped.length) return undefined;
    // One wrap per statement: a try/except when any site wants one (and all can), else one guard.
    const kinds = new Set(wrapped.map((s) => s.action));
    let kind: 'try' | 'guard' = kinds.has('try') ? 'try' : 'guard';
    if (kind === 'guard') {
      const recv = new Set(wrapped.map((s) => this.receiverOf(s)!.text));
      const cls = new Set(wrapped.map((s) => classKeyOf(s)));
      if (recv.size > 1 || cls.size > 1) {
        if (this.mode === 'type-guard' || !wrapped.every((s) => s.pats.tryExcept)) throw new NoFix('the findings in this statement have different receivers: one type guard cannot cover them');
        kind = 'try';
      }
    }
    if (kind === 'try') {
      for (const s of wrapped) {
        if (!s.pats.tryExcept) throw new NoFix(`${s.pats.missing.tryExcept ?? 'no try/except pattern'} (needed to handle every finding of this statement in one try)`);
        s.action = 'try';
        s.pattern = s.pats.tryExcept;
      }
      const errs = new Set(wrapped.map((s) => this.rules.exceptions.canonical(s.finding.rule.errorClass)));
      if (errs.size > 1) throw new NoFix(`the findings in this statement raise different errors (${[...errs].join(', ')})`);
    }
    return kind;
  }

  private receiverOf(s: Site): Node | undefined {
    const fn = field(s.call, 'function');
    return fn?.type === 'attribute' ? (field(fn, 'object') ?? undefined) : undefined;
  }

  // ---------------------------------------------------------------- the three strategies

  private replaceAll(sites: Site[]): Edit[] {
    const s = sites[0]!;
    const comments = (span: Span) => this.stmt.descendantsOfType('comment').some((c) => !!c && c.startIndex >= span.start && c.endIndex <= span.end);
    if (sites.length === 1 && !s.hoist && this.valueForm(s) && this.facts.aloneOnLines(this.stmt)) {
      // The statement becomes the record's "after" statements.
      if (comments({ start: this.stmt.startIndex, end: this.stmt.endIndex })) this.unsafe.push('removes comments inside the statement');
      const trailing = this.facts.text.slice(this.stmt.endIndex, this.facts.lineEnd(this.stmt.endIndex)).trim().length > 0;
      const text = this.renderValueForm(s, this.indent, '', trailing);
      return [{ start: this.stmt.startIndex, end: this.stmt.endIndex, text }];
    }
    const edits: Edit[] = [];
    for (const site of sites) {
      const r = this.inline(site, '', this.indent + this.unit);
      if (comments(r)) this.unsafe.push('removes comments inside the call');
      edits.push({ start: r.start, end: r.end, text: r.text });
    }
    return edits;
  }

  private tryExcept(sites: Site[]): { edits: Edit[]; what: string } {
    const rule = sites[0]!.finding.rule;
    for (const s of sites) {
      if (s.action !== 'try') continue;
      if (s.pats.isAsync && !s.awaitedHere) throw new NoFix('the coroutine is not awaited in this statement: the error is raised where it is awaited');
    }
    const err = this.errorName(rule.errorClass, sites);
    const p = sites.find((s) => s.action === 'try')!.pattern!;
    const asName = p.exceptAs;
    const inner = this.indent + this.unit;
    const body = this.buildAlternative(sites, inner, 'try');
    const head = `except ${err}${asName ? ` as ${body.renames.get(asName) ?? asName}` : ''}:`;
    const orig = this.originalCopy(sites);
    const text = `try:${this.eol}${inner}${orig.text}${this.eol}${orig.indent}${head}${this.eol}${inner}${body.text}`;
    return { edits: this.wrapEdits(sites, text, orig), what: `wraps the statement in try/except ${err} with the record's alternative` };
  }

  private typeGuard(sites: Site[]): { edits: Edit[]; what: string } {
    const s = sites.find((x) => x.action === 'guard')!;
    const recvNode = this.receiverOf(s)!;
    const cls = this.className(classKeyOf(s), s.pats);
    if (recvNode.descendantsOfType(['call', 'await', 'named_expression']).some((x) => !!x && x.isNamed) || /^(call|await|named_expression)$/.test(recvNode.type)) {
      this.unsafe.push(`the receiver \`${recvNode.text}\` is evaluated twice`);
    }
    const recv = this.userCopy(recvNode.startIndex, recvNode.endIndex, this.unit, []);
    const inner = this.indent + this.unit;
    const body = this.buildAlternative(sites, inner, 'guard');
    const orig = this.originalCopy(sites);
    const text = `if isinstance(${recv}, ${cls}):${this.eol}${inner}${body.text}${this.eol}${orig.indent}else:${this.eol}${inner}${orig.text}`;
    return { edits: this.wrapEdits(sites, text, orig), what: `guards the statement with isinstance(${recv}, ${cls}) and runs the record's alternative for ${cls}` };
  }

  /** The statement as it stands, one level deeper (or the hoisted `tmp = value`). */
  private originalCopy(sites: Site[]): { text: string; indent: string; hoistName?: string } {
    const s = sites[0]!;
    if (s.hoist) {
      const name = this.hoistName(s);
      const v = s.awaitNode ?? s.call;
      return { text: `${name} = ${this.userCopy(v.startIndex, v.endIndex, this.unit, [])}`, indent: this.indent, hoistName: name };
    }
    const end = this.facts.lineEnd(this.stmt.endIndex);
    // Calls certain to raise are replaced in this copy too.
    const repl = sites.filter((x) => x.action === 'replace').map((x) => this.inline(x, this.unit, this.indent + this.unit + this.unit));
    return { text: this.userCopy(this.stmt.startIndex, end, this.unit, repl), indent: this.indent };
  }

  private wrapEdits(sites: Site[], text: string, orig: { hoistName?: string }): Edit[] {
    const s = sites[0]!;
    if (s.hoist) {
      return [
        { start: this.stmt.startIndex, end: this.stmt.startIndex, text: `${text}${this.eol}${this.indent}` },
        { start: s.top.startIndex, end: s.top.endIndex, text: orig.hoistName! },
      ];
    }
    if (this.inlineBodyAt !== undefined) return [{ start: this.inlineBodyAt, end: this.facts.lineEnd(this.stmt.endIndex), text: `${this.eol}${this.indent}${text}` }];
    return [{ start: this.stmt.startIndex, end: this.facts.lineEnd(this.stmt.endIndex), text }];
  }

  private hoistName(s: Site): string {
    const base = s.pattern?.prot.sink === 'assign' && /^[A-Za-z_]\w*$/.test(s.pattern.prot.target ?? '') ? s.pattern.prot.target! : 'result';
    return this.facts.identifiers.has(base) ? this.facts.freshName(base) : base;
  }

  // ---------------------------------------------------------------- the alternative

  /** The value is the whole statement's value (or the hoisted value) and awaited as the pattern's is. */
  private valueForm(s: Site): boolean {
    const p = s.pattern!.prot;
    if (!!s.awaitNode !== p.awaited) return false;
    if (s.hoist) return true;
    return this.userSink(s) !== undefined;
  }

  /** The user's statement form around the value: `x = ` / `return ` / nothing. */
  private userSink(s: Site): { kind: SinkKind; prefix: Span; name?: string; augmented?: boolean } | undefined {
    if (s.hoist) return { kind: 'assign', prefix: { start: 0, end: 0 }, name: this.hoistName(s) };
    const parent = s.top.parent;
    if (!parent) return undefined;
    if (parent.type === 'expression_statement' && parent.id === this.stmt.id) return { kind: 'expr', prefix: { start: this.stmt.startIndex, end: this.stmt.startIndex } };
    if (parent.type === 'return_statement' && parent.id === this.stmt.id) return { kind: 'return', prefix: { start: this.stmt.startIndex, end: s.top.startIndex } };
    if ((parent.type === 'assignment' || parent.type === 'augmented_assignment') && field(parent, 'right')?.id === s.top.id) {
      let a: Node = parent;
      while (a.parent?.type === 'assignment' && field(a.parent, 'right')?.id === a.id) a = a.parent;
      if (a.parent?.id !== this.stmt.id) return undefined;
      const left = field(a, 'left');
      const simple = a.id === parent.id && parent.type === 'assignment' && !field(parent, 'type') && left?.type === 'identifier';
      return { kind: 'assign', prefix: { start: this.stmt.startIndex, end: s.top.startIndex }, name: simple ? left!.text : undefined, augmented: parent.type === 'augmented_assignment' };
    }
    return undefined;
  }

  /** The code for the raising case: the record's alternative bound to the user's code. */
  private buildAlternative(sites: Site[], indent: string, kind: 'try' | 'guard'): { text: string; renames: Map<string, string> } {
    const wrapped = sites.filter((s) => s.action !== 'replace');
    if (wrapped.length === 1 && sites.length === 1 && this.valueForm(wrapped[0]!)) {
      const s = wrapped[0]!;
      const text = this.renderValueForm(s, indent, this.unit, false, kind);
      return { text, renames: this.lastRenames };
    }
    // Embedded: the statement again, each protected call replaced by the alternative's value.
    const repl: Edit[] = [];
    for (const s of sites) repl.push(this.inline(s, this.unit, indent + this.unit, kind));
    if (kind === 'try') this.reevaluated(sites);
    const s0 = sites[0]!;
    if (s0.hoist) {
      const name = this.hoistName(s0);
      const r = repl[0]!;
      const v = s0.awaitNode ?? s0.call;
      return { text: `${name} = ${this.userCopy(v.startIndex, v.endIndex, this.unit, [{ ...r }])}`, renames: this.lastRenames };
    }
    return { text: this.userCopy(this.stmt.startIndex, this.stmt.endIndex, this.unit, repl), renames: this.lastRenames };
  }

  private lastRenames = new Map<string, string>();

  /** Calls outside the protected ones that the handler would run a second time. */
  private reevaluated(sites: Site[]): void {
    const inSite = (n: Node) => sites.some((s) => n.startIndex >= s.top.startIndex && n.endIndex <= s.top.endIndex);
    const ancestor = (n: Node) => sites.some((s) => n.startIndex <= s.top.startIndex && s.top.endIndex <= n.endIndex);
    for (const d of this.stmt.descendantsOfType(['call', 'await'])) {
      if (!d || !d.isNamed || inSite(d) || ancestor(d)) continue;
      this.unsafe.push(`\`${abbrev(d.text)}\` runs again in the handler`);
    }
  }

  /** Replaces one call in place by the alternative's value (for embedded calls and in-place replacement). */
  private inline(s: Site, extra: string, contIndent: string, kind?: 'try' | 'guard'): Edit {
    const p = s.pattern!;
    const sink = p.alt.sink;
    if (!sink) throw new NoFix("the record's alternative is a block of statements and this call is part of a larger expression");
    let target: Node;
    let span: Span;
    let atomic: boolean;
    if (p.prot.awaited && sink.awaited) {
      target = s.call;
      span = sink.core;
      atomic = sink.coreAtomic;
    } else if (p.prot.awaited) {
      if (!s.awaitNode) throw new NoFix("the call is not awaited here and the record's alternative is not awaitable");
      target = s.top;
      span = sink.value;
      atomic = sink.atomic;
    } else {
      target = s.call;
      span = sink.value;
      atomic = sink.atomic;
    }
    const edits = this.bindEdits(s, p.alt, span, extra, kind === 'try');
    let text = this.render(p.alt, span.start, span.end, edits, contIndent);
    const parent = unparenUp(target).parent;
    if (!atomic && parent && TIGHT.has(parent.type)) text = `(${text})`;
    return { start: target.startIndex, end: target.endIndex, text };
  }

  /**
   * The alternative as statements in the user's statement form: the record's `state = <value>`
   * becomes `saved[name] = <value>`, `return <value>` or `<value>`.
   */
  private renderValueForm(s: Site, indent: string, extra: string, dropTrailingComment: boolean, kind?: 'try' | 'guard'): string {
    const p = s.pattern!;
    const alt = p.alt;
    const sink = this.userSink(s)!;
    const prefix = s.hoist ? `${sink.name} = ` : this.userCopy(sink.prefix.start, sink.prefix.end, extra, []);
    const edits = this.bindEdits(s, alt, alt.region, extra, kind === 'try', sink);
    let appended = '';
    const needsValue = sink.kind !== 'expr';
    if (alt.sink && p.prot.sink !== 'expr') {
      if (sink.kind === 'expr') {
        if (alt.sink.effectful) edits.push({ start: alt.sink.stmt.start, end: alt.sink.value.start, text: '' });
        else edits.push({ start: alt.sink.stmt.start, end: alt.sink.stmt.end, text: 'pass' });
      } else edits.push({ start: alt.sink.stmt.start, end: alt.sink.value.start, text: prefix });
    } else if (p.prot.sink === 'assign') {
      const t = p.prot.target ?? '';
      const uses = alt.ids.some((i) => i.name === t && !i.scoped);
      if (needsValue && !uses) this.display = `the record's alternative gives no value for \`${prefix.trim().replace(/=$/, '').trim()}\``;
      else if (needsValue && !(sink.kind === 'assign' && sink.name)) appended = `${prefix}${this.lastRenames.get(t) ?? t}`;
    } else if (p.prot.sink === 'return') {
      if (alt.nestedReturn && sink.kind !== 'return') this.display = 'the record\'s alternative returns from inside a block';
      else if (sink.kind === 'expr') this.display = "the record's alternative returns a value; this statement does not";
      else if (sink.kind === 'assign') for (const st of alt.statements) if (st.type === 'return_statement') edits.push({ start: st.start, end: st.start + 'return'.length + 1, text: prefix });
    } else if (needsValue) {
      this.display = `the record's alternative gives no value for \`${prefix.trim().replace(/=$/, '').replace(/^return$/, 'return').trim()}\``;
    }
    if (sink.augmented && kind === 'try') {
      // `d[key()] += await f()` evaluates the target first: the handler would run `key()` again.
      for (const d of this.stmt.descendantsOfType(['call', 'await'])) {
        if (d?.isNamed && d.startIndex >= sink.prefix.start && d.endIndex <= sink.prefix.end) this.unsafe.push(`\`${abbrev(d.text)}\` in the target runs again in the handler`);
      }
    }
    const end = dropTrailingComment || appended ? alt.stmtEnd : alt.region.end;
    let text = this.render(alt, alt.region.start, end, edits, indent);
    if (appended) text += `${this.eol}${indent}${appended}`;
    return text;
  }

  /**
   * Edits on the pattern text: placeholders → the user's expressions, names the file spells
   * differently, and fresh names for the alternative's own variables where they would clash.
   */
  private bindEdits(s: Site, alt: Alternative, span: Span, extra: string, handler: boolean, sink?: { kind: SinkKind; name?: string }): Edit[] {
    const p = s.pattern!;
    const subs = new Map<string, Node>();
    const recv = this.receiverOf(s);
    if (p.prot.receiver && recv) subs.set(p.prot.receiver, recv);
    const unbound: string[] = [];
    const args = field(s.call, 'arguments');
    const list = args ? namedChildren(args) : [];
    const positional = list.filter((a) => a.type !== 'keyword_argument');
    const hasSplat = list.some((a) => a.type === 'list_splat' || a.type === 'dictionary_splat');
    const params = s.pats.params;
    for (const a of p.prot.args) {
      const param = a.keyword ?? (a.index !== undefined ? params?.[a.index] : undefined);
      let node: Node | undefined;
      if (param) node = list.find((x) => x.type === 'keyword_argument' && field(x, 'name')?.text === param)?.childForFieldName('value') ?? undefined;
      if (!node && a.keyword) node = list.find((x) => x.type === 'keyword_argument' && field(x, 'name')?.text === a.keyword)?.childForFieldName('value') ?? undefined;
      const idx = a.index ?? (param && params ? params.indexOf(param) : -1);
      if (!node && idx !== undefined && idx >= 0 && !positional.slice(0, idx + 1).some((x) => x.type === 'list_splat' || x.type === 'dictionary_splat')) node = positional[idx];
      if (node) subs.set(a.name, node);
      else if (!subs.has(a.name)) unbound.push(a.name);
    }
    // The pattern's assignment target, when the user's statement assigns a plain name.
    if (p.prot.sink === 'assign' && p.prot.target && /^[A-Za-z_]\w*$/.test(p.prot.target) && sink?.kind === 'assign' && sink.name && !alt.sink) {
      subs.set(p.prot.target, undefined as unknown as Node);
    }
    const used = new Set(alt.ids.filter((i) => !i.scoped && i.start >= span.start && i.end <= span.end).map((i) => i.name));
    for (const u of unbound) if (used.has(u)) this.display = `the call passes no value for \`${u}\`${hasSplat ? ' (it unpacks arguments)' : ''}, which the record's alternative uses`;
    // Names in the user's expressions that the alternative must not capture.
    const captured = new Set<string>();
    for (const n of subs.values()) if (n) for (const id of [n, ...n.descendantsOfType('identifier')]) if (id && id.type === 'identifier') captured.add(id.text);
    const scope = this.scopes[0]!;
    const renames = new Map<string, string>();
    const taken = new Set<string>();
    const sinkTarget = sink && alt.sink?.kind === 'assign' ? alt.sink.target : undefined;
    for (const name of [...alt.leaking, ...(p.exceptAs ? [p.exceptAs] : [])]) {
      if (subs.has(name) || name === sinkTarget) continue;
      if (this.facts.usedIn(scope).has(name) || captured.has(name)) {
        const fresh = this.facts.freshName(name, taken);
        taken.add(fresh);
        renames.set(name, fresh);
      }
    }
    for (const name of alt.scopedNames) {
      if (captured.has(name) && !renames.has(name)) {
        const fresh = this.facts.freshName(name, taken);
        taken.add(fresh);
        renames.set(name, fresh);
      }
    }
    this.lastRenames = renames;
    // Free names: the record's imports, builtins, or names this file defines.
    const missing: string[] = [];
    const spelled = new Map<string, string>();
    const local = new Set([...alt.leaking, ...(p.exceptAs ? [p.exceptAs] : [])]);
    for (const name of used) {
      if (subs.has(name) || local.has(name) || unbound.includes(name)) continue;
      const imp = s.pats.imports.find((i) => i.local === name);
      if (imp) {
        const sp = this.facts.spell(imp.q, (a, b) => this.same(a, b));
        if (sp) {
          if (sp !== name) spelled.set(name, sp);
          continue;
        }
        if (this.facts.defines(name, this.scopes)) {
          this.unsafe.push(`\`${name}\` already names something else in this file (the record imports it: \`${imp.stmt}\`)`);
          continue;
        }
        this.addImport(imp.stmt, imp.top);
        continue;
      }
      if (BUILTINS.has(name) || this.facts.defines(name, this.scopes)) continue;
      missing.push(name);
    }
    if (missing.length) this.unsafe.push(`the alternative uses ${missing.map((m) => `\`${m}\``).join(', ')}, which this file does not define or import`);
    if (handler) {
      for (const [name, n] of subs) {
        if (!n || !used.has(name)) continue;
        if (/^(call|await|named_expression|yield)$/.test(n.type) || n.descendantsOfType(['call', 'await', 'named_expression', 'yield']).some((x) => !!x && x.isNamed)) {
          this.unsafe.push(`\`${abbrev(n.text)}\` is evaluated again in the handler`);
        }
      }
    }
    const edits: Edit[] = [];
    for (const id of alt.ids) {
      if (id.scoped) {
        const r = renames.get(id.name);
        if (r && alt.scopedNames.includes(id.name)) edits.push({ start: id.start, end: id.end, text: r });
        continue;
      }
      if (subs.has(id.name)) {
        const n = subs.get(id.name);
        if (!n) {
          edits.push({ start: id.start, end: id.end, text: sink!.name! });
          continue;
        }
        let t = this.userCopy(n.startIndex, n.endIndex, extra, []);
        if (!isAtomic(n.type) && id.tight) t = `(${t})`;
        edits.push({ start: id.start, end: id.end, text: t });
      } else if (renames.has(id.name)) edits.push({ start: id.start, end: id.end, text: renames.get(id.name)! });
      else if (spelled.has(id.name)) edits.push({ start: id.start, end: id.end, text: spelled.get(id.name)! });
    }
    return edits;
  }

  // ---------------------------------------------------------------- names and imports

  private same(a: string, b: string): boolean {
    if (a === b) return true;
    const ca = this.rules.classes.resolve(a);
    if (ca && ca === this.rules.classes.resolve(b)) return true;
    return this.rules.exceptions.canonical(a) === this.rules.exceptions.canonical(b);
  }

  private addImport(stmt: string, top: string): void {
    if (this.imports.has(stmt)) return;
    this.imports.add(stmt);
    if (!this.facts.importedPackages().has(top)) this.unsafe.push(`adds \`${stmt}\`: this file imports nothing from \`${top}\` yet`);
  }

  /** How the file names the raising class for isinstance (adding the record's import when it has none). */
  private className(key: string, pats: RulePatterns): string {
    const sp = this.facts.spell(key, (a, b) => this.same(a, b));
    if (sp) return sp;
    const name = key.split('.').pop()!;
    const fromRecord = pats.imports.find((imp) => this.same(imp.q, key));
    const stmt = fromRecord?.stmt ?? `from ${key.slice(0, key.length - name.length - 1)} import ${name}`;
    const local = fromRecord?.local ?? name;
    if (this.facts.defines(local, [this.facts.root])) {
      this.unsafe.push(`\`${local}\` already names something else in this file`);
      return local;
    }
    this.addImport(stmt, fromRecord?.top ?? key.split('.')[0]!);
    return local;
  }

  /** How the file names the error class for `except`. */
  private errorName(errorClass: string, sites: Site[]): string {
    const exc = this.rules.exceptions;
    const canon = exc.canonical(errorClass);
    if (!canon.includes('.') && BUILTINS.has(canon)) return canon;
    // As the record's handler writes it (the public path), through the record's imports.
    for (const s of sites) {
      const written = s.pattern?.exceptName;
      if (!written) continue;
      const [head, ...rest] = written.split('.');
      const imp = s.pats.imports.find((i) => i.local === head);
      if (!imp) continue;
      const q = [imp.q, ...rest].join('.');
      const spelled = this.facts.spell(q, (a, b) => this.same(a, b));
      if (spelled) return spelled;
      if (!this.facts.defines(head!, this.scopes)) {
        this.addImport(imp.stmt, imp.top);
        return written;
      }
    }
    const sp = this.facts.spell(canon, (a, b) => this.same(a, b) || exc.canonical(a) === exc.canonical(b));
    if (sp) return sp;
    const name = canon.split('.').pop()!;
    for (const s of sites) {
      const imp = s.pats.imports.find((i) => exc.canonical(i.q) === canon);
      if (imp) {
        this.addImport(imp.stmt, imp.top);
        return imp.local;
      }
    }
    if (!canon.includes('.')) {
      this.unsafe.push(`the error class \`${canon}\` is not defined in this file`);
      return canon;
    }
    this.addImport(`from ${canon.slice(0, canon.length - name.length - 1)} import ${name}`, canon.split('.')[0]!);
    return name;
  }

  private importEdits(): Edit[] {
    if (!this.imports.size) return [];
    const stmts = [...this.imports].sort();
    const out: Edit[] = [];
    // Each import goes to its own spot (sections differ by package); equal spots are merged.
    const bySpot = new Map<number, { spot: ReturnType<FileFacts['importSpot']>; stmts: string[] }>();
    for (const s of stmts) {
      const spot = this.facts.importSpot(s);
      const e = bySpot.get(spot.offset) ?? { spot, stmts: [] };
      e.stmts.push(s);
      bySpot.set(spot.offset, e);
    }
    const eol = this.facts.eol;
    for (const { spot, stmts: ss } of bySpot.values()) {
      out.push({ start: spot.offset, end: spot.offset, text: `${spot.before}${ss.join(eol)}${eol}${spot.after}` });
    }
    return out;
  }

  // ---------------------------------------------------------------- text

  /** User text, with `extra` indentation after each line break outside strings, and replacements. */
  private userCopy(start: number, end: number, extra: string, repl: Edit[]): string {
    const text = this.facts.text;
    const rs = [...repl].sort((a, b) => a.start - b.start);
    let out = '';
    let i = start;
    let k = 0;
    while (i < end) {
      const r = rs[k];
      if (r && i === r.start) {
        out += r.text;
        i = r.end;
        k++;
        continue;
      }
      const stop = Math.min(end, r ? r.start : end);
      const j = text.indexOf('\n', i);
      if (j < 0 || j >= stop) {
        out += text.slice(i, stop);
        i = stop;
        continue;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
      const lineEmpty = text.slice(i, this.facts.lineEnd(i)).trim() === '';
      if (extra && !this.inString.has(i) && !lineEmpty && i < end) out += extra;
    }
    return out;
  }

  /** Pattern text from `start` to `end`, edits applied, re-indented to `indent` with the file's unit and line endings. */
  private render(alt: Alternative, start: number, end: number, edits: Edit[], indent: string): string {
    const text = alt.text;
    // An edit that covers others (the statement's sink) wins over those inside it.
    const es = edits.filter((e) => e.start >= start && e.end <= end).sort((a, b) => a.start - b.start || b.end - a.end);
    let out = '';
    let i = start;
    let k = 0;
    const inString = new Set(alt.inString);
    while (i < end) {
      const e = es[k];
      if (e && i === e.start) {
        out += e.text;
        i = e.end;
        k++;
        while (es[k] && es[k]!.start < i) k++;
        continue;
      }
      const ch = text[i]!;
      if (ch === '\r' && text[i + 1] === '\n') {
        i++;
        continue;
      }
      if (ch !== '\n') {
        out += ch;
        i++;
        continue;
      }
      out += this.eol;
      i++;
      if (inString.has(i)) continue;
      let j = i;
      while (j < end && (text[j] === ' ' || text[j] === '\t')) j++;
      if (j >= end || text[j] === '\n' || text[j] === '\r') {
        i = j;
        continue;
      }
      out += indent + this.convertIndent(text.slice(i, j), alt);
      i = j;
    }
    return out;
  }

  private convertIndent(ws: string, alt: Alternative): string {
    let rel = ws.startsWith(alt.baseIndent) ? ws.slice(alt.baseIndent.length) : ws;
    let out = '';
    while (alt.unit && rel.startsWith(alt.unit)) {
      out += this.unit;
      rel = rel.slice(alt.unit.length);
    }
    return out + rel;
  }
}

function classKeyOf(s: Site): string {
  const t = s.finding.rule.targets.find((x) => x.kind === 'method');
  return t && t.kind === 'method' ? t.classKey : s.finding.rule.raiser.qualname.split('.')[0]!;
}

function abbrev(t: string): string {
  const one = t.replace(/\s+/g, ' ');
  return one.length > 50 ? `${one.slice(0, 47)}...` : one;
}
