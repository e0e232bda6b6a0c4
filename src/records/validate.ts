/** Field-level validation of a schemaVersion 2 record. */
import { compileMessagePattern } from './pattern.js';

export interface FieldIssue {
  field: string;
  message: string;
  /** The record cannot be used: it is skipped with a warning. */
  skipsRecord: boolean;
}

type Kind = 'string' | 'number' | 'string[]';
const REQUIRED: Record<string, Kind> = {
  id: 'string',
  repo: 'string',
  slug: 'string',
  errorMessage: 'string',
  errorClass: 'string',
  filePath: 'string',
  lineNumber: 'number',
  sourceCode: 'string',
  sourceCodeStart: 'number',
};
const OPTIONAL: Record<string, Kind> = {
  messagePattern: 'string',
  errorType: 'string',
  severity: 'string',
  githubUrl: 'string',
  documentation: 'string',
  triggerScenarios: 'string',
  commonSituations: 'string',
  solutions: 'string[]',
  exampleFix: 'string',
  handlingStrategy: 'string',
  validationCode: 'string',
  typeGuard: 'string',
  tryCatchPattern: 'string',
  preventionTips: 'string[]',
  tags: 'string[]',
  sourceCodeEnd: 'number',
  schemaVersion: 'number',
};

/**
 * Field size limits: records are untrusted data, and one 10 MB `sourceCode` took 15 s to compile
 * before it was skipped. A record over a limit is skipped with a warning naming the field.
 */
export const MAX_SOURCE_CODE = 256 * 1024;
export const MAX_STRING_FIELD = 64 * 1024;
export const MAX_LIST_ITEMS = 1000;

function sizeIssue(f: string, v: unknown): FieldIssue | undefined {
  const max = f === 'sourceCode' ? MAX_SOURCE_CODE : MAX_STRING_FIELD;
  if (typeof v === 'string' && v.length > max) return { field: f, message: `longer than ${max} characters (${v.length}): record skipped`, skipsRecord: true };
  if (Array.isArray(v)) {
    if (v.length > MAX_LIST_ITEMS) return { field: f, message: `more than ${MAX_LIST_ITEMS} items (${v.length}): record skipped`, skipsRecord: true };
    const long = v.findIndex((x) => typeof x === 'string' && x.length > MAX_STRING_FIELD);
    if (long >= 0) return { field: f, message: `item ${long + 1} is longer than ${MAX_STRING_FIELD} characters: record skipped`, skipsRecord: true };
  }
  return undefined;
}

function hasKind(v: unknown, k: Kind): boolean {
  if (k === 'string') return typeof v === 'string';
  if (k === 'number') return typeof v === 'number' && Number.isFinite(v);
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

export function validateRecord(rec: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const f of [...Object.keys(REQUIRED), ...Object.keys(OPTIONAL)]) {
    const big = sizeIssue(f, rec[f]);
    if (big) return [big]; // checked first: nothing else is worth reading in such a record
  }
  for (const [f, k] of Object.entries(REQUIRED)) {
    const v = rec[f];
    if (v === undefined || v === null) issues.push({ field: f, message: 'missing required field', skipsRecord: true });
    else if (!hasKind(v, k)) issues.push({ field: f, message: `expected ${k}, got ${describe(v)}`, skipsRecord: true });
    else if (k === 'string' && (v as string).trim() === '') issues.push({ field: f, message: 'must not be empty', skipsRecord: true });
  }
  for (const [f, k] of Object.entries(OPTIONAL)) {
    const v = rec[f];
    if (v === undefined || v === null) continue;
    if (!hasKind(v, k)) issues.push({ field: f, message: `expected ${k}, got ${describe(v)}`, skipsRecord: true });
  }
  if (typeof rec.schemaVersion === 'number' && rec.schemaVersion !== 2) {
    issues.push({ field: 'schemaVersion', message: `unsupported schemaVersion ${rec.schemaVersion} (expected 2)`, skipsRecord: true });
  }
  if (typeof rec.lineNumber === 'number' && typeof rec.sourceCodeStart === 'number' && typeof rec.sourceCode === 'string') {
    const rows = rec.sourceCode.split('\n').length;
    const row = rec.lineNumber - rec.sourceCodeStart;
    if (row < 0 || row >= rows) {
      issues.push({
        field: 'lineNumber',
        message: `line ${rec.lineNumber} is outside sourceCode (lines ${rec.sourceCodeStart}-${rec.sourceCodeStart + rows - 1})`,
        skipsRecord: false,
      });
    }
  }
  if (typeof rec.messagePattern === 'string') {
    const p = compileMessagePattern(rec.messagePattern);
    if (typeof p === 'string') issues.push({ field: 'messagePattern', message: p, skipsRecord: false });
  }
  return issues;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
