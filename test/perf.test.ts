/**
 * Speed features must not change results: findings are identical with and without the content
 * cache, with 1 and N threads, with and without the prefilter, and with the compiled-rules
 * snapshot instead of freshly compiled rules. Checked on the fixtures and on a generated corpus
 * (scripts/gen-corpus.mjs: fixture code, calls to synthetic records, decoys, odd encodings).
 * No timing here: speed is measured by `npm run bench`.
 *
 * Worker threads run the compiled code in dist/ (`npm test` builds it first).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, readdirSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogRules, shouldSpawn, SPAWN_SAMPLE_FILES, type BatchOptions } from '../src/engine/batch.js';
import { checkPaths, sequentialCheck, type BatchResult } from './helpers/batch.js';
import { formatRulesJson, formatRulesText } from '../src/report/rules.js';
import { formatExplainJson } from '../src/report/explain.js';
import { loadRules, type RuleOptions } from '../src/compile/load.js';
import { encodeSnapshot, joinPieces, Snapshot } from '../src/compile/snapshot.js';
import { readPatterns, fixPatterns } from '../src/compile/python/patterns.js';
import { Prefilter, prefilterSpec, rolesCanMatch, ROLE_CALL, ROLE_CLASS, ROLE_DIRECTIVE, ROLE_METHOD, ROLE_OTHER } from '../src/prefilter/index.js';
import { RACY_MS } from '../src/io/fingerprint.js';
import { resolvePath } from '../src/workspace/discover.js';
// @ts-expect-error: plain JavaScript module without types
import { generateCorpus } from '../scripts/gen-corpus.mjs';

const ROOT = join(import.meta.dirname, '..');
const FIXTURES = join(ROOT, 'fixtures', 'autogen');
const tmp = mkdtempSync(join(tmpdir(), 'raiselint-perf-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Run = Pick<BatchResult, 'diagnostics' | 'errors'>;

function plain(r: Run) {
  return { diagnostics: JSON.parse(JSON.stringify(r.diagnostics)), errors: JSON.parse(JSON.stringify(r.errors)) };
}

/** Same findings and errors, except that the prefilter may skip syntax errors of files it never parses. */
function expectSame(got: Run, ref: Run, { prefiltered }: { prefiltered: boolean }) {
  const g = plain(got);
  const r = plain(ref);
  expect(g.diagnostics).toEqual(r.diagnostics);
  if (!prefiltered) {
    expect(g.errors).toEqual(r.errors);
    return;
  }
  const notSyntax = (e: { kind: string }) => e.kind !== 'syntax';
  expect(g.errors.filter(notSyntax)).toEqual(r.errors.filter(notSyntax));
  for (const e of g.errors.filter((e: { kind: string }) => e.kind === 'syntax')) expect(r.errors).toContainEqual(e);
}

let n = 0;
const cacheDir = () => join(tmp, `cache-${n++}`);

async function equivalence(paths: string[], ruleOpts: RuleOptions) {
  // The reference: the plain sequential pipeline, every file parsed, rules compiled in process.
  const rules = await loadRules(ruleOpts);
  const ref = sequentialCheck(paths, rules, { prefilter: false });
  expect(ref.diagnostics.length).toBeGreaterThan(0);
  const run = (o: BatchOptions) => checkPaths(paths, ruleOpts, o);

  const noPrefilter = await run({ jobs: 1, cache: false, prefilter: false, cacheDir: cacheDir() });
  expectSame(noPrefilter, ref, { prefiltered: false });
  expect(noPrefilter.stats.parsed).toBe(ref.files - ref.errors.filter((e) => e.kind === 'decode').length);

  const dir = cacheDir();
  const one = await run({ jobs: 1, cache: false, cacheDir: dir });
  expectSame(one, ref, { prefiltered: true });
  expect(one.stats.workers).toBe(0);
  expect(one.stats.parsed).toBeLessThan(noPrefilter.stats.parsed); // the decoys are never parsed

  const three = await run({ jobs: 3, cache: false, cacheDir: dir, spawnAfterBytes: 0 });
  expect(three.stats.workers).toBe(2);
  expectSame(three, one, { prefiltered: false });
  expect(three.sources).toEqual(one.sources);

  const threeNoPrefilter = await run({ jobs: 3, cache: false, prefilter: false, cacheDir: dir, spawnAfterBytes: 0 });
  expectSame(threeNoPrefilter, noPrefilter, { prefiltered: false });

  const cold = await run({ jobs: 2, cacheDir: dir, spawnAfterBytes: 0 });
  expectSame(cold, one, { prefiltered: false });
  const warm = await run({ jobs: 2, cacheDir: dir, spawnAfterBytes: 0 });
  expectSame(warm, one, { prefiltered: false });
  expect(warm.stats.cachedByStat + warm.stats.cachedByHash).toBe(warm.files - one.errors.filter((e) => e.kind === 'read').length);
  expect(warm.stats.parsed).toBe(0);
  expect(warm.sources).toEqual(one.sources);
  // The compiled-rules snapshot was reused, not rebuilt.
  expect(warm.stats.compileMs).toBe(0);
}

/**
 * Random texts of words and separators: the prefilter's fast decisions (on bytes, and on text when
 * `checkText`) must equal the full token scan's. Returns how many texts could match.
 */
