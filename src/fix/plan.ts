/**
 * The fix stage: planning fixes. For each finding, while the tree is alive, the rule's fix pattern (`rule.patterns`, read by ../compile/python/patterns.ts)
 * is bound to the user's code: the pattern's receiver, arguments and assignment target become
 * the user's expressions, and the result is one of
 *   - try/except: the enclosing simple statement wrapped in `try:` / `except <errorClass>:` + alternative
 *     (one `except` per error when several rules with different errors match one call);
 *   - type guard: `if isinstance(<receiver>, <Class>): <alternative> else: <statement>`;
 *   - direct replacement: the record's "after" code instead of the call, when the receiver is certainly the raising class.
 * Findings in one statement share one fix. Every fix says how safe it is and why; a finding
 * that cannot be fixed gets strategy `none` and the reason.
 */
import type { Node } from '../parse/parser.js';
import { field, parentOf } from '../parse/syntax.js';
import type { Span } from '../rules/types.js';
import type { Finding } from '../match/match.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { Applicability, Fix, FixEdit, FixStrategy } from '../diagnostics/types.js';
import { PlanBind } from './bind.js';
import { UserFile } from './scope.js';
import { annotatedNotNone, asksForError, breaksOnNone, riskyCode, swallowedAs, usedAsObject } from './safety.js';
import { abbrev, classKeyOf, locate, none, NoFix, type FixOptions, type FixSite } from './site.js';

export type { FixOptions, StrategyOption } from './site.js';

export function planFixes(root: Node, text: string, findings: Finding[], rules: RuleSet, opts: FixOptions = {}): Map<Finding, Fix> {
  const out = new Map<Finding, Fix>();
  if (!findings.length) return out;
  const user = new UserFile(root, text, opts.scopes);
  const groups = new Map<number, FixSite[]>();
  for (const f of findings) {
    const s = locate(f, user);
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
      fix = new GroupPlanner(group, user, rules, opts.strategy ?? 'auto').plan();
    } catch (e) {
      // A planning failure costs the fix, never the findings.
      fix = none(e instanceof NoFix ? e.message : `internal error while planning the fix (${(e as Error).message})`);
    }
    for (const s of group) out.set(s.finding, fix);
  }
  return out;
}

/** The fix of one statement's findings. */
class GroupPlanner extends PlanBind {
  /** The sites of the rules that are not the first to match their call (by rule id). */
  private readonly others: FixSite[] = [];

  plan(): Fix {
    // One site per call node (several rules may match one call: the first decides the action; the others' errors are handled too, see handlerSites).
    const byCall = new Map<number, FixSite>();
    for (const s of [...this.sites].sort((a, b) => (a.finding.rule.id < b.finding.rule.id ? -1 : 1))) {
      if (!byCall.has(s.call.id)) byCall.set(s.call.id, s);
      else this.others.push(s);
    }
    const sites = [...byCall.values()].sort((a, b) => a.call.startIndex - b.call.startIndex);
    const wrap = this.chooseActions(sites);
    let strategy: FixStrategy;
    let edits: FixEdit[];
    let what: string;
    let title: string;
    if (!wrap) {
      strategy = 'replace';
      edits = this.replaceAll(sites);
      const s = sites[0]!;
      title = 'Replace with the recorded alternative';
      what = `\`${s.call.text.length > 60 ? `${abbrev(field(s.call, 'function')?.text ?? '')}(...)` : abbrev(s.call.text)}\` always raises ${s.finding.rule.errorClass}: replaced by the record's fix`;
    } else {
      for (const s of sites) if (s.noWrap) throw new NoFix(s.noWrap);
      if (this.inlineBodyAt === undefined && !this.user.aloneOnLines(this.stmt)) {
        const before = this.user.text.slice(Math.max(this.user.lineStart(this.stmt.startIndex), this.stmt.startIndex - 200), this.stmt.startIndex).trim();
        throw new NoFix(
          before
            ? `the statement shares its line with \`${before.length > 50 ? `...${before.slice(-47)}` : before}\``
            : 'the statement shares its line with other code',
        );
      }
      if (sites.some((s) => s.hoist) && sites.length > 1) throw new NoFix('several findings in one statement header');
      // The alternative's value takes the call's place in the header (fix/site.ts HEADERS says when that is unsafe).
      if (sites[0]!.hoistUnsafe) this.unsafe.push(sites[0]!.hoistUnsafe);
      strategy = wrap === 'try' ? 'try-except' : 'type-guard';
      const r = wrap === 'try' ? this.tryExcept(sites) : this.typeGuard(sites);
      edits = r.edits;
      what = r.what;
      title = r.title;
    }
    edits.push(...this.importEdits());
    this.judgeSafety(sites);
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
    return {
      applicability,
      strategy,
      reason,
      title,
      edits: edits.sort((a, b) => a.start - b.start || a.end - b.end).map(({ start, end, text }) => ({ start, end, text })),
    };
  }

