/**
 * Analysis on demand: which function bodies can record a call site at all. The model interprets a
 * function body (the final, recording pass) only when it can: when its text names a rule trigger,
 * or a name that may carry one.
 *
 * A call is recorded under its written name or under the last segment of the qualified name its
 * callee resolves to (`from json import loads as parse; parse(s)` is `loads`). That qualified name
 * is written somewhere in the file and reaches the call through bindings. So the names that may
 * carry a trigger are closed over the file's value flows (src/python/flows.ts):
 * a flow whose source text names a trigger or a carrier makes carriers of the names it binds.
 * Names are compared as tokens, whatever their scope: a superset, so a body that is skipped could
 * not have recorded anything. Comments and plain string literals hold no names (a string is a
 * `str`, and annotations, string or not, only give instances); f-strings hold code, so they count.
 */
import type { Node } from '../parse/parser.js';
import type { FileFlows, ValueFlow } from '../python/flows.js';

const ASCII_NAME = /[A-Za-z_][A-Za-z0-9_]*/g;
const UNICODE_NAME = /[\p{ID_Start}_][\p{ID_Continue}]*/gu;
/** Python's hard keywords: never a name, so never a carrier (soft keywords such as `match` and `type` are names). */
const KEYWORDS = new Set('False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '));

export class Demand {
  private readonly names: string[] = [];
  private readonly starts: number[] = [];
  private carriers: Set<string> | undefined;

  /** Whether any trigger is written in the file at all (code, strings or comments); read on first use. */
  private anyTrigger: boolean | undefined;
  private scanned = false;

  constructor(
    private readonly source: string,
    private readonly triggers: Set<string>,
    /** The file's flows (src/python/flows.ts), read when first needed. */
    private readonly facts: () => FileFlows,
  ) {}

  /** The names of the file outside comments and plain strings, read once (on the first body asked of). */
  private tokens(): void {
    if (this.scanned) return;
    this.scanned = true;
    const source = this.source;
    // eslint-disable-next-line no-control-regex
    const re = /[^\x00-\x7f]/.test(source) ? UNICODE_NAME : ASCII_NAME;
    let from = 0;
    for (const [start, end] of this.facts().inert) {
      this.scan(re, from, start);
      from = Math.max(from, end);
    }
    this.scan(re, from, source.length);
  }

  /** One pass over the raw text without the tree: a file that names no trigger anywhere records nothing. */
  private namesATrigger(): boolean {
    if (this.anyTrigger !== undefined) return this.anyTrigger;
    const source = this.source;
    // eslint-disable-next-line no-control-regex
    const re = /[^\x00-\x7f]/.test(source) ? UNICODE_NAME : ASCII_NAME;
    re.lastIndex = 0;
    for (let m = re.exec(source); m; m = re.exec(source)) if (this.triggers.has(m[0])) return (this.anyTrigger = true);
    return (this.anyTrigger = false);
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

  /** Whether the function (or any text in [start, end)) can record a call site. */
  live(fn: Node): boolean {
    if (!this.namesATrigger()) return false;
    this.tokens();
    const [a, b] = this.tokenSpan(fn.startIndex, fn.endIndex);
    if (this.anyIn(a, b, this.triggers)) return true;
    return this.anyIn(a, b, (this.carriers ??= this.closeCarriers()));
  }

  /** Token indexes [first, last) of the names starting in [start, end). */
  private tokenSpan(start: number, end: number): [number, number] {
    return [lowerBound(this.starts, start), lowerBound(this.starts, end)];
  }

  private anyIn(a: number, b: number, set: Set<string>): boolean {
    for (let i = a; i < b; i++) if (set.has(this.names[i]!)) return true;
    return false;
  }

  /**
   * The triggers and every name a flow from them may bind, to a fixpoint. Two kinds of names
   * carry: `values` may hold a class or a qualified name (`loads` in `f = json.loads`), `makers`
   * are functions of the file whose call may return one (their `return` is a flow). In a flow's
   * source, a trigger or value that is called (`d.get(k)`) passes on its result, an instance or
   * nothing known, not itself; a maker that is called passes on what it returns.
   */
  private closeCarriers(): Set<string> {
    const values = new Set<string>();
    const makers = new Set<string>();
    const scan = (a: number, b: number): { value: boolean; maker: boolean } => {
      let value = false;
      let maker = false;
      for (let i = a; i < b && !(value && maker); i++) {
        const n = this.names[i]!;
        const called = this.nextChar(i) === '(';
        if (makers.has(n)) {
          maker = true;
          if (called) value = true;
        }
        if (!called && (values.has(n) || this.triggers.has(n))) value = true;
      }
      return { value, maker };
    };
    const bind = (flow: ValueFlow, into: Set<string>): boolean => {
      let grew = false;
      for (const [s, e] of flow.lhs) {
        const [a, b] = this.tokenSpan(s, e);
        // A lone name (a `def`'s or `class`'s, a plain target) is bound whatever follows it.
        const lone = b === a + 1 && this.starts[a] === s && s + this.names[a]!.length === e;
        for (let i = a; i < b; i++) {
          const n = this.names[i]!;
          if (!into.has(n) && !KEYWORDS.has(n) && (lone || this.mayBeBound(i))) {
            into.add(n);
            grew = true;
          }
        }
      }
      return grew;
    };
    const flows = this.facts().flows.map((flow) => ({ flow, rhs: this.tokenSpan(flow.rhs[0], flow.rhs[1]) }));
    for (let grew = true; grew; ) {
      grew = false;
      for (const { flow, rhs } of flows) {
        const { value, maker } = scan(rhs[0], rhs[1]);
        if (flow.returns) {
          if ((value || maker) && bind(flow, makers)) grew = true;
          continue;
        }
        if (value && bind(flow, values)) grew = true;
        if (maker && bind(flow, makers)) grew = true;
      }
    }
    return new Set([...this.triggers, ...values, ...makers]);
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

/** The first index whose value is >= x in a sorted array. */
function lowerBound(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
