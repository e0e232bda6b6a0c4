/**
 * `raiselint/io-error` (as Ruff's E902): a file that could not be read or decoded is a finding of
 * severity error, not a failed run. It is reported in every format and counted by --statistics;
 * the exit code follows the findings (1). Exit 2 stays for runs that cannot go on.
 */
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { describeFsError, FileReadError } from '../parse/files.js';
import { builtinDiagnostic, IO_ERROR, TOO_LARGE } from '../suppress/builtin.js';

/** Read and decode problems of a file, and files too large to check. */
export function isIoError(e: Pick<FileError, 'kind'>): boolean {
  return e.kind === 'read' || e.kind === 'decode' || e.kind === 'too-large';
}

/** The file error for a failed read: too large (over --max-file-size or the memory bound), or unreadable. */
export function readError(display: string, e: unknown): FileError {
  if (e instanceof FileReadError && e.code === 'TOO_LARGE') return { file: display, kind: 'too-large', message: e.message };
  return { file: display, kind: 'read', message: `cannot read file: ${e instanceof FileReadError ? e.message : describeFsError(e)}` };
}

/** The io-error (or too-large) finding for a read or decode problem (line 1, or the line the decoder named). */
export function ioErrorDiagnostic(e: FileError): Diagnostic {
  if (e.kind === 'too-large') return { ...builtinDiagnostic(TOO_LARGE, e.file, 1, 1, 1, e.message), errorClass: 'MemoryError' };
  const message = e.kind === 'decode' ? `cannot decode file: ${e.message}` : e.message;
  const line = e.line && e.line > 0 ? e.line : 1;
  return { ...builtinDiagnostic(IO_ERROR, e.file, line, 1, 1, message), errorClass: e.kind === 'decode' ? 'UnicodeDecodeError' : 'OSError' };
}

/** Splits a file's errors: read/decode ones become findings, the others stay errors. */
export function splitIoErrors(errors: FileError[]): { findings: Diagnostic[]; rest: FileError[] } {
  if (!errors.some(isIoError)) return { findings: [], rest: errors };
  return { findings: errors.filter(isIoError).map(ioErrorDiagnostic), rest: errors.filter((e) => !isIoError(e)) };
}
