/** Field-level validation of a schemaVersion 2 record. */

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

function hasKind(v: unknown, k: Kind): boolean {
  if (k === 'string') return typeof v === 'string';
  if (k === 'number') return typeof v === 'number' && Number.isFinite(v);
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

export function validateRecord(rec: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = [];
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
      issues.push({ field: 'lineNumber', message: `line ${rec.lineNumber} is outside sourceCode (lines ${rec.sourceCodeStart}-${rec.sourceCodeStart + rows - 1})`, skipsRecord: false });
    }
  }
  if (typeof rec.messagePattern === 'string') {
    try {
      new RegExp(rec.messagePattern);
    } catch {
      issues.push({ field: 'messagePattern', message: 'not a valid regular expression', skipsRecord: false });
    }
  }
  return issues;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
