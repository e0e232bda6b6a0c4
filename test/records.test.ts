/** Dataset reading and validation, and record → rule compilation. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetError, parseDataset } from '../src/records/load.js';
import { loadRules } from '../src/compile/load.js';
import { moduleFromFilePath, symbolMatches } from '../src/rules/names.js';
import { ROOT } from './helpers.js';

const JSONL = readFileSync(join(ROOT, 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8');
const first = JSON.parse(JSONL.split('\n')[0]!);

describe('dataset formats', () => {
  it('reads the upstream JSON Lines format with datasetVersion', () => {
    const r = parseDataset(JSONL, 'd.jsonl');
    expect(r.records).toHaveLength(5);
    expect(r.problems).toEqual([]);
    expect(r.records[0]!.datasetVersion).toBe('2026-08-15T17:31:12.345Z');
    expect(r.records[2]!.source).toEqual({ file: 'd.jsonl', line: 3 });
  });
  it('reads a bare record per line, and a JSON array of either', () => {
    expect(parseDataset(JSON.stringify(first.record) + '\n', 'b.jsonl').records[0]!.record.id).toBe('16fc4bb4b7873c4d');
    const arr = parseDataset(`[\n  ${JSON.stringify(first)},\n  ${JSON.stringify(first.record)}\n]`, 'a.json');
    expect(arr.records.map((r) => r.source.line)).toEqual([2, 3]);
  });
  it('invalid JSON stops the run with file and line', () => {
    expect(() => parseDataset('{"record": {}}\n{oops\n', 'x.jsonl')).toThrow(DatasetError);
    try {
      parseDataset('\n\n{oops\n', 'x.jsonl');
    } catch (e) {
      expect((e as DatasetError).describe()).toMatch(/^x\.jsonl:3: invalid JSON/);
    }
  });
  it('a missing or ill-typed field skips the record with a problem naming the field', () => {
    const rec = { ...first.record, lineNumber: 'five' };
    delete rec.errorClass;
    const r = parseDataset(JSON.stringify({ record: rec }), 'p.jsonl');
    expect(r.records).toEqual([]);
    expect(r.problems[0]).toMatchObject({ file: 'p.jsonl', line: 1, skipsRecord: true });
    expect(['errorClass', 'lineNumber']).toContain(r.problems[0]!.field);
  });
  it('an unsupported schemaVersion is named', () => {
    const r = parseDataset(JSON.stringify({ record: { ...first.record, schemaVersion: 3 } }), 'v.jsonl');
    expect(r.problems[0]).toMatchObject({ field: 'schemaVersion', skipsRecord: true });
  });
});

describe('names', () => {
  it('derives the module from filePath, anchored on imports', () => {
    expect(
      moduleFromFilePath('python/packages/autogen-ext/src/autogen_ext/runtimes/grpc/_worker_runtime.py', ['autogen_ext.runtimes.grpc.GrpcWorkerAgentRuntime']),
    ).toBe('autogen_ext.runtimes.grpc._worker_runtime');
    expect(moduleFromFilePath('src/pkg/sub/__init__.py')).toBe('pkg.sub');
    expect(moduleFromFilePath('Lib/json/decoder.py')).toBe('json.decoder');
  });
  it('every ancestor package is a possible re-export; other packages are not', () => {
    const sym = {
      module: 'autogen_ext.runtimes.grpc._worker_runtime',
      path: 'GrpcWorkerAgentRuntime',
      aliases: ['autogen_core.application.WorkerAgentRuntime'],
    };
    expect(symbolMatches(sym, 'autogen_ext.runtimes.grpc.GrpcWorkerAgentRuntime')).toBe(true);
    expect(symbolMatches(sym, 'autogen_ext.runtimes.grpc._worker_runtime.GrpcWorkerAgentRuntime')).toBe(true);
    expect(symbolMatches(sym, 'autogen_core.application.WorkerAgentRuntime')).toBe(true);
    expect(symbolMatches(sym, 'mypkg.runtimes.GrpcWorkerAgentRuntime')).toBe(false);
    expect(symbolMatches(sym, 'autogen_ext.runtimes.grpc.GrpcWorkerAgentRuntimeHost')).toBe(false);
  });
});

describe('compiling the bundled records', () => {
  it('gives five rules with readable stable ids, the raising method, class, error class and guard', async () => {
    const rules = await loadRules();
    expect(rules.warnings).toEqual([]);
    expect(rules.rules.map((r) => r.id).sort()).toEqual([
      'autogen/agent-load-state-is-not-yet-implemented',
      'autogen/agent-metadata-is-not-yet-implemented',
      'autogen/agent-save-state-is-not-yet-implemented',
      'autogen/loading-state-is-not-yet-implemented',
      'autogen/saving-state-is-not-yet-implemented',
    ]);
    const r = rules.byId.get('autogen/agent-save-state-is-not-yet-implemented')!;
    expect(r.targets).toEqual([{ kind: 'method', classKey: 'autogen_ext.runtimes.grpc._worker_runtime.GrpcWorkerAgentRuntime', method: 'agent_save_state' }]);
    expect(r.errorClass).toBe('NotImplementedError');
    expect(r.raiser).toMatchObject({ module: 'autogen_ext.runtimes.grpc._worker_runtime', qualname: 'GrpcWorkerAgentRuntime.agent_save_state', line: 502 });
    expect(r.raiser.url).toMatch(/_worker_runtime\.py#L502$/);
    expect(r.guards).toEqual([
      {
        name: 'runtime_has_per_agent_state',
        param: 0,
        excludesWhenTrue: ['autogen_ext.runtimes.grpc._worker_runtime.GrpcWorkerAgentRuntime'],
        includesWhenTrue: [],
      },
    ]);
    expect(rules.byTrigger.get('agent_save_state')).toEqual([r]);
    // The curated legacy name resolves to the same class.
    expect(rules.classes.resolve('autogen_core.application.WorkerAgentRuntime')).toBe('autogen_ext.runtimes.grpc._worker_runtime.GrpcWorkerAgentRuntime');
  });

  it('a record of another language is skipped with a reason (JS/TS records go to the JS/TS compiler: test/js-records.test.ts)', async () => {
    const rec = { ...first.record, id: 'js1', tags: ['go'], filePath: 'lib/x.go' };
    const dir = (await import('./helpers.js')).tempTree({ 'js.jsonl': JSON.stringify({ record: rec }) });
    const rules = await loadRules({ records: [join(dir, 'js.jsonl')], bundled: false });
    expect(rules.rules).toEqual([]);
    expect(rules.warnings[0]!.message).toMatch(/record js1 skipped: not a Python record/);
  });
});
