/**
 * JS/TS files in a configured run (project.ts): discovery also finds JS/TS files (in directories
 * and named); when the rules include JS/TS rules, they are checked by jsrun.ts and go through the
 * same per-file stage (configuration, suppressions, baseline) as Python files. Without JS/TS rules
 * they are dropped: the Python checker gets the files it got before.
 */
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import type { ConfigResolver, ResolvedConfig } from '../config/resolve.js';
import type { Rule } from '../rules/types.js';
import type { DiscoveredFile } from '../workspace/discover.js';
import { kindOf } from '../parse/kind.js';
import type { BatchStats, RawResult } from './batch.js';
import type { JsCheckOptions } from './jsrun.js';

/** What discovery also finds (`alsoFind`): JS/TS files. */
export const JS_FILES = /\.(?:[cm]?[jt]s|[jt]sx)$/;
/** Files checked by the JS/TS rules (declaration files are not code). */
export const isJsFile = (p: string) => kindOf(p) === 'js';

/** The files for the Python checker: all but the JS/TS files discovery also found. */
export function pythonFiles(found: DiscoveredFile[]): DiscoveredFile[] {
  return found.filter((f) => !JS_FILES.test(f.abs));
}

export interface JsPart {
  rules: Rule[];
  files: DiscoveredFile[];
}

/** With JS/TS rules: the JS/TS files, taken out of the Python list (and its configs) in place. */
export function splitJs(rules: Rule[], found: DiscoveredFile[], files: DiscoveredFile[], cfgs: ResolvedConfig[]): JsPart | undefined {
  if (!rules.length) return undefined;
  const js = found.filter((f) => isJsFile(f.abs));
  if (!js.length) return undefined;
  for (let i = files.length - 1; i >= 0; i--) {
    if (isJsFile(files[i]!.abs)) {
      files.splice(i, 1);
      cfgs.splice(i, 1);
    }
  }
  return { rules, files: js };
}

/** Checks the JS/TS files and appends them, their configs and results to the run's lists; returns run-level errors (a broken tsconfig). */
export async function checkJs(
  part: JsPart,
  files: DiscoveredFile[],
  cfgs: ResolvedConfig[],
  batch: { results: RawResult[]; stats: BatchStats },
  resolver: ConfigResolver,
  opts: JsCheckOptions = {},
): Promise<FileError[]> {
  const { checkJsFiles } = await import('./jsrun.js');
  const r = await checkJsFiles(part.files, part.rules, opts);
  for (let i = 0; i < part.files.length; i++) {
    files.push(part.files[i]!);
    cfgs.push(resolver.forFile(part.files[i]!.abs));
    batch.results.push(r.results[i]!);
  }
  batch.stats.files += part.files.length;
  batch.stats.js = r.stats;
  return r.errors;
}

/** `--fix` re-checks a fixed file with the Python checker: JS/TS files keep their fixes as display-only (editors and reports show them). */
export function displayOnlyFixes(abs: string, diagnostics: Diagnostic[]): void {
  if (!isJsFile(abs)) return;
  for (const d of diagnostics) {
    if (d.fix && d.fix.applicability !== 'display-only')
      d.fix = { ...d.fix, applicability: 'display-only', reason: `${d.fix.reason} (--fix does not edit JS/TS files)` };
  }
}
