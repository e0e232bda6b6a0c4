/**
 * `--format github`: GitHub Actions workflow commands, one annotation per finding
 * (`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`). Escaping follows the runner:
 * `%`, CR and LF in the message; also `:` and `,` in property values.
 */
import { locationOf } from './notebook.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import type { ReportInput } from './context.js';
import { TOOL_NAME } from './tool.js';

export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(kind: 'error' | 'warning', props: [string, string | number | undefined][], message: string): string {
  const p = props.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${escapeProperty(String(v))}`);
  return `::${kind} ${p.join(',')}::${escapeData(message)}`;
}

function forDiagnostic(d: Diagnostic): string {
  const lines = [`${locationOf(d)}: ${d.ruleId}${d.confidence === 'possible' ? ' (possible)' : ''} ${d.message}`];
  for (const t of d.tips) lines.push(`help: ${t}`);
  if (d.sourceUrl) lines.push(`raised at: ${d.sourceUrl}`);
  return command(
    d.severity,
    [
      ['file', d.file],
      ['line', d.line],
      ['col', d.column],
      ['endLine', d.endLine],
      ['endColumn', d.endColumn],
      ['title', `${TOOL_NAME} (${d.ruleId})`],
    ],
    lines.join('\n'),
  );
}

function forError(e: FileError): string {
  return command(
    e.kind === 'syntax' ? 'warning' : 'error',
    [
      ['file', e.file],
      ['line', e.line],
      ['col', e.column],
      ['title', `${TOOL_NAME} (${e.kind} error)`],
    ],
    `${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}`,
  );
}

export function formatGithub(input: ReportInput): string {
  const out = [...input.diagnostics.map(forDiagnostic), ...input.errors.map(forError)];
  return out.length ? out.join('\n') + '\n' : '';
}
