/**
 * The records stage (docs/design.md): read record datasets. Accepts JSON Lines of `{"record": {...}, "datasetVersion": "..."}`
 * (the upstream format), a bare record per line, or a JSON array of either.
 */
import { readdirSync, statSync } from 'node:fs';
import { describeFsError, FileReadError, jsonErrorWords, readRegular, specialKind } from '../parse/files.js';
import { join } from 'node:path';
import type { ErrorRecord, LoadedRecord, RecordProblem } from './types.js';
import { validateRecord } from './validate.js';
import { firstByte, forEachLine, InvalidUtf8Error, invalidUtf8At } from './stream.js';

/** A skipped record, one line: `file:line: field 'x': why`. */
export function describeProblem(w: RecordProblem): string {
  return `${w.file}:${w.line}: ${w.field ? `field '${w.field}': ` : ''}${w.message}`;
}

/** A dataset file of a records folder that did not load (compile/load.ts: the others load). */
export function isUnloadedFile(w: RecordProblem): boolean {
  return w.message.startsWith('not loaded: ');
}

/** Duplicate-record warnings said one by one, up to this many; the rest as one line with their count. */
const SHOWN_DUPLICATES = 3;

/**
 * The warning lines of a rule set's problems, each `raiselint: warning: ...`: every problem, but
 * duplicate records beyond the first few summarised in one line (`verbose`: each one).
 */
export function warningLines(problems: readonly RecordProblem[], verbose = false): string[] {
  const out: string[] = [];
  let dup = 0;
  for (const w of problems) {
    if (!verbose && w.message.startsWith('duplicate record') && ++dup > SHOWN_DUPLICATES) continue;
    out.push(`raiselint: warning: ${describeProblem(w)}`);
  }
  if (dup > SHOWN_DUPLICATES) out.push(`raiselint: warning: ${dup - SHOWN_DUPLICATES} more duplicate records ignored (--verbose lists each)`);
  return out;
}

export interface LoadResult {
  records: LoadedRecord[];
  problems: RecordProblem[];
}

const DATASET_EXTENSIONS = ['.jsonl', '.json', '.ndjson'];
/** A JSON-array dataset larger than this is not read whole (JSON Lines are streamed, with a limit per line). */
export const MAX_DATASET_BYTES = 256 * 1024 * 1024;

/**
 * Expands a file-or-directory argument into dataset files (sorted; dot entries skipped). Folders
 * are walked iteratively, each real folder once (a link cycle ends); FIFOs, devices, sockets and
 * dangling links in a folder are not datasets and are skipped. A named path that is neither a
 * regular file nor a folder is a DatasetError.
 */
export function datasetFiles(path: string): string[] {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new DatasetError(path, 0, code === 'ENOENT' || code === 'ENOTDIR' ? 'records path not found' : `cannot read records path: ${describeFsError(e)}`);
  }
  if (st.isFile()) return [path];
  if (!st.isDirectory()) throw new DatasetError(path, 0, `records path is not a regular file or folder (${specialKind(st)})`);
  const out: string[] = [];
  const seen = new Set<string>([`${st.dev}:${st.ino}`]);
  const stack = [path];
  while (stack.length) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    const subdirs: string[] = [];
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const full = join(dir, name);
      let s;
      try {
        s = statSync(full);
      } catch {
        continue; // a dangling link, or removed meanwhile
      }
      if (s.isDirectory()) {
        const id = `${s.dev}:${s.ino}`;
        if (!seen.has(id)) {
          seen.add(id);
          subdirs.push(full);
        }
      } else if (s.isFile() && DATASET_EXTENSIONS.some((e) => name.endsWith(e))) out.push(full);
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
  return out.sort();
}

export class DatasetError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
  describe(): string {
    const where = this.line > 0 ? `${this.file}:${this.line}` : this.file;
    return `${where}: ${this.field ? `field '${this.field}': ` : ''}${this.message}`;
  }
}