  /**
   * What makes the fix unsafe or unusable beyond its form (fix/safety.ts): record code is
   * third-party data, a possible finding's fix changes what runs when the call would have
   * worked, and an error turned into `None` must not break what follows.
   */
  private judgeSafety(sites: FixSite[]): void {
    for (const s of [...sites, ...this.others.filter((o) => o.pattern)]) {
      const risky = riskyCode(s, this.stmt);
      if (risky.length)
        this.display ??= `the record's alternative uses ${risky.map((r) => `\`${r}\``).join(', ')}, which the statement does not (record code is third-party data)`;
      const asks = s.action === 'replace' ? undefined : asksForError(s.call);
      if (asks) this.display ??= `the call passes \`${asks}\`: it asks for the error that the fix would handle`;
      const as = s.pattern ? swallowedAs(s.pattern) : undefined;
      if (!as) continue;
      this.unsafe.push(as === 'None' ? 'the error becomes the value `None`' : 'the error is silenced (`pass`)');
      if (as !== 'None' || s.action === 'replace') continue;
      const sink = this.userSink(s);
      // The alternative's `None` takes the call's place inside a larger expression.
      const inPlace = !this.valueForm(s) && !s.hoist ? breaksOnNone(s.top) : undefined;
      if (inPlace) this.display ??= `the alternative's \`None\` takes the call's place in \`${inPlace}\`, which then always raises`;
      if (s.hoist === 'for' || s.hoist === 'with') this.display ??= `the \`${s.hoist}\` statement would use \`None\` after the error`;
      else if (sink?.kind === 'assign' && !sink.name) {
        const left = this.assignedTarget(s);
        if (left && /pattern|tuple|list/.test(left.type)) this.display ??= `unpacking \`None\` after the error always raises TypeError`;
      } else if (sink?.kind === 'assign' && sink.name) {
        const use = usedAsObject(this.stmt, sink.name);
        if (use) this.display ??= `\`${sink.name}\` is \`None\` after the error, and the next statements use it in \`${use}\`, which then raises`;
      } else if (sink?.kind === 'return') {
        const ann = annotatedNotNone(this.stmt);
        if (ann) this.display ??= `returns \`None\` after the error from a function annotated \`-> ${ann}\``;
      }
    }
    if (sites.some((s) => s.finding.confidence !== 'certain'))
      this.unsafe.push('the finding is only possible: the fix also changes what runs when the call would have worked');
    this.unsafe.push("the alternative is the record's code (third-party data)");
  }

  /** The left side of the statement's assignment to the call's value. */
  private assignedTarget(s: FixSite): Node | undefined {
    let a = parentOf(s.top);
    while (a && a.type !== 'assignment' && a.id !== this.stmt.id) a = parentOf(a);
    return a?.type === 'assignment' ? (field(a, 'left') ?? undefined) : undefined;
  }

  /** Sets each site's action and pattern; returns the wrap kind, or undefined when every site is replaced in place. */
  private chooseActions(sites: FixSite[]): 'try' | 'guard' | undefined {
    for (const s of sites) {
      const p = s.pats;
      if (s.finding.confidence === 'certain' && this.mode !== 'try-except' && p.replace) {
        s.action = 'replace';
        s.pattern = p.replace;
        continue;
      }
      let want: 'try' | 'guard' =
        this.mode === 'try-except'
          ? 'try'
          : this.mode === 'type-guard'
            ? 'guard'
            : p.handling === 'try-except'
              ? 'try'
              : p.handling === 'type-guard'
                ? 'guard'
                : p.guard
                  ? 'guard'
                  : 'try';
      // A proven receiver that is only possible for its arguments, data or versions: a type guard would not remove the finding.
      const proven = s.finding.receiverProven;
      if (want === 'guard' && (!p.guard || !this.receiverOf(s) || proven)) {
        if (this.mode === 'type-guard' || !p.tryExcept)
          throw new NoFix(
            proven
              ? 'a type guard cannot help: the receiver is the raising class (the raise depends on its arguments, data or versions)'
              : !this.receiverOf(s)
                ? 'a type guard needs a receiver object; this call has none'
                : (p.missing.guard ?? 'no type-guard pattern'),
          );
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
    const wrappedCalls = new Set(wrapped.map((s) => s.call.id));
    const others = this.others.filter((o) => wrappedCalls.has(o.call.id));
    if (kind === 'guard') {
      const recv = new Set(wrapped.map((s) => this.receiverOf(s)!.text));
      // The guard keeps the raising class away from every rule of the guarded call: they must all be that class's.
      const cls = new Set([...wrapped, ...others].map((s) => classKeyOf(s)));
      if (recv.size > 1 || cls.size > 1) {
        if (this.mode === 'type-guard' || !wrapped.every((s) => s.pats.tryExcept))
          throw new NoFix('the findings in this statement have different receivers: one type guard cannot cover them');
        kind = 'try';
      }
    }
    if (kind === 'try') {
      for (const s of wrapped) {
        if (!s.pats.tryExcept)
          throw new NoFix(`${s.pats.missing.tryExcept ?? 'no try/except pattern'} (needed to handle every finding of this statement in one try)`);
        s.action = 'try';
        s.pattern = s.pats.tryExcept;
      }
      const errs = new Set(wrapped.map((s) => this.rules.exceptions.canonical(s.finding.rule.errorClass)));
      const all = new Set([...errs, ...others.map((s) => this.rules.exceptions.canonical(s.finding.rule.errorClass))]);
      // One call may raise several errors (one handler each); several calls with different errors: which one raised is not known.
      if (errs.size > 1 || (all.size > 1 && wrapped.length > 1))
        throw new NoFix(`the findings in this statement raise different errors (${[...all].join(', ')})`);
      for (const o of others) {
        if (!o.pats.tryExcept)
          throw new NoFix(`${o.pats.missing.tryExcept ?? 'no try/except pattern'} (needed to handle every finding of this statement in one try)`);
        o.action = 'try';
        o.pattern = o.pats.tryExcept;
      }
    }
    return kind;
  }

  /**
   * The handlers of a try/except: one per error the statement's findings raise, each with the
   * sites whose alternative it runs (the first rule of each error, by rule id, stands for the
   * call). A subclass's handler comes before its base's, so each error reaches its own.
   */
  private handlerSites(sites: FixSite[]): { errorClass: string; sites: FixSite[] }[] {
    const exc = this.rules.exceptions;
    const first = sites.find((s) => s.action === 'try')!;
    const byError = new Map<string, FixSite>([[exc.canonical(first.finding.rule.errorClass), first]]);
    for (const o of this.others) {
      const error = exc.canonical(o.finding.rule.errorClass);
      if (o.call.id === first.call.id && o.action === 'try' && !byError.has(error)) byError.set(error, o);
    }
    const handlers = [...byError.values()].map((site) => ({ errorClass: site.finding.rule.errorClass, sites: sites.map((s) => (s === first ? site : s)) }));
    // Stable: a subclass's MRO is longer than each of its bases'.
    return handlers.sort((a, b) => exc.mro(exc.canonical(b.errorClass)).length - exc.mro(exc.canonical(a.errorClass)).length);
  }

  private replaceAll(sites: FixSite[]): FixEdit[] {
    const s = sites[0]!;
    const comments = (span: Span) => this.user.hasComment(span.start, span.end);
    if (sites.length === 1 && !s.hoist && this.valueForm(s) && this.user.aloneOnLines(this.stmt)) {
      // The statement becomes the record's "after" statements.
      if (comments({ start: this.stmt.startIndex, end: this.stmt.endIndex })) this.unsafe.push('removes comments inside the statement');
      const trailing = this.user.text.slice(this.stmt.endIndex, this.user.lineEnd(this.stmt.endIndex)).trim().length > 0;
      const text = this.renderValueForm(s, this.indent, '', trailing);
      return [{ start: this.stmt.startIndex, end: this.stmt.endIndex, text }];
    }
    const edits: FixEdit[] = [];
    for (const site of sites) {
      const r = this.inline(site, '', this.indent + this.unit);
      if (comments(r)) this.unsafe.push('removes comments inside the call');
      edits.push({ start: r.start, end: r.end, text: r.text });
    }
    return edits;
  }

  private tryExcept(sites: FixSite[]): { edits: FixEdit[]; what: string; title: string } {
    for (const s of sites) {
      if (s.action !== 'try') continue;
      if (s.pats.isAsync && !s.awaitedHere) throw new NoFix('the coroutine is not awaited in this statement: the error is raised where it is awaited');
    }
    const inner = this.indent + this.unit;
    const orig = this.originalCopy(sites);
    const names: string[] = [];
    const classes: string[] = [];
    let text = `try:${this.eol}${inner}${orig.text}`;
    for (const h of this.handlerSites(sites)) {
      const err = this.errorName(h.errorClass, h.sites);
      const asName = h.sites.find((s) => s.action === 'try')!.pattern!.exceptAs;
      const body = this.buildAlternative(h.sites, inner, 'try');
      text += `${this.eol}${orig.indent}except ${err}${asName ? ` as ${body.renames.get(asName) ?? asName}` : ''}:${this.eol}${inner}${body.text}`;
      names.push(err);
      classes.push(h.errorClass.split('.').pop()!);
    }
    const what =
      names.length === 1
        ? `wraps the statement in try/except ${names[0]} with the record's alternative`
        : `wraps the statement in try with a handler for each error it may raise (${names.join(', ')}), each with its record's alternative`;
    return { edits: this.wrapEdits(sites, text, orig), what, title: `Wrap in try/except ${classes.join(', ')}` };
  }

  private typeGuard(sites: FixSite[]): { edits: FixEdit[]; what: string; title: string } {
    const s = sites.find((x) => x.action === 'guard')!;
    const recvNode = this.receiverOf(s)!;
    const cls = this.className(classKeyOf(s), s.pats);
    if (
      recvNode.descendantsOfType(['call', 'await', 'named_expression']).some((x) => !!x && x.isNamed) ||
      /^(call|await|named_expression)$/.test(recvNode.type)
    ) {
      this.unsafe.push(`the receiver \`${recvNode.text}\` is evaluated twice`);
    }
    const recv = this.userCopy(recvNode.startIndex, recvNode.endIndex, this.unit, []);
    const inner = this.indent + this.unit;
    const body = this.buildAlternative(sites, inner, 'guard');
    const orig = this.originalCopy(sites);
    const text = `if isinstance(${recv}, ${cls}):${this.eol}${inner}${body.text}${this.eol}${orig.indent}else:${this.eol}${inner}${orig.text}`;
    return {
      edits: this.wrapEdits(sites, text, orig),
      title: `Guard with isinstance(${recv}, ${cls})`,
      what: `guards the statement with isinstance(${recv}, ${cls}) and runs the record's alternative for ${cls}`,
    };
  }

  /** The statement as it stands, one level deeper (or the hoisted `tmp = value`). */
  private originalCopy(sites: FixSite[]): { text: string; indent: string; hoistName?: string } {
    const s = sites[0]!;
    if (s.hoist) {
      const name = this.hoistName(s);
      const v = s.awaitNode ?? s.call;
      return { text: `${name} = ${this.userCopy(v.startIndex, v.endIndex, this.unit, [])}`, indent: this.indent, hoistName: name };
    }
    const end = this.user.lineEnd(this.stmt.endIndex);
    // Calls certain to raise are replaced in this copy too.
    const repl = sites.filter((x) => x.action === 'replace').map((x) => this.inline(x, this.unit, this.indent + this.unit + this.unit));
    return { text: this.userCopy(this.stmt.startIndex, end, this.unit, repl), indent: this.indent };
  }

  private wrapEdits(sites: FixSite[], text: string, orig: { hoistName?: string }): FixEdit[] {
    const s = sites[0]!;
    if (s.hoist) {
      return [
        { start: this.stmt.startIndex, end: this.stmt.startIndex, text: `${text}${this.eol}${this.indent}` },
        { start: s.top.startIndex, end: s.top.endIndex, text: orig.hoistName! },
      ];
    }
    if (this.inlineBodyAt !== undefined)
      return [{ start: this.inlineBodyAt, end: this.user.lineEnd(this.stmt.endIndex), text: `${this.eol}${this.indent}${text}` }];
    return [{ start: this.stmt.startIndex, end: this.user.lineEnd(this.stmt.endIndex), text }];
  }
}
