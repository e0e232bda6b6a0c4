/** The TypeScript compiler, as a parser of JS/TS code (records' windows, suppression comments). */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';

let tsModule: typeof TS | undefined;
/** The compiler, loaded on first use (only runs that compile a JS/TS record pay for it). */
export function typescript(): typeof TS {
  return (tsModule ??= createRequire(import.meta.url)('typescript') as typeof TS);
}
