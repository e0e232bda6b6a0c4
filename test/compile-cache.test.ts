/**
 * The per-record compile cache (src/compile/python/cached.ts, src/compile/recordcache.ts): a compile
 * through it gives the rule set of a compile without it, byte for byte, whatever was cached
 * before (another order, another dataset, a corrupt file); a dataset with one record more
 * compiles one record.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordCacheFile } from '../src/compile/recordcache.js';
import { loadDataset } from '../src/records/load.js';
import type { LoadedRecord } from '../src/records/types.js';
import { initParser } from '../src/parse/parser.js';
import { ClassRegistry } from '../src/rules/classes.js';
import { buildRuleSet } from '../src/compile/ruleset.js';
import type { RuleSet } from '../src/rules/ruleset.js';
import { generateRecords } from '../scripts/gen-records.mjs';
import { ROOT, cli } from './helpers.js';

let dir: string;
beforeAll(async () => {
  await initParser();
  dir = mkdtempSync(join(tmpdir(), 'raiselint-ccache-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SALT = 'test-compiler';
const rec = (id: string, over: Record<string, unknown>): LoadedRecord => ({
  record: {
    id,
    repo: 'acme/pkg',
    slug: id,
    errorMessage: 'boom',
    errorClass: 'ValueError',
    filePath: 'pkg/core.py',
    lineNumber: 2,
    sourceCodeStart: 1,
    tags: ['python'],
    sourceCode: '',
    ...over,
  } as LoadedRecord['record'],
  source: { file: 'mem.jsonl', line: 1 },
});
// A defines pkg.core.PkgError; B raises PkgError without showing it: B's error class depends on A coming first.
const A = rec('a1', { errorClass: 'PkgError', lineNumber: 6, sourceCode: 'class PkgError(Exception):\n    pass\n\n\ndef run(x):\n    raise PkgError("x")\n' });
const B = rec('b1', { errorClass: 'PkgError', lineNumber: 2, sourceCode: 'def go(y):\n    raise PkgError("y")\n' });

/** Everything a rule set is made of, as text. */
const dump = (s: RuleSet) => JSON.stringify([s.rules, s.outcomes.map((o) => o.outcome), s.classes.snapshot(), s.exceptions.snapshot(), [...s.triggerNames]]);

function build(records: LoadedRecord[], cacheDir?: string): { set: RuleSet; misses: number; hits: number } {
  const cache = cacheDir ? RecordCacheFile.open(cacheDir, SALT) : undefined;
  const set = buildRuleSet(records, new ClassRegistry(), [], cache);
  cache?.save();
  return { set, misses: cache?.misses ?? records.length, hits: cache?.hits ?? 0 };
}

describe('per-record compile cache', () => {
  it('a record whose result depended on an earlier record is compiled again when that record is gone or comes later', () => {
    const d = join(dir, 'order');
    const first = build([A, B], d);
    expect(first.misses).toBe(2);
    expect(first.set.rules.find((r) => r.recordId === 'b1')!.errorClass).toBe('pkg.core.PkgError');
    const again = build([A, B], d);
    expect([again.hits, again.misses]).toEqual([2, 0]);
    expect(dump(again.set)).toBe(dump(build([A, B]).set));
    // B after A read "pkg.core.PkgError is known": alone, or before A, that answer is wrong and B compiles again.
    const swapped = build([B, A], d);
    expect(swapped.misses).toBe(1);
    expect(swapped.set.rules.find((r) => r.recordId === 'b1')!.errorClass).toBe('PkgError');
    expect(dump(swapped.set)).toBe(dump(build([B, A]).set));
  });

  it('a dataset with one record more compiles that record only, and gives the rules of a compile without the cache', () => {
    const file = join(dir, 'gen.jsonl');
    writeFileSync(
      file,
      `${generateRecords(121, 7)
        .map((r) => JSON.stringify(r.line))
        .join('\n')}\n`,
    );
    const all = loadDataset(file).records;
    const d = join(dir, 'grow');
    expect(build(all.slice(0, 120), d).misses).toBe(120);
    const grown = build(all, d);
    expect([grown.hits, grown.misses]).toEqual([120, 1]);
    expect(dump(grown.set)).toBe(dump(build(all).set));
    // Fix patterns (read up to 1,000 rules) come from the cache too.
    expect(grown.set.rules.every((r) => r.patterns)).toBe(true);
  });

  it('a corrupt or foreign cache file is a miss, never an error', () => {
    const d = join(dir, 'corrupt');
    const records = [
      A,
      B,
      ...loadDataset(join(ROOT, 'fixtures', 'shapes', 'records.jsonl')).records,
      ...loadDataset(join(ROOT, 'fixtures', 'js', 'js-records.jsonl')).records,
    ];
    expect(build(records).set.rules.some((r) => r.js)).toBe(true);
    build(records, d);
    const path = join(d, 'rules', 'records.cache');
    const lines = readFileSync(path, 'utf8').split('\n');
    // A truncated entry, an entry that is JSON of another shape, a line with no key.
    lines[1] = lines[1]!.slice(0, 100);
    lines[2] = `${lines[2]!.slice(0, 65)}{"o":1}`;
    lines[3] = 'garbage';
    // JSON of the right outline with a class op of the wrong shape: refused before anything is applied.
    const e = JSON.parse(lines[4]!.slice(65)) as { ops: unknown[] };
    e.ops.push({ k: 'class', c: 3 });
    lines[4] = `${lines[4]!.slice(0, 65)}${JSON.stringify(e)}`;
    writeFileSync(path, lines.join('\n'));
    const r = build(records, d);
    expect(r.misses).toBe(4);
    expect(dump(r.set)).toBe(dump(build(records).set));
    writeFileSync(path, readFileSync(path, 'utf8').replace(SALT, 'other-compiler'));
    expect(build(records, d).misses).toBe(records.length);
  });

  it('raiselint check finds the same with a cold and a warm record cache after the dataset changes', () => {
    const file = join(dir, 'cli.jsonl');
    const gen = generateRecords(40, 3);
    const user = join(dir, 'user');
    mkdirSync(user);
    // Code that calls every generated function (each rule has a finding).
    writeFileSync(
      join(user, 'app.py'),
      gen.map((g, i) => `${g.usage.imports.join('\n')}\n\ndef use_${i}(shard_id, client):\n    ${g.usage.call}\n`).join('\n'),
    );
    const cacheDir = join(dir, 'cli-cache');
    const run = () => cli(['check', '--format', 'json', '--no-bundled', '--records', file, '--cache-dir', cacheDir, user]).stdout;
    const lines = (n: number) =>
      `${gen
        .slice(0, n)
        .map((g) => JSON.stringify(g.line))
        .join('\n')}\n`;
    writeFileSync(file, lines(39));
    run();
    writeFileSync(file, lines(40));
    const warm = run();
    expect((JSON.parse(warm) as { diagnostics: unknown[] }).diagnostics.length).toBeGreaterThan(20);
    rmSync(cacheDir, { recursive: true, force: true });
    expect(warm).toBe(run());
    expect(
      readFileSync(join(cacheDir, 'rules', 'records.cache'), 'utf8')
        .trimEnd()
        .split('\n'),
    ).toHaveLength(41);
  });
});
