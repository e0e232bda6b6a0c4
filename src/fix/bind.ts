/**
 * Fix planning: binding. The record's alternative bound to the user's call: placeholders become
 * the user's expressions, clashing names are renamed, free names are imported; the value forms
 * (`x = <alternative value>`) and inline replacements.
 */
import type { FixEdit } from '../diagnostics/types.js';
import type { Node } from '../parse/parser.js';
import { field, identifierNames, namedChildren, parentOf } from '../parse/syntax.js';
import { isAtomic } from '../python/bindings.js';
import type { Alternative, Pattern, SinkKind, Span } from '../rules/types.js';
import { PlanRender } from './render.js';
import { BUILTINS } from '../python/builtins.js';
import { riskyImport } from '../python/risky.js';
import { abbrev, NoFix, TIGHT, unparenUp, type FixSite } from './site.js';

export abstract class PlanBind extends PlanRender {
  /** The user's expressions for the pattern's placeholders (receiver, arguments, assignment target), and the arguments the call does not pass. */
  private substitutions(
    s: FixSite,
    alt: Alternative,
    sink?: { kind: SinkKind; name?: string },
  ): { subs: Map<string, Node>; unbound: string[]; hasSplat: boolean } {
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
      if (!node && a.keyword)
        node = list.find((x) => x.type === 'keyword_argument' && field(x, 'name')?.text === a.keyword)?.childForFieldName('value') ?? undefined;
      const idx = a.index ?? (param && params ? params.indexOf(param) : -1);
      if (!node && idx !== undefined && idx >= 0 && !positional.slice(0, idx + 1).some((x) => x.type === 'list_splat' || x.type === 'dictionary_splat'))
        node = positional[idx];
      if (node) subs.set(a.name, node);
      else if (!subs.has(a.name)) unbound.push(a.name);
    }
    // The pattern's assignment target, when the user's statement assigns a plain name.
    if (p.prot.sink === 'assign' && p.prot.target && /^[A-Za-z_]\w*$/.test(p.prot.target) && sink?.kind === 'assign' && sink.name && !alt.sink) {
      subs.set(p.prot.target, undefined as unknown as Node);
    }
    return { subs, unbound, hasSplat };
  }

  /** Fresh names for what the alternative binds that the file (or the user's expressions) already uses. */
  private renamesFor(p: Pattern, alt: Alternative, subs: Map<string, Node>, sink?: { kind: SinkKind; name?: string }): Map<string, string> {
    // Names in the user's expressions that the alternative must not capture.
    const captured = new Set<string>();
    for (const n of subs.values()) {
      if (!n) continue;
      // A name has no parts: only a larger expression is walked for its names.
      if (n.type === 'identifier') captured.add(n.text);
      else for (const name of identifierNames(n)) captured.add(name);
    }
    const scope = this.scopes[0]!;
    const renames = new Map<string, string>();
    const taken = new Set<string>();
    const fresh = (name: string) => {
      const f = this.user.scopes.freshName(name, taken);
      taken.add(f);
      renames.set(name, f);
    };
    const sinkTarget = sink && alt.sink?.kind === 'assign' ? alt.sink.target : undefined;
    for (const name of [...alt.leaking, ...(p.exceptAs ? [p.exceptAs] : [])]) {
      if (subs.has(name) || name === sinkTarget) continue;
      if (this.user.scopes.uses(scope, name) || captured.has(name)) fresh(name);
    }
    for (const name of alt.scopedNames) if (captured.has(name) && !renames.has(name)) fresh(name);
    return renames;
  }

  /** Free names of the alternative: the record's imports (spelled as the file spells them, or added), builtins, or the file's own names. */
  private freeNames(s: FixSite, used: Set<string>, skip: (name: string) => boolean): Map<string, string> {
    const missing: string[] = [];
    const spelled = new Map<string, string>();
    for (const name of used) {
      if (skip(name)) continue;
      const imp = s.pats.imports.find((i) => i.local === name);
      if (imp) {
        const sp = this.user.spell(imp.q, (a, b) => this.same(a, b));
        if (sp) {
          if (sp !== name) spelled.set(name, sp);
          continue;
        }
        if (this.user.scopes.defines(name, this.scopes)) {
          this.display ??= `\`${name}\` already names something else in this file (the record imports it: \`${imp.stmt}\`)`;
          continue;
        }
        if (riskyImport(imp.q))
          this.display ??= `the record's alternative imports \`${imp.q}\`, which reaches the system or runs code (record code is third-party data)`;
        this.addImport(imp.stmt, imp.top);
        continue;
      }
      if (BUILTINS.has(name) || this.user.scopes.defines(name, this.scopes)) continue;
      missing.push(name);
    }
    // Unsafe still means valid: a fix that would leave a name undefined is shown only, with the names to supply.
    if (missing.length)
      this.display ??= `the alternative uses ${missing.map((m) => `\`${m}\``).join(', ')}, which this file does not define or import: define ${missing.length > 1 ? 'them' : 'it'} to apply the fix`;
    return spelled;
  }

  /** Binds the pattern's alternative to the user's call: edits of the alternative's text (placeholders, renames, spellings). */
  protected bindEdits(s: FixSite, alt: Alternative, span: Span, extra: string, handler: boolean, sink?: { kind: SinkKind; name?: string }): FixEdit[] {
    const p = s.pattern!;
    const { subs, unbound, hasSplat } = this.substitutions(s, alt, sink);
    const used = new Set(alt.ids.filter((i) => !i.scoped && i.start >= span.start && i.end <= span.end).map((i) => i.name));
    for (const u of unbound)
      if (used.has(u)) this.display = `the call passes no value for \`${u}\`${hasSplat ? ' (it unpacks arguments)' : ''}, which the record's alternative uses`;
    const renames = this.renamesFor(p, alt, subs, sink);
    this.lastRenames = renames;
    const local = new Set([...alt.leaking, ...(p.exceptAs ? [p.exceptAs] : [])]);
    const spelled = this.freeNames(s, used, (name) => subs.has(name) || local.has(name) || unbound.includes(name));
    if (handler) {
      for (const [name, n] of subs) {
        if (!n || !used.has(name)) continue;
        if (
          /^(call|await|named_expression|yield)$/.test(n.type) ||
          n.descendantsOfType(['call', 'await', 'named_expression', 'yield']).some((x) => !!x && x.isNamed)
        ) {
          this.unsafe.push(`\`${abbrev(n.text)}\` is evaluated again in the handler`);
        }
      }
    }
    const edits: FixEdit[] = [];
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

  /** Replaces one call in place by the alternative's value (for embedded calls and in-place replacement). */
  protected inline(s: FixSite, extra: string, contIndent: string, kind?: 'try' | 'guard'): FixEdit {
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
    const parent = parentOf(unparenUp(target));
    if (!atomic && parent && TIGHT.has(parent.type)) text = `(${text})`;
    return { start: target.startIndex, end: target.endIndex, text };
  }

  /**
   * The alternative as statements in the user's statement form: the record's `state = <value>`
   * becomes `saved[name] = <value>`, `return <value>` or `<value>`.
   */
  protected renderValueForm(s: FixSite, indent: string, extra: string, dropTrailingComment: boolean, kind?: 'try' | 'guard'): string {
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
      if (alt.nestedReturn && sink.kind !== 'return') this.display = "the record's alternative returns from inside a block";
      else if (sink.kind === 'expr') this.display = "the record's alternative returns a value; this statement does not";
      else if (sink.kind === 'assign')
        for (const st of alt.statements) if (st.type === 'return_statement') edits.push({ start: st.start, end: st.start + 'return'.length + 1, text: prefix });
    } else if (needsValue) {
      this.display = `the record's alternative gives no value for \`${prefix
        .trim()
        .replace(/=$/, '')
        .replace(/^return$/, 'return')
        .trim()}\``;
    }
    if (sink.augmented && kind === 'try') {
      // `d[key()] += await f()` evaluates the target first: the handler would run `key()` again.
      for (const d of this.stmt.descendantsOfType(['call', 'await'])) {
        if (d?.isNamed && d.startIndex >= sink.prefix.start && d.endIndex <= sink.prefix.end)
          this.unsafe.push(`\`${abbrev(d.text)}\` in the target runs again in the handler`);
      }
    }
    const end = dropTrailingComment || appended ? alt.stmtEnd : alt.region.end;
    let text = this.render(alt, alt.region.start, end, edits, indent);
    if (appended) text += `${this.eol}${indent}${appended}`;
    return text;
  }

  /** The user's statement form around the value: `x = ` / `return ` / nothing. */
  protected userSink(s: FixSite): { kind: SinkKind; prefix: Span; name?: string; augmented?: boolean } | undefined {
    if (s.hoist) return { kind: 'assign', prefix: { start: 0, end: 0 }, name: this.hoistName(s) };
    const parent = parentOf(s.top);
    if (!parent) return undefined;
    if (parent.type === 'expression_statement' && parent.id === this.stmt.id)
      return { kind: 'expr', prefix: { start: this.stmt.startIndex, end: this.stmt.startIndex } };
    if (parent.type === 'return_statement' && parent.id === this.stmt.id)
      return { kind: 'return', prefix: { start: this.stmt.startIndex, end: s.top.startIndex } };
    if ((parent.type === 'assignment' || parent.type === 'augmented_assignment') && field(parent, 'right')?.id === s.top.id) {
      let a: Node = parent;
      for (let up = parentOf(a); up?.type === 'assignment' && field(up, 'right')?.id === a.id; up = parentOf(a)) a = up;
      if (parentOf(a)?.id !== this.stmt.id) return undefined;
      const left = field(a, 'left');
      const simple = a.id === parent.id && parent.type === 'assignment' && !field(parent, 'type') && left?.type === 'identifier';
      return {
        kind: 'assign',
        prefix: { start: this.stmt.startIndex, end: s.top.startIndex },
        name: simple ? left!.text : undefined,
        augmented: parent.type === 'augmented_assignment',
      };
    }
    return undefined;
  }

  /** The value is the whole statement's value (or the hoisted value) and awaited as the pattern's is. */
  protected valueForm(s: FixSite): boolean {
    const p = s.pattern!.prot;
    if (!!s.awaitNode !== p.awaited) return false;
    if (s.hoist) return true;
    return this.userSink(s) !== undefined;
  }

  /** The code for the raising case: the record's alternative bound to the user's code. */
  protected buildAlternative(sites: FixSite[], indent: string, kind: 'try' | 'guard'): { text: string; renames: Map<string, string> } {
    const wrapped = sites.filter((s) => s.action !== 'replace');
    if (wrapped.length === 1 && sites.length === 1 && this.valueForm(wrapped[0]!)) {
      const s = wrapped[0]!;
      const text = this.renderValueForm(s, indent, this.unit, false, kind);
      return { text, renames: this.lastRenames };
    }
    // Embedded: the statement again, each protected call replaced by the alternative's value.
    const repl: FixEdit[] = [];
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

  protected receiverOf(s: FixSite): Node | undefined {
    const fn = field(s.call, 'function');
    return fn?.type === 'attribute' ? (field(fn, 'object') ?? undefined) : undefined;
  }

  protected hoistName(s: FixSite): string {
    const base = s.pattern?.prot.sink === 'assign' && /^[A-Za-z_]\w*$/.test(s.pattern.prot.target ?? '') ? s.pattern.prot.target! : 'result';
    return this.user.scopes.mentions(base) ? this.user.scopes.freshName(base) : base;
  }
  /** Calls outside the protected ones that the handler would run a second time. */
  protected reevaluated(sites: FixSite[]): void {
    const inSite = (n: Node) => sites.some((s) => n.startIndex >= s.top.startIndex && n.endIndex <= s.top.endIndex);
    const ancestor = (n: Node) => sites.some((s) => n.startIndex <= s.top.startIndex && s.top.endIndex <= n.endIndex);
    for (const d of this.stmt.descendantsOfType(['call', 'await'])) {
      if (!d || !d.isNamed || inSite(d) || ancestor(d)) continue;
      this.unsafe.push(`\`${abbrev(d.text)}\` runs again in the handler`);
    }
  }
}
