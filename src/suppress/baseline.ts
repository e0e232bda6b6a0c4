/**
 * Baseline files (`raiselint-baseline.json`): the findings a codebase already had, by semantic
 * fingerprint (see ../diagnostics/fingerprint.ts), so that only new ones are reported. Paths are
 * relative to the baseline file, so the file can be committed and used from any folder.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { FileReadError, jsonErrorWords, readRegularText } from '../parse/files.js';

/** A baseline larger than this is not one (a device, a mistake): 512 MiB holds millions of findings. */
const MAX_BASELINE_BYTES = 512 * 1024 * 1024;
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../diagnostics/types.js';

export const BASELINE_VERSION = 1;
export const DEFAULT_BASELINE = 'raiselint-baseline.json';

export interface BaselineEntry {
  file: string;
  ruleId: string;
  fingerprint: string;
  /** For people reading the file; not used to match. */
  line?: number;
  message?: string;
}

export interface Baseline {
  path: string;
  entries: BaselineEntry[];
}

export class BaselineError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

function posix(p: string): string {
  return p.split(sep).join('/');
}

/** The entry path of a diagnostic: its file relative to the baseline's folder. */
export function baselinePath(baselineFile: string, fileAbs: string): string {
  const rel = relative(dirname(resolve(baselineFile)), fileAbs);
  return isAbsolute(rel) ? posix(fileAbs) : posix(rel);
}

export function readBaseline(path: string): Baseline {
  if (!existsSync(path)) throw new BaselineError(path, 'baseline file not found (create it with --update-baseline)');
  let doc: unknown;
  try {
    doc = JSON.parse(readRegularText(path, MAX_BASELINE_BYTES));
  } catch (e) {
    if (e instanceof FileReadError) throw new BaselineError(path, `cannot read baseline: ${e.message}`);
    throw new BaselineError(path, jsonErrorWords(e, 'a raiselint baseline'));
  }
  const obj = doc as { version?: unknown; findings?: unknown };
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new BaselineError(path, 'expected a JSON object with "version" and "findings"');
  if (obj.version !== BASELINE_VERSION) throw new BaselineError(path, `field 'version': expected ${BASELINE_VERSION}, got ${JSON.stringify(obj.version)}`);
  if (!Array.isArray(obj.findings)) throw new BaselineError(path, `field 'findings': expected an array`);
  const entries: BaselineEntry[] = obj.findings.map((f: unknown, i: number) => {
    const e = f as Record<string, unknown>;
    for (const k of ['file', 'ruleId', 'fingerprint']) {
      if (typeof e?.[k] !== 'string') throw new BaselineError(path, `field 'findings[${i}].${k}': expected a string`);
    }
    return { file: e.file as string, ruleId: e.ruleId as string, fingerprint: e.fingerprint as string };
  });
  return { path, entries };
}

export function formatBaseline(path: string, diags: Diagnostic[], absOf: (d: Diagnostic) => string): string {
  const findings = diags
    .filter((d) => d.fingerprint)
    .map((d) => ({ file: baselinePath(path, absOf(d)), ruleId: d.ruleId, fingerprint: d.fingerprint!, line: d.line, message: d.message }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0)));
  return JSON.stringify({ version: BASELINE_VERSION, tool: 'raiselint', findings }, null, 2) + '\n';
}

export function writeBaseline(path: string, diags: Diagnostic[], absOf: (d: Diagnostic) => string): number {
  const text = formatBaseline(path, diags, absOf);
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    writeFileSync(path, text);
  } catch (e) {
    throw new BaselineError(path, `cannot write baseline (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return diags.filter((d) => d.fingerprint).length;
}

/**
 * Splits findings into new ones and those in the baseline (each entry matches at most one finding).
 * `stale` counts entries of the checked files (absolute paths) that matched nothing: fixed findings.
 */
export function filterBaseline(
  baseline: Baseline,
  diags: Diagnostic[],
  absOf: (d: Diagnostic) => string,
  checked: string[] = [],
): { fresh: Diagnostic[]; known: Diagnostic[]; stale: number } {
  const pool = new Map<string, number>();
  for (const e of baseline.entries) {
    const k = `${e.file}\0${e.ruleId}\0${e.fingerprint}`;
    pool.set(k, (pool.get(k) ?? 0) + 1);
  }
  const fresh: Diagnostic[] = [];
  const known: Diagnostic[] = [];
  for (const d of diags) {
    const k = `${baselinePath(baseline.path, absOf(d))}\0${d.ruleId}\0${d.fingerprint}`;
    const n = d.fingerprint ? (pool.get(k) ?? 0) : 0;
    if (n > 0) {
      pool.set(k, n - 1);
      known.push(d);
    } else fresh.push(d);
  }
  const files = new Set(checked.map((f) => baselinePath(baseline.path, f)));
  let stale = 0;
  for (const [k, n] of pool) if (files.has(k.split('\0')[0]!)) stale += n;
  return { fresh, known, stale };
}
