/**
 * Compiled-rules snapshot: a rule set saved after compilation, so that a run does not re-read,
 * re-validate and re-compile every record (compiling parses each record's snippets with
 * tree-sitter: seconds for 10,000 records).
 *
 * Layout: one line `RLSNAP3 <meta bytes> <prefilter bytes> <index bytes>\n`, then four sections:
 *  - meta (JSON): what every run needs: key, warnings, rule count, the grounding Python;
 *  - the prefilter's name tables (binary, used in place: no work per name to load them);
 *  - index (JSON), read only when some file passes the prefilter: class registry, exception
 *    hierarchy, trigger names, which rules each name needs, rule offsets;
 *  - the rules, each as the JSON of its compiled `Rule` (fix patterns included when the rule set
 *    read them, see MAX_RULES_WITH_PATTERNS in ./ruleset.ts), back to back, read one by one
 *    when a file mentions their names.
 * So start-up does not grow with the number of records. The snapshot is keyed by the exact bytes
 * of every dataset and curated file and by raiselint's code: it cannot be stale.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { writeFileAtomic } from '../io/atomic.js';
import type { RecordProblem } from '../records/types.js';
import { ClassRegistry, type ClassRegistrySnapshot } from '../rules/classes.js';
import { ExceptionHierarchy } from '../rules/exceptions.js';
import { reachable } from '../rules/graph.js';
import { Prefilter, setPrefilter, type PrefilterSpec } from '../prefilter/index.js';
import { indexRule, triggerKey, type RulePython, type RuleSet } from '../rules/ruleset.js';
import { deferredFields, LazyRuleMap } from './lazymap.js';
import type { GuardSpec, Rule } from '../rules/types.js';

const MAGIC = 'RLSNAP3';
const FORMAT = 7;

export interface SnapshotMeta {
  format: number;
  key: string;
  hash: string;
  ruleCount: number;
  warnings: RecordProblem[];
  python?: RulePython;
  /** Bytes of the rules section: with the header's lengths it gives the file's size (a truncated snapshot is discarded). */
  rulesLength?: number;
}

export interface SnapshotIndex {
  triggerNames: string[];
  summaryMethods: string[];
  classes: ClassRegistrySnapshot;
  exceptions: { bases: [string, string[]][]; alias: [string, string][] };
  /** For each trigger name: the indices of the rules to load when a file mentions it. */
  loads: Record<string, number[]>;
  /** Byte offsets of each rule in the rules section (ruleCount + 1 entries). */
  offsets: number[];
  /** Rule ids, in rule order. */
  ids: string[];
  /** Their record ids, in the same order. */
  recordIds: string[];
  /** Indices of the JS/TS rules (checked by the ESLint plugin, src/eslint/). */
  js?: number[];
}

/** Which rules a file mentioning `name` may need: rules triggered by it, and rules reached through curated summaries. */
function ruleLoads(rules: RuleSet): Record<string, number[]> {
  const index = new Map<Rule, number>();
  rules.rules.forEach((r, i) => index.set(r, i));
  const direct = new Map<string, Set<number>>();
  const add = (name: string, i: number) => {
    let s = direct.get(name);
    if (!s) direct.set(name, (s = new Set()));
    s.add(i);
  };
  rules.rules.forEach((r, i) => {
    for (const t of r.triggers) add(t, i);
    for (const t of r.targets) add(triggerKey(t), i);
  });
  for (const [name, list] of rules.byTrigger) for (const r of list) add(name, index.get(r)!);
  // Summaries: `obj.save_state()` may reach `runtime.agent_save_state()` in a library class.
  const calls = new Map<string, Set<string>>();
  for (const c of rules.classes.all()) {
    for (const [m, s] of Object.entries(c.methods)) {
      for (const call of s.calls) {
        let set = calls.get(m);
        if (!set) calls.set(m, (set = new Set()));
        set.add(call.method);
      }
    }
  }
  const out: Record<string, number[]> = {};
  const names = new Set([...direct.keys(), ...calls.keys()]);
  for (const name of names) {
    const all = new Set<number>();
    for (const n of reachable([name], (m) => calls.get(m) ?? [])) for (const i of direct.get(n) ?? []) all.add(i);
    if (all.size) out[name] = [...all].sort((a, b) => a - b);
  }
  return out;
}

