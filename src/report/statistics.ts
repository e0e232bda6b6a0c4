/** `--statistics`: findings counted per rule, most frequent first (as Ruff's `--statistics`). */
import type { Diagnostic } from '../diagnostics/types.js';
import { fixOf } from './fixinfo.js';

export interface RuleCount {
  ruleId: string;
  errorClass: string;
  count: number;
  certain: number;
  possible: number;
  /** How many of them carry a fix that `--fix` or `--unsafe-fixes` applies. */
  fixable: number;
}

export function statistics(diags: Diagnostic[]): RuleCount[] {
  const by = new Map<string, RuleCount>();
  for (const d of diags) {
    let c = by.get(d.ruleId);
    if (!c) by.set(d.ruleId, (c = { ruleId: d.ruleId, errorClass: d.errorClass, count: 0, certain: 0, possible: 0, fixable: 0 }));
    c.count++;
    if (d.confidence === 'certain') c.certain++;
    else c.possible++;
    const f = fixOf(d);
    if (f && f.applicability !== 'display-only') c.fixable++;
  }
  return [...by.values()].sort((a, b) => b.count - a.count || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
}

export function formatStatisticsText(diags: Diagnostic[]): string {
  const rows = statistics(diags);
  if (!rows.length) return 'All checks passed!\n';
  const cw = Math.max(...rows.map((r) => String(r.count).length));
  const iw = Math.max(...rows.map((r) => r.ruleId.length));
  const anyFix = rows.some((r) => r.fixable);
  const out = rows.map((r) => {
    const mark = anyFix ? (r.fixable ? '[*] ' : '    ') : '';
    return `${String(r.count).padStart(cw)}\t${r.ruleId.padEnd(iw)}\t${mark}${r.errorClass} (${r.certain} certain, ${r.possible} possible)`;
  });
  const certain = rows.reduce((n, r) => n + r.certain, 0);
  out.push(`Found ${diags.length} finding${diags.length === 1 ? '' : 's'} (${certain} certain, ${diags.length - certain} possible) from ${rows.length} rule${rows.length === 1 ? '' : 's'}.`);
  if (anyFix) out.push('[*] fixable with `--fix` (some with `--unsafe-fixes`)');
  return out.join('\n') + '\n';
}

export function formatStatisticsJson(diags: Diagnostic[]): string {
  return JSON.stringify(statistics(diags), null, 2) + '\n';
}

export function formatStatisticsJsonLines(diags: Diagnostic[]): string {
  return statistics(diags)
    .map((r) => JSON.stringify(r) + '\n')
    .join('');
}
