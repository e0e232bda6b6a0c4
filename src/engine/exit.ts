/** The exit code of a check run (light: the CLI imports it without the checker). */
import type { Diagnostic, FileError } from '../diagnostics/types.js';

/** Exit code: 2 when a file could not be checked, 1 when an error-severity finding remains, else 0. */
export function exitCode(r: { diagnostics: Pick<Diagnostic, 'severity'>[]; errors: Pick<FileError, 'kind'>[] }): number {
  if (r.errors.some((e) => e.kind !== 'syntax')) return 2;
  return r.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}
