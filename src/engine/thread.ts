/**
 * Worker-thread entry of a batch run. Files are claimed from a shared atomic counter (no
 * round trips through the main thread); results go back in batches.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Snapshot } from '../compile/index.js';
import { FileChecker, type WorkResult, type FileTask, type WorkOptions } from './work.js';

export interface ThreadData {
  files: FileTask[];
  /** Int32Array[1]: index of the next unclaimed file. */
  counter: SharedArrayBuffer;
  snapshotPath?: string;
  snapshotBytes?: SharedArrayBuffer;
  key: string;
  opts: WorkOptions;
}

export type ThreadMessage = { kind: 'results'; results: WorkResult[] } | { kind: 'done' } | { kind: 'failed'; message: string };

async function run(data: ThreadData): Promise<void> {
  const snap = data.snapshotBytes
    ? Snapshot.fromBytes(new Uint8Array(data.snapshotBytes))
    : data.snapshotPath
      ? Snapshot.open(data.snapshotPath, data.key)
      : undefined;
  if (!snap) throw new Error('cannot open the rules snapshot');
  const checker = new FileChecker(snap.prefilter, (names) => snap.ruleSetFor(names), data.opts);
  const counter = new Int32Array(data.counter);
  let batch: WorkResult[] = [];
  let last = Date.now();
  for (;;) {
    const i = Atomics.add(counter, 0, 1);
    if (i >= data.files.length) break;
    batch.push(await checker.process(i, data.files[i]!));
    if (batch.length >= 64 || Date.now() - last > 50) {
      parentPort!.postMessage({ kind: 'results', results: batch } satisfies ThreadMessage);
      batch = [];
      last = Date.now();
    }
  }
  if (batch.length) parentPort!.postMessage({ kind: 'results', results: batch } satisfies ThreadMessage);
  snap.close();
  parentPort!.postMessage({ kind: 'done' } satisfies ThreadMessage);
}

run(workerData as ThreadData).catch((e: unknown) => {
  parentPort!.postMessage({ kind: 'failed', message: (e as Error).message } satisfies ThreadMessage);
});