/** A serialized rule set: its size, and its bytes in pieces, made as they are written (writeSnapshot, joinPieces). */
export interface SnapshotPieces {
  size: number;
  pieces(): Iterable<Uint8Array>;
}

/**
 * Serializes a compiled rule set. The rules section is made twice, once for the offsets the index needs and
 * once as it is written, so that 20,000 rules (100 MB) are never all in memory as bytes next to the rules.
 */
export function encodeSnapshot(rules: RuleSet, spec: PrefilterSpec, key: string): SnapshotPieces {
  const offsets: number[] = [0];
  let pos = 0;
  // Each rule exactly as compiled (with its fix patterns when the rule set read them: buildRuleSet).
  for (const r of rules.rules) {
    pos += Buffer.byteLength(JSON.stringify(r), 'utf8');
    offsets.push(pos);
  }
  const { hash, warnings, python } = rules;
  const meta: SnapshotMeta = { format: FORMAT, key, hash, ruleCount: rules.rules.length, warnings, python, rulesLength: pos };
  const index: SnapshotIndex = {
    triggerNames: [...rules.triggerNames],
    summaryMethods: [...rules.summaryMethods],
    classes: rules.classes.snapshot(),
    exceptions: rules.exceptions.snapshot(),
    loads: ruleLoads(rules),
    offsets,
    ids: rules.rules.map((r) => r.id),
    recordIds: rules.rules.map((r) => r.recordId),
    js: rules.rules.flatMap((r, i) => (r.js ? [i] : [])),
  };
  let m = Buffer.from(JSON.stringify(meta), 'utf8');
  // The prefilter section starts 4-byte aligned (its arrays are used in place).
  m = Buffer.concat([m, Buffer.from(' '.repeat((4 - ((FIRST_LINE + m.length) % 4)) % 4))]);
  const pf = Prefilter.build(spec).toBytes();
  const x = Buffer.from(JSON.stringify(index), 'utf8');
  const n = (v: number) => String(v).padStart(12, '0');
  const head = [Buffer.from(`${MAGIC} ${n(m.length)} ${n(pf.length)} ${n(x.length)}\n`, 'latin1'), m, pf, x];
  const list = rules.rules;
  return {
    size: head.reduce((s, b) => s + b.length, 0) + pos,
    *pieces() {
      yield* head;
      let chunk = '';
      for (const r of list) {
        chunk += JSON.stringify(r);
        if (chunk.length > 1 << 16) {
          yield Buffer.from(chunk, 'utf8');
          chunk = '';
        }
      }
      if (chunk) yield Buffer.from(chunk, 'utf8');
    },
  };
}

/** The snapshot in one buffer (shared with worker threads when it cannot be written to disk; tests). */
export function joinPieces(s: SnapshotPieces): SharedArrayBuffer {
  const shared = new SharedArrayBuffer(s.size);
  const view = new Uint8Array(shared);
  let at = 0;
  for (const p of s.pieces()) {
    view.set(p, at);
    at += p.length;
  }
  if (at !== s.size) throw new Error(`snapshot of ${at} bytes, ${s.size} expected`);
  return shared;
}

const FIRST_LINE = MAGIC.length + 3 * 13 + 1;

/** Writes a snapshot atomically, piece by piece. */
export function writeSnapshot(path: string, s: SnapshotPieces): void {
  writeFileAtomic(path, s.pieces(), { mkdir: true });
}

/** A source of snapshot bytes: a file (read piecewise) or bytes in memory (shared with workers). */
type Source = { fd: number } | { bytes: Uint8Array };

function readAt(src: Source, pos: number, len: number): Buffer {
  if ('bytes' in src) return Buffer.from(src.bytes.buffer, src.bytes.byteOffset + pos, len);
  const b = Buffer.allocUnsafeSlow(len); // not from the shared pool: starts 4-byte aligned
  let got = 0;
  while (got < len) {
    const n = readSync(src.fd, b, got, len - got, pos + got);
    if (n === 0) throw new Error('rules snapshot is truncated');
    got += n;
  }
  return b;
}

