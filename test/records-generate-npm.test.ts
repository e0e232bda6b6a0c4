/**
 * `raiselint records generate <npm package folder>`: records of the throw sites of an npm
 * package's public API, read from its shipped JavaScript (src/records/generate/npm.ts), on a small
 * package made for the purpose (test/data/npm-pkg: ES and CommonJS entries, re-exports, internal
 * helpers, a nested function, a try, a private method, a throw helper) and on real installed
 * packages (semver, tough-cookie, commander, abstract-level, smol-toml): every record compiles into
 * a rule aimed at the exported call, and the CLI finds the calls of an application with them.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRecords } from '../src/records/generate/index.js';
import { loadRules } from '../src/compile/load.js';
import type { Rule } from '../src/rules/types.js';
import { createPlugin } from '../src/eslint/plugin.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'raiselint.js');
const MINI = join(ROOT, 'test', 'data', 'npm-pkg');
const REAL = ['semver', 'tough-cookie', 'commander', 'abstract-level', 'smol-toml'];

type J = any;
let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'raiselint-npmgen-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const recordsOf = (lines: string[]) => lines.map((l) => (JSON.parse(l) as { record: J }).record);

async function rulesOf(lines: string[]): Promise<{ rules: Rule[]; skipped: string[] }> {
  const file = join(tmp, `r${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const rs = await loadRules({ records: [file], bundled: false, python: false }, join(tmp, 'cache'));
  return { rules: rs.rules.filter((r) => r.js), skipped: rs.outcomes.filter((o) => o.outcome.skipped).map((o) => o.outcome.skipped!) };
}

describe('records generate: an npm package made for the test', () => {
  it('the public API: exported functions, constructors, methods and statics, and the throws of the internal helpers they call; no nested function, try, private method or throw helper', async () => {
    const { lines, files } = await generateRecords([{ path: MINI }]);
    expect(files).toBe(7);
    const got = recordsOf(lines).map((r) => `${r.tags.at(-1)} ${r.filePath}:${r.lineNumber} ${r.errorClass}: ${r.errorMessage}`);
    expect(got).toEqual([
      'constructor lib/parser.js:6 TypeError: source is required, got …',
      'method lib/parser.js:11 ParseError: nothing to parse',
      'method lib/parser.js:20 Error: save is not implemented',
      'static lib/parser.js:32 TypeError: source must be a string',
      'function index.js:7 TypeError: value must be a string',
      // In internal(), which check() calls: a record of the public call.
      'function index.js:13 Error: empty value',
      'function lib/util.js:8 RangeError: list … is not an array',
      // tsc's CommonJS: `exports.Doc = Doc.Doc` beside `var Doc = require(...)`, and `__exportStar(require(...), exports)`.
      'method lib/cjs/doc.cjs:10 Error: Document with errors cannot be stringified',
      'method lib/cjs/doc.cjs:18 Error: this cannot happen: unknown node kind',
      'method lib/cjs/doc.cjs:31 Error: write after close',
      'method lib/cjs/doc.cjs:36 Error: nothing was written',
      'function lib/cjs/shapes.cjs:6 RangeError: width must not be negative',
      'function lib/parse.mjs:5 TypeError: Invalid id',
      'function lib/write.mjs:9 RangeError: offset … is out of bounds',
      'function lib/parse.mjs:5 TypeError: Invalid id',
    ]);
    const r = recordsOf(lines)[1];
    expect(r).toMatchObject({
      repo: '@acme/mini',
      messagePattern: 'nothing to parse',
      schemaVersion: 2,
      tags: ['javascript', 'npm', 'dist:@acme/mini', 'version:1.2.3', 'method'],
    });
    expect(r.analyzedSha).toMatch(/^sha256:[0-9a-f]{64}$/);
    // ParseError is not exported by the entry point: the handler catches Error.
    expect(r.tryCatchPattern).toBe(
      "import { Parser } from '@acme/mini';\n\nconst parser = new Parser(source);\ntry {\n  const result = parser.parse();\n} catch (err) {\n  if (!(err instanceof Error)) throw err;\n  // ParseError: handle or report err\n}",
    );
    expect(recordsOf(lines)[6].messagePattern).toBe('list .*? is not an array');
  });

  it('deterministic: the same package gives the same bytes', async () => {
    const a = await generateRecords([{ path: MINI }]);
    const b = await generateRecords([{ path: MINI }]);
    expect(b.lines).toEqual(a.lines);
  });

  it('every record compiles into a rule aimed at the exported call; the stub that always throws is certain', async () => {
    const { lines } = await generateRecords([{ path: MINI }]);
    const { rules, skipped } = await rulesOf(lines);
    expect(skipped).toEqual([]);
    expect(rules.map((r) => `${r.js!.kind} ${r.js!.className ?? ''}.${r.js!.name} ${r.js!.package} ${r.js!.always}`).sort()).toEqual([
      'constructor Parser.Parser @acme/mini false',
      'function .area @acme/mini false',
      'function .check @acme/mini false',
      'function .check @acme/mini false',
      'function .parse @acme/mini false',
      'function .parseAll @acme/mini false',
      'function .write @acme/mini false',
      'function .write @acme/mini false',
      'method Doc.compact @acme/mini false',
      'method Doc.toString @acme/mini false',
      'method Parser.parse @acme/mini false',
      'method Parser.save @acme/mini true',
      'method Sink.end @acme/mini false',
      'method Sink.write @acme/mini false',
      'static Parser.of @acme/mini false',
    ]);
    // Control flow, off by default as for Python: a function named for checking (its caller asks for the
    // error), a throw the package marks unreachable.
    expect(rules.filter((r) => r.controlFlow).map((r) => [r.js!.name, r.controlFlow])).toEqual([
      ['check', 'check() exists to raise'],
      ['check', 'check() exists to raise'],
      ['compact', 'the library marks this raise unreachable ("this cannot happen: unknown node kind")'],
    ]);
  });
});

describe('records generate: control flow and fresh objects in JS/TS', () => {
  it('a workspace package that node_modules links to (a symlink) is the package, read at its real path by its package.json', async () => {
    const { lines } = await generateRecords([{ path: MINI }]);
    const file = join(tmp, 'mini-ws.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const app = join(tmp, 'ws');
    mkdirSync(join(app, 'node_modules', '@acme'), { recursive: true });
    symlinkSync(MINI, join(app, 'node_modules', '@acme', 'mini'), 'dir');
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', target: 'ES2022', noEmit: true }, include: ['app.ts'] }),
    );
    writeFileSync(join(app, 'app.ts'), "import { Sink } from '@acme/mini/cjs';\n\nexport function f(name: string) {\n  new Sink(name).end();\n}\n");
    const r = spawnSync(process.execPath, [BIN, 'check', '.', '--records', file, '--no-bundled', '--no-cache', '--no-config', '--format', 'json'], {
      cwd: app,
      encoding: 'utf8',
    });
    expect((JSON.parse(r.stdout).diagnostics as J[]).map((d) => `${d.line} ${d.ruleId} ${d.confidence}`)).toEqual(['4 mini/end-nothing-was-written certain']);
  });

  it("a receiver the caller has just constructed has the fields its class's constructor sets: a test over them is decided", async () => {
    const { lines } = await generateRecords([{ path: MINI }]);
    const { rules } = await rulesOf(lines);
    const sink = (name: string) => rules.find((r) => r.js!.className === 'Sink' && r.js!.name === name)!.js!;
    // `this.closed = false; this.chunks = [];` (Object.defineProperty(this, Symbol.toStringTag, ...) sets neither).
    expect(sink('write')).toMatchObject({ tests: [{ expr: 'this.closed', want: true }], thisInit: { closed: 'false' } });
    expect(sink('end')).toMatchObject({ tests: [{ expr: 'this.chunks.length === 0', want: true }], thisInit: { chunks: '[]' }, testsDecide: true });
    // `this.name = name` is the argument, not a literal; Doc's `this.errors = errors` too.
    expect(rules.find((r) => r.js!.className === 'Doc' && r.js!.name === 'toString')!.js!.thisInit).toBeUndefined();
    const app = join(tmp, 'fresh');
    mkdirSync(join(app, 'node_modules', '@acme'), { recursive: true });
    cpSync(MINI, join(app, 'node_modules', '@acme', 'mini'), { recursive: true });
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', target: 'ES2022', noEmit: true }, include: ['app.ts'] }),
    );
    const file = join(tmp, 'mini-fresh.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    writeFileSync(
      join(app, 'app.ts'),
      [
        "import { Sink } from '@acme/mini/cjs';",
        'export function f(name: string, give: (s: Sink) => void) {',
        "  new Sink(name).write('a');",
        '  new Sink(name).end();',
        '  const s = new Sink(name);',
        "  s.write('b');",
        '  const t = new Sink(name);',
        '  t.close();',
        "  t.write('c');",
        '  const u = new Sink(name);',
        '  give(u);',
        '  u.end();',
        "  for (const x of ['a', 'b']) {",
        '    const v = new Sink(x);',
        '    v.write(x);',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const r = spawnSync(process.execPath, [BIN, 'check', '.', '--records', file, '--no-bundled', '--no-cache', '--no-config', '--format', 'json'], {
      cwd: app,
      encoding: 'utf8',
    });
    const found = (JSON.parse(r.stdout).diagnostics as J[]).map((d) => `${d.line} ${d.ruleId} ${d.confidence}`);
    expect(found).toEqual(['4 mini/end-nothing-was-written certain', '9 mini/write-write-after-close possible', '12 mini/end-nothing-was-written possible']);
  });

  it('a throw the package marks unreachable is off by default in raiselint check and in the plugin, on with --select control-flow', async () => {
    const { lines } = await generateRecords([{ path: MINI }]);
    const file = join(tmp, 'mini.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const app = join(tmp, 'cf');
    mkdirSync(join(app, 'node_modules', '@acme'), { recursive: true });
    cpSync(MINI, join(app, 'node_modules', '@acme', 'mini'), { recursive: true });
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', target: 'ES2022', noEmit: true }, include: ['app.ts'] }),
    );
    writeFileSync(
      join(app, 'app.ts'),
      "import { Doc } from '@acme/mini/cjs';\n\nexport function f(errors: string[], n: { kind: string }) {\n  const d = new Doc(errors);\n  d.compact(n);\n  return d.toString();\n}\n",
    );
    const run = (...args: string[]) => {
      const r = spawnSync(process.execPath, [BIN, 'check', '.', '--records', file, '--no-bundled', '--no-cache', '--no-config', '--format', 'json', ...args], {
        cwd: app,
        encoding: 'utf8',
      });
      return (JSON.parse(r.stdout).diagnostics as J[]).map((d) => `${d.line} ${d.ruleId}`);
    };
    expect(run()).toEqual(['6 mini/to-string-document-with-errors-cannot-be-stringified']);
    expect(run('--select', 'control-flow')).toEqual([
      '5 mini/compact-this-cannot-happen-unknown-node-kind',
      '6 mini/to-string-document-with-errors-cannot-be-stringified',
    ]);
    const { rules } = await rulesOf(lines);
    const levels = (createPlugin({ rules }).configs.recommended as { rules: Record<string, string> }).rules;
    expect(levels['raiselint/mini/compact-this-cannot-happen-unknown-node-kind']).toBe('off');
    expect(levels['raiselint/mini/to-string-document-with-errors-cannot-be-stringified']).toBe('error');
  });
});

describe('records generate: what the public call reaches', () => {
  it('ES default exports re-exported by name; an error class called without new; a helper of the public call; a guard the package exports', async () => {
    const { lines } = await generateRecords([{ path: MINI }]);
    const recs = recordsOf(lines).filter((r) => r.filePath.endsWith('.mjs'));
    // `export { default as parse } from './lib/parse.mjs'` and `throw TypeError('Invalid id')`.
    const parse = recs.find((r) => r.tryCatchPattern.includes('= parse(id)'))!;
    expect(parse).toMatchObject({ errorClass: 'TypeError', errorMessage: 'Invalid id' });
    // `if (!validate(id)) throw`: validate is exported too, so the record shows it as the guard.
    expect(parse.validationCode).toBe("import { parse, validate } from '@acme/mini/ids';\n\nif (validate(id)) {\n  const result = parse(id);\n}");
    // write() runs fill(parse(id), buf, offset, 'le'): fill's RangeError and parse's TypeError are write()'s records;
    // fill's `default: throw` of `switch (order)` is not, since write() passes 'le'.
    const viaWrite = recs.filter((r) => r.tryCatchPattern.includes('= write(id, buf, offset)'));
    expect(viaWrite.map((r) => r.errorMessage).sort()).toEqual(['Invalid id', 'offset … is out of bounds']);
    expect(viaWrite.map((r) => r.documentation).join('\n')).toContain('in fill, which it calls');
    expect(new Set(recs.map((r) => r.id)).size).toBe(recs.length);
    expect(recs.some((r) => /byte order/.test(r.errorMessage))).toBe(false);

    const { rules } = await rulesOf(lines);
    const rule = (message: string, name: string) => rules.find((r) => r.record.errorMessage === message && r.js!.name === name)!.js!;
    expect(rule('Invalid id', 'parse').guards).toEqual([{ callee: 'validate', guardArg: 0, callArg: 0, safeWhenTrue: true }]);
    // `if (buf) { ... throw }` in fill: the argument write() is called with in that place, found by name.
    expect(rule('offset … is out of bounds', 'write').needs).toEqual([1]);
    expect(rule('Invalid id', 'write').needs).toEqual([]);
  });
});

describe('records generate: installed npm packages', () => {
  let lines: string[] = [];
  beforeAll(async () => {
    lines = (await generateRecords(REAL.map((p) => ({ path: join(ROOT, 'node_modules', p) })))).lines;
  });

  it('records from each package; all compile, each aimed at the call its code fields show (kind, class, name)', async () => {
    const byPkg = new Map<string, number>();
    for (const r of recordsOf(lines)) byPkg.set(r.repo, (byPkg.get(r.repo) ?? 0) + 1);
    for (const p of REAL) expect(byPkg.get(p), p).toBeGreaterThan(0);
    const { rules, skipped } = await rulesOf(lines);
    expect(skipped).toEqual([]);
    expect(rules).toHaveLength(lines.length);
    const off = rules.filter((r) => {
      const js = r.js!;
      const code = r.record.tryCatchPattern ?? '';
      const kind = r.record.tags!.at(-1);
      if (js.kind !== kind) return true;
      if (kind === 'function') return !code.includes(`${js.name}(`);
      if (kind === 'constructor') return !code.includes(`new ${js.className}(`);
      return !code.includes(js.className!) || !code.includes(`.${js.name}(`);
    });
    expect(off.map((r) => r.id)).toEqual([]);
    // No message shows an unfilled template placeholder.
    expect(recordsOf(lines).filter((r) => /\$\{|\{[a-zA-Z_.]+\}/.test(r.errorMessage))).toEqual([]);
  });

  it("grounded in the installed file: semver's inc() is 130 lines above its `default: throw` of `switch (release)`, which the window does not show", async () => {
    const inc = lines.map((l) => JSON.parse(l) as { record: J }).find((x) => x.record.errorMessage === 'invalid increment argument: …')!;
    expect(inc.record.sourceCode).not.toContain('inc (release');
    const { rules } = await rulesOf([JSON.stringify(inc)]);
    // loadRules grounds from the node_modules nearest the current folder (this checkout's).
    expect(rules[0]!.js).toMatchObject({ className: 'SemVer', name: 'inc', switchOn: { arg: 0, only: false } });
    expect(rules[0]!.js!.switchOn!.values).toEqual(expect.arrayContaining(['premajor', 'major', 'minor', 'patch', 'pre', 'release']));
    // Not grounded (another folder, no node_modules above it): the window alone says nothing of the switch.
    const file = join(tmp, 'inc.jsonl');
    writeFileSync(file, `${JSON.stringify(inc)}\n`);
    const away = await loadRules({ records: [file], bundled: false, python: false, projectDir: '/' }, join(tmp, 'cache-away'));
    expect(away.rules[0]!.js!.switchOn).toBeUndefined();
  });

  it('raiselint check with those records alone finds the calls of a TypeScript app: the stub certain, a handled call clean', () => {
    const file = join(tmp, 'npm.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const app = join(tmp, 'app');
    mkdirSync(join(app, 'src'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(app, 'node_modules'), 'dir');
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        include: ['src'],
      }),
    );
    writeFileSync(
      join(app, 'src', 'app.ts'),
      [
        "import { SemVer } from 'semver';",
        "import { Store, MemoryCookieStore } from 'tough-cookie';",
        "import { Option } from 'commander';",
        'export async function main(input: string): Promise<SemVer | undefined> {',
        // In splitOptionFlags(), which new Option() runs: literal flags are run (src/eslint/literal.ts).
        "  new Option('-d, --debug', 'debug output');",
        "  new Option('-debug');",
        "  await new Store().findCookie('example.com', '/', 'sid');",
        "  await new MemoryCookieStore().findCookie('example.com', '/', 'sid');",
        '  try {',
        '    return new SemVer(input);',
        '  } catch {',
        '    return new SemVer(input);',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const r = spawnSync(process.execPath, [BIN, 'check', 'src', '--records', file, '--no-bundled', '--format', 'json', '--cache-dir', join(tmp, 'c')], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    const found = (JSON.parse(r.stdout).diagnostics as J[]).map((d) => `${d.line} ${d.ruleId.split('/')[0]} ${d.confidence} ${d.errorClass}`);
    expect(found).toEqual(['6 commander certain Error', '7 tough-cookie certain Error', '12 semver possible TypeError']);
  });
});
