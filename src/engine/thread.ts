/**
 * Worker-thread entry of a batch run: the check of files, or the fix phase's lint-and-fix loops
 * (./fixpool.ts). Files or jobs are claimed one by one from shared claims (./claims.ts: no round
 * trips through the main thread); results go back in batches.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Snapshot } from '../compile/index.js';
import { initParser } from '../parse/parser.js';
import type { Confidence } from '../rules/types.js';
import { FileChecker, type WorkResult, type FileTask, type WorkOptions } from './work.js';
import { fixFile, type FixJob } from './fix.js';
import { claim } from './claims.js';
import type { FileFix } from './notebook-fix.js';

export interface ThreadData {
  kind?: 'check';
  files: FileTask[];
  /** The files' claims (./claims.ts): this thread claims from the back. */
  counter: SharedArrayBuffer;
  snapshotPath?: string;
  snapshotBytes?: SharedArrayBuffer;
  key: string;
  opts: WorkOptions;
}

/** The fix phase's jobs, and the run's context (the rules: the run's snapshot). */
export interface FixThreadData {
  kind: 'fix';
  jobs: FixJob[];
  /** The jobs' claims (./claims.ts): this thread claims from the back. */
  counter: SharedArrayBuffer;
  snapshotPath?: string;
  snapshotBytes?: SharedArrayBuffer;
  key: string;
  /** The run's per-file stage (absent: the files are fixed alone). */
  configOnly?: string[];
  minConfidence?: Confidence;
  /** The run's `crossFile` (./filecontext.ts RunContext). */
  crossFile?: boolean;
  unsafe: boolean;
}

export type ThreadMessage =
  | { kind: 'results'; results: WorkResult[] }
  | { kind: 'fixed'; results: { index: number; fix: FileFix }[] }
  | { kind: 'done' }
  | { kind: 'failed'; message: string };

function openSnapshot(data: { snapshotBytes?: SharedArrayBuffer; snapshotPath?: string; key: string }): Snapshot {
  const snap = data.snapshotBytes
    ? Snapshot.fromBytes(new Uint8Array(data.snapshotBytes))
    : data.snapshotPath
      ? Snapshot.open(data.snapshotPath, data.key)
      : undefined;
  if (!snap) throw new Error('cannot open the rules snapshot');
  return snap;
}

async function runFixes(data: FixThreadData): Promise<void> {
  const snap = openSnapshot(data);
  await initParser();
  const rules = snap.catalog();
  const run = data.configOnly ? { rules, configOnly: new Set(data.configOnly), minConfidence: data.minConfidence, crossFile: data.crossFile } : undefined;
  for (;;) {
    const i = claim(data.counter, data.jobs.length, 'back');
    if (i === undefined) break;
    // One at a time: a fix job is long next to the message.
    parentPort!.postMessage({
      kind: 'fixed',
      results: [{ index: i, fix: fixFile(data.jobs[i]!, rules, run, { unsafe: data.unsafe }) }],
    } satisfies ThreadMessage);
  }
  snap.close();
  parentPort!.postMessage({ kind: 'done' } satisfies ThreadMessage);
}

async function run(data: ThreadData): Promise<void> {
  const snap = openSnapshot(data);
  const checker = new FileChecker(snap.prefilter, (names) => snap.ruleSetFor(names), data.opts);
  let batch: WorkResult[] = [];
  let last = Date.now();
  for (;;) {
    const i = claim(data.counter, data.files.length, 'back');
    if (i === undefined) break;
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

const data = workerData as ThreadData | FixThreadData;
(data.kind === 'fix' ? runFixes(data) : run(data)).catch((e: unknown) => {
  parentPort!.postMessage({ kind: 'failed', message: (e as Error).message } satisfies ThreadMessage);
});
