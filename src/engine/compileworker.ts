/**
 * The worker of a split compile (./compilesplit.ts), started before the datasets are read: a
 * worker takes ~0.2-0.3 s to start (the code, the parser), which then overlaps reading,
 * validating and hashing the records instead of delaying the worker's first record. For a first
 * compile of big datasets it reads them too while it waits (./compilethread.ts, waitCompile) and
 * compiles its own copy: the records are not hashed and copied to it first. When the compile is
 * not split after all, it is ended unused.
 *
 * Started only where a split is likely: no per-record cache to speak of (a first compile) and
 * datasets big enough to hold MIN_SPLIT_RECORDS records.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker, type MessagePort } from 'node:worker_threads';
import type { CompileOwnData, CompileThreadData, CompileWaitData } from './compilethread.js';
import { THREAD_MARK, threadUrl } from './threadurl.js';

/** Dataset bytes from which a worker is started early (records are ~2-5 KB: ~150 records and more). */
export const EARLY_WORKER_BYTES = 512 * 1024;

/**
 * Dataset bytes from which the early worker of a first compile reads the datasets itself instead
 * of being sent the records (~3,000 records and more): sending costs the main thread hashing and
 * copying them (~0.1 ms a record) before the worker can start, reading them costs the worker
 * ~0.15 ms a record (validation included) after its own start. Measured: 10,000 records, ~0.5 s
 * sooner; 1,760 records, ~0.25 s more CPU for nothing.
 */
export const OWN_COPY_BYTES = 12 * 1024 * 1024;

export class CompileWorker {
  /** Waiting for its records, given them, or ended unused. */
  private status: 'waiting' | 'given' | 'stopped' = 'waiting';

  /**
   * @param own the worker reads its own copy of the datasets while it waits, and compiles every
   *   record from it (a first compile of datasets of OWN_COPY_BYTES or more).
   */
  private constructor(
    readonly worker: Worker,
    readonly own: boolean,
  ) {}

  /**
   * A worker started now, when a split compile of `files` is likely: fewer than `min` records in
   * the per-record cache (`cached`), at least EARLY_WORKER_BYTES of datasets, two cores. With an
   * empty cache and `ownBytes` of datasets or more, it reads its own copy of them.
   */
  static maybe(files: string[], cached: number, min: number, salt: string, ownBytes = OWN_COPY_BYTES): CompileWorker | undefined {
    if (cached >= min || availableParallelism() < 2) return undefined;
    let bytes = 0;
    for (const f of files) {
      try {
        bytes += statSync(f).size;
      } catch {
        // reading the dataset reports it
      }
    }
    if (bytes < EARLY_WORKER_BYTES) return undefined;
    const own = cached <= 0 && bytes >= ownBytes;
    const worker = new Worker(threadUrl(), { workerData: { kind: 'compile-wait', salt, ...(own ? { files } : {}) } satisfies CompileWaitData, argv: [THREAD_MARK] });
    // Its failures are its records left to the main thread (./compilesplit.ts), never the run's.
    worker.on('error', () => undefined);
    worker.unref();
    return new CompileWorker(worker, own);
  }

  /**
   * Hands the worker its records (once): those of `data`, or with `own`, its own copy of every
   * record of the datasets. False when it was already given some or stopped.
   */
  give(data: CompileThreadData, port: MessagePort, own = false): boolean {
    if (this.status !== 'waiting') return false;
    this.status = 'given';
    if (own) this.worker.postMessage({ kind: 'compile-own', patterns: data.patterns, claims: data.claims, port } satisfies CompileOwnData, [port]);
    else this.worker.postMessage(data, [port]);
    return true;
  }

  /** Ends a worker that was not given records. */
  stop(): void {
    if (this.status !== 'waiting') return;
    this.status = 'stopped';
    void this.worker.terminate();
  }

  get state(): 'waiting' | 'given' | 'stopped' {
    return this.status;
  }
}
