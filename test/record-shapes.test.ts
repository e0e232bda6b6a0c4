/**
 * Record shapes: what the compiler derives from each example record (fixtures/shapes/records.jsonl),
 * what it refuses (test/data/records-imprecise.jsonl), and `raiselint records check`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkRecords } from '../src/cli/records.js';
import { checkSource } from '../src/engine/check.js';
import { loadRules } from '../src/compile/load.js';
import { initParser } from '../src/parse/parser.js';
import { ClassRegistry } from '../src/rules/classes.js';
import { compileRecord, versionNotes } from '../src/compile/python/index.js';
import { ExceptionHierarchy } from '../src/rules/exceptions.js';
import type { LoadedRecord } from '../src/records/types.js';
import { ROOT, cli, tempTree } from './helpers.js';
import { cliFindingsOf } from './helpers/paths.js';

const SHAPES = join(ROOT, 'fixtures', 'shapes', 'records.jsonl');
const IMPRECISE = join(ROOT, 'test', 'data', 'records-imprecise.jsonl');

beforeAll(async () => {
  await initParser();
});

describe('compiling the example records', () => {
  it('derives the entry points, kinds, error classes and versions of every shape', async () => {
    // What the records alone say (their own windows): grounding in the installed library is test/ground.test.ts's.
    const reports = await checkRecords([SHAPES], false);
    const by = new Map(reports.map((r) => [r.id, r]));
    const row = (id: string) => {
      const r = by.get(id);
      expect(r, id).toBeDefined();
      return { status: r!.status, kind: r!.kind, entries: r!.entryPoints, error: r!.errorClass, versions: r!.versions };
    };
    expect(row('cpython/json-expecting-value')).toEqual({
      status: 'compiled',
      kind: 'function',
      entries: ['json.loads()', 'json.load()'],
      error: 'json.decoder.JSONDecodeError',
      versions: [],
    });
    expect(row('cpython/toml-invalid-statement')).toEqual({
      status: 'compiled',
      kind: 'function',
      entries: ['tomllib.loads() [defined in tomllib._parser]', 'tomllib.load()'],
      error: 'tomllib._parser.TOMLDecodeError',
      versions: ['python >=3.11'],
    });
    expect(row('cpython/command-returned-non-zero-exit-status')).toMatchObject({
      kind: 'function',
      entries: ['subprocess.check_call()'],
      error: 'subprocess.CalledProcessError',
    });
    expect(row('cpython/no-time-zone-found-with-key')).toMatchObject({
      kind: 'constructor+classmethod',
      entries: ['zoneinfo.ZoneInfo()', 'zoneinfo.ZoneInfo.no_cache()'],
      error: 'zoneinfo.ZoneInfoNotFoundError',
      versions: ['python >=3.9'],
    });
    expect(row('cpython/unexpected-slash-in-ipv4-address')).toMatchObject({
      kind: 'constructor',
      entries: ['ipaddress.IPv4Address()'],
      error: 'ipaddress.AddressValueError',
    });
    expect(row('cpython/invalid-isoformat-string')).toMatchObject({
      kind: 'classmethod',
      entries: ['datetime.date.fromisoformat()', '<date instance>.fromisoformat()'],
      error: 'ValueError',
    });
    expect(row('cpython/path-is-mount-is-unsupported-on-this-system')).toMatchObject({
      kind: 'method',
      entries: ['pathlib.WindowsPath.is_mount()'],
      versions: ['python <3.12'],
    });
    expect(row('cpython/system-entropy-source-does-not-have-state')).toMatchObject({
      kind: 'method',
      entries: ['random.SystemRandom.getstate()', 'random.SystemRandom.setstate()'],
    });
    expect(row('openai-python/api-removed-in-v1')).toEqual({
      status: 'compiled',
      kind: 'attribute',
      entries: ['openai.ChatCompletion.create()', 'openai.Completion.create()', 'openai.Embedding.create()'],
      error: 'openai.lib._old_api.APIRemovedInV1',
      versions: ['openai >=1.0.0'],
    });
    expect(row('cpython/no-valid-begin-line-found-in-input-file')).toMatchObject({
      kind: 'function',
      entries: ['uu.decode()'],
      error: 'uu.Error',
      versions: ['python <3.13'],
    });
    expect(row('cpython/seeking-is-only-supported-on-files-open-for-reading')).toMatchObject({
      kind: 'method',
      entries: ['bz2.BZ2File.seek()', 'lzma.LZMAFile.seek()'],
      error: 'io.UnsupportedOperation',
    });
    expect(reports.every((r) => r.status === 'compiled')).toBe(true);
    expect(reports.length).toBe(11);
  });

  it('reads exception classes and their bases from sourceCode, resolving its imports', async () => {
    const rules = await loadRules({ records: [SHAPES], bundled: false });
    const exc = rules.exceptions;
    expect(exc.mro('uu.Error')).toEqual(['uu.Error', 'Exception', 'BaseException']);
    expect(exc.isSubclass('uu.Error', 'ValueError')).toBe(false);
    // `from .._exceptions import OpenAIError` in openai/lib/_old_api.py; `openai.OpenAIError` is its re-export.
    expect(exc.mro('openai.lib._old_api.APIRemovedInV1')).toEqual(['openai.lib._old_api.APIRemovedInV1', 'openai._exceptions.OpenAIError']);
    expect(exc.isSubclass('openai.lib._old_api.APIRemovedInV1', 'openai.OpenAIError')).toBe(true);
    expect(exc.isSubclass('openai.lib._old_api.APIRemovedInV1', 'openai.APIError')).toBe(false);
    expect(exc.isSubclass('openai.lib._old_api.APIRemovedInV1', 'Exception')).toBe(true);
    expect(exc.isSubclass('openai.lib._old_api.APIRemovedInV1', 'ValueError')).toBe(false);
    expect(exc.isSubclass('tomllib._parser.TOMLDecodeError', 'tomllib.TOMLDecodeError')).toBe(true);
    expect(exc.isSubclass('tomllib._parser.TOMLDecodeError', 'tomli.TOMLDecodeError')).toBe(false);
  });

  it('keeps the record ids and versions on the rules', async () => {
    const rules = await loadRules({ records: [SHAPES], bundled: false });
    const pathRule = rules.byId.get('cpython/path-is-mount-is-unsupported-on-this-system')!;
    expect(pathRule.versions).toEqual([{ subject: 'python', constraint: '<3.12', from: 'before Python 3.12' }]);
  });
});

describe('records that compile to nothing precise', () => {
  it('are skipped with the reason, and never flag a bare method name', async () => {
    const rules = await loadRules({ records: [IMPRECISE], bundled: false });
    expect(rules.rules.map((r) => r.id)).toEqual(['storage/flush-read-only']);
    const reasons = rules.warnings.map((w) => w.message);
    expect(reasons.some((m) => /save-not-implemented|too imprecise: 'save'/.test(m) && m.includes('every .save()'))).toBe(true);
    expect(reasons.some((m) => m.includes("'_check' is a private helper"))).toBe(true);
    // The JS record goes to the JS/TS compiler (src/rules/js/), which skips a window with no function around the throw.
    expect(reasons.some((m) => m.includes('record 77bba72cc05b997d skipped: no enclosing function'))).toBe(true);
    const text = 'def persist(backend, obj):\n    backend.save(obj)\n    obj.save()\n    backend.flush()\n';
    expect(checkSource(text, 'x.py', rules).diagnostics).toEqual([]);
    expect(cliFindingsOf(text, 'x.py', [IMPRECISE], false), 'raiselint check (compiled-rules snapshot)').toEqual([]);
  });

  it('a method whose class sourceCode shows falls back to that class', async () => {
    const rules = await loadRules({ records: [IMPRECISE], bundled: false });
    const text = 'from acme.storage import ReadOnlyBackend\n\ndef f(b: ReadOnlyBackend):\n    b.flush()\n';
    expect(checkSource(text, 'x.py', rules).diagnostics.map((d) => `${d.line} ${d.confidence} ${d.ruleId}`)).toEqual(['4 certain storage/flush-read-only']);
    expect(cliFindingsOf(text, 'x.py', [IMPRECISE], false), 'raiselint check (compiled-rules snapshot)').toEqual(['4 certain storage/flush-read-only']);
  });
});

describe('compileRecord on hand-made records', () => {
  const base = (over: Record<string, unknown>): LoadedRecord => ({
    record: {
      id: 'x1',
      repo: 'acme/lib',
      slug: 'x',
      errorMessage: 'boom',
      errorClass: 'ValueError',
      filePath: 'src/acme/_impl/core.py',
      lineNumber: 2,
      sourceCode: 'def parse(text):\n    raise ValueError("boom")\n',
      sourceCodeStart: 1,
      tags: ['python'],
      ...over,
    },
    source: { file: 'mem.jsonl', line: 1 },
  });
  const compile = (over: Record<string, unknown>) => compileRecord(base(over), new ClassRegistry(), new ExceptionHierarchy());

  it('a public module function with no snippets is its own entry point, re-exported by every ancestor package', () => {
    const o = compile({});
    expect(o.derived.entryPoints).toEqual(['acme._impl.core.parse()']);
    expect(o.derived.entrySource).toBe('raising def');
    const t = o.rule!.targets[0]!;
    expect(t.kind === 'call' && t.symbol.module).toBe('acme._impl.core');
  });

  it('a method call in the snippets on an unrelated receiver does not widen the rule', () => {
    const o = compile({ tryCatchPattern: 'import acme\n\ntry:\n    acme.parse(text)\n    cache.store(text)\nexcept ValueError:\n    pass' });
    expect(o.derived.entryPoints).toEqual(['acme.parse() [defined in acme._impl.core]']);
  });

  it('setup calls of a try body are not entry points when the snippets call the raising method', () => {
    const o = compile({
      filePath: 'src/acme/client.py',
      sourceCode: 'class Client:\n    def run(self):\n        raise ValueError("boom")\n',
      lineNumber: 3,
      tryCatchPattern: 'import acme.client\n\ntry:\n    client = acme.client.Client(key)\n    client.run()\nexcept ValueError:\n    pass',
    });
    expect(o.derived.entryPoints).toEqual(['acme.client.Client.run()']);
  });

  it('an inner constructor call of a chain is not an entry point when the outer method is the raising one', () => {
    const o = compile({
      filePath: 'src/acme/widgets.py',
      sourceCode: 'class Widget:\n    def render(self):\n        raise ValueError("boom")\n',
      lineNumber: 3,
      triggerScenarios: 'Calling `acme.widgets.Widget().render()`.',
    });
    expect(o.derived.entryPoints).toEqual(['acme.widgets.Widget.render()']);
    expect(o.derived.kind).toBe('method');
  });

  it('version notes are kept only for Python and the library, not for code comparisons or deprecations', () => {
    const subjects = new Set(['python', 'acme']);
    expect(
      versionNotes(subjects, 'if retcode != 0 and x < 3: fails with acme>=2.1 on Python < 3.10; deprecated since Python 3.8; removed in Python 3.13'),
    ).toEqual([
      { subject: 'acme', constraint: '>=2.1', from: 'acme>=2.1' },
      { subject: 'python', constraint: '<3.10', from: 'Python < 3.10' },
      { subject: 'python', constraint: '<3.13', from: 'removed in Python 3.13' },
    ]);
  });
});

describe('raiselint records check', () => {
  it('prints per record what it compiled to, and exits 0 when all compiled', () => {
    const r = cli(['records', 'check', SHAPES]);
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toContain('cpython/json-expecting-value: compiled (function)');
    expect(out).toContain('entry points  json.loads(), json.load()  [from snippets]');
    expect(out).toContain('error         uu.Error < Exception < BaseException');
    expect(out.trim().split('\n').pop()).toBe('11 records: 11 compiled, 0 skipped');
  });

  it('exits 1 and says why when a record is skipped; JSON output carries the same', () => {
    const r = cli(['records', 'check', '--format', 'json', IMPRECISE]);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout) as { records: { id: string; status: string; reason?: string }[] };
    expect(rep.records.map((x) => `${x.id} ${x.status}`)).toEqual([
      'storage/save-not-implemented skipped',
      'storage/private-helper skipped',
      'storage/flush-read-only compiled',
      'storage/js-record skipped',
    ]);
    expect(rep.records[0]!.reason).toMatch(/^too imprecise/);
  });

  it('reports a record with a bad field in place and exits 2 on invalid JSON, in one line', () => {
    const first = readFileSync(SHAPES, 'utf8').split('\n')[0]!;
    const dir = tempTree({ 'bad.jsonl': `${first}\n{"record": {"id": 3}}\n`, 'broken.jsonl': '{nope\n' });
    const bad = join(dir, 'bad.jsonl');
    const r = cli(['records', 'check', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${bad}:2 ?: skipped: field 'id': expected string, got number`);
    expect(r.stdout).toContain(`${bad}:1 cpython/json-expecting-value: compiled (function)`);
    const broken = join(dir, 'broken.jsonl');
    const r2 = cli(['records', 'check', broken]);
    expect(r2.code).toBe(2);
    const lines = r2.stderr.trim().split('\n');
    expect(lines.length).toBe(1);
    // The line is not quoted (a records path may name any file): where it breaks, in words.
    expect(lines[0]).toBe(`raiselint: error: ${broken}:1: invalid JSON at column 2 (not JSON Lines, or damaged)`);
  });
});