/** An opened snapshot. Rules are loaded on demand into one growing rule set. */
export class Snapshot {
  readonly meta: SnapshotMeta;
  private readonly prefilterStart: number;
  private readonly prefilterLen: number;
  private readonly indexStart: number;
  private readonly indexLen: number;
  private readonly rulesStart: number;
  private indexCache?: SnapshotIndex;
  private ruleSet?: RuleSet;
  private readonly loaded = new Map<number, Rule>();
  private readonly position = new Map<Rule, number>();
  private prefilterCache?: Prefilter;

  private constructor(private readonly src: Source) {
    const first = readAt(src, 0, FIRST_LINE).toString('latin1');
    const m = /^RLSNAP3 (\d{12}) (\d{12}) (\d{12})\n$/.exec(first);
    if (!m) throw new Error('not a rules snapshot');
    const metaLen = Number(m[1]);
    this.prefilterLen = Number(m[2]);
    this.indexLen = Number(m[3]);
    this.meta = JSON.parse(readAt(src, FIRST_LINE, metaLen).toString('utf8')) as SnapshotMeta;
    if (this.meta.format !== FORMAT) throw new Error('unsupported rules snapshot format');
    this.prefilterStart = FIRST_LINE + metaLen;
    this.indexStart = this.prefilterStart + this.prefilterLen;
    this.rulesStart = this.indexStart + this.indexLen;
  }

  private get index(): SnapshotIndex {
    return (this.indexCache ??= JSON.parse(readAt(this.src, this.indexStart, this.indexLen).toString('utf8')) as SnapshotIndex);
  }

