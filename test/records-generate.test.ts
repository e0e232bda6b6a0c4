/**
 * `raiselint records generate`: records from Python code with the project's parser (no Python
 * needed to read it). A small installed distribution (test/data/generate/site: a package and its
 * dist-info), and the standard library, whose records are byte for byte those the Python-`ast`
 * generator wrote for the fixtures.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT, tempTree } from './helpers.js';

const SITE = join(ROOT, 'test', 'data', 'generate', 'site');
type Rec = {
  id: string;
  repo: string;
  filePath: string;
  lineNumber: number;
  errorClass: string;
  errorMessage: string;
  tags: string[];
  analyzedSha: string;
  githubUrl: string;
};
const records = (out: string): Rec[] =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { record: Rec }).record);

describe('raiselint records generate', () => {
  it('an installed distribution: one record per public raise site, with its name, version and file hash; the same bytes every time', () => {
    const r = cli(['records', 'generate', SITE]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('raiselint: 3 records from 1 files\n');
    const recs = records(r.stdout);
    expect(recs.map((x) => [x.filePath, x.lineNumber, x.errorClass, x.errorMessage])).toEqual([
      ['shapes/core.py', 10, 'ShapeError', 'unknown shape kind: {kind}'],
      ['shapes/core.py', 17, 'ValueError', 'radius must not be negative'],
      ['shapes/core.py', 21, 'NotImplementedError', 'Circle.scale is not implemented in this version'],
    ]);
    expect(new Set(recs.map((x) => x.repo))).toEqual(new Set(['pypi/shapes']));
    expect(recs[0]!.tags).toEqual(['python', 'dist:shapes', 'version:1.2.0', 'shapes', 'function']);
    expect(recs[0]!.analyzedSha).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(recs[2]!.githubUrl).toMatch(/^file:\/\/.*\/shapes\/core\.py#L3-L28$/);
    expect(cli(['records', 'generate', SITE]).stdout).toBe(r.stdout);
  });

  it('the records are rules at once: a stub, a constructor and a literal-decided call, through the package re-export', () => {
    const dir = tempTree({
      'app.py':
        'from shapes import Circle\nfrom shapes.core import area\n\n\ndef f(k):\n    Circle(1).scale(2)\n    area("circle", 1)\n    area(k, 1)\n    Circle(-1)\n',
    });
    writeFileSync(join(dir, 'shapes.jsonl'), cli(['records', 'generate', SITE]).stdout);
    const r = cli(['check', 'app.py', '--no-bundled', '--no-config', '--python', 'none', '--records', 'shapes.jsonl', '--format', 'json'], dir);
    const ds = (JSON.parse(r.stdout) as { diagnostics: { line: number; ruleId: string; confidence: string }[] }).diagnostics;
    expect(ds.map((d) => [d.line, d.ruleId, d.confidence])).toEqual([
      [6, 'shapes/scale-circle-scale-is-not-implemented-in-this-version', 'certain'],
      [8, 'shapes/area-unknown-shape-kind-kind', 'possible'],
      [9, 'shapes/init-radius-must-not-be-negative', 'certain'],
    ]);
  });

  it('the standard library: the records the fixtures hold (written by the earlier Python-ast generator) come out byte for byte', () => {
    const r = cli(['records', 'generate', '--stdlib']);
    expect(r.code).toBe(0);
    const generated = new Set(r.stdout.trim().split('\n'));
    expect(generated.size).toBeGreaterThan(1500);
    for (const f of ['grounding', 'control_flow', 'literal_args']) {
      for (const line of readFileSync(join(ROOT, 'fixtures', f, 'records.jsonl'), 'utf8')
        .trim()
        .split('\n')) {
        if (!line.includes('"python/cpython"')) continue;
        expect(generated.has(line), `${f}: ${line.slice(0, 120)}`).toBe(true);
      }
    }
  });

  it('bad input: a file, an unknown name; one line, exit 2', () => {
    const dir = tempTree({ 'x.py': 'x = 1\n' });
    const file = cli(['records', 'generate', 'x.py'], dir);
    expect([file.code, file.stderr]).toEqual([
      2,
      "raiselint: error: x.py: not a folder (a package folder, a folder of modules, or an installed distribution's name)\n",
    ]);
    const name = cli(['records', 'generate', 'no-such-dist-xyz'], dir);
    expect(name.code).toBe(2);
    expect(name.stderr).toMatch(/^raiselint: error: no-such-dist-xyz: no such folder, and no installed package of that name in .*'s site-packages\n$/);
  });
});
