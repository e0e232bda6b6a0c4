/**
 * The state records share while they compile, and a log of what one record did with it.
 *
 * Compiling a record is not a function of the record alone: exception classes a record's
 * `sourceCode` defines join the hierarchy that later records qualify their error class and class
 * bases against (`isKnown`), and the classes a record's targets name join the class registry. So
 * that a record's result can be reused (./cached.ts) exactly, a compile runs on logged views of
 * that state: every `isKnown` answer it read, every exception class it defined and every class it
 * registered, in order. A logged result stands for a fresh compile when each answer it read is
 * still the answer (the hierarchy as it is now, plus the record's own definitions so far); its
 * writes are then applied as the compile would have applied them.
 *
 * `canonical` answers do not change while records compile (definitions bring no aliases: a
 * definition with aliases is not logged, and the result is not reused). `mro` is only read for
 * `records check` (derived.errorBases), after the record's last definition: it is read again.
 */
import type { ClassRegistry } from '../../rules/classes.js';
import type { ExceptionHierarchy } from '../../rules/exceptions.js';
import type { ClassInfo } from '../../rules/types.js';

/** What compiling a record reads and writes of the exception hierarchy. */
export type ExceptionView = Pick<ExceptionHierarchy, 'isKnown' | 'canonical' | 'define' | 'mro'>;

/** What compiling a record writes into the class registry (`ensure`: add it unless the registry has the key). */
export type ClassSink = Pick<ClassRegistry, 'add' | 'get'> & { ensure?(info: ClassInfo): void };

export type CompileOp =
  | { k: 'known'; n: string; v: boolean }
  | { k: 'define'; n: string; b: string[] }
  | { k: 'class'; c: ClassInfo }
  | { k: 'ensure'; c: ClassInfo };

/** Adds a class unless one with its key is registered. */
export function ensureClass(classes: ClassSink, info: ClassInfo): void {
  if (classes.ensure) classes.ensure(info);
  else if (!classes.get(info.key)) classes.add(info);
}

/** Views of the shared state that log what the compile does with it (and pass it on). */
export class CompileLog {
  readonly ops: CompileOp[] = [];
  /** False when the compile did something the log cannot replay. */
  replayable = true;
  readonly exceptions: ExceptionView;
  readonly classes: ClassSink;

  constructor(h: ExceptionHierarchy, reg: ClassRegistry) {
    const ops = this.ops;
    const log = this;
    this.exceptions = {
      isKnown(n) {
        const v = h.isKnown(n);
        ops.push({ k: 'known', n, v });
        return v;
      },
      canonical: (n) => h.canonical(n),
      define(n, b, aliases = []) {
        if (aliases.length) log.replayable = false;
        ops.push({ k: 'define', n, b: [...b] });
        h.define(n, b, aliases);
      },
      mro: (c) => h.mro(c),
    };
    this.classes = {
      // A copy: the registry keeps the object it is given and merges later additions into it.
      add(info) {
        ops.push({ k: 'class', c: structuredClone(info) });
        return reg.add(info);
      },
      get: (key) => reg.get(key),
      ensure(info) {
        ops.push({ k: 'ensure', c: structuredClone(info) });
        if (!reg.get(info.key)) reg.add(info);
      },
    };
  }
}

/** True when every answer the log read is the answer now (with the record's own definitions before it). */
export function stillHolds(ops: CompileOp[], h: ExceptionHierarchy): boolean {
  const mine = new Set<string>();
  for (const op of ops) {
    if (op.k === 'known' && (h.isKnown(op.n) || mine.has(h.canonical(op.n))) !== op.v) return false;
    if (op.k === 'define') mine.add(op.n);
  }
  return true;
}

/** Applies the log's writes, in order, as the compile applied them. The ops are used up (the registry keeps their objects). */
export function applyOps(ops: CompileOp[], h: ExceptionHierarchy, reg: ClassRegistry): void {
  for (const op of ops) {
    if (op.k === 'define') h.define(op.n, op.b);
    else if (op.k === 'class') reg.add(op.c);
    else if (op.k === 'ensure' && !reg.get(op.c.key)) reg.add(op.c);
  }
}
