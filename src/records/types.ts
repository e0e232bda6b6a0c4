/** The upstream error-record format (schemaVersion 2), read as it is. */
export interface ErrorRecord {
  id: string;
  repo: string;
  slug: string;
  errorCode?: string | null;
  errorMessage: string;
  messagePattern?: string | null;
  errorType?: string | null;
  errorClass: string;
  httpStatus?: number | null;
  severity?: string | null;
  filePath: string;
  lineNumber: number;
  sourceCode: string;
  sourceCodeStart: number;
  sourceCodeEnd?: number | null;
  githubUrl?: string | null;
  documentation?: string | null;
  triggerScenarios?: string | null;
  commonSituations?: string | null;
  solutions?: string[] | null;
  exampleFix?: string | null;
  handlingStrategy?: string | null;
  validationCode?: string | null;
  typeGuard?: string | null;
  tryCatchPattern?: string | null;
  preventionTips?: string[] | null;
  tags?: string[] | null;
  backgroundTag?: string | null;
  analyzedSha?: string | null;
  analyzedAt?: string | null;
  schemaVersion?: number;
}

/** A record with where it came from. */
export interface LoadedRecord {
  record: ErrorRecord;
  datasetVersion?: string;
  /** Dataset file and 1-based line (JSON array: the element's line). */
  source: { file: string; line: number };
  /**
   * The record's library as installed in the checked project's environment (./ground.ts): the
   * window the compiler reads instead of `sourceCode` (the installed file around the raise, rows
   * as the file's), or why the record is not compiled (`skip`: this version does not raise there).
   */
  grounded?: {
    file: string;
    sourceCode?: string;
    sourceCodeStart?: number;
    line?: number;
    skip?: string;
    /** The installed module's plain classes (ground.ts `plainClasses`), read before its large classes are blanked. */
    plainClasses?: string[];
    /** What the module's platform names hold in the grounding interpreter (./values.ts): `_mswindows`, `os.sep`. */
    values?: Record<string, PlainValue>;
    /** The keys the module's dicts hold once it is imported (./values.ts): a registry's formats (`_ARCHIVE_FORMATS`). */
    keys?: Record<string, string[]>;
    /** Module-level names bound to a module instance's method (`randrange = _inst.randrange`), by `Class.method` (ground.ts `boundMethods`). */
    boundMethods?: Record<string, string[]>;
    /** The module's classes with bases and the methods each defines (ground.ts `moduleClasses`): its subclasses of the raising class. */
    classes?: Record<string, { bases: string[]; defs: string[] }>;
  };
}

/** A problem with one record of a dataset (invalid JSON is a DatasetError instead, which stops the run). */
/** A value the interpreter said (bool, int, str or None), as JSON has it. */
export type PlainValue = boolean | number | string | null;

export interface RecordProblem {
  file: string;
  line: number;
  field?: string;
  message: string;
  skipsRecord: boolean;
}
