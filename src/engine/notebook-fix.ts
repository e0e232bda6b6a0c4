/**
 * `--fix` on a notebook: the module of its code cells is fixed as any Python file is (verified
 * round after round), then only the cells whose code changed are written back into the JSON.
 */
import { inCell, NotebookError, readNotebook, rewriteNotebook } from '../parse/notebook.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';

/** One file's fixes, in memory (./fix.ts fixBytes). */
export interface FileFix {
  file: string;
  /** Text before and after (UTF-8 decoded). */
  before: string;
  after: string;
  /** Bytes to write (undefined when nothing changed). */
  bytes?: Buffer;
  /** Findings fixed. */
  fixed: number;
  /** Findings left, positioned in the new text. */
  diagnostics: Diagnostic[];
  errors: FileError[];
  /** A notebook: the module of its code cells after the fixes (before/after are its JSON). */
  module?: string;
  /** Times the text was analysed (checked and finished) by the fix loop, the run's own check not counted. */
  lints?: number;
}

/** `fixModule` fixes Python bytes as `--fix` does (fix.ts's fixBytes, passed in: no import cycle). */
export function fixNotebook(original: Buffer, file: string, fixModule: (bytes: Buffer) => FileFix): FileFix {
  const json = original.toString('utf8');
  let nb;
  try {
    nb = readNotebook(json.replace(/^\uFEFF/, ''));
  } catch (e) {
    if (e instanceof NotebookError) return { file, before: '', after: '', fixed: 0, diagnostics: [], errors: [{ file, kind: 'decode', message: e.message }] };
    throw e;
  }
  const fixedModule = fixModule(Buffer.from(nb.module, 'utf8'));
  const ff = { ...fixedModule, errors: fixedModule.errors.map((e) => inCell(fixedModule.after, e)) };
  if (!ff.bytes) return { ...ff, module: ff.after };
  const bom = json.startsWith('\uFEFF') ? '\uFEFF' : '';
  let after: string;
  try {
    after = bom + rewriteNotebook(json.slice(bom.length), nb, ff.after);
  } catch (e) {
    if (!(e instanceof NotebookError)) throw e;
    return { file, before: ff.before, after: ff.before, fixed: 0, diagnostics: [], errors: [...ff.errors, { file, kind: 'fix', message: e.message }] };
  }
  return { ...ff, before: json, after, bytes: Buffer.from(after, 'utf8'), module: ff.after };
}
