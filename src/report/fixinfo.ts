/**
 * The optional `fix` a diagnostic may carry (`{applicability, strategy, reason, edits}`, edits 1-based like
 * diagnostics). Read defensively: a diagnostic without one, or with a shape this reporter does not know,
 * has no fix in machine formats.
 */
import type { Diagnostic, FixEdit } from '../diagnostics/types.js';

export type { FixEdit };

export interface FixInfo {
  applicability: string;
  strategy?: string;
  reason?: string;
  edits: FixEdit[];
}

function isPos(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1;
}

export function fixOf(d: Diagnostic): FixInfo | undefined {
  const f = (d as { fix?: unknown }).fix;
  if (!f || typeof f !== 'object') return undefined;
  const o = f as Record<string, unknown>;
  if (!Array.isArray(o.edits) || !o.edits.length) return undefined;
  const edits: FixEdit[] = [];
  for (const e of o.edits as unknown[]) {
    if (!e || typeof e !== 'object') return undefined;
    const x = e as Record<string, unknown>;
    if (!isPos(x.line) || !isPos(x.column) || !isPos(x.endLine) || !isPos(x.endColumn) || typeof x.text !== 'string') return undefined;
    edits.push({ line: x.line, column: x.column, endLine: x.endLine, endColumn: x.endColumn, text: x.text });
  }
  return {
    applicability: typeof o.applicability === 'string' ? o.applicability : 'unsafe',
    strategy: typeof o.strategy === 'string' ? o.strategy : undefined,
    reason: typeof o.reason === 'string' ? o.reason : undefined,
    edits,
  };
}

/** Fixes that `--fix` (safe) or `--unsafe-fixes` could apply; display-only ones are not offered as edits. */
export function applicableFix(d: Diagnostic): FixInfo | undefined {
  const f = fixOf(d);
  return f && f.applicability !== 'display-only' ? f : undefined;
}

export function describeFix(f: FixInfo): string {
  const head = f.strategy ? `Apply the ${f.strategy} fix` : 'Apply the fix';
  return `${head} (${f.applicability})${f.reason ? `: ${f.reason}` : ''}`;
}
