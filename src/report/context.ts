/** What every report format receives. */
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import type { Rule } from '../rules/types.js';

export interface ReportInput {
  diagnostics: Diagnostic[];
  errors: FileError[];
  /** Rules by id, for rule metadata (SARIF `rules[]`, statistics). */
  rules?: ReadonlyMap<string, Rule>;
  /** Source text by file (display path), for snippets and fingerprints. */
  sources?: ReadonlyMap<string, string>;
  /** Directory that relative display paths are relative to (default: the current directory). */
  cwd?: string;
}
