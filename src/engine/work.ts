/**
 * The per-file work of a batch run, shared by the main thread and the worker threads: read the
 * bytes, hash them (for the cache), run the prefilter on the undecoded bytes, and only for files
 * that can match decode, parse and check them. Trees are freed as soon as a file is done
 * (checkSource deletes them), so memory does not grow with the number of files; nor is the text
 * kept (see textOf in ./batch.ts).
 */
import { isUtf8 } from 'node:buffer';
import { codingCookie, DecodeError, decodeSource } from '../parse/source.js';
import { DEFAULT_MAX_FILE_SIZE, readRegular, sourceLimits } from '../parse/files.js';
import { readError } from './ioerror.js';
import { NotebookError } from '../parse/notebook.js';
import { Source } from '../parse/kind.js';
import type { Prefilter } from '../prefilter/index.js';
import type { RuleSet } from '../rules/ruleset.js';
import { sha256, trustedSig, type StatSig } from '../io/fingerprint.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import type { StrategyOption } from '../fix/plan.js';
import type { Directive } from '../suppress/directives.js';
import type { CheckOptions, checkSource as CheckSource } from './check.js';
import type { Pins } from '../rules/condition/versions.js';
import type { ProjectModules, Summarize } from '../semantic/crossfile.js';
import { projectModules, readModuleFromDisk } from './modules.js';
import { projectImports } from '../semantic/projectfacts.js';

const IMPORT = Buffer.from('import');
import { depSignatures } from './depsigs.js';

export interface FileTask {
  abs: string;
  display: string;
  /** Content hash of a cached result for this file: when the bytes hash to it, the result is reused. */
  expect?: string;
  /** How fixes are planned for this file (its config), when not the run's. */
  fixStrategy?: StrategyOption;
  /** The versions the file's project pins. */
  pins?: Pins;
}

export interface WorkResult {
  index: number;
  diagnostics: Diagnostic[];
  errors: FileError[];
  /** Suppression comments (plain data), read from the tree. */
  directives: Directive[];
  /** sha256 of the bytes checked (when hashing). */
  hash?: string;
  /** Trusted stat signature of the file as read. */
  sig?: StatSig;
  /** The bytes hash to `task.expect`: the cached result stands (nothing else is filled in). */
  reused?: boolean;
  /** The file was parsed (it passed the prefilter, or the prefilter is off). */
  parsed: boolean;
  bytes: number;
  /** Project modules summarised while checking it (cross-file: each once per thread). */
  summaries?: number;
  /** The project modules its findings were read from, with their stat signatures (they key its cached result). */
  deps?: [string, StatSig][];
  /** The decoded text and a copy of the bytes of a file with findings or directives, kept on the main thread within a budget (see FileChecker): not read again for reporters and fixes. */
  text?: string;
  source?: Buffer;
}

export interface WorkOptions extends CheckOptions {
  /** Hash file bytes for the content cache. */
  hash: boolean;
  /** Use the prefilter (default true): files that cannot match are never decoded or parsed. */
  prefilter: boolean;
  /** Larger files are not read: an io-error (default DEFAULT_MAX_FILE_SIZE). */
  maxFileSize?: number;
  /** Follow values through the project's own modules (semantic/crossfile.ts; default true). */
  crossFile?: boolean;
}

/** Rules on demand: the rule set that covers the trigger names a file mentions (null: all rules). */
export type RulesFor = (names: string[] | null) => RuleSet;

/** Reads files into one reusable buffer: no allocation per file. Only regular files, bounded (see parse/files.ts). */
export class FileReader {
  private holder = { buf: Buffer.allocUnsafe(1 << 20) };

  constructor(private readonly maxBytes = DEFAULT_MAX_FILE_SIZE) {}

  /**
   * Returns the bytes (a view valid until the next read) and, when `withSig`, the stat signature
   * taken before reading (for the cache). Throws FileReadError.
   */
  read(abs: string, withSig: boolean): { bytes: Buffer; sig?: StatSig } {
    const now = Date.now();
    const { bytes, st } = readRegular(abs, sourceLimits(this.maxBytes), this.holder);
    // The signature describes these bytes only if the file did not change size while we read.
    return { bytes, sig: withSig && bytes.length === st.size ? trustedSig(st, now) : undefined };
  }
}