  /** Opens a snapshot file; undefined when it is missing or unreadable, or its key differs. */
  static open(path: string, key?: string): Snapshot | undefined {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return undefined;
    }
    try {
      const s = new Snapshot({ fd });
      // A foreign key, or a size that is not the one written (truncated, appended to): a cache miss, rebuilt.
      if ((key !== undefined && s.meta.key !== key) || s.meta.rulesLength === undefined || fstatSync(fd).size !== s.rulesStart + s.meta.rulesLength) {
        closeSync(fd);
        return undefined;
      }
      void s.prefilter; // read now: a corrupt section is a miss here, not an error later
      return s;
    } catch {
      closeSync(fd);
      return undefined;
    }
  }

  static fromBytes(bytes: Uint8Array): Snapshot {
    return new Snapshot({ bytes });
  }

  get prefilter(): Prefilter {
    return (this.prefilterCache ??= Prefilter.fromBytes(readAt(this.src, this.prefilterStart, this.prefilterLen)));
  }

  close(): void {
    if ('fd' in this.src) closeSync(this.src.fd);
  }

  /** Every rule id, in rule order. */
  get ids(): string[] {
    return this.index.ids;
  }

  private loadOne(i: number): Rule {
    let r = this.loaded.get(i);
    if (!r) {
      r = this.rule(i);
      // Not added to the checking rule set here: ruleSetFor() adds rules by trigger name.
    }
    return r;
  }

  /**
   * The complete rule set, loaded lazily: `byId` answers `has` and `keys` from the index and reads a rule on
   * `get`; `rules` and the matching indexes are read in full only when used (fixes re-check files; `records check` compiles).
   */
  catalog(): RuleSet {
    const byId = new LazyRuleMap(
      () => this.index.ids,
      (i) => this.loadOne(i),
    );
    const full = deferredFields(() => this.ruleSetFor(null), [
      'rules',
      'byTrigger',
      'classes',
      'exceptions',
      'guards',
      'triggerNames',
      'summaryMethods',
    ] as const);
    const byRecord = new Map(this.index.recordIds.map((r, i) => [r, this.index.ids[i]!]));
    const { hash, python, warnings } = this.meta;
    return Object.assign(full, { byId, byRecord, hash, python, warnings, outcomes: [], jsRules: () => this.jsRules() });
  }

  /** The JS/TS rules (read only when there are some). */
  jsRules(): Rule[] {
    return (this.index.js ?? []).map((i) => this.loaded.get(i) ?? this.rule(i));
  }

  /** The rules with these ids (for reporters: rule metadata of the findings). */
  rulesById(ids: Iterable<string>): Map<string, Rule> {
    const want = new Set(ids);
    const out = new Map<string, Rule>();
    if (!want.size) return out;
    this.index.ids.forEach((id, i) => {
      if (want.has(id)) out.set(id, this.loaded.get(i) ?? this.rule(i));
    });
    return out;
  }

  private rule(i: number): Rule {
    const o = this.index.offsets;
    return JSON.parse(readAt(this.src, this.rulesStart + o[i]!, o[i + 1]! - o[i]!).toString('utf8')) as Rule;
  }

  /**
   * The rule set to check a file that mentions `names` (null: every rule). It holds every rule
   * that can match in such a file (and possibly more, loaded for earlier files): findings are the
   * same as with the complete rule set.
   */
  ruleSetFor(names: Iterable<string> | null): RuleSet {
    const h = this.index;
    const count = this.meta.ruleCount;
    if (!this.ruleSet) {
      this.ruleSet = {
        rules: [],
        byTrigger: new Map(),
        byId: new Map(),
        byRecord: new Map(),
        classes: ClassRegistry.fromSnapshot(h.classes),
        exceptions: ExceptionHierarchy.fromSnapshot(h.exceptions),
        guards: new Map(),
        triggerNames: new Set(h.triggerNames),
        summaryMethods: new Set(h.summaryMethods),
        hash: this.meta.hash,
        python: this.meta.python,
        warnings: [],
        outcomes: [],
      };
      setPrefilter(this.ruleSet, this.prefilter);
    }
    // Only the rules not loaded yet are collected (after the first files, usually none: no allocation).
    let fresh: Set<number> | undefined;
    const want = (i: number) => {
      if (!this.loaded.has(i)) (fresh ??= new Set()).add(i);
    };
    if (names === null) for (let i = 0; i < count; i++) want(i);
    // An own key only: a name such as `constructor` is not a rule's because Object.prototype has it.
    else for (const n of names) if (Object.hasOwn(h.loads, n)) for (const i of h.loads[n]!) want(i);
    if (fresh) this.add([...fresh]);
    return this.ruleSet;
  }

  private add(indices: number[]): void {
    const set = this.ruleSet!;
    const pos = this.position;
    // Indexed as buildRuleSet indexes (indexRule), then every touched list is put back in rule
    // order: the lists are those of the complete rule set, restricted to the loaded rules. Each
    // was in order before (its length then is kept): the rules appended are merged in.
    const triggersBefore = new Map<string, number>();
    const touchedGuards = new Set<string>();
    const guardPos = new Map<GuardSpec, number>();
    const rulesBefore = set.rules.length;
    for (const i of indices) {
      const rule = this.rule(i);
      this.loaded.set(i, rule);
      pos.set(rule, i);
      set.rules.push(rule);
      for (const t of rule.targets) {
        const k = triggerKey(t);
        if (!triggersBefore.has(k)) triggersBefore.set(k, set.byTrigger.get(k)?.length ?? 0);
      }
      indexRule(set, rule);
      for (const g of rule.guards) touchedGuards.add(g.name);
    }
    const at = (r: Rule) => pos.get(r)!;
    mergeTail(set.rules, rulesBefore, at);
    for (const [k, n] of triggersBefore) mergeTail(set.byTrigger.get(k)!, n, at);
    if (touchedGuards.size) {
      for (const r of set.rules) for (const g of r.guards) guardPos.set(g, pos.get(r)!);
      // A stable sort: one rule's guards keep their order.
      for (const k of touchedGuards) set.guards.get(k)!.sort((a, b) => guardPos.get(a)! - guardPos.get(b)!);
    }
  }
}

/**
 * `list[0, n)` is in order (by `at`, distinct): the rest is put in order and merged in, in place.
 * The same list as sorting it whole, with one look-up per element instead of two per comparison.
 */
function mergeTail<T>(list: T[], n: number, at: (x: T) => number): void {
  if (list.length === n) return;
  const tail = list.slice(n).sort((a, b) => at(a) - at(b));
  if (n === 0 || at(list[n - 1]!) < at(tail[0]!)) {
    for (let k = 0; k < tail.length; k++) list[n + k] = tail[k]!;
    return;
  }
  const head = list.slice(0, n);
  let i = 0;
  let j = 0;
  let w = 0;
  while (i < head.length && j < tail.length) list[w++] = at(head[i]!) < at(tail[j]!) ? head[i++]! : tail[j++]!;
  while (i < head.length) list[w++] = head[i++]!;
  while (j < tail.length) list[w++] = tail[j++]!;
}
