/**
 * The fix phase's threads. Each file's lint-and-fix loop (./fix.ts fixFile) runs on the main
 * thread and, once the work seen so far projects enough of it left, on worker threads too: jobs
 * are claimed one by one from both ends of the list (./claims.ts), as the check's files are, and the
 * results come back by job index, so the output does not depend on which thread fixed a file.
 * A job is data (bytes, the file's FileContext, the run's findings of it); a worker reads the
 * rules from the same compiled-rules snapshot as the run.
 */
import type { Worker as WorkerType } from 'node:worker_threads';
import { fixFile, type FixJob, type FixOptions } from './fix.js';
import type { FileFix } from './notebook-fix.js';
import type { RunContext } from './filecontext.js';
import type { RuleSet } from '../rules/ruleset.js';
import { lazyWorker } from './lazy.js';
import { boundHeapGrowth, restoreHeapGrowth } from './heap.js';
import { THREAD_MARK, threadUrl } from './threadurl.js';
import { claim, claimsBuffer } from './claims.js';
import type { FixThreadData, ThreadMessage } from './thread.js';

/** Where worker threads read the rules: the run's snapshot file, or its bytes when it could not be written. */
export interface RulesSource {
  key: string;
  path?: string;
  bytes?: SharedArrayBuffer;
}

export interface FixThreads {
  source: RulesSource;
  /** Threads in all, the main thread included. */
  jobs: number;
  /**
   * Projected milliseconds of fixing left (from the main thread's pace so far) that make worker
   * threads worth starting: a worker's start-up (WebAssembly, the snapshot, a cold JIT) costs
   * ~0.5-1 s of CPU on a small machine. 0 starts them at once (tests).
   */
  spawnAfterMs?: number;
}

export const DEFAULT_FIX_SPAWN_AFTER_MS = 1500;

function spawnAfterFromEnv(): number | undefined {
  const v = process.env.RAISELINT_FIX_SPAWN_AFTER_MS;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** A FileFix back from a worker: its bytes are a Buffer again (structured cloning makes them a Uint8Array). */
function revived(ff: FileFix): FileFix {
  const b = ff.bytes as Uint8Array | undefined;
  return b && !Buffer.isBuffer(b) ? { ...ff, bytes: Buffer.from(b.buffer, b.byteOffset, b.byteLength) } : ff;
}

/** Every job's loop, results in job order; `workers`: the worker threads started. */
export async function runFixJobs(
  jobs: FixJob[],
  rules: RuleSet,
  run: RunContext | undefined,
  opts: FixOptions,
  threads?: FixThreads,
): Promise<{ fixes: FileFix[]; workers: number; workerJobs: number }> {
  const outs: (FileFix | undefined)[] = new Array(jobs.length);
  const claims = claimsBuffer();
  const threadCount = Math.max(1, Math.floor(threads?.jobs ?? 1));
  const spawnAfter = threads?.spawnAfterMs ?? spawnAfterFromEnv() ?? DEFAULT_FIX_SPAWN_AFTER_MS;
  const finished: Promise<void>[] = [];
  let spawned = false;
  let workers = 0;
  let workerJobs = 0;
  const spawn = () => {
    spawned = true;
    const source = threads!.source;
    const data: FixThreadData = {
      kind: 'fix',
      jobs,
      counter: claims,
      snapshotPath: source.path,
      snapshotBytes: source.bytes,
      key: source.key,
      configOnly: run ? [...run.configOnly] : undefined,
      minConfidence: run?.minConfidence,
      crossFile: run?.crossFile,
      unsafe: !!opts.unsafe,
    };
    for (let w = 0; w < threadCount - 1; w++) {
      const Worker: typeof WorkerType = lazyWorker();
      const worker = new Worker(threadUrl(), { workerData: data, argv: [THREAD_MARK] });
      workers++;
      finished.push(
        new Promise<void>((done) => {
          worker.on('message', (m: ThreadMessage) => {
            if (m.kind === 'fixed') {
              for (const r of m.results) outs[r.index] = revived(r.fix);
              workerJobs += m.results.length;
            } else if (m.kind !== 'results') {
              done();
              void worker.terminate();
            }
          });
          // A worker that dies leaves its jobs unfinished: the main thread redoes them below.
          worker.on('error', () => done());
          worker.on('exit', () => done());
        }),
      );
    }
  };
  const canSpawn = !!threads && threadCount > 1 && jobs.length > 1;
  // Each round of a loop parses and analyses its file again: as the check does, keep the heap near what lives (./heap.ts).
  if (jobs.length > 1) boundHeapGrowth();
  try {
    return await claimJobs();
  } finally {
    restoreHeapGrowth();
  }

  async function claimJobs(): Promise<{ fixes: FileFix[]; workers: number; workerJobs: number }> {
    if (canSpawn && spawnAfter <= 0) spawn();
    const t0 = Date.now();
    let done = 0;
    for (;;) {
      const k = claim(claims, jobs.length, 'front');
      if (k === undefined) break;
      outs[k] = fixFile(jobs[k]!, rules, run, opts);
      done++;
      // Yield, so that a worker's messages are taken as they come.
      if (spawned) await new Promise((r) => setImmediate(r));
      else if (canSpawn && ((Date.now() - t0) / done) * (jobs.length - k - 1) >= spawnAfter) spawn();
    }
    await Promise.all(finished);
    for (let k = 0; k < jobs.length; k++) outs[k] ??= fixFile(jobs[k]!, rules, run, opts);
    return { fixes: outs as FileFix[], workers, workerJobs };
  }
}
