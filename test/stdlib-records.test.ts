/**
 * scripts/gen-stdlib-records.mjs and the records it generates, through the built CLI:
 * - the output is the dataset format (every required field, schemaVersion 2) and deterministic;
 * - records whose window lacks the `def`, starts inside a docstring or starts mid-block compile
 *   (test/data/window-lib/Lib/framing.py is laid out so its windows do), and the rules find their
 *   entry points in user code (test/data/window-lib/user/app.py) with `raiselint check`;
 * - on this machine's standard library, `records check` compiles at least 95% of all records and
 *   names a reason for every record it skips.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateRecord } from '../src/records/validate.js';
import { cli, ROOT } from './helpers.js';

const GEN = join(ROOT, 'scripts', 'gen-stdlib-records.mjs');
const LIB = join(ROOT, 'test', 'data', 'window-lib', 'Lib');
const USER = join(ROOT, 'test', 'data', 'window-lib', 'user');
const REQUIRED = ['id', 'repo', 'slug', 'errorMessage', 'errorClass', 'filePath', 'lineNumber', 'sourceCode', 'sourceCodeStart'];
const CODE_FIELDS = ['validationCode', 'tryCatchPattern', 'exampleFix'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'raiselint-stdlib-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const gen = (...args: string[]) => execFileSync(process.execPath, [GEN, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
const records = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { record: Record<string, unknown>; datasetVersion: string });

function expectDatasetFormat(entry: { record: Record<string, unknown>; datasetVersion: string }, source: (file: string) => string[]): void {
  expect(Object.keys(entry).sort()).toEqual(['datasetVersion', 'record']);
  expect(typeof entry.datasetVersion).toBe('string');
  const r = entry.record;
  for (const f of REQUIRED) expect(r[f], `${String(r.id)}: ${f}`).toBeTruthy();
  for (const f of CODE_FIELDS) expect(typeof r[f], `${String(r.id)}: ${f}`).toBe('string');
  expect(r.schemaVersion).toBe(2);
  expect(r.repo).toBe('python/cpython');
  expect(validateRecord(r)).toEqual([]);
  expect(String(r.filePath)).toMatch(/^Lib\/.+\.py$/);
  expect(String(r.githubUrl)).toMatch(/^https:\/\/github\.com\/python\/cpython\/blob\/v3\.\d+\.\d+\/Lib\/.+#L\d+-L\d+$/);
  // The window is the file's lines around the raise, not moved to include the def.
  const lines = source(String(r.filePath).slice(4));
  const start = r.sourceCodeStart as number;
  const line = r.lineNumber as number;
  const rows = String(r.sourceCode).split('\n');
  expect(rows).toEqual(lines.slice(start - 1, start - 1 + rows.length));
  expect(rows[line - start]).toMatch(/\braise\b/);
  expect(start === 1 || line - start === 18, `${String(r.id)}: window centred on the raise`).toBe(true);
  expect(r.sourceCodeEnd).toBe(start + rows.length - 1);
}

describe('gen-stdlib-records on a small library', () => {
  it('writes the dataset format, the same bytes on every run, and samples by seed', () => {
    const out = join(dir, 'window.jsonl');
    gen('--stdlib', LIB, '--out', out);
    const text = readFileSync(out, 'utf8');
    expect(gen('--stdlib', LIB)).toBe(text);
    const lines = records(text);
    expect(lines.map((l) => `${String(l.record.lineNumber)} ${String(l.record.errorClass)}`)).toEqual([
      '34 ValueError',
      '59 OverflowError',
      '91 ValueError',
      '98 ValueError',
    ]);
    const source = (f: string) => readFileSync(join(LIB, f), 'utf8').split('\n');
    for (const l of lines) expectDatasetFormat(l, source);
    const sample = gen('--stdlib', LIB, '--sample', '2', '--seed', '3');
    expect(gen('--stdlib', LIB, '--sample', '2', '--seed', '3')).toBe(sample);
    const picked = records(sample).map((l) => l.record.id);
    expect(picked).toHaveLength(2);
    for (const id of picked) expect(lines.map((l) => l.record.id)).toContain(id);
  });

  it('says what is wrong with a bad option in one line, exit 2', () => {
    const r = cli(['--version']);
    expect(r.code).toBe(0);
    for (const args of [
      ['--sample', 'x'],
      ['--stdlib', join(dir, 'missing')],
      ['--bogus', '1'],
    ]) {
      let err = '';
      let code = 0;
      try {
        execFileSync(process.execPath, [GEN, ...args], { encoding: 'utf8', stdio: 'pipe' });
      } catch (e) {
        const x = e as { status: number; stderr: string };
        code = x.status;
        err = x.stderr;
      }
      expect(code).toBe(2);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toMatch(/^gen-stdlib-records: /);
    }
  });
});

describe('records whose window cuts the def badly', () => {
  it('compile from a re-parsed window or from the code fields, and say so', () => {
    const out = join(dir, 'window.jsonl');
    gen('--stdlib', LIB, '--out', out);
    const r = cli(['records', 'check', out, '--format', 'json']);
    expect(r.code).toBe(0);
    const reports = (
      JSON.parse(r.stdout) as {
        records: { status: string; raiser: string; raiserKind: string; condition?: string; entryPoints: string[]; derivedFrom: Record<string, string> }[];
      }
    ).records;
    const seen = reports.map((x) => [x.status, x.raiser, x.raiserKind, x.condition ?? 'as shown', x.derivedFrom.raiser, x.entryPoints.join(' ')]);
    expect(seen).toEqual([
      // The def is 25 lines above the raise: outside the window.
      ['compiled', 'framing.read_frame', 'function', 'unknown', 'exampleFix, triggerScenarios, tryCatchPattern (no def in sourceCode)', 'framing.read_frame()'],
      // The window starts inside the class docstring.
      ['compiled', 'framing.Decoder.feed', 'method', 'as shown', 'sourceCode re-parsed from line 51', 'framing.Decoder.feed()'],
      // The window starts in an `if` block, more indented than the `else:` after it.
      ['compiled', 'framing.encode_frame', 'function', 'as shown', 'sourceCode re-parsed from line 89', 'framing.encode_frame()'],
      // Parsed from its first line, the window loses the class around this method: re-parsed, it has it.
      ['compiled', 'framing.Encoder.encode', 'method', 'as shown', 'sourceCode re-parsed from line 89', 'framing.Encoder.encode()'],
    ]);
    const text = cli(['records', 'check', out]).stdout;
    expect(text).toContain('    condition     not known: sourceCode shows no def around the raise (findings are possible)');
    expect(text).toContain(
      '    derived from  raiser: sourceCode re-parsed from line 51; module: filePath + imports; class: validationCode, typeGuard, tryCatchPattern, exampleFix, triggerScenarios; entry points: exampleFix, triggerScenarios, tryCatchPattern',
    );
  });

  it('are skipped with a reason naming the missing piece when the code fields do not name an entry point', () => {
    const lines = records(gen('--stdlib', LIB));
    const noDef = lines[0]!;
    const bare = {
      ...noDef.record,
      slug: 'bare',
      id: 'bare0',
      validationCode: null,
      tryCatchPattern: null,
      exampleFix: null,
      triggerScenarios: 'Reading a frame.',
      typeGuard: null,
    };
    const noClass = {
      ...noDef.record,
      slug: 'no-class',
      id: 'nocls0',
      validationCode: null,
      typeGuard: null,
      triggerScenarios: null,
      exampleFix: null,
      tryCatchPattern: 'try:\n    frames.push(blob)\nexcept ValueError:\n    pass',
    };
    const out = join(dir, 'skips.jsonl');
    writeFileSync(out, [noDef, { ...noDef, record: bare }, { ...noDef, record: noClass }].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = cli(['records', 'check', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `skips.jsonl:2 cpython/bare: skipped: no enclosing 'def' in sourceCode and no entry point in any code field: no call in a try body, the "# before" part of exampleFix or a code span of triggerScenarios`,
    );
    expect(r.stdout).toContain(
      `skips.jsonl:3 cpython/no-class: skipped: no enclosing 'def' in sourceCode and no entry point in any code field: the record names no class for the receiver of 'frames.push()' (no isinstance check, typeGuard or 'x = Class(...)' in the code fields)`,
    );
    const sum = cli(['records', 'check', out, '--summary']);
    expect(sum.code).toBe(1);
    expect(sum.stdout).toContain('3 records: 1 compiled (33.3%), 2 skipped\n');
    expect(sum.stdout).toContain('  function           1 compiled      0 skipped\n');
    expect(sum.stdout).toContain('  unknown            0 compiled      2 skipped\n');
    expect(sum.stdout).toContain('       1  code fields (no def in sourceCode)\n');
    expect(sum.stdout).toContain(
      "       1  no enclosing 'def' in sourceCode and no entry point in any code field: the record names no class for the receiver of '…' (no isinstance check, typeGuard or '…' in the code fields)\n",
    );
  });

  it('find their entry points in user code (raiselint check with the snapshot)', () => {
    const out = join(dir, 'window.jsonl');
    gen('--stdlib', LIB, '--out', out);
    const cache = join(dir, 'cache');
    const run = () => cli(['check', USER, '--no-bundled', '--records', out, '--cache-dir', cache, '--format', 'json']);
    const first = run();
    const again = run();
    for (const r of [first, again]) {
      expect(r.code).toBe(0);
      const found = (JSON.parse(r.stdout) as { diagnostics: { line: number; confidence: string; ruleId: string }[] }).diagnostics.map(
        (d) => `${d.line} ${d.confidence} ${d.ruleId}`,
      );
      expect(found).toEqual([
        '6 possible cpython/read-frame-not-a-frame-bad-magic',
        '12 possible cpython/feed-decoder-buffer-is-over-its-limit',
        '24 possible cpython/encode-frame-empty-payload',
        '28 possible cpython/encode-empty-payload',
      ]);
    }
  });
});

describe("this machine's standard library", () => {
  it('gives records in the dataset format, of which records check compiles at least 95%, naming every skip', () => {
    const out = join(dir, 'stdlib.jsonl');
    gen('--out', out);
    const lines = records(readFileSync(out, 'utf8'));
    expect(lines.length).toBeGreaterThan(1000);
    const stdlib = execFileSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: 'utf8' }).trim();
    const texts = new Map<string, string[]>();
    const source = (f: string) => texts.get(f) ?? (texts.set(f, readFileSync(join(stdlib, f), 'utf8').replace(/\r\n?/g, '\n').split('\n')), texts.get(f)!);
    for (const l of lines) expectDatasetFormat(l, source);
    expect(new Set(lines.map((l) => l.record.id)).size).toBe(lines.length);
    const kinds = new Set(lines.map((l) => (l.record.tags as string[]).at(-1)));
    for (const k of ['function', 'method', 'classmethod', 'constructor', 'property']) expect(kinds).toContain(k);

    const r = cli(['records', 'check', out, '--summary', '--format', 'json']);
    const s = (JSON.parse(r.stdout) as { summary: { records: number; compiled: number; skipped: number; reasons: { reason: string; count: number }[] } })
      .summary;
    expect(s.records).toBe(lines.length);
    expect(s.compiled / s.records).toBeGreaterThanOrEqual(0.95);
    expect(s.reasons.reduce((n, x) => n + x.count, 0)).toBe(s.skipped);
    for (const x of s.reasons) expect(x.reason).not.toMatch(/^unknown reason$/);
  }, 120_000);
});
