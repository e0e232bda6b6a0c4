/** Walks over names that lead to other names (summary calls, subclasses, bases). */

/** Every node reachable from `starts` through `next`, the starts included, in depth-first order of first visit. */
export function reachable<T>(starts: Iterable<T>, next: (node: T) => Iterable<T>): Set<T> {
  const seen = new Set<T>();
  const stack = [...starts];
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    for (const m of next(n)) stack.push(m);
  }
  return seen;
}
