/**
 * The stat signatures of the project modules a file's findings were read from (cross-file,
 * semantic/crossfile.ts): they key its cached result, which stands only while they are unchanged.
 */
import { statSync } from 'node:fs';
import { trustedSig, sameSig, statSig, type StatSig } from '../io/fingerprint.js';

/** A signature no file has: a dependency whose signature could not be trusted (changed a moment ago) never clears a cached result. */
const NEVER_SAME: StatSig = [0, 0, 0, 0, 0];

/**
 * The stat signatures of a file's dependencies, for its cache entry. `seen`: signatures already
 * taken this run (a module is read once per run: its first signature stands for it; in a large
 * package every file depends on hundreds of the same modules).
 */
export function depSignatures(deps: string[] | undefined, seen?: Map<string, StatSig>): [string, StatSig][] | undefined {
  if (!deps?.length) return undefined;
  const now = Date.now();
  return deps.map((d) => {
    let sig = seen?.get(d);
    if (!sig) {
      try {
        sig = trustedSig(statSync(d), now) ?? NEVER_SAME;
      } catch {
        sig = NEVER_SAME;
      }
      seen?.set(d, sig);
    }
    return [d, sig];
  });
}

/** Whether every dependency of a cached result is as it was (no dependency: true). */
export function depsUnchanged(deps: [string, StatSig][] | undefined): boolean {
  if (!deps) return true;
  return deps.every(([p, sig]) => {
    try {
      // NEVER_SAME, as read back from the cache (a copy): all zeros.
      return sig.some((x) => x !== 0) && sameSig(sig, statSig(statSync(p)));
    } catch {
      return false;
    }
  });
}
