/**
 * The check stage without the run around it, for the tests that compare its speed features (cache,
 * threads, prefilter) against a plain sequential check: raw findings, before the per-file stage
 * (config, suppressions, one finding per call and error). Users run src/engine/project.ts.
 */
import { checkFiles, rulesFor, textOf, type BatchOptions, type BatchStats } from '../../src/engine/batch.js';
import { checkFile, type CheckOptions } from '../../src/engine/check.js';
import { compareDiagnostics } from '../../src/diagnostics/build.js';
import type { Diagnostic, FileError } from '../../src/diagnostics/types.js';
import type { RuleOptions } from '../../src/compile/index.js';
import type { RuleSet } from '../../src/rules/ruleset.js';
import type { Rule } from '../../src/rules/types.js';
import { discover, type DiscoverOptions } from '../../src/workspace/discover.js';

export interface BatchResult {
  files: number;
  diagnostics: Diagnostic[];
  errors: FileError[];
  sources: Map<string, string>;
  /** The rules that have findings, by id (for reporters). */
  rules: Map<string, Rule>;
  ruleCount: number;
  stats: BatchStats;
}

/** Checks paths through the batch (snapshot, content cache, prefilter, threads) with the rules of `ruleOpts`. */
export async function checkPaths(paths: string[], ruleOpts: RuleOptions, opts: BatchOptions = {}): Promise<BatchResult> {
  const files = discover(paths, opts);
  const prepared = await rulesFor(ruleOpts, opts);
  try {
    const { results, stats } = await checkFiles(files, prepared, opts);
    const diagnostics: Diagnostic[] = [];
    const errors: FileError[] = [];
    const sources = new Map<string, string>();
    files.forEach((f, i) => {
      const r = results[i]!;
      diagnostics.push(...r.diagnostics);
      errors.push(...r.errors);
      if (r.diagnostics.length) {
        const { text } = textOf(f.abs, r);
        if (text !== undefined) sources.set(f.display, text);
      }
    });
    diagnostics.sort(compareDiagnostics);
    return {
      files: files.length,
      diagnostics,
      errors,
      sources,
      rules: prepared.snapshot.rulesById(diagnostics.map((d) => d.ruleId)),
      ruleCount: prepared.snapshot.meta.ruleCount,
      stats,
    };
  } finally {
    prepared.snapshot.close();
  }
}

/** The plain sequential check: each file read, decoded, parsed and checked in turn with rules compiled in this process. */
export function sequentialCheck(paths: string[], rules: RuleSet, opts: CheckOptions & DiscoverOptions = {}) {
  const files = discover(paths, opts);
  const diagnostics: Diagnostic[] = [];
  const errors: FileError[] = [];
  const sources = new Map<string, string>();
  for (const f of files) {
    const r = checkFile(f.abs, f.display, rules, opts);
    diagnostics.push(...r.diagnostics);
    errors.push(...r.errors);
    if (r.diagnostics.length && r.text !== undefined) sources.set(f.display, r.text);
  }
  diagnostics.sort(compareDiagnostics);
  return { files: files.length, diagnostics, errors, sources };
}
