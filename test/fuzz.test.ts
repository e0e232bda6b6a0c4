/**
 * The fuzz suite's short seeded run (issue 15): the same generators and judgements as
 * `npm run fuzz` (scripts/fuzz.mjs), a few hundred inputs, on the compiled pipeline (dist/).
 * Every kind of input runs: mutated Python, encodings and line endings, hostile records and
 * configs, LSP framing, filesystem oddities (link cycles, FIFOs, deletions mid-run), and the edges
 * once wrong (statements on one line, invalid UTF-8 in records, a damaged results cache, stale
 * temporary files, files over --max-file-size).
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM scripts without type declarations
import { cpythonBroken, fuzz } from '../scripts/fuzz.mjs';

describe('fuzz (short seeded run)', () => {
  it('300 inputs of seed 7: no crash, hang, bad fix or lost byte', async () => {
    const failures: string[] = [];
    const kinds = new Map<string, number>();
    const pairs: [number, string, string][] = [];
    await fuzz({
      seed: 7,
      from: 0,
      to: 300,
      hangMs: 60_000,
      onHang: (i: number) => failures.push(`${i}: hang`),
      onOutcome: (i: number, o: { kind: string; crash?: string; badFix?: string; lostBytes?: string; pair?: [string, string] }) => {
        kinds.set(o.kind, (kinds.get(o.kind) ?? 0) + 1);
        for (const k of ['crash', 'badFix', 'lostBytes'] as const) if (o[k]) failures.push(`${i} (${o.kind}): ${k}: ${o[k]}`);
        if (o.pair) pairs.push([i, ...o.pair]);
      },
    });
    for (const i of cpythonBroken(pairs)) failures.push(`${i}: the fixed output does not parse with CPython`);
    expect(failures).toEqual([]);
    // Every kind of input ran, and some fixes were applied (the judgement of fixes is exercised).
    for (const k of ['python', 'encoding', 'records', 'config', 'lsp', 'fs', 'edges']) expect(kinds.get(k), k).toBeGreaterThan(5);
    expect(pairs.length).toBeGreaterThan(10);
  }, 300_000);
});
