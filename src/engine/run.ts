/** Checks a set of paths: discovery, per-file pipeline, stable ordering. */
import type { RuleSet } from '../rules/ruleset.js';
import { compareDiagnostics } from '../diagnostics/build.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { discover, type DiscoverOptions } from '../workspace/discover.js';
import { checkFile, type CheckOptions } from './check.js';

export interface RunResult {
  files: number;
  diagnostics: Diagnostic[];
  errors: FileError[];
  sources: Map<string, string>;
  /** Absolute path and bytes as read, of each file with findings (for fixes). */
  originals: Map<string, { abs: string; bytes: Buffer }>;
}

export function runCheck(paths: string[], rules: RuleSet, opts: CheckOptions & DiscoverOptions = {}): RunResult {
  const files = discover(paths, opts);
  const diagnostics: Diagnostic[] = [];
  const errors: FileError[] = [];
  const sources = new Map<string, string>();
  const originals = new Map<string, { abs: string; bytes: Buffer }>();
  for (const f of files) {
    const r = checkFile(f.abs, f.display, rules, opts);
    diagnostics.push(...r.diagnostics);
    errors.push(...r.errors);
    if (r.diagnostics.length && r.text !== undefined) sources.set(f.display, r.text);
    if (r.diagnostics.length && r.bytes) originals.set(f.display, { abs: f.abs, bytes: r.bytes });
  }
  diagnostics.sort(compareDiagnostics);
  return { files: files.length, diagnostics, errors, sources, originals };
}

export { exitCode } from './exit.js';