export function loadDataset(file: string): LoadResult {
  const fail = (e: unknown): never => {
    if (e instanceof DatasetError) throw e;
    if (e instanceof InvalidUtf8Error) throw new DatasetError(file, e.line, `invalid UTF-8 at byte offset ${e.byteOffset} of the file`);
    throw new DatasetError(
      file,
      0,
      `cannot read records file: ${e instanceof FileReadError ? e.message : e instanceof Error && !(e as NodeJS.ErrnoException).code ? e.message : describeFsError(e)}`,
    );
  };
  let first: number | undefined;
  try {
    first = firstByte(file);
  } catch (e) {
    fail(e);
  }
  if (first === 0x5b) {
    // A JSON array is parsed whole (bounded by MAX_DATASET_BYTES).
    let text = '';
    try {
      const bytes = readRegular(file, { maxBytes: MAX_DATASET_BYTES }).bytes;
      const bad = invalidUtf8At(bytes);
      if (bad >= 0) throw new InvalidUtf8Error(bytes.subarray(0, bad).filter((b) => b === 10).length + 1, bad);
      text = bytes.toString('utf8');
    } catch (e) {
      fail(e);
    }
    return parseDataset(text, file);
  }
  // JSON Lines: streamed, so memory is the records kept, not the file's text.
  const out: LoadResult = { records: [], problems: [] };
  try {
    forEachLine(file, (l, line) => {
      if (l.trim()) addEntry(parseLine(l, file, line), line, file, out);
    });
  } catch (e) {
    fail(e);
  }
  return out;
}

function parseLine(l: string, file: string, line: number): unknown {
  try {
    return JSON.parse(l);
  } catch (e) {
    throw new DatasetError(file, line, jsonErrorWords(e, 'JSON Lines'));
  }
}

export function parseDataset(text: string, file: string): LoadResult {
  const out: LoadResult = { records: [], problems: [] };
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('[')) {
    let arr: unknown;
    try {
      arr = JSON.parse(trimmed);
    } catch (e) {
      throw new DatasetError(file, 1, jsonErrorWords(e, 'a JSON array of records'));
    }
    if (!Array.isArray(arr)) throw new DatasetError(file, 1, 'expected a JSON array of records');
    // Approximate element lines by the position of each `{` at depth 1.
    const lines = elementLines(trimmed);
    arr.forEach((value, i) => addEntry(value, lines[i] ?? 1, file, out));
  } else {
    text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .forEach((l, i) => {
        if (l.trim()) addEntry(parseLine(l, file, i + 1), i + 1, file, out);
      });
  }
  return out;
}

/** Validates one dataset entry: a record (kept, with its warnings) or a skipped one (a problem). */
function addEntry(value: unknown, line: number, file: string, { records, problems }: LoadResult): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DatasetError(file, line, 'expected a JSON object (a record or {"record": ...})');
  }
  const obj = value as Record<string, unknown>;
  const wrapped = 'record' in obj && typeof obj.record === 'object' && obj.record !== null;
  const rec = (wrapped ? obj.record : obj) as Record<string, unknown>;
  const issues = validateRecord(rec);
  const fatal = issues.find((i) => i.skipsRecord);
  if (fatal) {
    problems.push({ file, line, field: fatal.field, message: fatal.message, skipsRecord: true });
    return;
  }
  for (const i of issues) problems.push({ file, line, field: i.field, message: i.message, skipsRecord: false });
  records.push({
    record: rec as unknown as ErrorRecord,
    datasetVersion: wrapped && typeof obj.datasetVersion === 'string' ? obj.datasetVersion : undefined,
    source: { file, line },
  });
}

function elementLines(text: string): number[] {
  const out: number[] = [];
  let depth = 0;
  let line = 1;
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    if (inStr) {
      if (ch === '\\') i++;
      else if (ch === '"') inStr = false;
      continue;
    }
    if (ch === '"') inStr = true;
    else if (ch === '[' || ch === '{') {
      if (depth === 1 && ch === '{') out.push(line);
      depth++;
    } else if (ch === ']' || ch === '}') depth--;
  }
  return out;
}
