/**
 * The prefilter at dataset scale: records generated from the standard library's own raise sites
 * (scripts/gen-stdlib-records.mjs), checked over a sample of standard-library files through the
 * CLI. Findings must be identical with and without the prefilter, with a worker thread and from
 * the result cache, while the prefilter still skips files (its per-rule combination of names).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from './helpers.js';
import { pyFiles, stdlibDir } from './helpers/stdlib.js';

const stdlib = stdlibDir();

describe.skipIf(!stdlib)('prefilter over a generated stdlib dataset', () => {
  let tmp: string;
  let records: string;
  let corpus: string;
  const run = (...args: string[]) => runIn({}, ...args);
  const runIn = (env: Record<string, string>, ...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, 'check', '--no-gitignore', '--no-config', '--format', 'json', '--timings', ...args, corpus], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      env: { ...process.env, ...env },
    });
    const stats = /(\d+) read, (\d+) parsed/.exec(r.stderr);
    // Findings, and file errors except syntax errors: those are read from the tree, so only files parsed report them.
    const report = JSON.parse(r.stdout) as { diagnostics: { severity: string }[]; errors: { kind: string }[] };
    // Exit 1 exactly when an error-severity (certain) finding is reported: most of a generated dataset's findings are possible.
    expect(r.status, r.stderr).toBe(report.diagnostics.some((d) => d.severity === 'error') ? 1 : 0);
    const out = JSON.stringify({ ...report, errors: report.errors.filter((e) => e.kind !== 'syntax') }, null, 1);
    return {
      out,
      findings: report.diagnostics.length,
      read: Number(stats?.[1]),
      parsed: Number(stats?.[2]),
      workers: Number(/(\d+) worker threads/.exec(r.stderr)?.[1]),
    };
  };

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'raiselint-pfds-'));
    records = join(tmp, 'records.jsonl');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-stdlib-records.mjs'), '--sample', '400', '--seed', '7', '--out', records], { stdio: 'pipe' });
    // Every 12th file of the library (about 150), outside any git repository.
    corpus = join(tmp, 'lib');
    const all = pyFiles(stdlib!);
    all.forEach((f, i) => {
      if (i % 12 !== 5) return;
      const to = join(corpus, relative(stdlib!, f));
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(f, to);
    });
  }, 180_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('finds the same with and without the prefilter, with a worker and from the cache, and skips files', () => {
    const cache = join(tmp, 'cache');
    const base = run('--records', records, '--cache-dir', cache, '--no-cache', '--jobs', '1');
    expect(base.findings).toBeGreaterThan(20);
    const all = run('--records', records, '--cache-dir', cache, '--no-cache', '--jobs', '1', '--no-prefilter');
    expect(all.out).toBe(base.out);
    expect(all.parsed).toBe(all.read);
    // The combination of names skips files a name alone would let through.
    expect(base.parsed).toBeLessThan(all.parsed);
    // The sample's parsing is below what makes a worker pay by default: one is asked for.
    const two = runIn({ RAISELINT_SPAWN_AFTER_BYTES: '0' }, '--records', records, '--cache-dir', cache, '--no-cache', '--jobs', '2');
    expect(two.workers).toBe(1);
    expect(two.out).toBe(base.out);
    expect(run('--records', records, '--cache-dir', cache).out).toBe(base.out);
    expect(run('--records', records, '--cache-dir', cache).out).toBe(base.out);
  }, 600_000);
});