function fuzzPrefilter(q: Prefilter, words: string[], seps: string[], o: { seed: number; texts: number; checkText: boolean }): number {
  let seed = o.seed;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  let candidates = 0;
  for (let t = 0; t < o.texts; t++) {
    let text = '';
    for (let k = 0; k < 1 + rand(10); k++) text += words[rand(words.length)]! + seps[rand(seps.length)]!;
    const all = q.scanText(text);
    const want = rolesCanMatch(all.roles) ? [...all.names].sort() : null;
    if (want) candidates++;
    expect(q.candidateBytes(Buffer.from(text, 'utf8'))?.sort() ?? null, text).toEqual(want);
    if (o.checkText) expect(q.candidateText(text)?.sort() ?? null, text).toEqual(want);
  }
  return candidates;
}

describe('prefilter', () => {
  const spec = {
    names: [
      ['agent_save_state', ROLE_METHOD],
      ['GrpcWorkerAgentRuntime', ROLE_CLASS],
      ['make_client', ROLE_CALL],
      ['guard_fn', ROLE_OTHER],
      ['naïve_call', ROLE_CALL],
    ] as [string, number][],
  };
  const p = Prefilter.build(spec);
  const both = (text: string) => {
    const a = p.scanText(text);
    const b = p.scanBytes(Buffer.from(text, 'utf8'), undefined, text);
    expect(a.roles).toBe(b.roles);
    expect([...a.names].sort()).toEqual([...b.names].sort());
    return a;
  };

  it('needs a call name, or a method name and a class name', () => {
    expect(rolesCanMatch(both('x.agent_save_state()').roles)).toBe(false);
    expect(rolesCanMatch(both('GrpcWorkerAgentRuntime()').roles)).toBe(false);
    expect(rolesCanMatch(both('guard_fn(x)').roles)).toBe(false);
    expect(rolesCanMatch(both('r: GrpcWorkerAgentRuntime\nr.agent_save_state()').roles)).toBe(true);
    expect(rolesCanMatch(both('make_client()').roles)).toBe(true);
  });

  it('matches whole identifiers anywhere (code, strings, comments), never parts of one', () => {
    expect(both('# GrpcWorkerAgentRuntime\ns = "x.agent_save_state"').names.sort()).toEqual(['GrpcWorkerAgentRuntime', 'agent_save_state']);
    expect(both('my_agent_save_state(); agent_save_state2; Xmake_client; make_client_').names).toEqual([]);
    expect(both('(make_client)').names).toEqual(['make_client']);
    expect(both('make_client').names).toEqual(['make_client']);
    // Non-ASCII ends a token: more candidates, never fewer.
    expect(both('émake_client').names).toEqual(['make_client']);
    // Names that are not ASCII identifiers are found in the decoded text.
    expect(both('x = naïve_call(1)').names).toEqual(['naïve_call']);
  });

  it('finds the same names in bytes and in decoded text, on random input', () => {
    const words = ['agent_save_state', 'GrpcWorkerAgentRuntime', 'make_client', 'guard_fn', 'naïve_call', 'x', 'agent', 'save', '_', '9', 'é', 'ß', '€'];
    const seps = [' ', '.', '(', ')', '\n', '"', '#', '', '', '_'];
    let seed = 42;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (let t = 0; t < 400; t++) {
      let text = '';
      for (let k = 0; k < 1 + rand(12); k++) text += words[rand(words.length)]! + seps[rand(seps.length)]!;
      const bytes = p.scanBytes(Buffer.from(text, 'utf8'), undefined, text);
      const chars = p.scanText(text);
      expect([...bytes.names].sort(), text).toEqual([...chars.names].sort());
      // The reference: maximal [A-Za-z0-9_] runs equal to a name (plus substring search for the odd name).
      const ref = new Set((text.match(/[A-Za-z0-9_]+/g) ?? []).filter((w) => spec.names.some(([n]) => n === w)));
      if (text.includes('naïve_call')) ref.add('naïve_call');
      expect([...chars.names].sort(), text).toEqual([...ref].sort());
      // The two-stage decision is the one-stage decision.
      const want = rolesCanMatch(chars.roles) ? [...chars.names].sort() : null;
      expect(p.candidateText(text)?.sort() ?? null, text).toEqual(want);
      expect(p.candidateBytes(Buffer.from(text, 'utf8'), undefined, text)?.sort() ?? null, text).toEqual(want);
    }
  });

  it('decides the same with its substring search first (needles shared by several names), on random input', () => {
    // Only ASCII identifiers, few names: the native substring search runs first, for substrings
    // that several names share (`_state`), and for a name shorter than a needle (`run`) itself.
    const names: [string, number][] = [
      ['agent_save_state', ROLE_METHOD],
      ['agent_load_state', ROLE_METHOD],
      ['save_state', ROLE_METHOD],
      ['load_state_json', ROLE_METHOD],
      ['metadata', ROLE_METHOD],
      ['run', ROLE_CALL],
      ['raiselint', ROLE_DIRECTIVE],
      ['GrpcWorkerAgentRuntime', ROLE_CLASS],
      ['AgentProxy', ROLE_CLASS],
    ];
    const q = Prefilter.build({ names });
    // Parts of names too: the needles are substrings chosen to search cheaply (`metada`, `iselin`).
    const words = [
      'agent_save_state',
      'agent_load_state',
      'save_state',
      'load_state_json',
      'load_state',
      'metadata',
      'run',
      'raiselint',
      'GrpcWorkerAgentRuntime',
      'AgentProxy',
      '_state',
      'state',
      'meta',
      'data',
      'metada',
      'iselin',
      'raiseli',
      'ru',
      'n',
      'x',
      '_',
      'é',
    ];
    const seps = [' ', '.', '(', '\n', '#', '', '', '_', '9'];
    const candidates = fuzzPrefilter(q, words, seps, { seed: 7, texts: 600, checkText: true });
    expect(candidates).toBeGreaterThan(50);
  });

  it('decides the same with its 4-byte-window filter (many long names), on random input', () => {
    // Over 512 call and method names, all at least 7 bytes: no substring search; the window filter runs first.
    const names: [string, number][] = [];
    for (let i = 0; i < 700; i++) names.push([`fetch_token_${i}`, ROLE_METHOD], [`Auth${i}Client`, ROLE_CALL], [`Klass${i}`, ROLE_CLASS]);
    const q = Prefilter.build({ names });
    const words = [
      'fetch_token_12',
      'fetch_token_699',
      'fetch_token_7000',
      'fetch_token_',
      'Auth3Client',
      'Auth3Clien',
      'xAuth3Client',
      'Klass5',
      'fetch',
      'token',
      '_12',
      'Client',
      'x',
      '_',
      '9',
      'é',
    ];
    const seps = [' ', '.', '(', '\n', '#', '', '', '_'];
    const candidates = fuzzPrefilter(q, words, seps, { seed: 11, texts: 2000, checkText: false });
    expect(candidates).toBeGreaterThan(20);
    // Wherever the shortest name sits relative to the samples, it is found.
    for (let k = 0; k < 40; k++) {
      for (const pad of ['x', ' ', 'é'])
        expect(q.candidateBytes(Buffer.from(`${pad.repeat(k)} Auth0Client() `, 'utf8')), `${k} ${pad}`).toEqual(['Auth0Client']);
    }
  });

  it('costs one pass whatever the number of names', () => {
    const many: [string, number][] = [];
    for (let i = 0; i < 20000; i++) many.push([`method_${i}_x`, ROLE_METHOD], [`Klass${i}`, ROLE_CLASS]);
    const big = Prefilter.build({ names: many });
    const text = 'import os\nk = Klass19999()\nk.method_123_x()\nmethod_123_xy()\n';
    expect(big.candidateBytes(Buffer.from(text))?.sort()).toEqual(['Klass19999', 'method_123_x']);
    expect(big.candidateBytes(Buffer.from('k = Klass19999()\n'))).toBeNull();
    const r = big.scanBytes(Buffer.from(text));
    expect(r.names.sort()).toEqual(['Klass19999', 'method_123_x']);
    expect(rolesCanMatch(r.roles)).toBe(true);
    expect(big.scanText(text).names.sort()).toEqual(['Klass19999', 'method_123_x']);
    // As saved in the rules snapshot.
    const loaded = Prefilter.fromBytes(big.toBytes());
    expect(loaded.scanBytes(Buffer.from(text)).names.sort()).toEqual(['Klass19999', 'method_123_x']);
    expect(loaded.spec.names.length).toBe(40000);
  });

  it('derives its names from the rules: targets, summaries, known classes and their aliases', async () => {
    const rules = await loadRules();
    const roles = new Map(prefilterSpec(rules).names);
    expect(roles.get('agent_save_state')! & ROLE_METHOD).toBeTruthy();
    expect(roles.get('metadata')! & ROLE_METHOD).toBeTruthy(); // AgentProxy.metadata calls the runtime
    expect(roles.get('GrpcWorkerAgentRuntime')! & ROLE_CLASS).toBeTruthy();
    expect(roles.get('WorkerAgentRuntime')! & ROLE_CLASS).toBeTruthy(); // legacy alias
    expect(roles.get('RoundRobinGroupChat')! & ROLE_CLASS).toBeTruthy();
  });
});

