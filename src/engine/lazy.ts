/**
 * Node modules the CLI loads only when it uses them. node:worker_threads and node:v8 are not in
 * Node's start-up snapshot: loading one compiles it and its internals from source (v8 brings
 * heap_utils and streams), ~3-7 ms each on this machine, in runs that start no thread (a
 * pre-commit run, every file rejected by the prefilter) or never grow the heap.
 */
import { createRequire } from 'node:module';

const nodeRequire = createRequire(import.meta.url);

/** node:worker_threads' Worker. */
export function lazyWorker(): typeof import('node:worker_threads').Worker {
  return (nodeRequire('node:worker_threads') as typeof import('node:worker_threads')).Worker;
}

/** node:v8's setFlagsFromString. */
export function lazySetFlags(flags: string): void {
  (nodeRequire('node:v8') as typeof import('node:v8')).setFlagsFromString(flags);
}
