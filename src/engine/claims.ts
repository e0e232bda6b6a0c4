/**
 * Files claimed one by one by the threads of a run, from both ends of the list: the main thread
 * from the front, worker threads from the back. Files listed side by side (one package's modules)
 * mostly go to one thread, so a project module they all import is read and summarised by that
 * thread only (cross-file: each thread keeps its own summaries, semantic/crossfile.ts), while
 * every thread still claims one file at a time until none is left.
 */
export type Side = 'front' | 'back';

/** The shared state: claims made, claims from the front, claims from the back. */
export function claimsBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
}

/** The next index of a list of `length` for a thread claiming from `side` (undefined: none left). */
export function claim(buffer: SharedArrayBuffer, length: number, side: Side): number | undefined {
  const c = new Int32Array(buffer);
  // A claim within the length leaves an index free on each side: front + back claims never exceed it.
  if (Atomics.add(c, 0, 1) >= length) return undefined;
  return side === 'front' ? Atomics.add(c, 1, 1) : length - 1 - Atomics.add(c, 2, 1);
}
