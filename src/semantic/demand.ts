/**
 * Analysis on demand: which function bodies can record a call site that can become a finding. The
 * model interprets a function body (the final, recording pass) only when it can: when its text
 * names a trigger that can lead to a finding in this file (liveNames: a method name only where the
 * file can make an instance that reaches the raising class's method, as the prefilter decides it
 * per name), or a name that may carry one. Other bodies may record sites, but none a rule matches.
 *
 * A call is recorded under its written name or under the last segment of the qualified name its
 * callee resolves to (`from json import loads as parse; parse(s)` is `loads`). That qualified name
 * is written somewhere in the file and reaches the call through bindings. So the names that may
 * carry a trigger are closed over the file's value flows (src/python/flows.ts):
 * a flow whose source text names a trigger or a carrier makes carriers of the names it binds.
 * Names are compared as tokens; a function's own variable carries only inside that function
 * (closeCarriers). Each step is a superset of what the model can do, so a body that is skipped
 * could not have recorded a site of a live name. Comments and plain string literals hold no names (a string is a
 * `str`, and annotations, string or not, only give instances); f-strings hold code, so they count.
 */
import type { Node } from '../parse/parser.js';
import type { FileFlows, ValueFlow } from '../python/flows.js';
import { NameTable, type Occurrences } from '../prefilter/nametable.js';
import { needFacts, prefilterFor, type ProjectImports } from '../prefilter/index.js';
import { Needs, needTokens } from '../prefilter/needs.js';
import type { RuleSet } from '../rules/ruleset.js';
import { HARD_KEYWORDS, IDENTIFIER } from '../python/identifier.js';

const ASCII_NAME = /[A-Za-z_][A-Za-z0-9_]*/g;
const UNICODE_NAME = new RegExp(IDENTIFIER, 'gu');
/** Python's hard keywords: never a name, so never a carrier (soft keywords such as `match` and `type` are names). */
const KEYWORDS = new Set(HARD_KEYWORDS);

export class Demand {
  private readonly names: string[] = [];
  private readonly starts: number[] = [];
  private carriers: { values: Carriers; makers: Carriers } | undefined;
  private tokenScopes: Int32Array | undefined;
  private comments: [number, number][] | undefined;
  private flowsRead: FileFlows | undefined;

  private scanned = false;

  constructor(
    private readonly source: string,
    /** The names a body must name (or carry) to be interpreted: the model gives the file's liveNames. */
    private readonly triggers: Set<string>,
    /** The file's flows (src/python/flows.ts), read when first needed. */
    private readonly facts: () => FileFlows,
    /**
     * Triggers whose needs only the project's modules meet (cross-file), and the names the file's
     * imports of those modules bind: such a trigger makes a body live only beside a value that may
     * come from them (one of those names, or a name a flow from one binds).
     */
    private readonly viaProject?: { triggers: Set<string>; seeds: Set<string> },
  ) {}

  private projectCarriers: Carriers | undefined;

  /** The file's flows, asked of `facts` once. */
  private fileFlows(): FileFlows {
    return (this.flowsRead ??= this.facts());
  }

  /** The names of the file outside comments and plain strings, read once (on the first body asked of). */
  private tokens(): void {
    if (this.scanned) return;
    this.scanned = true;
    const source = this.source;

    const re = /[^\x00-\x7f]/.test(source) ? UNICODE_NAME : ASCII_NAME;
    let from = 0;
    for (const [start, end] of this.fileFlows().inert) {
      this.scan(re, from, start);
      from = Math.max(from, end);
    }
    this.scan(re, from, source.length);
  }

