/**
 * `raiselint records check --summary`: a whole dataset in counts. Compiled and skipped records by the
 * kind of the raising def, by where the raiser came from (the window's `def`, a re-parse of the window,
 * or the code fields), and the skip reasons grouped by their form (names and numbers left out).
 */

/** What `records check` says of one record: the rule it became, or why it was skipped. */
export interface RecordReport {
  file: string;
  line: number;
  id: string;
  recordId?: string;
  status: 'compiled' | 'skipped';
  reason?: string;
  kind?: string;
  module?: string;
  raiser?: string;
  raisedAt?: string;
  errorClass?: string;
  errorBases?: string[];
  entryPoints: string[];
  entrySource?: string;
  /** What the raising def is (function, method, classmethod, staticmethod, constructor, property). */
  raiserKind?: string;
  /** Record fields each part of the rule came from. */
  derivedFrom?: Record<string, string>;
  /** `unknown`: the record does not show when the call raises; findings are possible. */
  condition?: string;
  /** When the call raises, in words (`always raises`, `raises when mode not in ('r', 'w')`). */
  when?: string;
  /** Why the rule's raise is control flow, not a bug: its findings are off by default (src/rules/controlflow.ts). */
  controlFlow?: string;
  receiverClasses: string[];
  guards: string[];
  versions: string[];
  notes: string[];
}

export interface RecordsSummary {
  records: number;
  compiled: number;
  skipped: number;
  /** kind → counts; `unknown` when no raising def was found. */
  byKind: Record<string, { compiled: number; skipped: number }>;
  /** Where compiled records' raisers came from. */
  bySource: Record<string, number>;
  /** Records whose raise condition is unknown (findings possible). */
  conditionUnknown: number;
  /** Skip reasons by form, most frequent first, with one example each. */
  reasons: { reason: string; count: number; example: string }[];
}

const KINDS = ['function', 'method', 'classmethod', 'staticmethod', 'constructor', 'property'];

/** A skip reason without the names and numbers of its record. */
export function reasonForm(reason: string): string {
  return reason
    .replace(/'[^']*'/g, (q) => (q === "'def'" ? q : "'…'"))
    .replace(/`[^`]*`/g, '`…`')
    .replace(/(every )\.\w+\(\)/g, '$1.…()')
    .replace(/\b\d+\b/g, 'N')
    .replace(/\(tags: [^)]*\)/g, '(tags: …)');
}

function sourceOf(r: RecordReport): string {
  const from = r.derivedFrom?.raiser ?? '';
  if (/re-parsed/.test(from)) return 'sourceCode, re-parsed from a statement start';
  if (/^sourceCode/.test(from)) return 'sourceCode (the enclosing def)';
  if (/no def in sourceCode/.test(from)) return 'code fields (no def in sourceCode)';
  return 'other';
}

export function summarize(reports: RecordReport[]): RecordsSummary {
  const byKind: RecordsSummary['byKind'] = {};
  for (const k of KINDS) byKind[k] = { compiled: 0, skipped: 0 };
  const bySource: Record<string, number> = {};
  const reasons = new Map<string, { count: number; example: string }>();
  let compiled = 0;
  let unknown = 0;
  for (const r of reports) {
    const kind = r.raiserKind ?? 'unknown';
    const k = (byKind[kind] ??= { compiled: 0, skipped: 0 });
    if (r.status === 'compiled') {
      compiled++;
      k.compiled++;
      bySource[sourceOf(r)] = (bySource[sourceOf(r)] ?? 0) + 1;
      if (r.condition === 'unknown') unknown++;
      continue;
    }
    k.skipped++;
    const reason = r.reason ?? 'unknown reason';
    const form = reasonForm(reason);
    const e = reasons.get(form) ?? { count: 0, example: `${r.file}:${r.line}: ${reason}` };
    e.count++;
    reasons.set(form, e);
  }
  const sorted = [...reasons.entries()].map(([reason, e]) => ({ reason, ...e })).sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1));
  return { records: reports.length, compiled, skipped: reports.length - compiled, byKind, bySource, conditionUnknown: unknown, reasons: sorted };
}

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : '-');

export function formatSummary(s: RecordsSummary): string {
  const out = [`${s.records} record${s.records === 1 ? '' : 's'}: ${s.compiled} compiled (${pct(s.compiled, s.records)}), ${s.skipped} skipped`];
  out.push('by kind of raising def:');
  for (const [kind, c] of Object.entries(s.byKind)) {
    if (!c.compiled && !c.skipped && !KINDS.includes(kind)) continue;
    out.push(`  ${kind.padEnd(13)} ${String(c.compiled).padStart(6)} compiled ${String(c.skipped).padStart(6)} skipped`);
  }
  out.push('raiser found in:');
  for (const [src, n] of Object.entries(s.bySource).sort((a, b) => b[1] - a[1])) out.push(`  ${String(n).padStart(6)}  ${src}`);
  out.push(`raise condition unknown (findings possible): ${s.conditionUnknown}`);
  out.push(s.reasons.length ? 'skipped by reason:' : 'skipped by reason: none');
  for (const r of s.reasons) out.push(`  ${String(r.count).padStart(6)}  ${r.reason}`, `          e.g. ${r.example}`);
  return `${out.join('\n')}\n`;
}
