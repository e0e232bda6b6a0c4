/**
 * The prefilter's gate (src/prefilter/needles.ts): with few names, a file must also show one
 * of the names every condition needs (a receiver class's name) and one of the module roots every
 * condition needs imported, or the directive mark. The gate only rejects files the needs would
 * reject: the verdicts with and without it are the same (the bundled rules, on the fixtures and on
 * edits of them), and the findings of what it rejects are none.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkSource } from '../src/engine/check.js';
import { loadRules } from '../src/compile/load.js';
import { requiredTokens, type NeedsSpec } from '../src/prefilter/needs.js';
import { Prefilter, prefilterSpec } from '../src/prefilter/index.js';
import type { RuleSet } from '../src/rules/ruleset.js';
import { ROOT } from './helpers.js';

describe('requiredTokens', () => {
  const spec = (conds: NeedsSpec['conds'], used = conds.map((_, i) => i)): NeedsSpec => ({
    conds,
    entries: [['m', used.map((id) => [2, id] as [number, number])]],
  });

  it('unites the names and the roots of every condition an entry has', () => {
    const s = spec([
      { roots: ['pkg'], names: ['Runtime', 'BaseAgent'] },
      { roots: ['pkg', 'ext'], names: ['Worker'] },
    ]);
    expect(requiredTokens(s)).toEqual({ names: ['BaseAgent', 'Runtime', 'Worker'], roots: ['ext', 'pkg'] });
  });

  it('needs nothing where one condition needs no name, or no import, or names one that is no ASCII identifier', () => {
    expect(
      requiredTokens(
        spec([
          { roots: ['os'], names: [] },
          { roots: ['pkg'], names: ['A'] },
        ]),
      ),
    ).toEqual({ names: undefined, roots: ['os', 'pkg'] });
    expect(requiredTokens(spec([{ roots: [], names: ['ValueError'] }]))).toEqual({ names: ['ValueError'], roots: undefined });
    expect(requiredTokens(spec([{ roots: ['pkg'], names: ['Ünicode'] }]))).toEqual({ names: undefined, roots: ['pkg'] });
    expect(requiredTokens(spec([{ roots: ['pkg.sub-x'], names: ['A'] }]))).toEqual({ names: ['A'], roots: undefined });
  });

  it('ignores conditions no entry has, and needs nothing without entries', () => {
    expect(
      requiredTokens(
        spec(
          [
            { roots: [], names: [] },
            { roots: ['pkg'], names: ['A'] },
          ],
          [1],
        ),
      ),
    ).toEqual({ names: ['A'], roots: ['pkg'] });
    expect(requiredTokens({ conds: [{ roots: ['pkg'], names: ['A'] }], entries: [] })).toEqual({});
  });
});

describe('the gate of the bundled rules', () => {
  let rules: RuleSet;
  let withGate: Prefilter;
  let without: Prefilter;
  beforeAll(async () => {
    rules = await loadRules({});
    withGate = Prefilter.build(prefilterSpec(rules));
    without = Prefilter.build(prefilterSpec(rules));
    (without as unknown as { gate?: unknown }).gate = undefined;
  }, 120_000);

  const verdict = (p: Prefilter, text: string) => p.candidateText(text);

  it('is there (the bundled rules are few, and every method needs a receiver class and an import)', () => {
    expect((withGate as unknown as { gate?: unknown }).gate).toBeDefined();
  });

  it('rejects a file naming a method but no class or root, which the token scan did before', () => {
    const text = 'def f(obj):\n    return obj.metadata()\n';
    expect(verdict(without, text)).toBeNull();
    expect(verdict(withGate, text)).toBeNull();
    expect(checkSource(text, 'case.py', rules, { prefilter: false, fixes: false }).diagnostics).toEqual([]);
  });

  it('lets through a directive alone, and a class with its import', () => {
    const directive = 'x = 1  # raiselint: ignore[autogen/agent-metadata-is-not-yet-implemented]\n';
    expect(verdict(withGate, directive)).not.toBeNull();
    const real = 'from autogen_core import AgentRuntime\n\nasync def f(rt: AgentRuntime, a):\n    await rt.agent_metadata(a)\n';
    expect(verdict(withGate, real)).not.toBeNull();
    expect(checkSource(real, 'case.py', rules, { fixes: false }).diagnostics.length).toBeGreaterThan(0);
  });

  it('decides the same on random texts of the names, classes, roots and their parts', () => {
    let seed = 5;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const words = [
      'metadata',
      'agent_metadata',
      'save_state',
      'load_state_json',
      '_state',
      'metada',
      'AgentRuntime',
      'BaseAgent',
      'GrpcWorkerAgentRuntime',
      'Agent',
      'Agen',
      'autogen_core',
      'autogen_ext',
      'utogen',
      'autogen',
      'import',
      'from',
      'raiselint',
      'iselin',
      'x',
      'é',
    ];
    const seps = [' ', '.', '(', ')', '\n', '# ', ': ', '', '_', ', '];
    let candidates = 0;
    for (let t = 0; t < 3000; t++) {
      let text = '';
      for (let k = 0; k < 2 + rand(12); k++) text += words[rand(words.length)]! + seps[rand(seps.length)]!;
      const want = verdict(without, text);
      expect(verdict(withGate, text), text).toEqual(want);
      if (want) candidates++;
    }
    expect(candidates).toBeGreaterThan(100);
  });

  it('gives every fixture, and every fixture without its imports, class names or directives, the verdict it had', () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.name.endsWith('.py')) files.push(join(d, e.name));
      }
    };
    walk(join(ROOT, 'fixtures'));
    expect(files.length).toBeGreaterThan(50);
    let passing = 0;
    let rejected = 0;
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const variants = [
        text,
        text.replace(/autogen/g, 'autogxn'),
        text.replace(/Agent/g, 'Agxnt'),
        text.replace(/raiselint/g, 'raiselynt'),
        text.replace(/import /g, 'imp0rt '),
      ];
      for (const v of variants) {
        const want = verdict(without, v);
        expect(verdict(withGate, v), `${f}`).toEqual(want);
        if (want) passing++;
        else rejected++;
      }
    }
    // Both ways are exercised.
    expect(passing).toBeGreaterThan(50);
    expect(rejected).toBeGreaterThan(50);
  });
});