  /** Adds the names in source[from, to). */
  private scan(re: RegExp, from: number, to: number): void {
    if (to <= from) return;
    const text = this.source.slice(from, to);
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      this.names.push(m[0]);
      this.starts.push(from + m.index);
    }
  }

  /** More names a body may be interpreted for (functions that call a rule's method on what they are passed: ./effects.ts). Before the first `live`. */
  addLive(names: Iterable<string>): void {
    for (const n of names) this.triggers.add(n);
    this.carriers = undefined;
  }

  /** Whether the function can record a call site. */
  live(fn: Node): boolean {
    if (!this.triggers.size && !this.viaProject?.triggers.size) return false;
    this.tokens();
    const span = this.tokenSpan(fn.startIndex, fn.endIndex);
    let a = span[0];
    const b = span[1];
    // Its own name, first in its span (`def to_dict(...)`), is bound there, not read: it is no reason to interpret the body.
    if (this.names[a] === 'async') a++;
    if (this.names[a] === 'def') a += 2;
    if (this.triggers.size) {
      if (this.anyIn(a, b, this.triggers)) return true;
      const { values, makers } = (this.carriers ??= this.closeCarriers());
      for (let i = a; i < b; i++) if (this.carries(values, i) || this.carries(makers, i)) return true;
    }
    return this.liveViaProject(a, b);
  }

  /** Whether tokens [a, b) of a body name a trigger only the project meets beside a value that may come from the project (or the body is a method of a class whose bases may). */
  private liveViaProject(a: number, b: number): boolean {
    const via = this.viaProject;
    if (!via?.triggers.size || !this.anyIn(a, b, via.triggers)) return false;
    const c = (this.projectCarriers ??= this.closeProject(via.seeds));
    const project = (i: number) => via.seeds.has(this.names[i]!) || this.carries(c, i);
    for (let i = a; i < b; i++) if (project(i)) return true;
    const scopes = this.fileFlows().scopes;
    for (let r = a < b ? this.scopeOf(a) : -1; r >= 0; r = scopes[r]!.parent) {
      if (scopes[r]!.kind !== 'class') continue;
      // The class's header: from its `class` keyword to its body.
      const [h, e] = this.tokenSpan(this.source.lastIndexOf('class', scopes[r]!.start), scopes[r]!.start);
      for (let i = h; i < e; i++) if (project(i)) return true;
    }
    return false;
  }

  /** The names a flow from one of `seeds` (or from such a name) may bind, to a fixpoint: a call's result too. */
  private closeProject(seeds: Set<string>): Carriers {
    const out: Carriers = { global: new Set(), local: new Map() };
    const flows = this.flowSpans();
    for (let grew = true; grew; ) {
      grew = false;
      for (const { flow, rhs } of flows) {
        let hit = false;
        for (let i = rhs[0]; i < rhs[1] && !hit; i++) hit = seeds.has(this.names[i]!) || this.carries(out, i);
        if (hit && this.bind(flow, out)) grew = true;
      }
    }
    return out;
  }

  /** The file's flows, each with the token span of its source (made once, for both closures). */
  private flowSpans(): { flow: ValueFlow; rhs: [number, number] }[] {
    return (this.spans ??= this.fileFlows().flows.map((flow) => ({ flow, rhs: this.tokenSpan(flow.rhs[0], flow.rhs[1]) })));
  }

  private spans: { flow: ValueFlow; rhs: [number, number] }[] | undefined;

  /** Token indexes [first, last) of the names starting in [start, end). */
  private tokenSpan(start: number, end: number): [number, number] {
    return [lowerBound(this.starts, start), lowerBound(this.starts, end)];
  }

  private anyIn(a: number, b: number, set: Set<string>): boolean {
    for (let i = a; i < b; i++) if (set.has(this.names[i]!)) return true;
    return false;
  }

  /** Whether token `i` may name a carrier of `c`: one bound file-wide, or in a `def` around it. */
  private carries(c: Carriers, i: number): boolean {
    const n = this.names[i]!;
    if (c.global.has(n)) return true;
    const defs = c.local.get(n);
    if (!defs) return false;
    const scopes = this.fileFlows().scopes;
    for (let r = this.scopeOf(i); r >= 0; r = scopes[r]!.parent) if (defs.has(r)) return true;
    return false;
  }

  /** The innermost scope region around token `i` (an index in FileFlows.scopes; -1: the module), all found in one sweep. */
  private scopeOf(i: number): number {
    if (!this.tokenScopes) {
      const scopes = this.fileFlows().scopes;
      const out = (this.tokenScopes = new Int32Array(this.starts.length));
      let r = -1;
      let next = 0;
      for (let t = 0; t < this.starts.length; t++) {
        const p = this.starts[t]!;
        while (r >= 0 && p >= scopes[r]!.end) r = scopes[r]!.parent;
        while (next < scopes.length && scopes[next]!.start <= p) {
          // Regions come outer first: the next one is inside r (or after it, then r's parent's).
          const g = scopes[next]!;
          while (r >= 0 && g.start >= scopes[r]!.end) r = scopes[r]!.parent;
          r = next++;
          while (r >= 0 && p >= scopes[r]!.end) r = scopes[r]!.parent;
        }
        out[t] = r;
      }
    }
    return this.tokenScopes[i]!;
  }

  /**
   * The names a flow from a trigger may bind, to a fixpoint. Two kinds of names carry: `values`
   * may hold a class or a qualified name (`loads` in `f = json.loads`), `makers` are functions of
   * the file whose call may return one (their `return` is a flow). In a flow's source, a trigger
   * or value that is called (`d.get(k)`) passes on its result, an instance or nothing known, not
   * itself; a maker that is called passes on what it returns.
   *
   * A name bound in a `def` (its own variable: not after a `.`, nor in a class body or at module
   * level) carries only where that `def`'s variables can be read: inside it. The model reads a
   * name of the scopes around (never of another function), so elsewhere the same name is another
   * variable. Anything else carries file-wide: module and class-body names, and attributes, whose
   * values travel with the objects that hold them.
   */
  private closeCarriers(): { values: Carriers; makers: Carriers } {
    const values: Carriers = { global: new Set(), local: new Map() };
    const makers: Carriers = { global: new Set(), local: new Map() };
    const scan = (a: number, b: number): { value: boolean; maker: boolean } => {
      let value = false;
      let maker = false;
      for (let i = a; i < b && !(value && maker); i++) {
        const called = this.nextChar(i) === '(';
        if (this.carries(makers, i)) {
          maker = true;
          if (called) value = true;
        }
        if (!called && (this.triggers.has(this.names[i]!) || this.carries(values, i))) value = true;
      }
      return { value, maker };
    };
    const flows = this.flowSpans();
    for (let grew = true; grew; ) {
      grew = false;
      for (const { flow, rhs } of flows) {
        const { value, maker } = scan(rhs[0], rhs[1]);
        if (flow.returns) {
          if ((value || maker) && this.bind(flow, makers)) grew = true;
          continue;
        }
        if (value && this.bind(flow, values)) grew = true;
        if (maker && this.bind(flow, makers)) grew = true;
      }
    }
    return { values, makers };
  }

  /** Adds the names `flow` may bind to `into`; whether it grew. */
  private bind(flow: ValueFlow, into: Carriers): boolean {
    let grew = false;
    for (const [s, e] of flow.lhs) {
      const [a, b] = this.tokenSpan(s, e);
      // A lone name (a `def`'s or `class`'s, a plain target) is bound whatever follows it.
      const lone = b === a + 1 && this.starts[a] === s && s + this.names[a]!.length === e;
      for (let i = a; i < b; i++) {
        const n = this.names[i]!;
        if (KEYWORDS.has(n) || !(lone || this.mayBeBound(i))) continue;
        const def = this.ownDef(i);
        if (def < 0) {
          if (!into.global.has(n)) {
            into.global.add(n);
            grew = true;
          }
          continue;
        }
        const defs = into.local.get(n);
        if (!defs) {
          into.local.set(n, new Set([def]));
          grew = true;
        } else if (!defs.has(def)) {
          defs.add(def);
          grew = true;
        }
      }
    }
    return grew;
  }

  /**
   * The `def` whose own variable token `i` binds, or -1 when it binds file-wide: at module level,
   * in a class body, or as an attribute (after a `.`: spaces, line breaks, continuations and
   * comments between do not count).
   */
  private ownDef(i: number): number {
    if (this.before(this.starts[i]!) === '.') return -1;
    const scopes = this.fileFlows().scopes;
    const r = this.scopeOf(i);
    return r >= 0 && scopes[r]!.kind === 'def' ? r : -1;
  }

  /** The code character before `p`, past spaces, line breaks, continuations and comments. */
  private before(p: number): string | undefined {
    const s = this.source;
    const comments = (this.comments ??= this.fileFlows().inert.filter(([a]) => s[a] === '#'));
    let j = p - 1;
    for (;;) {
      for (let c = s[j]; c === ' ' || c === '\t' || c === '\f' || c === '\n' || c === '\r' || c === '\\'; c = s[--j]);
      if (j < 0) return undefined;
      // Inside a comment (it runs to the end of its line): go on before it.
      const k = lowerBound(comments, j + 1, (r) => r[0]) - 1;
      if (k < 0 || j >= comments[k]![1]) return s[j];
      j = comments[k]![0] - 1;
    }
  }

  /** False only for a name followed on its line by `.`, `(` or `[` (`self` in `self.x = v`): an object, callee or container, not what is bound. */
  private mayBeBound(i: number): boolean {
    const c = this.nextChar(i);
    return c !== '.' && c !== '(' && c !== '[';
  }

  /** The character after the name, past spaces and tabs. */
  private nextChar(i: number): string | undefined {
    const s = this.source;
    let j = this.starts[i]! + this.names[i]!.length;
    while (s[j] === ' ' || s[j] === '\t') j++;
    return s[j];
  }
}

