/**
 * A first compile on two cores. When many records miss the per-record compile cache
 * (../rules/compile/cached.ts), a worker thread compiles records from the back of the dataset
 * while the main thread compiles from the front, in order (./compileclaim.ts). The main thread
 * uses the worker's results through the cache's own rule: an entry stands only where every answer
 * it read of the shared state (exception classes earlier records define) is still the answer, and
 * its writes are then applied in order; otherwise the record is compiled again on the main
 * thread. So the rules, and the snapshot, are those of a compile on one thread, byte for byte.
 *
 * The main thread waits (Atomics.wait) only for a record the worker has taken and not yet
 * posted; a worker that fails or stalls leaves its records to the main thread.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { LoadedRecord } from '../records/types.js';
import { recordKey, type RecordCache } from '../rules/compile/cached.js';
import { Claims, WORKER_RUNNING } from './compileclaim.js';
import type { CompileThreadData, CompiledEntry } from './compilethread.js';
import { THREAD_MARK, threadUrl } from './threadurl.js';
import { CompileWorker } from './compileworker.js';

/**
 * Records to compile (cache misses) from which a worker is started. A record compiles in ~2-3 ms
 * on the 2-core benchmark machine; a worker starts (code, parser) in ~0.2-0.3 s.
 */
export const MIN_SPLIT_RECORDS = 200;
/** A worker that posts nothing for this long while the main thread waits is given up on. */
const STALL_MS = 20_000;

export interface SplitOptions {
  /** See MIN_SPLIT_RECORDS (0: always split, also on one core). */
  minRecords?: number;
  /** Tests: the main thread waits for the worker to finish before it compiles (the worker takes every record). */
  workerFirst?: boolean;
}

export class SplitCompile implements RecordCache {
  readonly salt: string;
  /** Index of each record to compile, by cache key (first occurrence). */
  private readonly pos = new Map<string, number>();
  private readonly got = new Map<number, string | null>();
  private readonly claims: Claims;
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private dead = false;
  /** The key of each record to compile (an entry posted with another key is not used). */
  private readonly keys: string[];
  /** Worker entries that did not hold (compiled again on the main thread). */
  redone = 0;
  /** Worker entries the main thread was given (null entries aside). */
  used = 0;

  /**
   * `keys`: of `todo`, computed here when not given (after the worker is started: `todo` is then
   * every record of the datasets, which an early worker compiles from its own copy).
   */
  private constructor(
    private readonly inner: RecordCache,
    todo: LoadedRecord[],
    keys: string[] | undefined,
    patterns: boolean,
    private readonly waitFirst: boolean,
    early?: CompileWorker,
  ) {
    this.salt = inner.salt;
    this.claims = Claims.create(todo.length);
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const data: CompileThreadData = { kind: 'compile', records: todo, patterns, salt: this.salt, claims: this.claims.buffer, port: port2 };
    // A worker started before the datasets were read (./compileworker.ts) is given its records now.
    if (early?.give(data, port2, !keys)) this.worker = early.worker;
    else {
      early?.stop();
      this.worker = new Worker(threadUrl(), { workerData: data, transferList: [port2], argv: [THREAD_MARK] });
      this.worker.unref();
    }
    // A worker's error is its records left to the main thread (see await), never the run's.
    this.worker.on('error', () => (this.dead = true));
    this.keys = keys ?? todo.map((lr) => recordKey(this.salt, lr));
    // A record met twice is looked up at its first place.
    this.keys.forEach((k, i) => this.pos.has(k) || this.pos.set(k, i));
  }

  /**
   * A split compile of `records` through `inner`, when enough of them miss it and there are cores
   * to share (`min`: see MIN_SPLIT_RECORDS); undefined otherwise (compile through `inner` alone).
   */
  static start(records: LoadedRecord[], inner: RecordCache, patterns: boolean, opts: SplitOptions = {}, early?: CompileWorker): SplitCompile | undefined {
    const split = SplitCompile.begin(records, inner, patterns, opts, early);
    if (!split) early?.stop();
    return split;
  }

  private static begin(records: LoadedRecord[], inner: RecordCache, patterns: boolean, opts: SplitOptions, early?: CompileWorker): SplitCompile | undefined {
    const min = opts.minRecords ?? MIN_SPLIT_RECORDS;
    if (availableParallelism() < 2 && min > 0) return undefined;
    // A first compile of big datasets: every record is to be compiled; the early worker starts on its own copy at once.
    if (early?.own && records.length && records.length >= min) return new SplitCompile(inner, records, undefined, patterns, !!opts.workerFirst, early);
    const todo: LoadedRecord[] = [];
    const keys: string[] = [];
    const seen = new Set<string>();
    for (const lr of records) {
      const k = recordKey(inner.salt, lr);
      if (seen.has(k) || inner.get(k) !== undefined) continue;
      seen.add(k);
      todo.push(lr);
      keys.push(k);
    }
    if (!todo.length || todo.length < min) return undefined;
    return new SplitCompile(inner, todo, keys, patterns, !!opts.workerFirst, early);
  }

  get(key: string): string | undefined {
    const known = this.inner.get(key);
    if (known !== undefined) return known;
    const j = this.pos.get(key);
    if (j === undefined) return undefined;
    if (this.got.has(j)) return this.counted(this.got.get(j));
    if (this.waitFirst) this.await(-1);
    // The main thread's record: compiled here (fresh, through compileOne).
    if (this.claims.takeFront(j)) return undefined;
    return this.counted(this.await(j));
  }

  private counted(entry: string | null | undefined): string | undefined {
    if (entry) this.used++;
    return entry ?? undefined;
  }

  put(key: string, value: string): void {
    const j = this.pos.get(key);
    if (j !== undefined && this.got.has(j) && this.got.get(j) !== value) this.redone++;
    this.inner.put(key, value);
  }

  /** Entries the worker has posted so far. */
  private drain(): void {
    for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) {
      const e = m.message as CompiledEntry;
      // An entry of the worker's own copy stands only for the same record (the datasets may have changed in between).
      this.got.set(e.i, e.k === undefined || e.k === this.keys[e.i] ? e.v : null);
    }
  }

  /** The worker's entry for record `j`, once posted; undefined when it has none or is gone. */
  private await(j: number): string | undefined {
    let last = Date.now();
    while (!this.dead) {
      const seen = Atomics.load(this.claims.signal, 0);
      this.drain();
      if (this.got.has(j)) return this.got.get(j) ?? undefined;
      if (Atomics.load(this.claims.signal, 1) !== WORKER_RUNNING) break;
      if (Atomics.wait(this.claims.signal, 0, seen, 250) !== 'timed-out') last = Date.now();
      else if (Date.now() - last > STALL_MS) this.dead = true;
    }
    this.drain();
    return this.got.get(j) ?? undefined;
  }

  /** Entries the worker has posted so far. */
  get posted(): number {
    this.drain();
    return this.got.size;
  }

  /** Ends the worker (every record has been reached by then). */
  close(): void {
    this.port.close();
    void this.worker.terminate();
  }
}
