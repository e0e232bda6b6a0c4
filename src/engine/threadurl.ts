/**
 * The worker-thread entry: the bundle itself (dist/bundle/main.cjs runs the thread in a worker,
 * see scripts/bundle.mjs), or thread.js next to this module. Under the test runner this module is
 * TypeScript source; the worker runs the compiled code (dist/engine/thread.js).
 */
export function threadUrl(): URL {
  if (import.meta.url.endsWith('.cjs')) return new URL(import.meta.url);
  return import.meta.url.endsWith('.ts') ? new URL('../../dist/engine/thread.js', import.meta.url) : new URL('./thread.js', import.meta.url);
}
