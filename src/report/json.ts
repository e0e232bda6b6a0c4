/** `--format json`: a stable, versioned document other tools read. */
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { FixPositions } from './fixinfo.js';

export const JSON_FORMAT_VERSION = 1;

/** `sources`: the files' texts, by display path, that fix edits are positioned in (a fix whose file's text is not given is left out). */
export function formatJson(diags: Diagnostic[], errors: FileError[], sources?: ReadonlyMap<string, string>): string {
  const at = new FixPositions(sources);
  const doc = {
    version: JSON_FORMAT_VERSION,
    diagnostics: diags.map((d) => ({
      ruleId: d.ruleId,
      recordId: d.recordId,
      file: d.file,
      // Notebooks: the cell that line and endLine count from.
      ...(d.cell ? { cell: d.cell.index } : {}),
      line: d.line,
      column: d.column,
      endLine: d.endLine,
      endColumn: d.endColumn,
      severity: d.severity,
      confidence: d.confidence,
      errorClass: d.errorClass,
      message: d.message,
      tips: d.tips,
      docsUrl: d.docsUrl ?? null,
      sourceUrl: d.sourceUrl ?? null,
      via: d.via,
      // Why certain or possible, one line ("always raises", "mode='rw' is not one of 'r', 'w', 'x', 'a'").
      condition: d.condition ?? null,
      // Other records of this call raising the same error (one finding per call and error), each with its condition.
      ...(d.also?.length
        ? {
            also: d.also.map((a) => ({ ruleId: a.ruleId, recordId: a.recordId, confidence: a.confidence, condition: a.condition ?? null, message: a.message })),
          }
        : {}),
      fingerprint: d.fingerprint ?? null,
      // How to fix it: applicability (safe/unsafe/display-only), strategy, a one-line reason, edits (1-based, end exclusive).
      fix: fixJson(d, at),
    })),
    errors: errors.map((e) => ({ file: e.file, line: e.line ?? null, column: e.column ?? null, kind: e.kind, message: e.message })),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

/** How to fix it: applicability (safe/unsafe/display-only), strategy, a one-line reason, edits (1-based, end exclusive). */
function fixJson(d: Diagnostic, at: FixPositions): object | null {
  const edits = d.fix && at.edits(d);
  if (!d.fix || !edits) return null;
  return {
    applicability: d.fix.applicability,
    strategy: d.fix.strategy,
    reason: d.fix.reason,
    edits: edits.map((e) => ({
      ...(e.cell ? { cell: e.cell } : {}),
      line: e.line,
      column: e.column,
      endLine: e.endLine,
      endColumn: e.endColumn,
      text: e.text,
    })),
  };
}
