/**
 * A batch run over many files: the content cache, the prefilter and worker threads.
 *
 *  1. Discover the files; prepare the rules (a compiled-rules snapshot, see rulesource.ts).
 *  2. Content cache: a file whose trusted stat signature is unchanged reuses its cached result
 *     without being read; others are read and hashed, and reuse it when the hash is unchanged.
 *  3. The remaining files are claimed one by one (./claims.ts: the main thread from the front of
 *     the list, worker threads from its back) by the main thread and up to `jobs - 1` worker
 *     threads, started only when the work pays for their start-up (~0.05-0.3 s each on a small
 *     machine): many files to read, or enough parsing work seen. Each file is read into a reused
 *     buffer and prefiltered on its bytes; only files that can match are decoded and parsed.
 *  4. Results are merged in discovery order (diagnostics sorted as runCheck sorts them), whatever
 *     thread produced them: the output is identical for any `jobs`, with or without the cache.
 */
import { availableParallelism } from 'node:os';
import { statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import type { Worker as WorkerType } from 'node:worker_threads';
import { lazyWorker } from './lazy.js';
import { hashParts, sameSig, statSig } from '../io/fingerprint.js';
import { ResultCache, type CacheEntry } from '../cache/results.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { readRegular } from '../parse/files.js';
import { isIoError } from './ioerror.js';
import { Source } from '../parse/kind.js';

import type { StrategyOption } from '../fix/plan.js';
import type { Directive } from '../suppress/directives.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { Pins } from '../rules/condition/versions.js';
import type { DiscoverOptions } from '../workspace/discover.js';
import type { CheckOptions } from './check.js';
import { codeId, prepareRules, type PreparedRules, type RuleOptions } from '../compile/index.js';
import type { ThreadData, ThreadMessage } from './thread.js';
import { FileChecker, type WorkResult, type FileTask, type WorkOptions } from './work.js';
import { depsUnchanged } from './depsigs.js';
import { BOUND_AFTER_BYTES, boundHeapGrowth, restoreHeapGrowth } from './heap.js';
import { THREAD_MARK, threadUrl } from './threadurl.js';
import { claim, claimsBuffer } from './claims.js';

/** Re-reading a checked file for code frames and fixes: bounded, far above any --max-file-size in use. */
const MAX_REREAD_BYTES = 1024 * 1024 * 1024;

export const DEFAULT_CACHE_DIR = '.raiselint_cache';
/**
 * Parsing work (bytes of files that pass the prefilter) that makes worker threads worth starting:
 * seen by the main thread, or projected for the files left from those seen so far. A worker's
 * start-up (WebAssembly, snapshot, a cold JIT) costs more than a few MB of parsing saves; the
 * measurements behind the value are on docs/performance.md ("Threads").
 * `RAISELINT_SPAWN_AFTER_BYTES` overrides it (tests start a worker on a small corpus with it).
 */
export const DEFAULT_SPAWN_AFTER_BYTES = 6 * 1024 * 1024;

function spawnAfterFromEnv(): number | undefined {
  const v = process.env.RAISELINT_SPAWN_AFTER_BYTES;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}
/** Files the main thread checks before it projects the parsing work of the rest. */
export const SPAWN_SAMPLE_FILES = 16;

/**
 * Whether to start the workers, after the main thread has checked `done` of `total` files and
 * parsed `parsedBytes` of them: the parsing seen, or the parsing projected for the files left (at
 * the rate seen over a sample), reaches `threshold`. A parse-heavy run starts them after the
 * sample instead of after a quarter of its work; a run the prefilter keeps light never does.
 */
export function shouldSpawn(done: number, total: number, parsedBytes: number, threshold: number): boolean {
  if (done >= total) return false;
  if (parsedBytes >= threshold) return true;
  return done >= SPAWN_SAMPLE_FILES && (parsedBytes / done) * (total - done) >= threshold;
}
/**
 * Files to read (and prefilter) above which worker threads start at once, to read in parallel
 * too: below it, a worker's start-up costs more than the reading it shares (the standard library,
 * 1,790 files and nothing to parse, is slower with one).
 */
export const DEFAULT_SPAWN_FOR_FILES = 8000;

/**
 * Threads by default: one per core (`--jobs` overrides). A worker starts only when the run has
 * enough parsing to share (see DEFAULT_SPAWN_AFTER_BYTES), so small and prefilter-bound runs stay
 * single-threaded whatever the default.
 */
export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

export interface BatchOptions extends CheckOptions, DiscoverOptions {
  /** Threads in all, the main thread included (default: defaultJobs()). */
  jobs?: number;
  /** Use the content cache (default true). */
  cache?: boolean;
  /** Cache directory (default `.raiselint_cache` in the current directory). */
  cacheDir?: string;
  /** Use the prefilter (default true). */
  prefilter?: boolean;
  /** Follow values through the project's own modules (default true). */
  crossFile?: boolean;
  /** See DEFAULT_SPAWN_AFTER_BYTES (0: start the workers at once; tests use it). */
  spawnAfterBytes?: number;
  /** See DEFAULT_SPAWN_FOR_FILES. */
  spawnForFiles?: number;
  /** Anything else that changes per-file results; it keys the content cache. */
  cacheKeyExtra?: unknown;
  /** Files larger than this many bytes are not read (an io-error; default 10 MiB). */
  maxFileSize?: number;
}

export interface BatchStats {
  files: number;
  /** Results reused from the cache without reading the file. */
  cachedByStat: number;
  /** Results reused after reading and hashing the file. */
  cachedByHash: number;
  /** Files read. */
  read: number;
  /** Files parsed (passed the prefilter). */
  parsed: number;
  /** Project modules summarised for cross-file values (parsed and read at module level), over every thread. */
  summaries?: number;
  /** Worker threads started. */
  workers: number;
  /** Milliseconds spent compiling rules (0 when the snapshot was reused). */
  compileMs: number;
  ruleCount: number;
  /** Records derived from the installed modules the files import (`derive`), and how many modules. */
  derived?: { records: number; modules: number };
  /** JS/TS files (jsrun.ts), when JS/TS rules are loaded. */
  js?: JsStats;
}

/** A file to check, with the fix strategy of its configuration. */
export interface BatchFile {
  abs: string;
  display: string;
  /** The file's stat from discovery, if taken (saves a second stat when the cache is checked). */
  stat?: Stats;
  fixStrategy?: StrategyOption;
  /** Why it cannot be checked (from discovery): reported as an unreadable file, never read. */
  error?: string;
  /** The versions the file's project pins (they key its cached result). */
  pins?: Pins;
}

/** What checking one file gave (before configuration, suppressions and baseline). */
export interface RawResult {
  diagnostics: Diagnostic[];
  errors: FileError[];
  directives: Directive[];
  /** Decoded text, when the check kept it (standard input; a batch's main thread within a budget, else read again: textOf). */
  text?: string;
  /** The file's bytes, when the check kept its text (a batch's main thread). */
  bytes?: Buffer;
}

export interface JsStats {
  files: number;
  /** Files linted with type information (those that mention a rule's names, unless --no-prefilter, and have a call a rule reaches). */
  linted: number;
  /** Files in a program none of whose calls a rule reaches, as its types say (src/eslint/candidates.ts): not linted. */
  clearedByTypes: number;
  /** Files whose findings came from the content cache (neither linted nor in a program). */
  cached: number;
  /** Of those, files known unchanged by their stat and their dependencies' (TypeScript not loaded for them). */
  cachedByStat: number;
  programs: number;
  ms: number;
}

/**
 * Bytes of files with findings or directives whose text and bytes the main thread keeps from the
 * check (the run keeps them for the reporters anyway: with the budget, reading them again is saved
 * for ~800 of the parse-heavy corpus's 1,200 files, and memory stays bounded on site-packages).
 */
export const KEEP_TEXT_BYTES = 8 * 1024 * 1024;

/** Rules for a run (see rulesource.ts), in the cache directory of the options. */
export function rulesFor(ruleOpts: RuleOptions, opts: Pick<BatchOptions, 'cacheDir'> = {}): Promise<PreparedRules> {
  return prepareRules(ruleOpts, resolve(opts.cacheDir ?? DEFAULT_CACHE_DIR));
}

/**
 * Every rule, read from the compiled-rules snapshot in the cache directory (compiled and saved
 * when there is none), for the commands that need the whole catalog: `rules`, `explain`, the
 * language server. With 10,000 records this is a read of the snapshot, not seconds of compiling.
 * (`records check` compiles: it reports each record's compile outcome.)
 */
export async function catalogRules(ruleOpts: RuleOptions, cacheDir?: string): Promise<RuleSet> {
  return (await rulesFor(ruleOpts, { cacheDir })).snapshot.catalog();
}

interface Pending {
  tasks: FileTask[];
  /** For each task, the index of its file. */
  taskFile: number[];
  /** For each task, the cached entry that stands if the bytes still hash to it. */
  entries: (CacheEntry | undefined)[];
}

/** Files whose cached result stands by their stat signature get it; the others become tasks. */
function pendingFiles(
  files: BatchFile[],
  cache: ResultCache | undefined,
  optionsOf: (f: BatchFile) => string,
  results: RawResult[],
  stats: BatchStats,
  now: number,
): Pending {
  const p: Pending = { tasks: [], taskFile: [], entries: [] };
  files.forEach((f, i) => {
    if (f.error) {
      results[i] = { diagnostics: [], errors: [{ file: f.display, kind: 'read', message: `cannot read file: ${f.error}` }], directives: [] };
      return;
    }
    const e = cache?.get(f.abs);
    // A result read from project modules (cross-file) stands only while they are as they were.
    const usable = e && e.d === f.display && e.o === optionsOf(f) && depsUnchanged(e.deps) ? e : undefined;
    if (usable?.s) {
      let st;
      try {
        st = f.stat ?? statSync(f.abs);
      } catch {
        st = undefined;
      }
      if (st && sameSig(usable.s, statSig(st))) {
        results[i] = usable;
        cache!.touch(f.abs, now);
        stats.cachedByStat++;
        return;
      }
    }
    p.tasks.push({ abs: f.abs, display: f.display, expect: usable?.h, fixStrategy: f.fixStrategy, pins: f.pins });
    p.taskFile.push(i);
    p.entries.push(usable);
  });
  return p;
}

/** Runs the tasks on the main thread and, when the work pays for them, worker threads (see shouldSpawn). */
async function runTasks(tasks: FileTask[], prepared: PreparedRules, work: WorkOptions, opts: BatchOptions, stats: BatchStats): Promise<WorkResult[]> {
  const outs: (WorkResult | undefined)[] = new Array(tasks.length);
  const claims = claimsBuffer();
  const checker = new FileChecker(prepared.snapshot.prefilter, (names) => prepared.snapshot.ruleSetFor(names), work, KEEP_TEXT_BYTES);
  const jobs = Math.max(1, Math.floor(opts.jobs ?? defaultJobs()));
  const spawnAfter = opts.spawnAfterBytes ?? spawnAfterFromEnv() ?? DEFAULT_SPAWN_AFTER_BYTES;
  const finished: Promise<void>[] = [];
  const spawn = () => {
    boundHeapGrowth();
    const data: ThreadData = {
      files: tasks,
      counter: claims,
      snapshotPath: prepared.path,
      snapshotBytes: prepared.bytes,
      key: prepared.key,
      opts: work,
    };
    for (let w = 0; w < jobs - 1; w++) {
      stats.workers++;
      const Worker: typeof WorkerType = lazyWorker();
      const worker = new Worker(threadUrl(), { workerData: data, argv: [THREAD_MARK] });
      finished.push(
        new Promise<void>((done) => {
          worker.on('message', (m: ThreadMessage) => {
            if (m.kind === 'results') for (const r of m.results) outs[r.index] = r;
            else {
              done();
              void worker.terminate();
            }
          });
          // A worker that dies leaves its files unfinished: the main thread redoes them below.
          worker.on('error', () => done());
          worker.on('exit', () => done());
        }),
      );
    }
  };
  if (jobs > 1 && (spawnAfter <= 0 || tasks.length >= (opts.spawnForFiles ?? DEFAULT_SPAWN_FOR_FILES))) spawn();
  let parsedBytes = 0;
  for (;;) {
    const k = claim(claims, tasks.length, 'front');
    if (k === undefined) break;
    const o = await checker.process(k, tasks[k]!);
    outs[k] = o;
    if (o.parsed) parsedBytes += o.bytes;
    if (parsedBytes >= BOUND_AFTER_BYTES) boundHeapGrowth();
    if (jobs > 1 && !stats.workers && shouldSpawn(k + 1, tasks.length, parsedBytes, spawnAfter)) spawn();
  }
  await Promise.all(finished);
  for (let k = 0; k < tasks.length; k++) if (!outs[k]) outs[k] = await checker.process(k, tasks[k]!);
  return outs as WorkResult[];
}

/**
 * Checks files: content cache, prefilter, threads. Results are per file, in the order given,
 * whatever thread produced them.
 */
export async function checkFiles(files: BatchFile[], prepared: PreparedRules, opts: BatchOptions = {}): Promise<{ results: RawResult[]; stats: BatchStats }> {
  const cacheDir = resolve(opts.cacheDir ?? DEFAULT_CACHE_DIR);
  const header = prepared.snapshot.meta;
  const prefilter = opts.prefilter !== false;
  const useCache = opts.cache !== false;
  const work: WorkOptions = {
    minConfidence: opts.minConfidence,
    fixStrategy: opts.fixStrategy,
    hash: useCache,
    prefilter,
    maxFileSize: opts.maxFileSize,
    fixes: opts.fixes,
    crossFile: opts.crossFile !== false,
  };
  const stats: BatchStats = {
    files: files.length,
    cachedByStat: 0,
    cachedByHash: 0,
    read: 0,
    parsed: 0,
    workers: 0,
    compileMs: prepared.compileMs,
    ruleCount: header.ruleCount,
  };
  const optionsOf = (f: BatchFile) => `${f.fixStrategy ?? opts.fixStrategy ?? ''}${f.pins ? ` ${JSON.stringify(f.pins)}` : ''}`;
  const results: RawResult[] = new Array(files.length);
  const cache = useCache
    ? ResultCache.load(
        cacheDir,
        hashParts([
          codeId(),
          prepared.key,
          opts.minConfidence ?? 'possible',
          prefilter,
          `fixes=${opts.fixes !== false} cross-file=${opts.crossFile !== false}`,
          JSON.stringify(opts.cacheKeyExtra ?? null),
        ]),
      )
    : undefined;
  const now = Date.now();
  const { tasks, taskFile, entries } = pendingFiles(files, cache, optionsOf, results, stats, now);
  let outs: WorkResult[] = [];
  if (tasks.length) {
    try {
      outs = await runTasks(tasks, prepared, work, opts, stats);
    } finally {
      restoreHeapGrowth();
    }
  }
  for (let k = 0; k < tasks.length; k++) {
    const o = outs[k]!;
    const i = taskFile[k]!;
    const f = files[i]!;
    stats.read++;
    if (o.reused) {
      results[i] = entries[k]!;
      cache?.touch(f.abs, now, o.sig);
      stats.cachedByHash++;
      continue;
    }
    if (o.parsed) stats.parsed++;
    if (o.summaries) stats.summaries = (stats.summaries ?? 0) + o.summaries;
    results[i] = { diagnostics: o.diagnostics, errors: o.errors, directives: o.directives, text: o.text, bytes: o.source };
    if (cache && o.hash && !o.errors.some((e) => e.kind === 'internal' || e.kind === 'read' || e.kind === 'too-large')) {
      cache.set(f.abs, {
        h: o.hash,
        d: f.display,
        o: optionsOf(f),
        s: o.sig,
        t: now,
        deps: o.deps,
        diagnostics: o.diagnostics,
        errors: o.errors,
        directives: o.directives,
      });
    }
  }
  cache?.save();
  return { results, stats };
}

/** Where JS/TS results are cached (jsrun.ts), and the key their findings depend on besides each file's own inputs; undefined with --no-cache. */
export function jsCacheOf(prepared: PreparedRules, opts: Pick<BatchOptions, 'cache' | 'cacheDir' | 'prefilter'>): { dir: string; key: string } | undefined {
  if (opts.cache === false) return undefined;
  return { dir: resolve(opts.cacheDir ?? DEFAULT_CACHE_DIR), key: hashParts([codeId(), prepared.key, opts.prefilter !== false]) };
}

/** The text of a file (for code frames and fixes), from the check when it kept it, else read again. */
export function textOf(abs: string, r: RawResult): { text?: string; bytes?: Buffer } {
  // A regular file only (it may have been replaced by a FIFO since it was checked), bounded.
  if (r.errors.some(isIoError)) return { text: r.text };
  if (r.text !== undefined && r.bytes) return { text: r.text, bytes: r.bytes };
  try {
    const bytes = Buffer.from(readRegular(abs, { maxBytes: MAX_REREAD_BYTES }).bytes);
    // A notebook: the text is the module of its cells (as checked), the bytes its JSON (for fixes).
    return { text: r.text ?? new Source(abs, bytes).text(), bytes };
  } catch {
    return { text: r.text };
  }
}
