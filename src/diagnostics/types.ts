/** The diagnostic model every reporter reads. JSON output mirrors it (version 1: keep stable), fix edits written as lines and columns (report/fixinfo.ts). */
import type { Confidence, Severity } from '../rules/types.js';

export interface Diagnostic {
  ruleId: string;
  recordId: string;
  /** Path as given on the command line (or relative to it). */
  file: string;
  /** 1-based; columns count UTF-16 code units, as LSP does. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Severity;
  confidence: Confidence;
  errorClass: string;
  message: string;
  tips: string[];
  docsUrl?: string;
  /** The raising library line. */
  sourceUrl?: string;
  /** The rule's documentation page (docs/rules/), for rules of the bundled datasets (see docpage.ts). */
  helpUri?: string;
  /** Indirect path, outermost first. */
  via: string[];
  /** Why it is certain or possible, in a line: `always raises`, `mode='rw' is not one of 'r', 'w', 'x', 'a'`, `raises when not seq; seq is not known here`. */
  condition?: string;
  /** The receiver as written (`self._runtime`). */
  receiver?: string;
  /** Semantic fingerprint (rule, call target, enclosing function, index): stable across reformatting and moves. */
  fingerprint?: string;
  /** How to fix it (src/fix/): the record's pattern bound to this code, or why there is no automatic fix. */
  fix?: Fix;
  /**
   * The other records of this call that raise the same error (one finding per call and error:
   * src/diagnostics/group.ts), each with its condition; the finding stands for them all.
   */
  also?: { ruleId: string; recordId: string; confidence: Confidence; condition?: string; message: string }[];
  /**
   * Notebooks, in reports (src/report/notebook.ts): the code cell (1-based, every cell counted) that
   * `line`/`endLine` are relative to, and how many lines of the cells' joined module come before it.
   */
  cell?: { index: number; offset: number };
}

/** Like Ruff: `safe` fixes apply with `--fix`, `unsafe` ones also need `--unsafe-fixes`, `display-only` never apply. */
export type Applicability = 'safe' | 'unsafe' | 'display-only';
/** `none`: no automatic fix (no edits); `reason` says why. */
/** `remove-ignore`: removes unused ids from a suppression comment (the built-in raiselint/unused-ignore). */
export type FixStrategy = 'try-except' | 'type-guard' | 'replace' | 'remove-ignore' | 'none';

/**
 * A replacement of `text[start, end)` by `text`, in UTF-16 code-unit offsets of the file's decoded
 * text (see positions.ts): fixes and suppression edits keep this one shape until a reporter writes
 * them as lines and columns (`PositionedEdit`).
 */
export interface FixEdit {
  start: number;
  end: number;
  text: string;
}

/** A `FixEdit` as reporters write it: [line:column, endLine:endColumn), 1-based, UTF-16 columns as in Diagnostic. */
export interface PositionedEdit {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  text: string;
  /** Notebooks, in reports: the cell the lines are relative to. */
  cell?: number;
}

export interface Fix {
  applicability: Applicability;
  strategy: FixStrategy;
  /** One line: what the fix does and, when not safe, why. */
  reason: string;
  /** What it does in a few words, for an editor's menu (`Wrap in try/except TypeError, ValueError`); not in reports. */
  title?: string;
  edits: FixEdit[];
}

export interface FileError {
  file: string;
  line?: number;
  column?: number;
  kind: 'syntax' | 'decode' | 'read' | 'too-large' | 'internal' | 'fix';
  message: string;
}
