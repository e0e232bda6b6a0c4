/**
 * A first compile on two cores (src/engine/compilesplit.ts): a worker compiles records from the
 * back of the dataset while the main thread compiles from the front; its results are replayed
 * only where they still hold. The rule set and the snapshot are those of a compile on one thread.
 * (The worker runs the compiled code: dist/ must be built, as for the other worker tests.)
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordCacheFile } from '../src/cache/records.js';
import { Snapshot } from '../src/cache/snapshot.js';
import { Claims } from '../src/engine/compileclaim.js';
import { SplitCompile } from '../src/engine/compilesplit.js';
import { CompileWorker, EARLY_WORKER_BYTES } from '../src/engine/compileworker.js';
import { loadRules } from '../src/engine/rules.js';
import { initParser } from '../src/parse/parser.js';
import { loadDataset } from '../src/records/load.js';
import type { LoadedRecord } from '../src/records/types.js';
import { ClassRegistry } from '../src/rules/classes.js';
import { buildRuleSet, type RuleSet } from '../src/rules/ruleset.js';
import { generateRecords } from '../scripts/gen-records.mjs';
import { cli } from './helpers.js';

let dir: string;
beforeAll(async () => {
  await initParser();
  dir = mkdtempSync(join(tmpdir(), 'raiselint-split-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dump = (s: RuleSet) => JSON.stringify([s.rules, s.warnings, s.outcomes.map((o) => o.outcome), s.classes.snapshot(), s.exceptions.snapshot(), [...s.triggerNames]]);

const rec = (id: string, over: Record<string, unknown>): LoadedRecord => ({
  record: { id, repo: 'acme/pkg', slug: id, errorMessage: 'boom', errorClass: 'ValueError', filePath: 'pkg/core.py', lineNumber: 2, sourceCodeStart: 1, tags: ['python'], sourceCode: '', ...over } as LoadedRecord['record'],
  source: { file: 'mem.jsonl', line: 1 },
});
// A defines pkg.core.PkgError; B raises it without showing it: compiled alone (as the worker does), B's answer differs.
const A = rec('a1', { errorClass: 'PkgError', lineNumber: 6, sourceCode: 'class PkgError(Exception):\n    pass\n\n\ndef run(x):\n    raise PkgError("x")\n' });
const B = rec('b1', { errorClass: 'PkgError', lineNumber: 2, sourceCode: 'def go(y):\n    raise PkgError("y")\n' });

function dataset(n: number, seed: number): LoadedRecord[] {
  const file = join(dir, `gen-${n}-${seed}.jsonl`);
  writeFileSync(file, `${generateRecords(n, seed).map((r) => JSON.stringify(r.line)).join('\n')}\n`);
  return loadDataset(file).records;
}

describe('claims of a split compile', () => {
  it('the front and the back never take the same record', () => {
    const c = Claims.create(5);
    expect(c.takeBack()).toBe(4);
    expect(c.takeFront(0)).toBe(true);
    expect(c.takeFront(2)).toBe(true); // 1 becomes the main thread's too
    expect(c.takeBack()).toBe(3);
    expect(c.takeFront(3)).toBe(false);
    expect(c.takeFront(1)).toBe(true);
    expect(c.takeBack()).toBeUndefined();
  });
});

describe('split compile', () => {
  it('gives the rule set of a compile on one thread, the worker results that do not hold compiled again', () => {
    const records = [A, ...dataset(60, 11), B, ...dataset(30, 12)];
    const single = dump(buildRuleSet(records, new ClassRegistry(), []));
    // The worker takes every record first: every result the main thread uses comes from it.
    const split = SplitCompile.start(records, RecordCacheFile.open(join(dir, 'all-worker'), 'salt'), true, { minRecords: 0, workerFirst: true })!;
    expect(split).toBeDefined();
    let set: RuleSet;
    try {
      set = buildRuleSet(records, new ClassRegistry(), [], split);
    } finally {
      split.close();
    }
    expect(split.posted).toBe(records.length);
    // B's "PkgError is not known" (compiled alone) is wrong after A: compiled again.
    expect(split.redone).toBeGreaterThanOrEqual(1);
    expect(dump(set)).toBe(single);
    expect(set.rules.find((r) => r.recordId === 'b1')!.errorClass).toBe('pkg.core.PkgError');
  });

  it('loadRules with a split compile (both threads at once) equals one without, fix patterns included', async () => {
    const file = join(dir, 'both.jsonl');
    writeFileSync(file, `${generateRecords(240, 5).map((r) => JSON.stringify(r.line)).join('\n')}\n`);
    const opts = { records: [file], bundled: false };
    const one = await loadRules(opts, join(dir, 'one'), { minRecords: Infinity });
    const two = await loadRules(opts, join(dir, 'two'), { minRecords: 0 });
    expect(dump(two)).toBe(dump(one));
    expect(two.rules.every((r) => r.patterns)).toBe(true);
    // A warm record cache written by the split compile gives the same again.
    expect(dump(await loadRules(opts, join(dir, 'two'), { minRecords: 0 }))).toBe(dump(one));
  });

  it('raiselint rules compiles a cold dataset above the split threshold to the rules of an in-process compile', async () => {
    const file = join(dir, 'cli.jsonl');
    writeFileSync(file, `${generateRecords(260, 9).map((r) => JSON.stringify(r.line)).join('\n')}\n`);
    const cacheDir = join(dir, 'cli-cache');
    const r = cli(['rules', '--no-bundled', '--records', file, '--cache-dir', cacheDir]);
    expect(r.code).toBe(0);
    const snap = Snapshot.open(join(cacheDir, 'rules', readdirSync(join(cacheDir, 'rules')).find((f) => f.endsWith('.snap'))!))!;
    const inProcess = await loadRules({ records: [file], bundled: false });
    expect(JSON.stringify(snap.ruleSetFor(null).rules)).toBe(JSON.stringify(inProcess.rules));
    expect(snap.meta.ruleCount).toBe(260);
    snap.close();
  });
});

describe('a worker started before the datasets are read', () => {
  it('is started for a first compile of a big dataset only, and compiles what it is given', () => {
    const file = join(dir, 'early.jsonl');
    writeFileSync(file, `${generateRecords(220, 21).map((r) => JSON.stringify(r.line)).join('\n')}\n`);
    expect(statSync(file).size).toBeGreaterThan(EARLY_WORKER_BYTES);
    const small = join(dir, 'early-small.jsonl');
    writeFileSync(small, `${generateRecords(20, 21).map((r) => JSON.stringify(r.line)).join('\n')}\n`);
    // A small dataset, or a per-record cache that holds enough records: no worker.
    expect(CompileWorker.maybe([small], 0, 200, 'salt')).toBeUndefined();
    expect(CompileWorker.maybe([file], 500, 200, 'salt')).toBeUndefined();
    const records = loadDataset(file).records;
    const single = dump(buildRuleSet(records, new ClassRegistry(), []));
    // The worker takes every record first (from its own copy of the dataset for a first compile,
    // else the records it is sent): every rule the main thread uses comes from the early worker.
    // Started with another compiler's identity, its keys are not the main thread's: none of its
    // entries is used, every record is compiled again.
    const cases = [
      ['salt', false, 0, 0],
      ['another-compiler', true, 0, 0],
      ['salt', false, 5, 0],
      ['salt', false, 0, undefined],
    ] as const;
    for (const [salt, redone, cached, ownBytes] of cases) {
      const early = CompileWorker.maybe([file], cached, 200, salt, ownBytes)!;
      expect(early).toBeDefined();
      // Its own copy for a first compile of datasets big enough (all of them here with ownBytes 0).
      expect(early.own).toBe(cached === 0 && ownBytes === 0);
      const split = SplitCompile.start(records, RecordCacheFile.open(join(dir, `early-${salt}-${cached}-${ownBytes}`), 'salt'), true, { minRecords: 0, workerFirst: true }, early)!;
      let set: RuleSet;
      try {
        set = buildRuleSet(records, new ClassRegistry(), [], split);
      } finally {
        split.close();
      }
      expect(early.state).toBe('given');
      expect(split.posted).toBe(records.length);
      expect(split.used).toBe(redone ? 0 : records.length);
      expect(dump(set)).toBe(single);
    }
  });

  it('is ended unused when the compile is not split', async () => {
    const file = join(dir, 'early-unused.jsonl');
    writeFileSync(file, `${generateRecords(180, 22).map((r) => JSON.stringify(r.line)).join('\n')}\n`);
    const early = CompileWorker.maybe([file], 0, 200, 'salt')!;
    expect(early).toBeDefined();
    const exited = new Promise<number>((resolve) => early.worker.once('exit', resolve));
    // 180 records to compile: fewer than the split threshold.
    expect(SplitCompile.start(loadDataset(file).records, RecordCacheFile.open(join(dir, 'early-unused'), 'salt'), true, {}, early)).toBeUndefined();
    expect(early.state).toBe('stopped');
    await exited;
    // And loadRules through the same path gives the rules of a compile without a cache directory.
    expect(dump(await loadRules({ records: [file], bundled: false }, join(dir, 'early-unused-2')))).toBe(dump(await loadRules({ records: [file], bundled: false })));
  });
});