describe('discovery', () => {
  it('resolves paths as path.resolve does, without its cost for normalized absolute ones', () => {
    const parts = ['a', 'b.py', '.', '..', '', '...', '.x', 'x.', 'é'];
    let seed = 3;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const cases = ['/', '//', '/.', '/..', 'rel/x.py', './x.py', '/a/b/', '/a/./b', '/a/../b', '/a//b'];
    for (let t = 0; t < 500; t++) {
      let p = rand(4) ? '/' : '';
      for (let k = 0; k < 1 + rand(5); k++) p += `${parts[rand(parts.length)]}${rand(5) ? '/' : '//'}`;
      cases.push(rand(2) ? p : p.slice(0, -1));
    }
    for (const p of cases) expect(resolvePath(p), p).toBe(resolve(p));
  });
});

describe('compiled-rules snapshot', () => {
  it('restores the same rule set as compiling the records', async () => {
    const rules = await loadRules();
    const snap = Snapshot.fromBytes(new Uint8Array(joinPieces(encodeSnapshot(rules, prefilterSpec(rules), 'k'))));
    const all = snap.ruleSetFor(null);
    expect(JSON.parse(JSON.stringify(all.rules))).toEqual(JSON.parse(JSON.stringify(rules.rules)));
    const sortEntries = (m: Map<string, { id: string }[]>) =>
      [...m].map(([k, v]) => [k, v.map((r) => r.id)]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(sortEntries(all.byTrigger)).toEqual(sortEntries(rules.byTrigger));
    expect([...all.guards].sort()).toEqual([...rules.guards].sort());
    expect([...all.triggerNames].sort()).toEqual([...rules.triggerNames].sort());
    expect(all.classes.snapshot()).toEqual(rules.classes.snapshot());
    expect(all.exceptions.snapshot()).toEqual(rules.exceptions.snapshot());
    expect(snap.meta.ruleCount).toBe(rules.rules.length);
  });

  it('keeps the fix patterns of each rule, equal to those read from the record', async () => {
    const rules = await loadRules();
    const snap = Snapshot.fromBytes(new Uint8Array(joinPieces(encodeSnapshot(rules, prefilterSpec(rules), 'k'))));
    const all = snap.ruleSetFor(null);
    // The snapshot's rules carry their patterns; reading them afresh from the record gives the same data.
    for (const r of all.rules) {
      expect(r.patterns, r.id).toBeDefined();
      expect(JSON.parse(JSON.stringify(r.patterns))).toEqual(JSON.parse(JSON.stringify(readPatterns(r))));
    }
    expect(all.rules.some((r) => fixPatterns(r).tryExcept)).toBe(true);
  });

  it('`rules` and `explain` read the catalog from the snapshot: the same output as freshly compiled rules', async () => {
    const opts = { records: [join(ROOT, 'fixtures', 'shapes', 'records.jsonl')] };
    const fresh = await loadRules(opts);
    const dir = mkdtempSync(join(tmpdir(), 'raiselint-catalog-'));
    try {
      for (let run = 0; run < 2; run++) {
        // The first run compiles and saves the snapshot; the second reads it.
        const cat = await catalogRules(opts, dir);
        expect(readdirSync(join(dir, 'rules')).filter((n) => n.endsWith('.snap'))).toHaveLength(1);
        expect(formatRulesJson(cat.rules, cat)).toBe(formatRulesJson(fresh.rules, fresh));
        expect(formatRulesText(cat.rules, cat)).toBe(formatRulesText(fresh.rules, fresh));
        expect(formatExplainJson(cat.rules)).toBe(formatExplainJson(fresh.rules));
        expect(cat.warnings).toEqual(fresh.warnings);
        expect([...cat.byId.keys()].sort()).toEqual([...fresh.byId.keys()].sort());
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loads only the rules a file can need, including those reached through curated summaries', async () => {
    const rules = await loadRules();
    const snap = Snapshot.fromBytes(new Uint8Array(joinPieces(encodeSnapshot(rules, prefilterSpec(rules), 'k'))));
    const ids = (names: string[]) => snap.ruleSetFor(names).rules.map((r) => r.id);
    expect(ids(['agent_metadata'])).toEqual(['autogen/agent-metadata-is-not-yet-implemented']);
    // `team.save_state()` reaches `runtime.agent_save_state()`.
    expect(ids(['save_state'])).toEqual(
      expect.arrayContaining(['autogen/agent-save-state-is-not-yet-implemented', 'autogen/saving-state-is-not-yet-implemented']),
    );
    // Names that Object.prototype has are no rule's (the index is a plain object read from JSON).
    const fresh = Snapshot.fromBytes(new Uint8Array(joinPieces(encodeSnapshot(rules, prefilterSpec(rules), 'k'))));
    expect(fresh.ruleSetFor(['constructor', 'toString', '__proto__', 'hasOwnProperty']).rules).toEqual([]);
  });

  it('rules loaded a few names at a time, in any order, are listed in the order of the complete rule set', async () => {
    // Each record twice (another id and slug): every trigger lists several rules.
    const twice = join(tmp, 'shapes-twice.jsonl');
    const lines = readFileSync(join(ROOT, 'fixtures', 'shapes', 'records.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const copy = (l: string) => {
      const o = JSON.parse(l) as { record: { id: string; slug: string } };
      o.record.id += '0';
      o.record.slug += '-again';
      return JSON.stringify(o);
    };
    writeFileSync(twice, [...lines, ...lines.map(copy)].join('\n') + '\n');
    const rules = await loadRules({ records: [twice] });
    const encoded = Buffer.from(joinPieces(encodeSnapshot(rules, prefilterSpec(rules), 'k')));
    const full = Snapshot.fromBytes(encoded).ruleSetFor(null);
    const lists = (m: Map<string, { id: string }[]>) =>
      [...m].map(([k, v]) => [k, v.map((r) => r.id)]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    const names = [...rules.triggerNames].sort();
    expect([...full.byTrigger.values()].filter((l) => l.length > 1).length).toBeGreaterThan(5);
    for (let seed = 1; seed <= 5; seed++) {
      // A fixed shuffle per seed, one to three names per call.
      const order = names
        .map((n, i) => [((i + 1) * 7919 * seed) % 104729, n] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, n]) => n);
      const snap = Snapshot.fromBytes(encoded);
      for (let i = 0; i < order.length; i += 1 + (i % 3)) snap.ruleSetFor(order.slice(i, i + 1 + (i % 3)));
      const set = snap.ruleSetFor(null);
      expect(set.rules.map((r) => r.id)).toEqual(full.rules.map((r) => r.id));
      expect(lists(set.byTrigger)).toEqual(lists(full.byTrigger));
      expect([...set.guards].map(([k, v]) => [k, v.map((g) => JSON.stringify(g))]).sort()).toEqual(
        [...full.guards].map(([k, v]) => [k, v.map((g) => JSON.stringify(g))]).sort(),
      );
    }
  });
});

describe('identical results: cache, threads, prefilter', () => {
  let corpus: string;
  let records: string;
  beforeAll(() => {
    corpus = join(tmp, 'corpus');
    records = join(tmp, 'synthetic.jsonl');
    generateCorpus(corpus, { files: 160, seed: 11, recordsFile: records, recordCount: 80 });
  });

  it('on the fixtures', async () => {
    await equivalence([FIXTURES], {});
  });

  it('workers start once the parsing seen, or projected from a sample, is worth sharing; never for light runs', async () => {
    const T = 256 * 1024;
    expect(shouldSpawn(SPAWN_SAMPLE_FILES - 1, 10_000, 200 * 1024, T)).toBe(false); // no projection before the sample
    expect(shouldSpawn(SPAWN_SAMPLE_FILES, 10_000, 16 * 1024, T)).toBe(true); // 1 KiB a file, 9,984 files left
    expect(shouldSpawn(SPAWN_SAMPLE_FILES, 200, 16 * 1024, T)).toBe(false); // 184 files left x 1 KiB < 256 KiB
    expect(shouldSpawn(SPAWN_SAMPLE_FILES, 300, 16 * 1024, T)).toBe(true); // 284 KiB projected
    expect(shouldSpawn(1000, 1790, 0, T)).toBe(false); // the prefilter keeps it light
    expect(shouldSpawn(40, 41, T, T)).toBe(true);
    expect(shouldSpawn(41, 41, 10 * T, T)).toBe(false); // nothing left to share
    // Through the batch: a parse-heavy corpus of ~0.7 MB is below the default (a worker costs it
    // more than it saves), and starts one at a threshold it reaches; the fixtures (~20 files) never do; same findings.
    const heavy = join(tmp, 'heavy');
    const heavyRecords = join(tmp, 'heavy.jsonl');
    generateCorpus(heavy, { files: 700, seed: 3, recordsFile: heavyRecords, recordCount: 40 });
    expect((await checkPaths([heavy], { records: [heavyRecords] }, { jobs: 2, cache: false, cacheDir: cacheDir() })).stats.workers).toBe(0);
    const two = await checkPaths([heavy], { records: [heavyRecords] }, { jobs: 2, cache: false, cacheDir: cacheDir(), spawnAfterBytes: T });
    expect(two.stats.workers).toBe(1);
    const one = await checkPaths([heavy], { records: [heavyRecords] }, { jobs: 1, cache: false, cacheDir: cacheDir() });
    expectSame(two, one, { prefiltered: false });
    expect((await checkPaths([FIXTURES], {}, { jobs: 2, cache: false, cacheDir: cacheDir() })).stats.workers).toBe(0);
  });

  it('on a generated corpus with synthetic records', async () => {
    await equivalence([corpus], { records: [records] });
  });
});

describe('identical results through the configured run (config, suppressions, fixes planned)', () => {
  it('on a generated corpus with suppression comments', async () => {
    const corpus = join(tmp, 'corpus-project');
    const records = join(tmp, 'corpus-project.jsonl');
    generateCorpus(corpus, { files: 140, seed: 21, recordsFile: records, recordCount: 60 });
    writeFileSync(join(corpus, 'pkg1', 'raiselint.toml'), 'min-confidence = "certain"\nfix-strategy = "try-except"\n');
    const { runProject } = await import('../src/engine/project.js');
    const run = (o: Record<string, unknown>) => runProject([corpus], { records: [records], ...o });
    const shape = (r: Awaited<ReturnType<typeof run>>) => ({
      diagnostics: JSON.parse(JSON.stringify(r.diagnostics)),
      errors: JSON.parse(JSON.stringify(r.errors.filter((e) => e.kind !== 'syntax'))),
      suppressed: r.suppressed,
    });
    const ref = shape(await run({ jobs: 1, cache: false, prefilter: false, cacheDir: cacheDir() }));
    expect(ref.diagnostics.some((d: { ruleId: string }) => d.ruleId === 'raiselint/unused-ignore')).toBe(true);
    expect(ref.suppressed).toBeGreaterThan(0);
    expect(ref.diagnostics.some((d: { fix?: unknown }) => d.fix)).toBe(true);
    const dir = cacheDir();
    expect(shape(await run({ jobs: 1, cache: false, cacheDir: dir }))).toEqual(ref);
    expect(shape(await run({ jobs: 3, cache: false, cacheDir: dir, spawnAfterBytes: 0 }))).toEqual(ref);
    expect(shape(await run({ jobs: 2, cacheDir: dir, spawnAfterBytes: 0 }))).toEqual(ref);
    const warm = await run({ jobs: 2, cacheDir: dir, spawnAfterBytes: 0 });
    expect(shape(warm)).toEqual(ref);
    expect(warm.stats.parsed).toBe(0);
  });
});

describe('the content cache is never stale', () => {
  const base = () => {
    const dir = mkdtempSync(join(tmp, 'stale-'));
    writeFileSync(
      join(dir, 'a.py'),
      'from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\n\nasync def f(r: GrpcWorkerAgentRuntime, a):\n    await r.agent_save_state(a)\n',
    );
    writeFileSync(join(dir, 'b.py'), 'def g(x):\n    return x.save_state()\n');
    return dir;
  };
  const ids = (r: BatchResult) => r.diagnostics.map((d) => `${d.file.split('/').pop()}:${d.line} ${d.ruleId} ${d.confidence}`);

  it('after a file changes', async () => {
    const dir = base();
    const cache = cacheDir();
    const first = await checkPaths([dir], {}, { cacheDir: cache, jobs: 1 });
    expect(ids(first)).toEqual(['a.py:4 autogen/agent-save-state-is-not-yet-implemented certain']);
    // Same size, different content.
    writeFileSync(join(dir, 'a.py'), readFileSync(join(dir, 'a.py'), 'utf8').replace('agent_save_state', 'agent_load_state'));
    const second = await checkPaths([dir], {}, { cacheDir: cache, jobs: 1 });
    expect(ids(second)).toEqual(['a.py:4 autogen/agent-load-state-is-not-yet-implemented certain']);
    expect(second.stats.cachedByHash).toBe(1); // b.py
  });

  it('after a record dataset changes, and per option', async () => {
    const dir = base();
    const cache = cacheDir();
    const recs = join(tmp, 'one-record.jsonl');
    const line = readFileSync(join(ROOT, 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8').split('\n')[0]!;
    writeFileSync(recs, `${line}\n`);
    const only = await checkPaths([dir], { records: [recs], bundled: false }, { cacheDir: cache, jobs: 1 });
    expect(ids(only)).toEqual(['a.py:4 autogen/agent-save-state-is-not-yet-implemented certain']);
    // Same dataset file, now without the record that matched.
    const other = readFileSync(join(ROOT, 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8').split('\n')[2]!;
    writeFileSync(recs, `${other}\n`);
    const changed = await checkPaths([dir], { records: [recs], bundled: false }, { cacheDir: cache, jobs: 1 });
    expect(ids(changed)).toEqual([]);
    expect(changed.stats.compileMs).toBeGreaterThan(0);
    // Options that change results key the cache.
    const all = await checkPaths([dir], {}, { cacheDir: cache, jobs: 1 });
    const certain = await checkPaths([dir], {}, { cacheDir: cache, jobs: 1, minConfidence: 'certain' });
    expect(ids(certain)).toEqual(ids(all));
    appendFileSync(join(dir, 'b.py'), '\nfrom autogen_core import AgentRuntime\n\nasync def h(r: AgentRuntime, a):\n    await r.agent_metadata(a)\n');
    const possible = await checkPaths([dir], {}, { cacheDir: cache, jobs: 1 });
    const certainOnly = await checkPaths([dir], {}, { cacheDir: cache, jobs: 1, minConfidence: 'certain' });
    expect(ids(possible)).toContain('b.py:7 autogen/agent-metadata-is-not-yet-implemented possible');
    expect(ids(certainOnly)).not.toContain('b.py:7 autogen/agent-metadata-is-not-yet-implemented possible');
  });

  it('ignores a corrupt cache', async () => {
    const dir = base();
    const cache = cacheDir();
    const first = await checkPaths([dir], {}, { cacheDir: cache, jobs: 1 });
    for (const f of readdirSync(cache)) if (f.startsWith('results-')) writeFileSync(join(cache, f), '{"format":1,"key"');
    for (const f of readdirSync(join(cache, 'rules'))) writeFileSync(join(cache, 'rules', f), 'garbage');
    const again = await checkPaths([dir], {}, { cacheDir: cache, jobs: 1 });
    expectSame(again, first, { prefiltered: false });
    expect(again.stats.read).toBe(2);
  });

  it('reuses results from unchanged stat signatures, and sees same-size edits that restore the mtime', async () => {
    const dir = base();
    const cache = cacheDir();
    // Signatures of files changed within RACY_MS are not trusted; wait until these are old enough.
    await new Promise((r) => setTimeout(r, RACY_MS + 300));
    await checkPaths([dir], {}, { cacheDir: cache, jobs: 1 });
    const warm = await checkPaths([dir], {}, { cacheDir: cache, jobs: 1 });
    expect(warm.stats.cachedByStat).toBe(2);
    expect(warm.stats.read).toBe(0);
    const a = join(dir, 'a.py');
    const st = statSync(a);
    writeFileSync(a, readFileSync(a, 'utf8').replace('agent_save_state', 'agent_load_state'));
    utimesSync(a, st.atime, st.mtime); // same size and mtime; the ctime changes
    const after = await checkPaths([dir], {}, { cacheDir: cache, jobs: 1 });
    expect(ids(after)).toEqual(['a.py:4 autogen/agent-load-state-is-not-yet-implemented certain']);
    expect(after.stats.cachedByStat).toBe(1);
  });
});

describe('raiselint check (CLI)', () => {
  const bin = join(ROOT, 'bin', 'raiselint.js');
  it('prints the same report with --jobs 1, --jobs 4, --no-cache and a warm cache', () => {
    const cache = cacheDir();
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [bin, 'check', '--format', 'json', '--cache-dir', cache, ...args, FIXTURES], { encoding: 'utf8' });
    const a = run('--jobs', '1', '--no-cache');
    expect(a.status).toBe(1);
    expect(readdirSync(cache).filter((f) => f.startsWith('results-'))).toEqual([]);
    for (const args of [['--jobs', '4'], [], [], ['--no-prefilter']]) expect(run(...args).stdout).toBe(a.stdout);
    expect(readdirSync(cache).filter((f) => f.startsWith('results-')).length).toBeGreaterThan(0);
    expect(readFileSync(join(cache, '.gitignore'), 'utf8')).toContain('*');
  });

  it('rejects a bad --jobs with a one-line error', () => {
    const r = spawnSync(process.execPath, [bin, 'check', '--jobs', '0', FIXTURES], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--jobs');
  });

  /** A copy of the package, bundled there: the bundles of the real dist/ are not touched while other tests run. */
  let bundledPkg: string | undefined;
  function bundledCopy(): string {
    if (bundledPkg) return bundledPkg;
    const pkg = join(tmp, 'pkg');
    execFileSync('mkdir', ['-p', join(pkg, 'scripts')]);
    for (const d of ['dist', 'bin']) execFileSync('cp', ['-r', join(ROOT, d), join(pkg, d)]);
    execFileSync('cp', [join(ROOT, 'package.json'), join(pkg, 'package.json')]);
    execFileSync('cp', [join(ROOT, 'scripts', 'bundle.mjs'), join(pkg, 'scripts', 'bundle.mjs')]);
    for (const d of ['node_modules', 'rules', 'fixtures', 'src']) execFileSync('ln', ['-s', join(ROOT, d), join(pkg, d)]);
    rmSync(join(pkg, 'dist', 'bundle'), { recursive: true, force: true });
    execFileSync(process.execPath, [join(pkg, 'scripts', 'bundle.mjs')]);
    return (bundledPkg = pkg);
  }

  it('runs the same from the one-file bundles (CLI and worker threads) as from the compiled modules', () => {
    const pkg = bundledCopy();
    const corpus = join(tmp, 'corpus-bundle');
    const records = join(tmp, 'corpus-bundle.jsonl');
    generateCorpus(corpus, { files: 640, seed: 5, recordsFile: records, recordCount: 40 });
    const args = ['check', '--format', 'json', '--records', records, '--no-cache', '--timings', corpus];
    // The corpus is far below the parsing that makes a worker pay (DEFAULT_SPAWN_AFTER_BYTES): one is asked for.
    const bundled = spawnSync(process.execPath, [join(pkg, 'bin', 'raiselint.js'), ...args, '--cache-dir', cacheDir(), '--jobs', '2'], {
      encoding: 'utf8',
      cwd: tmp,
      maxBuffer: 1 << 28,
      env: { ...process.env, RAISELINT_SPAWN_AFTER_BYTES: '0' },
    });
    const plainRun = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        'const { main } = await import(process.argv[1]); process.exitCode = await main(process.argv.slice(2));',
        join(ROOT, 'dist', 'cli', 'main.js'),
        ...args,
        '--cache-dir',
        cacheDir(),
        '--jobs',
        '1',
      ],
      { encoding: 'utf8', cwd: tmp, maxBuffer: 1 << 28 },
    );
    expect(bundled.status).toBe(plainRun.status);
    expect(bundled.stdout).toBe(plainRun.stdout);
    expect(JSON.parse(bundled.stdout).diagnostics.length).toBeGreaterThan(100);
    expect(bundled.stderr).toContain('1 worker threads');
    expect(plainRun.stderr).toContain('0 worker threads');
  });

  it('ignores a code cache that is missing, corrupt, truncated, for another Node or rejected by V8, and writes a good one', () => {
    const pkg = bundledCopy();
    const dir = cacheDir();
    // bin/codecache.cjs: a first run writes the cache into the cache directory (not into the package).
    const { readCache, headerOf, cachePathFor } = createRequire(import.meta.url)(join(pkg, 'bin', 'codecache.cjs')) as {
      readCache: (path: string, header: string) => Buffer | undefined;
      headerOf: (st: { size: number; mtimeMs: number }) => string;
      cachePathFor: (file: string, dir: string) => string;
    };
    const bundle = join(pkg, 'dist', 'bundle', 'main.cjs');
    const cachePath = cachePathFor(bundle, dir);
    expect(dirname(cachePath)).toBe(resolve(dir));
    const header = headerOf(statSync(bundle));
    const args = ['check', '--format', 'text', '--no-cache', '--cache-dir', dir, FIXTURES];
    const run = (env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [join(pkg, 'bin', 'raiselint.js'), ...args], { encoding: 'utf8', cwd: tmp, env: { ...process.env, ...env } });
    const ref = run({ RAISELINT_NO_CODE_CACHE: '1' });
    expect(existsSync(cachePath)).toBe(false);
    run();
    const good = readCache(cachePath, header);
    expect(good).toBeDefined();
    expect(readdirSync(join(pkg, 'dist', 'bundle')).filter((f) => f.includes('v8cache'))).toEqual([]);
    expect(ref.status).toBe(1);
    expect(ref.stdout).toContain('= fix');
    const same = (r: ReturnType<typeof run>) => {
      expect(r.status).toBe(ref.status);
      expect(r.stdout).toBe(ref.stdout);
      expect(r.stderr).toBe(ref.stderr);
    };
    same(run());
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    const v8Rejects = new vm.Script('1 + 1', { produceCachedData: true }).createCachedData();
    const bad: [string, Buffer][] = [
      ['garbage', Buffer.from('not a cache at all')],
      ['empty', Buffer.alloc(0)],
      ['truncated', readFileSync(cachePath).subarray(0, 200)],
      ['flipped bytes', Buffer.concat([Buffer.from(`${header}\n${sha(good!)}\n`), Buffer.from(good!.map((b, i) => (i % 97 === 5 ? b ^ 0xff : b)))])],
      ['another Node', Buffer.concat([Buffer.from(`${header.replace(process.version, 'v0.0.1')}\n${sha(good!)}\n`), good!])],
      ['another script (V8 rejects it)', Buffer.concat([Buffer.from(`${header}\n${sha(v8Rejects)}\n`), v8Rejects])],
    ];
    for (const [, bytes] of bad) {
      writeFileSync(cachePath, bytes);
      same(run());
      // Replaced by a good cache at exit.
      expect(readCache(cachePath, header)).toBeDefined();
    }
    rmSync(cachePath);
    same(run());
    expect(readCache(cachePath, header)).toBeDefined();
  });

  it("caches the dependencies' compiled code too, and ignores a dependency cache that is corrupt, truncated or out of date", () => {
    const pkg = bundledCopy();
    const dir = cacheDir();
    const { readDeps, depsHeader, depsPathFor } = createRequire(import.meta.url)(join(pkg, 'bin', 'codecache.cjs')) as {
      readDeps: (path: string) => { index: Record<string, [number, number, number, number]>; data: Buffer };
      depsHeader: () => string;
      depsPathFor: (file: string, dir: string) => string;
    };
    const depsPath = depsPathFor(join(pkg, 'dist', 'bundle', 'main.cjs'), dir);
    // A JS/TS run: the CLI loads ESLint and typescript-eslint.
    const args = [
      'check',
      '--format',
      'json',
      '--no-cache',
      '--records',
      join(ROOT, 'fixtures', 'js', 'js-records.jsonl'),
      '--cache-dir',
      dir,
      join(ROOT, 'fixtures', 'js', 'mixed'),
    ];
    const run = (env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [join(pkg, 'bin', 'raiselint.js'), ...args], { encoding: 'utf8', cwd: tmp, env: { ...process.env, ...env } });
    const ref = run({ RAISELINT_NO_CODE_CACHE: '1' });
    expect(existsSync(depsPath)).toBe(false);
    expect(JSON.parse(ref.stdout).diagnostics.length).toBeGreaterThan(2);
    const same = (r: ReturnType<typeof run>) => {
      expect(r.status).toBe(ref.status);
      expect(r.stdout).toBe(ref.stdout);
      expect(r.stderr).toBe(ref.stderr);
    };
    same(run());
    const good = readDeps(depsPath);
    const files = Object.keys(good.index);
    expect(files.some((f) => f.includes(`${sep}eslint${sep}lib${sep}linter${sep}`))).toBe(true);
    expect(files.some((f) => f.includes(`${sep}@typescript-eslint${sep}`))).toBe(true);
    // Left to Node: modules that may run import() (a vm.Script made from cached data cannot), typescript.js among them.
    expect(files.filter((f) => /\bimport\s*\(/.test(readFileSync(f, 'utf8')))).toEqual([]);
    expect(files.some((f) => f.endsWith(`${sep}typescript${sep}lib${sep}typescript.js`))).toBe(false);
    same(run());
    const bytes = readFileSync(depsPath);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    const rest = (index: unknown, data: Buffer) => Buffer.concat([Buffer.from(`${JSON.stringify(index)}\n`), data]);
    const framed = (body: Buffer, header = depsHeader()) => Buffer.concat([Buffer.from(`${header}\n${sha(body)}\n`), body]);
    // Every entry says another size (the module changed since): each is compiled from source.
    const stale = Object.fromEntries(Object.entries(good.index).map(([f, [size, mtime, at, len]]) => [f, [size + 1, mtime, at, len]]));
    // Every entry holds the cache of another script (V8 rejects it), or points past the end.
    const other = new vm.Script('1 + 1', { produceCachedData: true }).createCachedData();
    const foreign = Object.fromEntries(Object.keys(good.index).map((f) => [f, [...good.index[f]!.slice(0, 2), 0, other.length]]));
    const past = Object.fromEntries(Object.entries(good.index).map(([f, [size, mtime, at, len]]) => [f, [size, mtime, at + good.data.length, len]]));
    const bad: [string, Buffer][] = [
      ['garbage', Buffer.from('not a cache at all')],
      ['truncated', bytes.subarray(0, Math.floor(bytes.length / 2))],
      ['flipped bytes', Buffer.from(bytes.map((b, i) => (i > 200 && i % 89 === 3 ? b ^ 0xff : b)))],
      ['another Node', framed(rest(good.index, good.data), depsHeader().replace(process.version, 'v0.0.1'))],
      ['an index that is not JSON', framed(Buffer.concat([Buffer.from('{"a":\n'), good.data]))],
      ['stale entries', framed(rest(stale, good.data))],
      ['caches of another script', framed(rest(foreign, other))],
      ['entries past the end', framed(rest(past, good.data))],
    ];
    for (const [, b] of bad) {
      writeFileSync(depsPath, b);
      same(run());
    }
    // The last bad cache was replaced by a good one at exit.
    expect(Object.keys(readDeps(depsPath).index).length).toBe(files.length);
  });

  it('generates valid synthetic records', () => {
    const out = join(tmp, 'gen.jsonl');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-records.mjs'), '--count', '40', '--out', out]);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(40);
    const r = spawnSync(
      process.execPath,
      [bin, 'check', '--no-bundled', '--records', out, '--derive', 'off', '--cache-dir', cacheDir(), '--timings', FIXTURES],
      {
        encoding: 'utf8',
      },
    );
    expect(r.stderr).not.toContain('skipped');
    expect(r.stderr).toContain('40 rules');
  });
});
