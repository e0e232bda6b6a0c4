/** `--statistics`: findings counted per rule, most frequent first (as Ruff's `--statistics`). */
import type { Diagnostic } from '../diagnostics/types.js';
import { fixOf } from './fixinfo.js';

export interface RuleCount {
  ruleId: string;
  errorClass: string;
  count: number;
  certain: number;
  possible: number;
  /** How many of them carry a safe fix (`--fix` applies it). */
  fixable: number;
  /** How many carry an unsafe fix (applied only with `--unsafe-fixes`). */
  unsafeFixable: number;
}

export function statistics(diags: Diagnostic[]): RuleCount[] {
  const by = new Map<string, RuleCount>();
  for (const d of diags) {
    let c = by.get(d.ruleId);
    if (!c) by.set(d.ruleId, (c = { ruleId: d.ruleId, errorClass: d.errorClass, count: 0, certain: 0, possible: 0, fixable: 0, unsafeFixable: 0 }));
    c.count++;
    if (d.confidence === 'certain') c.certain++;
    else c.possible++;
    const f = fixOf(d);
    if (f?.applicability === 'safe') c.fixable++;
    else if (f?.applicability === 'unsafe') c.unsafeFixable++;
  }
  return [...by.values()].sort((a, b) => b.count - a.count || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
}

/**
 * As Ruff: `[*]` marks a rule with at least one fix `--fix` applies (a safe one, or an unsafe one
 * with `--unsafe-fixes`); `[-]` a rule whose only fixes are unsafe, so `--fix` alone fixes nothing.
 */
export function formatStatisticsText(diags: Diagnostic[], opts: { unsafeFixes?: boolean; quiet?: boolean } = {}): string {
  const rows = statistics(diags);
  if (!rows.length) return opts.quiet ? '' : 'All checks passed!\n';
  const cw = Math.max(...rows.map((r) => String(r.count).length));
  const iw = Math.max(...rows.map((r) => r.ruleId.length));
  const markOf = (r: RuleCount) => (r.fixable || (opts.unsafeFixes && r.unsafeFixable) ? '[*] ' : r.unsafeFixable ? '[-] ' : '    ');
  const marks = rows.map(markOf);
  const anyMark = marks.some((m) => m.trim());
  const out = rows.map(
    (r, i) =>
      `${String(r.count).padStart(cw)}\t${r.ruleId.padEnd(iw)}\t${anyMark ? marks[i] : ''}${r.errorClass} (${r.certain} certain, ${r.possible} possible)`,
  );
  if (opts.quiet) return out.join('\n') + '\n';
  const certain = rows.reduce((n, r) => n + r.certain, 0);
  out.push(
    `Found ${diags.length} finding${diags.length === 1 ? '' : 's'} (${certain} certain, ${diags.length - certain} possible) from ${rows.length} rule${rows.length === 1 ? '' : 's'}.`,
  );
  if (marks.includes('[*] ')) out.push(opts.unsafeFixes ? '[*] fixable with `--fix --unsafe-fixes`' : '[*] fixable with `--fix`');
  if (marks.includes('[-] ')) out.push('[-] only unsafe fixes: applied with `--fix --unsafe-fixes`');
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
