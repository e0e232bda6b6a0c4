/** A type read in a file, as a rule sees it: its references to the project's values resolved through the project's modules (./crossfile.ts). */
import { FN_REF, type CrossFile } from './crossfile.js';
import { instancesOf } from './portable.js';
import { UNKNOWN, union, type Type } from './types.js';

/**
 * References to project values replaced by what they are (a project call whose result is not known
 * is unknown), instances of unresolved project classes by instances of those classes. `relevant`:
 * whether a module's text can lead to what is asked of `q` (a module that cannot is not read, its summary
 * not made).
 */
export function resolveType(cross: CrossFile, t: Type, relevant?: (module: string, q: string) => boolean): Type {
  const candidate = (q: string) => cross.candidate(q);
  if (!t.some((a) => (a.kind === 'ref' && candidate(a.qualname)) || (a.kind === 'inst' && a.key.startsWith('?') && candidate(a.key.slice(1))))) return t;
  const skip = (q: string) => {
    if (!relevant || FN_REF.test(q)) return false;
    const file = cross.moduleOf(q);
    return !file || !relevant(file, q);
  };
  const out: Type[] = [];
  for (const a of t) {
    if (a.kind === 'ref' && candidate(a.qualname) && skip(a.qualname)) out.push(a.qualname.includes('(') ? UNKNOWN : [a]);
    else if (a.kind === 'inst' && a.key.startsWith('?') && candidate(a.key.slice(1)) && skip(a.key.slice(1))) out.push([a]);
    else if (a.kind === 'ref' && candidate(a.qualname)) {
      const v = cross.evaluate(a.qualname, 0);
      out.push(v ?? (a.qualname.includes('(') || FN_REF.test(a.qualname) ? UNKNOWN : [a]));
    } else if (a.kind === 'inst' && a.key.startsWith('?') && candidate(a.key.slice(1))) {
      const v = cross.evaluate(a.key.slice(1), 0);
      out.push(v ? instancesOf(v) : [a]);
    } else out.push([a]);
  }
  return union(...out);
}
