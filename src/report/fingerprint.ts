/**
 * Fingerprints for CI systems that track findings across commits. A finding's identity is its
 * semantic fingerprint (src/diagnostics/fingerprint.ts: rule, call target, enclosing function,
 * index; the one the baseline uses): GitLab's `fingerprint` and SARIF's `raiselint/v1` are built
 * from it and the file. SARIF's `primaryLocationLineHash` is, by GitHub's convention, a hash of the
 * code: the rule and the line the finding covers, whitespace removed, not its line number (moving
 * or re-indenting keeps it), with an occurrence counter for equal findings in one file. A finding
 * without a semantic fingerprint falls back to the content hash for both.
 */
import { cellLines } from './notebook.js';
import { createHash } from 'node:crypto';
import type { Diagnostic } from '../diagnostics/types.js';
import { splitLines } from '../parse/source.js';

export interface Fingerprints {
  /** `<16 hex>:<occurrence>`, as GitHub's `primaryLocationLineHash`. */
  lineHash: string;
  /** 32 hex digits, unique within a report: from the file and the semantic fingerprint. */
  full: string;
}

/** The text a diagnostic's region covers (whole lines when the source is unknown: empty). */
export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export function regionText(d: Span, lines: string[] | undefined): string {
  if (!lines) return '';
  if (d.line === d.endLine) return (lines[d.line - 1] ?? '').slice(d.column - 1, d.endColumn - 1);
  const out = [(lines[d.line - 1] ?? '').slice(d.column - 1)];
  for (let l = d.line + 1; l < d.endLine; l++) out.push(lines[l - 1] ?? '');
  out.push((lines[d.endLine - 1] ?? '').slice(0, d.endColumn - 1));
  return out.join('\n');
}

function sha(...parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
}

/** Fingerprints for each diagnostic, in order. */
export function fingerprints(diags: Diagnostic[], sources: ReadonlyMap<string, string> | undefined): Fingerprints[] {
  const linesByFile = new Map<string, string[] | undefined>();
  const seen = new Map<string, number>();
  return diags.map((d) => {
    if (!linesByFile.has(d.file)) {
      const src = sources?.get(d.file);
      linesByFile.set(d.file, src === undefined ? undefined : splitLines(src));
    }
    const lines = cellLines(d, linesByFile.get(d.file));
    // The whole first line of the finding: what the call sits in, not only the call.
    const context = lines ? (lines[d.line - 1] ?? '') : '';
    const code = `${context}\n${regionText(d, lines)}`.replace(/\s+/g, '');
    const base = sha(d.ruleId, code || `${d.line}:${d.column}`);
    const key = `${d.file}\0${base}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return {
      lineHash: `${base.slice(0, 16)}:${n}`,
      full: (d.fingerprint ? sha('semantic', d.file, d.fingerprint) : sha(base, d.file, String(n))).slice(0, 32),
    };
  });
}
