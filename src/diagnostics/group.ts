/**
 * One finding per call and error: the records of one library function that raise the same error
 * under different conditions (`subprocess.Popen` has a dozen `ValueError` raise sites) give one
 * diagnostic at a call, not one per record. The one that stands for the group is the most certain
 * (then a curated record's before a derived one's, then the first by rule id: stable); the others
 * are listed in `also` with their conditions.
 * Runs after selection, suppressions and confidence filters, so each record is still selected,
 * ignored or suppressed by its own id.
 */
import type { Diagnostic } from './types.js';

const rank = (d: Diagnostic) => (d.confidence === 'certain' ? 0 : 1) + (d.severity === 'error' ? 0 : 2);

/** Groups diagnostics of one call range and one error class (`canonical` names the class as the hierarchy knows it). */
export function groupByCallAndError(diags: Diagnostic[], canonical: (errorClass: string) => string, derived?: (d: Diagnostic) => boolean): Diagnostic[] {
  if (diags.length < 2) return diags;
  const groups = new Map<string, Diagnostic[]>();
  const order: string[] = [];
  for (const d of diags) {
    // Built-in findings (io errors, suppression problems) and findings without an error class stay as they are.
    const key =
      d.errorClass && !d.ruleId.startsWith('raiselint/')
        ? `${d.file}\0${d.line}\0${d.column}\0${d.endLine}\0${d.endColumn}\0${canonical(d.errorClass)}\0${d.via.join('\0')}`
        : `\0${order.length}`;
    const g = groups.get(key);
    if (g) g.push(d);
    else {
      groups.set(key, [d]);
      order.push(key);
    }
  }
  if (groups.size === diags.length) return diags;
  return order.map((k) => {
    const g = groups.get(k)!;
    if (g.length === 1) return g[0]!;
    const late = (d: Diagnostic) => (derived?.(d) ? 1 : 0);
    const sorted = [...g].sort((a, b) => rank(a) - rank(b) || late(a) - late(b) || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
    const head = sorted[0]!;
    const also = sorted.slice(1).map((d) => ({
      ruleId: d.ruleId,
      recordId: d.recordId,
      confidence: d.confidence,
      ...(d.condition ? { condition: d.condition } : {}),
      message: d.message,
    }));
    return { ...head, also: [...(head.also ?? []), ...also] };
  });
}

/** Items by their `file`, in the order files first appear. */
export function groupByFile<T extends { file: string }>(items: Iterable<T>): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of items) {
    const list = out.get(x.file);
    if (list) list.push(x);
    else out.set(x.file, [x]);
  }
  return out;
}
