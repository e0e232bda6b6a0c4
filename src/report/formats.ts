/** The output formats of `raiselint check`, by name: one file per format, chosen here. */
import type { ReportInput } from './context.js';
import { formatGithub } from './github.js';
import { formatGitlab } from './gitlab.js';
import { formatJson } from './json.js';
import { formatJsonLines } from './jsonLines.js';
import { formatJunit } from './junit.js';
import { formatSarif } from './sarif.js';
import { formatStatisticsJson, formatStatisticsJsonLines, formatStatisticsText } from './statistics.js';
import { formatText } from './text.js';
import { withCells } from './notebook.js';

export const FORMATS = ['text', 'concise', 'json', 'json-lines', 'sarif', 'github', 'gitlab', 'junit'] as const;
export type Format = (typeof FORMATS)[number];

export interface RenderOptions {
  color?: boolean;
  /** Counts per rule instead of the findings. */
  statistics?: boolean;
  /** Findings fixed by this run (--fix), for the text summary. */
  fixed?: number;
  /** Unsafe fixes count as fixable (--unsafe-fixes). */
  unsafeFixes?: boolean;
  /** `--quiet`: the findings only, no summary (text, concise and statistics). */
  quiet?: boolean;
}

/** Formats whose report shows fixes or fixability (`[*]`, counts, edits); the others need no fix planned. */
export function showsFixes(format: Format): boolean {
  return format !== 'github' && format !== 'gitlab' && format !== 'junit';
}

/** Formats whose report includes files that could not be checked; for the others the CLI prints them to stderr. */
export function reportsErrors(format: Format): boolean {
  return format === 'text' || format === 'concise' || format === 'github' || format === 'junit';
}

export function renderReport(format: Format, report: ReportInput, opts: RenderOptions = {}): string {
  // Notebooks: positions relative to their cells (./notebook.ts).
  const input = { ...report, diagnostics: withCells(report.diagnostics, report.sources as ReadonlyMap<string, string> | undefined) };
  const { diagnostics: diags, errors } = input;
  if (opts.statistics) {
    if (format === 'json') return formatStatisticsJson(diags);
    if (format === 'json-lines') return formatStatisticsJsonLines(diags);
    return formatStatisticsText(diags, { unsafeFixes: opts.unsafeFixes, quiet: opts.quiet });
  }
  switch (format) {
    case 'text':
    case 'concise':
      return formatText(diags, errors, {
        color: opts.color,
        sources: input.sources as Map<string, string> | undefined,
        concise: format === 'concise',
        fixed: opts.fixed,
        unsafeFixes: opts.unsafeFixes,
        quiet: opts.quiet,
      });
    case 'json':
      return formatJson(diags, errors, input.sources);
    case 'json-lines':
      return formatJsonLines(diags, input.sources);
    case 'sarif':
      return formatSarif(input);
    case 'github':
      return formatGithub(input);
    case 'gitlab':
      return formatGitlab(input);
    case 'junit':
      return formatJunit(input);
  }
}
