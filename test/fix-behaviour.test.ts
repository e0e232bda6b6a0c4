/**
 * Fixes a user can trust, by running the code (fixtures/behaviour): the functions of
 * fixtures/behaviour/app are called with the inputs of cases.json (harness.py) before and after
 * `raiselint check --fix`, with records generated from this machine's standard library.
 * - plain `--fix` keeps every result and every exception;
 * - `--fix --unsafe-fixes` changes a result only where the original raised the error its fix
 *   handles, and leaves no name undefined (no NameError for any input);
 * - record code is data: a record whose alternative calls `__import__(...)` is never written;
 * - a read-only file is left alone (exit 2), and a hard-linked file keeps its links.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, linkSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';
import { BIN } from './helpers/project.js';

const HERE = join(ROOT, 'fixtures', 'behaviour');
const GEN = join(ROOT, 'scripts', 'gen-stdlib-records.mjs');
type Results = Record<string, [string, string][]>;

let records: string;
beforeAll(() => {
  records = join(mkdtempSync(join(tmpdir(), 'raiselint-behaviour-')), 'stdlib.jsonl');
  execFileSync(process.execPath, [GEN, '--out', records], { encoding: 'utf8', maxBuffer: 1 << 30 });
}, 120_000);

function copyApp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'raiselint-app-'));
  cpSync(join(HERE, 'app'), dir, { recursive: true });
  return dir;
}

function check(dir: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const cache = mkdtempSync(join(tmpdir(), 'raiselint-bcache-'));
  return spawnSync(process.execPath, [BIN, 'check', '--no-config', '--no-bundled', '--records', records, '--cache-dir', cache, ...args, dir], {
    encoding: 'utf8',
  });
}

function behaviour(file: string): Results {
  return JSON.parse(execFileSync('python3', [join(HERE, 'harness.py'), file, join(HERE, 'cases.json')], { encoding: 'utf8' })) as Results;
}

describe('fixed code does what it did (fixtures/behaviour)', () => {
  const original = behaviour(join(HERE, 'app', 'tools.py'));

  it('the app has findings with these records, and the cases make some calls raise', () => {
    const r = check(join(HERE, 'app'), '--output-format', 'json');
    const ds = JSON.parse(r.stdout) as { diagnostics: unknown[] };
    expect(ds.diagnostics.length).toBeGreaterThan(5);
    const rows = Object.values(original).flat();
    expect(rows.filter(([k]) => k === 'raise').length).toBeGreaterThan(5);
    expect(rows.filter(([k]) => k === 'ok').length).toBeGreaterThan(5);
  });

  it('plain --fix keeps every result and exception', () => {
    const dir = copyApp();
    const r = check(dir, '--fix');
    expect(r.status, r.stderr).not.toBe(2);
    expect(behaviour(join(dir, 'tools.py'))).toEqual(original);
  });

  it('--unsafe-fixes changes only calls that raised the handled error, and leaves no name undefined', () => {
    const dir = copyApp();
    const before = readFileSync(join(dir, 'tools.py'), 'utf8');
    const r = check(dir, '--fix', '--unsafe-fixes');
    expect(r.status, r.stderr).not.toBe(2);
    const after = readFileSync(join(dir, 'tools.py'), 'utf8');
    // Something was fixed: this case is not vacuous.
    expect(after).not.toBe(before);
    const fixed = behaviour(join(dir, 'tools.py'));
    const handled = new Set([...after.matchAll(/^\s*except ([\w.]+)/gm)].map((m) => m[1]!.split('.').pop()!));
    for (const [name, rows] of Object.entries(original)) {
      rows.forEach(([kind, value], i) => {
        const now = fixed[name]![i]!;
        expect(now, `${name}(${i})`).not.toEqual(['raise', 'NameError']);
        if (kind === 'ok') expect(now, `${name}(${i}) worked before`).toEqual([kind, value]);
        else if (now[0] !== 'raise' || now[1] !== value) expect(handled.has(value), `${name}(${i}) raised ${value}, now ${now.join(' ')}`).toBe(true);
      });
    }
  });
});

/** The oracle's undefined names of each file (test/helpers/undefined_names.py: CPython's symtable). */
function undefinedNames(files: string[]): Record<string, string[]> {
  return JSON.parse(execFileSync('python3', [join(ROOT, 'test', 'helpers', 'undefined_names.py'), ...files], { encoding: 'utf8' })) as Record<string, string[]>;
}

