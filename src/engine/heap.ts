/**
 * A smaller heap for batch runs. Checking allocates fast (nodes, facts, types) and most of it dies
 * with its file, but what lives through a file's analysis reaches the old generation, and V8 grows
 * its old-generation limit by up to 4x the live size between full collections: the heap grows to
 * several times what lives. A growing factor of 1.5 keeps it near what is live, for a few percent
 * more CPU in full collections (numbers: docs/performance.md). The flag is V8's, process-wide
 * (worker threads share it), read at every full collection; a user's own
 * `--heap-growing-percent` (NODE_OPTIONS or node's arguments) is left alone. A batch sets it once
 * it has parsed BOUND_AFTER_BYTES or starts a thread (./batch.ts), and the fix phase while its
 * loops run (./fixpool.ts): a smaller run never grows the heap much, and then does not load
 * node:v8 (./lazy.ts).
 */
import { lazySetFlags as setFlagsFromString } from './lazy.js';

export const HEAP_GROWING_PERCENT = 50;
/** Parsed bytes after which a batch bounds the heap's growth (a 20-file pre-commit run parses ~0.1 MB). */
export const BOUND_AFTER_BYTES = 1 << 20;
let set = false;

export function boundHeapGrowth(): void {
  if (set) return;
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => /heap[-_]growing[-_]percent/.test(a));
  if (given) return;
  set = true;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * Back to V8's default (0: its own heuristics) once the batch is done. V8 rejects a code cache
 * made under other flags, and bin/codecache.cjs writes the CLI's at exit: made under this flag,
 * the next run would reject it and compile the CLI again (~0.1-0.2 s).
 */
export function restoreHeapGrowth(): void {
  if (!set) return;
  set = false;
  setFlagsFromString('--heap-growing-percent=0');
}
