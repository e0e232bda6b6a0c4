/** What a run found: findings, errors, the texts and bytes of the files with findings (for reporters and fixes). */
import type { Diagnostic, FileError } from '../diagnostics/types.js';

export interface RunResult {
  files: number;
  diagnostics: Diagnostic[];
  errors: FileError[];
  sources: Map<string, string>;
  /** Absolute path and bytes as read, of each file with findings (for fixes). */
  originals: Map<string, { abs: string; bytes: Buffer }>;
}

export { exitCode } from './exit.js';