describe('unsafe still means valid', () => {
  it('--fix --unsafe-fixes with the bundled records leaves no undefined name (fixtures/autogen and every fixtures/fixes input)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'raiselint-valid-'));
    const files: string[] = [];
    for (const f of readdirSync(join(ROOT, 'fixtures', 'autogen'))) {
      if (!f.endsWith('.py') || f === 'syntax_error.py') continue;
      cpSync(join(ROOT, 'fixtures', 'autogen', f), join(dir, f));
      files.push(join(dir, f));
    }
    for (const c of readdirSync(join(ROOT, 'fixtures', 'fixes'))) {
      cpSync(join(ROOT, 'fixtures', 'fixes', c, 'input.py'), join(dir, `${c}.py`));
      files.push(join(dir, `${c}.py`));
    }
    const before = undefinedNames(files);
    const texts = files.map((f) => readFileSync(f, 'utf8'));
    const r = spawnSync(process.execPath, [BIN, 'check', '--no-config', '--no-cache', '--fix', '--unsafe-fixes', dir], { encoding: 'utf8' });
    expect(r.status, r.stderr).not.toBe(2);
    const changed = files.filter((f, i) => readFileSync(f, 'utf8') !== texts[i]);
    expect(changed.length).toBeGreaterThan(10);
    const after = undefinedNames(files);
    for (const f of files)
      expect(
        after[f]!.filter((n) => !before[f]!.includes(n)),
        f,
      ).toEqual([]);
  });
});

describe('record code is untrusted data', () => {
  /** The generated record of statistics.median_low, its alternative edited to run a command. */
  function hostileRecords(): string {
    const entries = readFileSync(records, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { record: Record<string, string> });
    const entry = entries.find((e) => e.record.slug!.startsWith('median-low-no-median'))!;
    expect(entry).toBeTruthy();
    entry.record.tryCatchPattern = entry.record.tryCatchPattern!.replace(
      /except (.*) as exc:\n.*$/s,
      'except $1 as exc:\n    result = __import__("os").system("echo pwned")\n',
    );
    entry.record.exampleFix = entry.record.exampleFix!.replace(/except (.*):\n.*$/s, 'except $1:\n    result = __import__("os").system("echo pwned")\n');
    const file = join(mkdtempSync(join(tmpdir(), 'raiselint-hostile-')), 'hostile.jsonl');
    writeFileSync(file, `${JSON.stringify(entry)}\n`);
    return file;
  }

  it('an alternative that calls __import__ is shown, never written, by --fix or --unsafe-fixes; records check warns', () => {
    const file = hostileRecords();
    for (const flags of [['--fix'], ['--fix', '--unsafe-fixes']]) {
      const dir = copyApp();
      const before = readFileSync(join(dir, 'tools.py'), 'utf8');
      const r = spawnSync(process.execPath, [BIN, 'check', '--no-config', '--no-bundled', '--no-cache', '--records', file, ...flags, dir], {
        encoding: 'utf8',
      });
      expect(r.stdout).toContain('median_low');
      expect(r.stdout).toMatch(/fix \(display-only\).*`__import__`/);
      expect(readFileSync(join(dir, 'tools.py'), 'utf8')).toBe(before);
    }
    const rc = spawnSync(process.execPath, [BIN, 'records', 'check', file], { encoding: 'utf8' });
    expect(rc.stdout).toMatch(/warning {7}the fix code runs `__import__`/);
  });
});

describe('files --fix may not write', () => {
  it('a read-only file is left alone: "not fixed: read-only", exit 2', () => {
    const dir = copyApp();
    const file = join(dir, 'tools.py');
    const before = readFileSync(file);
    chmodSync(file, 0o444);
    const r = check(dir, '--fix', '--unsafe-fixes');
    expect(r.status).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/tools\.py: error: not fixed: read-only/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o444);
  });

  it('a hard-linked file is fixed in place: every link sees the fixed text', () => {
    const dir = copyApp();
    const file = join(dir, 'tools.py');
    const other = join(mkdtempSync(join(tmpdir(), 'raiselint-link-')), 'same.py');
    linkSync(file, other);
    const r = check(dir, '--fix', '--unsafe-fixes');
    expect(r.status, r.stderr).not.toBe(2);
    expect(readFileSync(other, 'utf8')).toBe(readFileSync(file, 'utf8'));
    expect(readFileSync(file, 'utf8')).toContain('except statistics.StatisticsError');
    expect(statSync(file).ino).toBe(statSync(other).ino);
  });
});