const UTF8_COOKIE = /^utf[-_]?8(?:[-_]sig)?$/i;
const CODING = Buffer.from('coding');

/** True when a coding cookie is possible: the first two lines mention `coding`. */
function mayHaveCookie(bytes: Buffer): boolean {
  const first = bytes.indexOf(10);
  const second = first < 0 ? -1 : bytes.indexOf(10, first + 1);
  const end = second < 0 ? bytes.length : second;
  return bytes.subarray(0, Math.min(end, 400)).indexOf(CODING) >= 0;
}

/** Would decodeSource fail? Checked without decoding when the file is UTF-8 (the usual case). */
function decodeError(bytes: Buffer): string | undefined {
  const cookie = mayHaveCookie(bytes) ? codingCookie(bytes) : undefined;
  if ((!cookie || UTF8_COOKIE.test(cookie)) && isUtf8(bytes)) return undefined;
  try {
    decodeSource(bytes);
    return undefined;
  } catch (e) {
    if (e instanceof DecodeError) return e.message;
    throw e;
  }
}

export class FileChecker {
  private readonly reader: FileReader;
  /** The parser and the checker are loaded with the first file that needs them (none may). */
  private check?: typeof CheckSource;
  /** The project's modules this checker has read (one set per thread), and the model's summarizer once loaded. */
  private modules?: ProjectModules;
  private summarize?: Summarize;

  /**
   * @param keepBytes bytes of files with findings or directives whose text and bytes the results
   * keep (the main thread's checker: a worker's results are cloned, so it keeps none). The
   * reporters and fixes need them; beyond the budget such files are read again (batch.ts textOf).
   */
  constructor(
    private readonly prefilter: Prefilter,
    private readonly rulesFor: RulesFor,
    private readonly opts: WorkOptions,
    private keepBytes = 0,
  ) {
    this.reader = new FileReader(opts.maxFileSize);
  }

  /** The check's options for a task, made once per fix strategy and pins (files of one folder share their pins object). */
  private checkOptions(task: FileTask): CheckOptions {
    let byStrategy = this.optionsBy.get(task.pins);
    if (!byStrategy) this.optionsBy.set(task.pins, (byStrategy = new Map()));
    let o = byStrategy.get(task.fixStrategy);
    // The prefilter has decided (on the bytes, as checkSource would on the text): not again.
    if (!o)
      byStrategy.set(
        task.fixStrategy,
        (o = {
          ...this.opts,
          prefilter: false,
          fixStrategy: task.fixStrategy ?? this.opts.fixStrategy,
          pins: task.pins ?? this.opts.pins,
          modules: this.project(),
        }),
      );
    return o;
  }

  /** The dependencies' stat signatures taken by this checker (one run: a module is read once). */
  private readonly depSigs = new Map<string, StatSig>();

  private readonly optionsBy = new Map<Pins | undefined, Map<StrategyOption | undefined, CheckOptions>>();

  /**
   * The prefilter's names for a file (null: it cannot match), also through the project modules it
   * imports (cross-file): a class they make, a function there that calls a rule's method on what it
   * is passed. Passed over or not, what it was decided with (those modules) keys its cached result.
   */
  private candidates(bytes: Buffer, abs: string, out: WorkResult): string[] | null {
    const modules = this.project();
    const project = modules && bytes.indexOf(IMPORT) >= 0 ? projectImports(modules, abs, () => safeDecode(bytes), this.prefilter) : undefined;
    let names = this.prefilter.candidateBytes(bytes, bytes.length, this.prefilter.needsText ? safeDecode(bytes) : undefined, project);
    if (names === null && project) names = this.prefilter.passedNames(bytes, bytes.length, project);
    if (project) out.deps = depSignatures(project.read(), this.depSigs);
    return names;
  }

