/**
 * The worker of a split compile (./compilesplit.ts), started before the datasets are read: a
 * worker takes ~0.2-0.3 s to start (the code, the parser), which then overlaps reading,
 * validating and hashing the records instead of delaying the worker's first record. It reads the
 * datasets too while it waits (./compilethread.ts, waitCompile): when every record is to be
 * compiled, it compiles its own copy and the records are not copied to it. When the compile is
 * not split after all, it is ended unused.
 *
 * Started only where a split is likely: no per-record cache to speak of (a first compile) and
 * datasets big enough to hold MIN_SPLIT_RECORDS records.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker, type MessagePort } from 'node:worker_threads';
import type { CompileOwnData, CompileThreadData, CompileWaitData } from './compilethread.js';
import { threadUrl } from './threadurl.js';

/** Dataset bytes from which a worker is started early (records are ~2-5 KB: ~150 records and more). */
export const EARLY_WORKER_BYTES = 512 * 1024;

export class CompileWorker {
  /** Waiting for its records, given them, or ended unused. */
  private status: 'waiting' | 'given' | 'stopped' = 'waiting';

  /**
   * @param fresh the per-record cache is empty: every record will be compiled, and the worker
   *   compiles from its own copy of the datasets.
   */
  private constructor(
    readonly worker: Worker,
    readonly fresh: boolean,
  ) {}

  /**
   * A worker started now, when a split compile of `files` is likely: fewer than `min` records in
   * the per-record cache (`cached`), at least EARLY_WORKER_BYTES of datasets, two cores.
   */
  static maybe(files: string[], cached: number, min: number, salt: string): CompileWorker | undefined {
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
    const worker = new Worker(threadUrl(), { workerData: { kind: 'compile-wait', files, salt } satisfies CompileWaitData });
    // Its failures are its records left to the main thread (./compilesplit.ts), never the run's.
    worker.on('error', () => undefined);
    worker.unref();
    return new CompileWorker(worker, cached <= 0);
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
