/**
 * `--fix` / `--diff` over a run: each file with applicable fixes goes through its own
 * lint-and-fix loop (./fix.ts), started from the run's findings of it, on the main thread and
 * worker threads (./fixpool.ts); then, with `write`, each changed file is written (atomically, and
 * not when it changed since the run read it). The run result is not changed: the findings, errors
 * and texts after the fixes come back as a new value.
 */
import type { RuleSet } from '../rules/ruleset.js';
import type { Diagnostic, Fix, FileError } from '../diagnostics/types.js';
import { applicable, distinctFixes } from '../fix/apply.js';
import { compareDiagnostics } from '../diagnostics/build.js';
import { groupByFile } from '../diagnostics/group.js';
import type { RunResult } from './run.js';
import { Source } from '../parse/kind.js';
import { aloneContext, type FileContext, type RunContext } from './filecontext.js';
import { writeFixed, type FixJob, type FixOptions } from './fix.js';
import type { FileFix } from './notebook-fix.js';
import { runFixJobs, type FixThreads, type RulesSource } from './fixpool.js';

export interface FixRunResult {
  /** Findings fixed (with --diff: that would be fixed). */
  fixed: number;
  /** Files whose text changes. */
  changed: FileFix[];
  /** The run's findings, errors and texts after the fixes (with --diff: as the run found them, with the fixes' errors). */
  diagnostics: Diagnostic[];
  errors: FileError[];
  sources: Map<string, string>;
  /** Worker threads the fix phase started, and the files they fixed. */
  workers: number;
  workerJobs: number;
}

/** What fixRun reads of a run: its findings and the bytes it checked, what it knew of each file, and where its rules are (for worker threads). */
export type FixableRun = Pick<RunResult, 'diagnostics' | 'errors' | 'sources' | 'originals'> & {
  context?: RunContext;
  contexts?: Map<string, FileContext>;
  rulesSource?: RulesSource;
};

export interface FixRunOptions extends FixOptions {
  write: boolean;
  /** Threads in all (default 1: the main thread only); workers start only when the fixing left pays for them. */
  jobs?: number;
  /** See FixThreads (0: start the workers at once). */
  spawnAfterMs?: number;
}

export async function fixRun(run: FixableRun, rules: RuleSet, opts: FixRunOptions): Promise<FixRunResult> {
  const accept = (f: Fix) => applicable(f.applicability, !!opts.unsafe);
  const out: FixRunResult = { fixed: 0, changed: [], diagnostics: [], errors: [...run.errors], sources: new Map(run.sources), workers: 0, workerJobs: 0 };
  const byFile = groupByFile(run.diagnostics);
  const errorsOf = groupByFile(run.errors);
  const jobs: FixJob[] = [];
  for (const [display, { abs, bytes }] of run.originals) {
    const mine = byFile.get(display) ?? [];
    if (!distinctFixes(mine, accept).length) continue;
    const file = run.contexts?.get(display) ?? aloneContext(display).file;
    // A notebook's findings are positioned in its cells: its module is linted afresh.
    const first = new Source(abs, bytes).isNotebook ? undefined : { diagnostics: mine, errors: errorsOf.get(display) ?? [] };
    jobs.push({ display, abs, bytes, file, first });
  }
  const threads: FixThreads | undefined =
    run.rulesSource && opts.jobs && opts.jobs > 1 ? { source: run.rulesSource, jobs: opts.jobs, spawnAfterMs: opts.spawnAfterMs } : undefined;
  const runCtx = run.contexts ? run.context : undefined;
  const { fixes, workers, workerJobs } = await runFixJobs(jobs, rules, runCtx, { unsafe: opts.unsafe }, threads);
  out.workers = workers;
  out.workerJobs = workerJobs;
  const left = new Map(byFile);
  jobs.forEach((job, i) => {
    const ff = fixes[i]!;
    // The run has the check's errors: a fix adds only its own.
    const newErrors = ff.errors.filter((e) => e.kind === 'fix');
    if (!ff.bytes) {
      out.errors.push(...newErrors);
      return;
    }
    if (opts.write) {
      // The bytes the run read: the file is not written if it changed since.
      const w = writeFixed(job.abs, job.display, run.originals.get(job.display)!.bytes, ff.bytes);
      if (!w.written) {
        out.errors.push(...newErrors, w.error!);
        return;
      }
      out.sources.set(job.display, ff.module ?? ff.after);
      left.set(job.display, ff.diagnostics);
    }
    out.errors.push(...newErrors);
    out.fixed += ff.fixed;
    out.changed.push(ff);
  });
  for (const ds of left.values()) out.diagnostics.push(...ds);
  out.diagnostics.sort(compareDiagnostics);
  return out;
}
