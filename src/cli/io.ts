/** Shared CLI plumbing. */

export interface IO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

/** A one-line error that ends the run with exit 2. */
export class UsageError extends Error {}

/** Commander helper for repeatable options. */
export function collect(value: string, prev: string[]): string[] {
  return [...prev, value];
}