  /** The project's modules (cross-file), made on first use: summaries are computed once the model is loaded. */
  private project(): ProjectModules | undefined {
    if (this.opts.crossFile === false) return undefined;
    return (this.modules ??= projectModules(this.rulesFor([]), (t, f, v) => this.summarize!(t, f, v), readModuleFromDisk(this.opts.maxFileSize)));
  }

  /** Keeps the text and a copy of the bytes of a file that has findings or directives, while the budget lasts (not notebooks: their text is made from cells). */
  private keep(out: WorkResult, src: Source, text: string, bytes: Buffer): void {
    if ((!out.diagnostics.length && !out.directives.length) || bytes.length > this.keepBytes || src.isNotebook) return;
    this.keepBytes -= bytes.length;
    out.text = text;
    out.source = Buffer.from(bytes);
  }

  /** Processes one file. Never throws for a bad file: problems become FileErrors, as in checkFile. */
  async process(index: number, task: FileTask): Promise<WorkResult> {
    const { display } = task;
    let bytes: Buffer;
    let sig: StatSig | undefined;
    try {
      ({ bytes, sig } = this.reader.read(task.abs, this.opts.hash));
    } catch (e) {
      return { index, diagnostics: [], errors: [readError(display, e)], directives: [], parsed: false, bytes: 0 };
    }
    const out: WorkResult = { index, diagnostics: [], errors: [], directives: [], parsed: false, bytes: bytes.length, sig };
    if (this.opts.hash) {
      out.hash = sha256(bytes);
      if (task.expect === out.hash) {
        out.reused = true;
        return out;
      }
    }
    // A notebook is checked as the module of its code cells (../parse/kind.ts).
    const src = new Source(task.abs, bytes);
    try {
      bytes = src.checked();
    } catch (e) {
      if (!(e instanceof NotebookError)) throw e;
      out.errors.push({ file: display, kind: 'decode', message: e.message });
      return out;
    }
    let names: string[] | null = null;
    if (this.opts.prefilter) {
      names = this.candidates(bytes, task.abs, out);
      if (names === null) {
        const err = decodeError(bytes);
        if (err) out.errors.push({ file: display, kind: 'decode', message: err });
        return out;
      }
    }
    let text: string;
    try {
      text = decodeSource(bytes).text;
    } catch (e) {
      if (e instanceof DecodeError) {
        out.errors.push({ file: display, kind: 'decode', message: e.message });
        return out;
      }
      throw e;
    }
    out.parsed = true;
    try {
      const rules = this.rulesFor(names);
      if (!this.check) {
        const [{ initParser }, { checkSource }, { summarizer }] = await Promise.all([
          import('../parse/parser.js'),
          import('./check.js'),
          import('../semantic/model.js'),
        ]);
        await initParser();
        this.check = checkSource;
        this.summarize = summarizer(rules);
      }
      const before = this.modules?.computed ?? 0;
      const r = this.check(text, display, rules, this.checkOptions(task), task.abs);
      out.summaries = (this.modules?.computed ?? 0) - before;
      out.diagnostics = r.diagnostics;
      out.deps = depSignatures([...new Set([...(r.deps ?? []), ...(out.deps ?? []).map(([f]) => f)])], this.depSigs);
      // A notebook's syntax error is said by cell and line (its diagnostics are placed by the reporters).
      out.errors = r.errors.map((e) => src.place(e, text));
      out.directives = r.directives ?? [];
      // Beyond the budget (and in workers) the text is not kept: the files with findings (all of
      // site-packages' sources with 1,760 records: ~50 MB) are read again for code frames and fixes (textOf).
      this.keep(out, src, text, bytes);
    } catch (e) {
      out.diagnostics = [];
      out.errors = [{ file: display, kind: 'internal', message: `internal error while checking: ${(e as Error).message}` }];
    }
    return out;
  }
}

function safeDecode(bytes: Buffer): string | undefined {
  try {
    return decodeSource(bytes).text;
  } catch {
    return undefined;
  }
}
