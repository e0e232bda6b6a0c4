/**
 * `raiselint check -`: one source read from standard input, checked as the file named by
 * `--stdin-filename` would be (its configuration, its name in reports), as editors and
 * formatter-runners (ALE, none-ls, efm) call linters. No result is cached (the compiled rules are,
 * as in every run) and no file is written.
 */
import { resolve } from 'node:path';
import { initParser } from '../parse/parser.js';
import type { Pins } from '../rules/condition/versions.js';
import { NotebookError } from '../parse/notebook.js';
import { Source } from '../parse/kind.js';
import { checkBytes } from './check.js';
import { projectModules } from './modules.js';
import { summarizer } from '../semantic/model.js';
import type { BatchStats, RawResult } from './batch.js';
import type { PreparedRules } from '../compile/index.js';
import type { StrategyOption } from '../fix/plan.js';

export interface StdinSource {
  bytes: Buffer;
  /** The path the source stands for (`--stdin-filename`); reports show it, and its config applies. */
  filename?: string;
}

/** The file entry the source stands for: display name and absolute path (for its configuration). */
export function stdinFile(src: StdinSource): { abs: string; display: string } {
  return { abs: resolve(src.filename ?? 'stdin.py'), display: src.filename ?? '-' };
}

export async function checkStdin(
  src: StdinSource,
  prepared: PreparedRules,
  opts: { fixStrategy?: StrategyOption; prefilter?: boolean; pins?: Pins; crossFile?: boolean },
): Promise<{ results: RawResult[]; stats: BatchStats }> {
  await initParser();
  const { abs, display } = stdinFile(src);
  let bytes: Buffer;
  // `--stdin-filename x.ipynb`: the notebook's JSON, checked as the module of its code cells.
  const source = new Source(abs, src.bytes);
  try {
    bytes = source.checked();
  } catch (e) {
    if (!(e instanceof NotebookError)) throw e;
    const stats: BatchStats = {
      files: 1,
      cachedByStat: 0,
      cachedByHash: 0,
      read: 1,
      parsed: 0,
      workers: 0,
      compileMs: prepared.compileMs,
      ruleCount: prepared.snapshot.meta.ruleCount,
    };
    return { results: [{ diagnostics: [], errors: [{ file: display, kind: 'decode', message: e.message }], directives: [] }], stats };
  }
  const rules = prepared.snapshot.catalog();
  // The file it stands for is checked with what it imports from the project's modules, as on disk.
  const modules = opts.crossFile === false ? undefined : projectModules(rules, summarizer(rules));
  const r = checkBytes(bytes, display, rules, { fixStrategy: opts.fixStrategy, prefilter: opts.prefilter, pins: opts.pins, modules }, abs);
  const stats: BatchStats = {
    files: 1,
    cachedByStat: 0,
    cachedByHash: 0,
    read: 1,
    parsed: r.text === undefined ? 0 : 1,
    workers: 0,
    compileMs: prepared.compileMs,
    ruleCount: prepared.snapshot.meta.ruleCount,
  };
  // A notebook's syntax error is said by cell and line, as for a notebook file (./work.ts).
  const errors = r.text === undefined ? r.errors : r.errors.map((e) => source.place(e, r.text!));
  return { results: [{ diagnostics: r.diagnostics, errors, directives: r.directives ?? [], text: r.text }], stats };
}
