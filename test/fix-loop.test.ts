/**
 * `--fix` as a per-file lint-and-fix loop (src/engine/fix.ts fixRun): it starts from the run's
 * own findings (the text the run checked is not analysed again), lints each applied round once,
 * finishes every lint with the file's context (config, baseline) as the run did, and returns the
 * findings after the fixes as a new value: the run result is not changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runProject } from '../src/engine/project.js';
import { fixRun } from '../src/engine/fixrun.js';
import { initParser } from '../src/parse/parser.js';
import { formatBaseline } from '../src/suppress/baseline.js';
import { makeProject } from './helpers/project.js';

const CASE = join(import.meta.dirname, '..', 'fixtures', 'fixes', 'guard_assignment_self');
const input = readFileSync(join(CASE, 'input.py'), 'utf8');
const expected = readFileSync(join(CASE, 'expected.py'), 'utf8');

beforeAll(() => initParser());

describe('the lint-and-fix loop of a run', () => {
  it('starts from the run’s findings, lints the fixed text once, and leaves the run as it was', async () => {
    const dir = makeProject({ 'app.py': input, 'clean.py': 'x = 1\n' });
    const run = await runProject([dir], { cacheDir: join(dir, '.cache'), originals: true });
    expect(run.diagnostics.length).toBeGreaterThan(0);
    const seen = JSON.stringify({ d: run.diagnostics, e: run.errors, s: [...run.sources] });

    const shown = await fixRun(run, run.rules, { unsafe: true, write: false });
    expect(shown.changed.map((c) => c.after)).toEqual([expected]);
    // One round: its result is linted once; the original text is the run's check, not a second analysis.
    expect(shown.changed[0]!.lints).toBe(1);
    // Without writing, the findings stay those of the file on disk.
    expect(shown.diagnostics).toEqual(run.diagnostics);
    expect(JSON.stringify({ d: run.diagnostics, e: run.errors, s: [...run.sources] })).toBe(seen);

    const written = await fixRun(run, run.rules, { unsafe: true, write: true });
    expect(readFileSync(join(dir, 'app.py'), 'utf8')).toBe(expected);
    expect(written.diagnostics).toEqual(written.changed[0]!.diagnostics);
    expect(written.fixed).toBe(run.diagnostics.length - written.diagnostics.length);
    expect(written.sources.get(run.diagnostics[0]!.file)).toBe(expected);
    expect(JSON.stringify({ d: run.diagnostics, e: run.errors, s: [...run.sources] })).toBe(seen);
  });

  it('a file’s baseline entries are part of its context: a finding the baseline has is neither shown nor fixed', async () => {
    const dir = makeProject({ 'app.py': input });
    const first = await runProject([dir], { cacheDir: join(dir, '.cache'), originals: true });
    const path = join(dir, 'baseline.json');
    writeFileSync(path, formatBaseline(path, first.diagnostics, first.absOf));
    const run = await runProject([dir], { cacheDir: join(dir, '.cache'), originals: true, baseline: path });
    expect(run.diagnostics).toEqual([]);
    expect(run.baselined).toBe(first.diagnostics.length);
    expect(run.contexts.get(first.diagnostics[0]!.file)!.baseline!.entries).toHaveLength(first.diagnostics.length);
    const fixed = await fixRun(run, run.rules, { unsafe: true, write: true });
    expect(fixed.changed).toEqual([]);
    expect(readFileSync(join(dir, 'app.py'), 'utf8')).toBe(input);
  });

  it('worker threads run the same loops: the same fixes, findings and errors as the main thread alone', async () => {
    const files: Record<string, string> = {};
    // Enough work that the main thread is still fixing when the worker has started (~0.5-1 s): 40 files of 30 findings each.
    const [head, body] = [input.slice(0, input.indexOf('class Archivist')), input.slice(input.indexOf('class Archivist'))];
    const big = head + Array.from({ length: 30 }, (_, k) => body.replace('class Archivist', `class Archivist${k}`)).join('\n\n');
    for (let i = 0; i < 40; i++) files[`pkg/app${i}.py`] = big;
    files['pkg/broken.py'] = `${big}\ndef (:\n`;
    const dir = makeProject(files);
    const run = await runProject([dir], { cacheDir: join(dir, '.cache'), originals: true });
    const alone = await fixRun(run, run.rules, { unsafe: true, write: false, jobs: 1 });
    const threaded = await fixRun(run, run.rules, { unsafe: true, write: false, jobs: 2, spawnAfterMs: 0 });
    expect(alone.workers).toBe(0);
    expect(threaded.workers).toBe(1);
    expect(alone.changed).toHaveLength(40);
    expect(threaded.workerJobs).toBeGreaterThan(0);
    const shape = (r: typeof alone) =>
      JSON.stringify({
        c: r.changed.map((c) => [c.file, c.after, c.fixed, c.diagnostics, c.errors, c.bytes?.toString('utf8')]),
        d: r.diagnostics,
        e: r.errors,
      });
    expect(shape(threaded)).toBe(shape(alone));
    for (const c of threaded.changed) expect(Buffer.isBuffer(c.bytes)).toBe(true);
  });
});
