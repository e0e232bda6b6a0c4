/**
 * The worker-thread entry: the bundle itself (dist/bundle/main.cjs runs the thread in a worker,
 * see scripts/bundle.mjs), or thread.js next to this module. Under the test runner this module is
 * TypeScript source; the worker runs the compiled code (dist/engine/thread.js).
 */
export function threadUrl(): URL {
  if (import.meta.url.endsWith('.cjs')) return new URL(import.meta.url);
  return import.meta.url.endsWith('.ts') ? new URL('../../dist/engine/thread.js', import.meta.url) : new URL('./thread.js', import.meta.url);
}

/**
 * In a worker thread's `process.argv` (Worker's `argv` option): the bundle's entry tells a thread
 * from the CLI by it, without loading node:worker_threads to ask (~5 ms of every run's start-up:
 * the module and its internals are compiled from source). No argument of a real command line
 * holds a NUL byte.
 */
export const THREAD_MARK = '\0raiselint-thread';
