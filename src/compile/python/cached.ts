/**
 * One record's compile, through a per-record cache when one is given (src/compile/recordcache.ts keeps
 * it in the cache directory): a record whose bytes and compiler are unchanged is not parsed
 * again, so adding one record to a dataset of 10,000 compiles one record.
 *
 * An entry is the record's outcome (its rule without the record itself, which the dataset
 * holds), its fix patterns when they were read, and the log of what it read and wrote of the
 * state records share (./state.ts). It is used only when every answer the log read is still the
 * answer, so the rules are those of a compile without the cache, whatever the order or the
 * company of the record in its datasets. An entry that does not parse is a miss.
 */
import { createHash } from 'node:crypto';
import type { LoadedRecord } from '../../records/types.js';
import type { ClassRegistry } from '../../rules/classes.js';
import type { ExceptionHierarchy } from '../../rules/exceptions.js';
import type { CompileOutcome, Rule, RulePatterns } from '../../rules/types.js';
import { readPatterns } from './patterns.js';
import { compileRecord, errorBasesOf } from './record.js';
import { applyOps, CompileLog, stillHolds, type CompileOp } from './state.js';
import { withRecordTrees } from './trees.js';

/** Compiled records by key. */
export interface RecordCache {
  /** Part of every key: the identity of the compiler (raiselint's code). */
  readonly salt: string;
  get(key: string): string | undefined;
  /** Stores an entry, or marks one that was used as still wanted. */
  put(key: string, value: string): void;
}

interface Entry {
  /** The outcome; its rule's `record` and `source` are placeholders, it has no `patterns`. */
  o: CompileOutcome;
  ops: CompileOp[];
  /** The rule's fix patterns (null: reading them failed); absent when they were not read. */
  p?: RulePatterns | null;
}

const isStr = (x: unknown): x is string => typeof x === 'string';

/** An op as the log writes it (a line that parses to something else is a miss, before anything is applied). */
function wellFormed(op: CompileOp): boolean {
  if (!op || typeof op !== 'object') return false;
  if (op.k === 'known') return isStr(op.n) && typeof op.v === 'boolean';
  if (op.k === 'define') return isStr(op.n) && Array.isArray(op.b) && op.b.every(isStr);
  if (op.k === 'class' || op.k === 'ensure')
    return !!op.c && typeof op.c === 'object' && isStr(op.c.key) && Array.isArray(op.c.aliases) && Array.isArray(op.c.bases);
  return false;
}

/** Keys already computed, per record object. */
const keys = new WeakMap<LoadedRecord, { salt: string; key: string }>();

/** The cache key of a record: its content and the compiler's identity. */
export function recordKey(salt: string, lr: LoadedRecord): string {
  const known = keys.get(lr);
  if (known?.salt === salt) return known.key;
  // A grounded record compiles from the installed file (src/records/ground.ts): what was read is part of the key.
  const h = createHash('sha256').update(salt).update('\0').update(JSON.stringify(lr.record));
  if (lr.grounded) h.update('\0grounded\0').update(JSON.stringify(lr.grounded));
  const key = h.digest('hex');
  keys.set(lr, { salt, key });
  return key;
}

/** Patterns of the rule, or null when they cannot be read (read again, failing the same way, only if a finding needs a fix). */
function readPatternsOf(r: Rule): RulePatterns | null {
  try {
    return readPatterns(r);
  } catch {
    return null;
  }
}

function fresh(lr: LoadedRecord, exceptions: ExceptionHierarchy, classes: ClassRegistry, patterns: boolean, cache?: RecordCache, key?: string): CompileOutcome {
  const log = cache ? new CompileLog(exceptions, classes) : undefined;
  let outcome: CompileOutcome;
  try {
    outcome = compileRecord(lr, log?.classes ?? classes, log?.exceptions ?? exceptions);
  } catch (e) {
    return { skipped: `cannot compile: ${(e as Error).message}`, derived: { entryPoints: [], receiverClasses: [], guards: [] } };
  }
  const rule = outcome.rule;
  const p = patterns && rule ? readPatternsOf(rule) : undefined;
  if (cache && key !== undefined && log?.replayable) {
    const o = rule ? { ...outcome, rule: { ...rule, record: 0, source: 0 } } : outcome;
    // A class's own methods are a Set: kept as an array (parseEntry turns it back).
    cache.put(
      key,
      JSON.stringify({ o, ops: log.ops, ...(p !== undefined ? { p } : {}) }, (_k, v: unknown) => (v instanceof Set ? [...v] : v)),
    );
  }
  if (rule && p) rule.patterns = p;
  return outcome;
}

function parseEntry(text: string): Entry | undefined {
  try {
    const e = JSON.parse(text) as Entry;
    if (!e || typeof e.o !== 'object' || !e.o || typeof e.o.derived !== 'object' || !e.o.derived || !Array.isArray(e.ops) || !e.ops.every(wellFormed))
      return undefined;
    const r = e.o.rule;
    if (
      r !== undefined &&
      (typeof r !== 'object' ||
        !r ||
        !isStr(r.id) ||
        !isStr(r.errorClass) ||
        !Array.isArray(r.targets) ||
        !Array.isArray(r.triggers) ||
        !Array.isArray(r.guards))
    )
      return undefined;
    for (const op of e.ops)
      if ((op.k === 'class' || op.k === 'ensure') && Array.isArray(op.c.ownMethods)) op.c.ownMethods = new Set(op.c.ownMethods as unknown as string[]);
    return r || isStr(e.o.skipped) ? e : undefined;
  } catch {
    return undefined;
  }
}

/** The outcome an entry stands for, with its writes applied; undefined when it does not hold now. */
function reuse(e: Entry, lr: LoadedRecord, exceptions: ExceptionHierarchy, classes: ClassRegistry, patterns: boolean): CompileOutcome | undefined {
  if (!stillHolds(e.ops, exceptions)) return undefined;
  applyOps(e.ops, exceptions, classes);
  const outcome = e.o;
  const rule = outcome.rule;
  if (!rule) return outcome;
  rule.record = lr.record;
  rule.source = lr.source;
  // A Python rule's bases as the hierarchy has them now (only shown by `records check`; a JS/TS rule's come from its own window).
  if (outcome.derived.language === 'python' && outcome.derived.errorBases) outcome.derived.errorBases = errorBasesOf(rule, exceptions);
  if (patterns) {
    const p = 'p' in e ? e.p : withRecordTrees(() => readPatternsOf(rule));
    if (p) rule.patterns = p;
  }
  return outcome;
}

/**
 * One record's outcome (a compile error is a skip), with the rule's fix patterns when `patterns`,
 * from the cache when an entry of the record holds.
 */
export function compileOne(lr: LoadedRecord, exceptions: ExceptionHierarchy, classes: ClassRegistry, patterns: boolean, cache?: RecordCache): CompileOutcome {
  const key = cache ? recordKey(cache.salt, lr) : undefined;
  const text = key ? cache!.get(key) : undefined;
  const entry = text !== undefined ? parseEntry(text) : undefined;
  const reused = entry ? reuse(entry, lr, exceptions, classes, patterns) : undefined;
  if (reused) {
    cache!.put(key!, text!);
    return reused;
  }
  return withRecordTrees(() => fresh(lr, exceptions, classes, patterns, cache, key));
}
