/**
 * `raiselint records list`: the datasets a check of the paths would load, and why: bundled,
 * `--records`, a config's `records` (for the files under it), and derived from the modules the
 * checked files import (`derive`, from this machine's python3).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'raiselint.js');
type J = any;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'raiselint-list-'));
  mkdirSync(join(dir, 'svc'));
  writeFileSync(join(dir, 'svc', 'app.py'), 'import shlex\n\nprint(shlex.split("a b"))\n');
  writeFileSync(join(dir, 'tool.py'), 'print(1)\n');
  writeFileSync(join(dir, 'web.ts'), 'export const x = 1;\n');
  writeFileSync(join(dir, 'svc', 'pyproject.toml'), '[tool.raiselint]\nrecords = ["team.jsonl"]\n');
  copyFileSync(join(ROOT, 'fixtures', 'js', 'js-records.jsonl'), join(dir, 'svc', 'team.jsonl'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function list(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'records', 'list', '--cache-dir', join(dir, '.cache'), ...args], { cwd: dir, encoding: 'utf8' });
  return r;
}

describe('raiselint records list', () => {
  it('bundled, --records and a config dataset, each with why; none derived with --derive off', () => {
    const r = list('--format', 'json', '--derive', 'off', '--records', join(ROOT, 'fixtures', 'js', 'js-records.jsonl'));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as J;
    expect(doc.datasets.map((d: J) => [d.source, d.file.replace(ROOT, 'ROOT').replace(dir, 'DIR'), d.records])).toEqual([
      ['bundled', 'ROOT/rules/records/autogen-grpc-runtime.jsonl', 5],
      ['records-option', 'ROOT/fixtures/js/js-records.jsonl', 6],
      ['config', 'DIR/svc/team.jsonl', 6],
    ]);
    expect(doc.datasets[2].why).toMatch(/records = \[\.\.\.\] in pyproject\.toml .*svc\/pyproject\.toml\), for 1 checked file under it/);
    expect(doc).toMatchObject({ files: 2, jsFiles: 1, derive: 'off' });
  });

  it('by default (certain): the imported module of the installed Python, as check derives it; --no-bundled leaves the bundled one out', () => {
    const r = list('--no-bundled');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^config +svc\/team\.jsonl +6 records {2}records = /);
    expect(lines[1]).toMatch(
      /^derived +\.cache\/derived\/shlex-3\.\d+\.\d+-[0-9a-f]{16}\.jsonl +\d+ records {2}derive = "certain": the checked files import shlex/,
    );
    expect(lines.at(-1)).toBe('2 datasets for 2 Python files and 1 JS/TS file; derive = "certain"');
  });
});
