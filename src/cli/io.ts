/** Shared CLI plumbing. */

export interface IO {
  /** Text, or bytes written as they are (a fixed source read from stdin). */
  stdout: (s: string | Uint8Array) => void;
  stderr: (s: string) => void;
}

/** A one-line error that ends the run with exit 2. */
export class UsageError extends Error {}

/** Commander helper for repeatable options. */
export function collect(value: string, prev: string[]): string[] {
  return [...prev, value];
}
