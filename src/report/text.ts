/** Human output in the style of Ruff's full format: location, rule, message, the code with carets, tips, links. */
import { oneLine } from '../parse/files.js';
import pc from 'picocolors';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { splitLines } from '../parse/source.js';
import { cellLines, locationOf } from './notebook.js';

export interface TextOptions {
  color?: boolean;
  /** Source text by file, for code frames. */
  sources?: Map<string, string>;
  /** One line per finding, no code frame. */
  concise?: boolean;
  /** Findings fixed by this run (--fix). */
  fixed?: number;
  /** Unsafe fixes count as fixable (--unsafe-fixes). */
  unsafeFixes?: boolean;
  /** `--quiet`: findings and files that could not be checked, no summary. */
  quiet?: boolean;
}

/** Source lines longer than this are shown as a window around the finding. */
const MAX_SHOWN = 160;

/** The part of a long line around columns [column, end) (1-based), with `…` where it is cut, and the columns within it. */
function clip(line: string, column: number, end: number): { text: string; column: number; end: number } {
  if (line.length <= MAX_SHOWN) return { text: line, column, end };
  const from = Math.max(0, Math.min(column - 1 - 40, line.length - MAX_SHOWN));
  const to = Math.min(line.length, from + MAX_SHOWN);
  const lead = from > 0 ? '…' : '';
  const text = `${lead}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
  const shift = lead.length - from;
  return { text, column: column + shift, end: Math.min(end, to + 1) + shift };
}

export function formatText(diags: Diagnostic[], errors: FileError[], opts: TextOptions = {}): string {
  const c = pc.createColors(opts.color ?? false);
  const out: string[] = [];
  const linesCache = new Map<string, string[]>();
  for (const d of diags) {
    const sev = d.severity === 'error' ? c.red(c.bold(d.ruleId)) : c.yellow(c.bold(d.ruleId));
    const conf = d.confidence === 'possible' ? c.yellow(' (possible)') : '';
    const star = fixable(d, opts) ? ` ${c.cyan('[*]')}` : '';
    // One line each: a record's message, tip or condition may hold line breaks or control characters (shown escaped).
    out.push(`${c.bold(`${locationOf({ ...d, file: oneLine(d.file, Infinity) })}:`)} ${sev}${conf}${star} ${oneLine(d.message, Infinity)}`);
    if (opts.concise) continue;
    const src = opts.sources?.get(d.file);
    if (src !== undefined) {
      let lines = linesCache.get(d.file);
      if (!lines) linesCache.set(d.file, (lines = splitLines(src)));
      const full = cellLines(d, lines)[d.line - 1] ?? '';
      const width = String(d.line).length;
      const pad = ' '.repeat(width);
      // A long line (minified code, thousands of statements on one line) is shown around the finding only.
      const { text, column, end } = clip(full, d.column, d.endLine === d.line ? d.endColumn : full.length + 1);
      const caret = ' '.repeat(Math.max(0, column - 1)) + '^'.repeat(Math.max(1, end - column));
      out.push(`${pad} ${c.blue('|')}`);
      out.push(`${c.blue(String(d.line))} ${c.blue('|')} ${text.replace(/\t/g, '    ')}`);
      out.push(`${pad} ${c.blue('|')} ${(d.severity === 'error' ? c.red : c.yellow)(caret.replace(/\t/g, '    '))}`);
      out.push(`${pad} ${c.blue('|')}`);
      if (d.condition) out.push(`${pad} ${c.blue('=')} ${c.bold('when')}: ${oneLine(d.condition, Infinity)}`);
      for (const a of d.also ?? []) out.push(`${pad} ${c.blue('=')} ${c.bold('also')} (${a.ruleId}): ${oneLine(a.condition ?? a.message, Infinity)}`);
      for (const t of d.tips) out.push(`${pad} ${c.blue('=')} ${c.bold('help')}: ${oneLine(t, Infinity)}`);
      if (d.sourceUrl) out.push(`${pad} ${c.blue('=')} ${c.bold('raised at')}: ${d.sourceUrl}`);
      if (d.fix)
        out.push(`${pad} ${c.blue('=')} ${c.bold('fix')}${d.fix.strategy === 'none' ? '' : ` (${d.fix.applicability})`}: ${oneLine(d.fix.reason, Infinity)}`);
    } else {
      if (d.condition) out.push(`  = when: ${oneLine(d.condition, Infinity)}`);
      for (const a of d.also ?? []) out.push(`  = also (${a.ruleId}): ${oneLine(a.condition ?? a.message, Infinity)}`);
      for (const t of d.tips) out.push(`  = help: ${oneLine(t, Infinity)}`);
      if (d.sourceUrl) out.push(`  = raised at: ${d.sourceUrl}`);
    }
    out.push('');
  }
  for (const e of errors)
    out.push(
      `${c.bold(`${oneLine(e.file, Infinity)}${e.line ? `:${e.line}:${e.column ?? 1}` : ''}:`)} ${c.red(e.kind === 'syntax' ? 'warning' : 'error')}: ${e.message}`,
    );
  if (opts.quiet) return out.length ? out.join('\n') + '\n' : '';
  const certain = diags.filter((d) => d.confidence === 'certain').length;
  const possible = diags.length - certain;
  const plural = (n: number) => `${n} finding${n === 1 ? '' : 's'}`;
  if (opts.fixed !== undefined && opts.fixed > 0) {
    out.push(`Found ${plural(diags.length + opts.fixed)} (${opts.fixed} fixed, ${diags.length} remaining).`);
  } else if (diags.length) {
    out.push(`Found ${plural(diags.length)} (${certain} certain, ${possible} possible).`);
  } else if (errors.some((e) => e.kind !== 'syntax'))
    out.push(c.red(`No findings, but ${errors.filter((e) => e.kind !== 'syntax').length} file problem(s) above.`));
  else out.push(c.green('All checks passed!'));
  // Like Ruff: how many findings --fix would fix, and how many more --unsafe-fixes would.
  const fixes = new Set(diags.filter((d) => fixable(d, opts)).map((d) => d.fix));
  const hidden = new Set(diags.filter((d) => !opts.unsafeFixes && d.fix?.applicability === 'unsafe' && d.fix.edits.length).map((d) => d.fix));
  const nFix = diags.filter((d) => fixes.has(d.fix)).length;
  const nHidden = diags.filter((d) => hidden.has(d.fix)).length;
  if (nFix)
    out.push(
      `${c.cyan('[*]')} ${nFix} fixable with the \`--fix\` option${nHidden ? ` (${nHidden} hidden fix${nHidden === 1 ? '' : 'es'} can be enabled with the \`--unsafe-fixes\` option)` : ''}.`,
    );
  else if (nHidden) out.push(`No fixes available (${nHidden} hidden fix${nHidden === 1 ? '' : 'es'} can be enabled with the \`--unsafe-fixes\` option).`);
  return out.join('\n') + '\n';
}

function fixable(d: Diagnostic, opts: TextOptions): boolean {
  const f = d.fix;
  return !!f && f.edits.length > 0 && (f.applicability === 'safe' || (!!opts.unsafeFixes && f.applicability === 'unsafe'));
}
