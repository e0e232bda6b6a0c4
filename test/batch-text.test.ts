/**
 * What a batch run keeps in memory of the files it checked: the check (main thread or worker)
 * returns no text; the files with findings are read again, once, for the reporters' code (`sources`, outcomes),
 * and their bytes are kept for fixes only when the run applies fixes (`originals`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProject } from '../src/engine/project.js';
import { generateCorpus } from '../scripts/gen-corpus.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'raiselint-btext-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('texts and bytes of a batch run', () => {
  it('sources hold the text of every file with findings, read again; originals only when asked for', async () => {
    const corpus = join(tmp, 'corpus');
    const records = join(tmp, 'corpus.jsonl');
    generateCorpus(corpus, { files: 60, seed: 5, recordsFile: records, recordCount: 30 });
    const run = (o: Record<string, unknown>) =>
      runProject([corpus], { records: [records], cache: false, cacheDir: join(tmp, 'cache'), jobs: 2, spawnAfterBytes: 0, ...o });
    const withBytes = await run({});
    // (The corpus has undecodable files: their raiselint/io-error findings come with no text.)
    const files = new Set(withBytes.diagnostics.filter((d) => d.ruleId !== 'raiselint/io-error').map((d) => d.file));
    expect(files.size).toBeGreaterThan(5);
    expect(withBytes.stats.workers).toBe(1);
    for (const f of files) {
      const abs = withBytes.absOf(withBytes.diagnostics.find((d) => d.file === f)!);
      // The text as checked: decoded, a UTF-8 BOM left out (the bytes keep it).
      const text = readFileSync(abs, 'utf8').replace(/^\ufeff/, '');
      expect(withBytes.sources.get(f)).toBe(text);
      expect(withBytes.outcomes.get(f)?.text).toBe(text);
      expect(withBytes.originals.get(f)?.bytes.equals(readFileSync(abs))).toBe(true);
    }
    const without = await run({ originals: false });
    expect(without.originals.size).toBe(0);
    expect([...without.sources]).toEqual([...withBytes.sources]);
    expect(JSON.stringify(without.diagnostics)).toBe(JSON.stringify(withBytes.diagnostics));
    // Files without findings or suppression comments: no text kept.
    expect([...without.outcomes.values()].filter((o) => o.text !== undefined).length).toBeLessThan(without.outcomes.size);
  });
});