/** Names that carry: file-wide, or by name the `def`s (indexes in FileFlows.scopes) inside which they do. */
interface Carriers {
  global: Set<string>;
  local: Map<string, Set<number>>;
}

/** The first index whose value is >= x in a sorted array. */
function lowerBound<T = number>(xs: readonly T[], x: number, key: (t: T) => number = (t) => t as number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(xs[mid]!) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Role bits of the names a file is scanned for (./liveNames): a demand name, or a name some need condition asks for. */
const DEMANDED = 1;
const CONTEXT = 2;

interface LiveTable {
  table: NameTable;
  /** The prefilter's needs (src/prefilter/needs.ts); undefined for a spec without them (every name written is live). */
  needs: Needs | undefined;
}

const liveMemo = new WeakMap<RuleSet, Map<Set<string>, LiveTable>>();

function liveTable(rules: RuleSet, names: Set<string>): LiveTable {
  let byNames = liveMemo.get(rules);
  if (!byNames) liveMemo.set(rules, (byNames = new Map()));
  let t = byNames.get(names);
  if (t) return t;
  const spec = prefilterFor(rules).spec.needs;
  const roles = new Map<string, number>();
  for (const n of names) roles.set(n, DEMANDED);
  if (spec) for (const n of needTokens(spec)) roles.set(n, (roles.get(n) ?? 0) | CONTEXT);
  t = { table: NameTable.build([...roles]), needs: spec ? new Needs(spec) : undefined };
  byNames.set(names, t);
  return t;
}

/**
 * The names of `names` (the demand's: triggers and the aliases that stand for them) that can lead
 * to a finding in this file: those it writes (anywhere: code, strings or comments) that are no
 * rule's entry name, and the entry names whose needs it meets (src/prefilter/needs.ts), read
 * as the prefilter reads them, from the file's bytes. A finding through an entry name needs what
 * that name needs: a method name, a receiver that can be of the raising class (the file imports
 * and names one of the classes whose instances reach the method, or calls a guard narrowing to
 * one); a function or constructor name, an import of its module's root. So `d.get(k)` in a file
 * that can make no instance of a class with a `get` rule is not a reason to interpret a body.
 */
/** `project`: the file's imports of project modules (cross-file), through which any class may come. */
export function liveNames(source: string, rules: RuleSet, names: Set<string>, project?: ProjectImports): { live: Set<string>; viaProject: Set<string> } {
  const { table, needs } = liveTable(rules, names);
  const buf = Buffer.from(source, 'utf8');
  const n = buf.length;
  const found = new Map<string, number>();
  const occurrences: Occurrences = { roles: DEMANDED, at: new Map() };
  table.scanBytes(buf, n, source, found, needs ? occurrences : undefined);
  const live = new Set<string>();
  const viaProject = new Set<string>();
  if (!needs) {
    for (const [name, r] of found) if (r & DEMANDED) live.add(name);
    return { live, viaProject };
  }
  const facts = needFacts(found, occurrences, buf, n, project);
  const alone = { ...facts, project: undefined };
  for (const [name, r] of found) {
    if (!(r & DEMANDED)) continue;
    if (needs.met(name, alone) !== false) live.add(name);
    else if (project && needs.met(name, facts) !== false) viaProject.add(name);
  }
  return { live, viaProject };
}
