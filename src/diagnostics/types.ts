/** The diagnostic model every reporter reads. JSON output mirrors it (version 1: keep stable). */
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
  /** Indirect path, outermost first. */
  via: string[];
  /** The receiver as written (`self._runtime`). */
  receiver?: string;
  /** Semantic fingerprint (rule, call target, enclosing function, index): stable across reformatting and moves. */
  fingerprint?: string;
}

export interface FileError {
  file: string;
  line?: number;
  column?: number;
  kind: 'syntax' | 'decode' | 'read' | 'internal';
  message: string;
}
