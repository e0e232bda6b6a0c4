/**
 * JS/TS records → rules (src/rules/js/): the six records of fixtures/js/js-records.jsonl (windows of
 * real package source) and window shapes the compiler must read without code per record.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../src/records/load.js';
import type { ErrorRecord, LoadedRecord } from '../src/records/types.js';
import { compileJsRecord, packageOf } from '../src/compile/js/compile.js';
import { loadRules } from '../src/compile/load.js';

const RECORDS = join(import.meta.dirname, '..', 'fixtures', 'js', 'js-records.jsonl');
const records = loadDataset(RECORDS).records;
const byId = (id: string) => compileJsRecord(records.find((r) => r.record.id === id)!);

describe('the fixture records', () => {
  it('all six compile, with no problem in the dataset', () => {
    expect(loadDataset(RECORDS).problems).toEqual([]);
    expect(records.map((r) => compileJsRecord(r).skipped)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('a method that always throws, its class from the file name (the window starts inside the class)', () => {
    expect(byId('js0001tc0findck').rule!.js).toMatchObject({
      language: 'typescript',
      package: 'tough-cookie',
      kind: 'method',
      className: 'Store',
      name: 'findCookie',
      async: false,
      always: true,
      arities: [3, 4],
    });
  });

  it('a function whose throw depends on the data; overloads in the window', () => {
    expect(byId('js0002yaml0parse').rule!.js).toMatchObject({ package: 'yaml', kind: 'function', name: 'parse', always: false, errorClass: 'YAMLParseError' });
  });

  it('a window inside the method body: the entry point and async from the protected call', () => {
    const o = byId('js0003al00getdec');
    expect(o.rule!.js).toMatchObject({
      language: 'javascript',
      package: 'abstract-level',
      kind: 'method',
      className: 'AbstractLevel',
      name: 'get',
      async: true,
      always: false,
    });
    expect(o.derived.entrySource).toBe('snippets');
  });

  it('constructors and statics; a guard from validationCode; builtin error bases', () => {
    expect(byId('js0004al00ctorm').rule!.js).toMatchObject({ kind: 'constructor', className: 'AbstractLevel', errorBases: ['Error'] });
    expect(byId('js0005node0url0').rule!.js).toMatchObject({
      package: 'node:url',
      kind: 'constructor',
      className: 'URL',
      guards: [{ callee: 'URL.canParse', guardArg: 0, callArg: 0, safeWhenTrue: true }],
    });
    expect(byId('js0006eslintfom').rule!.js).toMatchObject({ package: 'eslint', kind: 'static', className: 'ESLint', name: 'fromOptionsModule', async: true });
  });

  it('in a rule set beside Python records: ids, no Python targets, listed for the plugin', async () => {
    const set = await loadRules({ records: [RECORDS] });
    const js = set.rules.filter((r) => r.js);
    expect(js.map((r) => r.id).sort()).toEqual([
      'abstract-level/get-could-not-decode-value',
      'abstract-level/manifest-must-be-an-object',
      'eslint/fromoptionsmodule-argument-must-be-a-url',
      'node/url-constructor-invalid-url',
      'tough-cookie/findcookie-is-not-implemented',
      'yaml/parse-throws-yamlparseerror',
    ]);
    expect(js.every((r) => r.targets.length === 0 && r.triggers.length === 0)).toBe(true);
    expect(set.rules.filter((r) => !r.js).length).toBe(5);
  });
});

function record(over: Partial<ErrorRecord>): LoadedRecord {
  const base = records[0]!.record;
  return {
    record: {
      ...base,
      validationCode: null,
      typeGuard: null,
      tryCatchPattern: null,
      exampleFix: null,
      triggerScenarios: null,
      commonSituations: null,
      ...over,
    },
    source: { file: 'x.jsonl', line: 1 },
  };
}
const at = (code: string, marker: string) => code.split('\n').findIndex((l) => l.includes(marker)) + 1;

describe('window shapes', () => {
  it('CommonJS prototype methods, exports functions, arrow functions, Promise.reject', () => {
    const code =
      "'use strict'\nFoo.prototype.close = function () {\n  throw new Error('closed')\n}\nexports.load = (x) => {\n  if (!x) return Promise.reject(new TypeError('no x'))\n}\n";
    const m = compileJsRecord(record({ filePath: 'lib/foo.js', sourceCode: code, sourceCodeStart: 1, lineNumber: at(code, 'closed') }));
    expect(m.rule!.js).toMatchObject({ kind: 'method', className: 'Foo', name: 'close', always: true, async: false });
    const f = compileJsRecord(record({ filePath: 'lib/foo.js', sourceCode: code, sourceCodeStart: 1, lineNumber: at(code, 'no x'), errorClass: 'TypeError' }));
    expect(f.rule!.js).toMatchObject({ kind: 'function', name: 'load', always: false, async: true });
  });

  it('a static method of a class shown in the window; an earlier return makes it data-dependent', () => {
    const code = 'export class Codec {\n  static decode(s: string) {\n    if (s === "") return null\n    throw new RangeError("bad")\n  }\n}\n';
    const o = compileJsRecord(
      record({ filePath: 'src/codec.ts', sourceCode: code, sourceCodeStart: 10, lineNumber: 10 + at(code, 'bad') - 1, errorClass: 'RangeError' }),
    );
    expect(o.rule!.js).toMatchObject({ language: 'typescript', kind: 'static', className: 'Codec', name: 'decode', always: false, errorBases: ['Error'] });
  });

  it('a method of a class nobody names is skipped with a reason', () => {
    const code = '  run() {\n    throw new Error("no")\n  }\n';
    const o = compileJsRecord(record({ repo: 'acme/tool', filePath: 'src/thing.ts', sourceCode: code, sourceCodeStart: 1, lineNumber: 2 }));
    expect(o.skipped).toMatch(/method 'run' of a class the sourceCode does not show/);
  });

  it('a window that shows an internal helper of the call the code fields protect: the rule aims at that call; the arguments the throw needs, by name', () => {
    const code =
      'function _v4(options, buf, offset) {\n  if (buf) {\n    if (offset < 0) throw new RangeError(`out of bounds`)\n  }\n  switch (options) {\n    case "a": break\n    case "p":\n    case "q": if (!buf) throw new Error("pre")\n    default: throw new TypeError("bad")\n  }\n}\n';
    const helper = (line: string, errorClass: string, tryCatchPattern: string) =>
      compileJsRecord(
        record({ repo: 'uuid', filePath: 'dist/v4.js', sourceCode: code, sourceCodeStart: 1, lineNumber: at(code, line), errorClass, tryCatchPattern }),
      );
    const v4 = "import { v4 } from 'uuid';\ntry {\n  const id = v4(options, buf, offset);\n} catch (err) {}";
    const o = helper('out of bounds', 'RangeError', v4);
    expect(o.rule!.js).toMatchObject({ kind: 'function', name: 'v4', always: false, needs: [1] });
    expect(o.derived.entrySource).toBe('snippets: the raise is in _v4(), which v4() runs');
    expect(helper('"bad"', 'TypeError', v4).rule!.js).toMatchObject({ name: 'v4', switchOn: { arg: 0, values: ['a', 'p', 'q'], only: false } });
    // In `case "q":`, which `case "p":` falls into; `case "a":` ends in break.
    expect(helper('"pre"', 'Error', v4).rule!.js).toMatchObject({ name: 'v4', switchOn: { arg: 0, values: ['p', 'q'], only: true } });
    // The helper's parameters the public call does not show by name: nothing is said about them.
    expect(helper('out of bounds', 'RangeError', "import { v4 } from 'uuid';\ntry { v4(x, y) } catch {}").rule!.js).toMatchObject({ name: 'v4', needs: [] });
    // The code fields call the window's function itself: it stays the entry point.
    expect(helper('out of bounds', 'RangeError', "import { _v4 } from 'uuid';\ntry { _v4(o, b, 1) } catch {}").rule!.js).toMatchObject({
      name: '_v4',
      needs: [1],
    });
    // A plain function that the method of the same name runs (`PackageJson.normalize()` runs `normalize(this, opts)`).
    const fnWindow = 'async function normalize(pkg, opts) {\n  if (!pkg.content) {\n    throw new Error("no content")\n  }\n}\n';
    const viaMethod = compileJsRecord(
      record({
        repo: '@npmcli/package-json',
        filePath: 'lib/normalize.js',
        sourceCode: fnWindow,
        sourceCodeStart: 1,
        lineNumber: 3,
        tryCatchPattern:
          "import { PackageJson } from '@npmcli/package-json';\n\nconst packageJson = new PackageJson();\ntry {\n  const result = await packageJson.normalize(opts);\n} catch (err) {}",
      }),
    );
    expect(viaMethod.rule!.js).toMatchObject({ kind: 'method', className: 'PackageJson', name: 'normalize' });
    // `YAML.parse()` of a default import is a namespace's function, not a class's static method: the window's function stays.
    expect(helper('out of bounds', 'RangeError', "import YAML from 'uuid';\ntry { YAML.parse(s) } catch {}").rule!.js).toMatchObject({ name: '_v4' });
  });

  it('the tests around the throw that read parameters; a parameter with a default or reassigned is read by none', () => {
    const code = "export function f(a, b = 1, c) {\n  c = c || {}\n  if (a === 'x' && b) {\n    if (!c.ok) throw new Error('e')\n  }\n}\n";
    const o = compileJsRecord(record({ filePath: 'lib/f.js', sourceCode: code, sourceCodeStart: 1, lineNumber: at(code, "Error('e')") }));
    // `!c.ok` reads only a reassigned parameter: not a test the call's arguments decide, so the tests do not decide alone.
    expect(o.rule!.js).toMatchObject({ name: 'f', params: ['a', '', ''], tests: [{ expr: "a === 'x' && b", want: true }] });
    expect(o.rule!.js!.testsDecide).toBeUndefined();
    const plain = "export function g(a) {\n  if (a === 'x') {\n  } else if (a.startsWith('y')) {\n    throw new Error('e')\n  }\n}\n";
    const g = compileJsRecord(record({ filePath: 'lib/g.js', sourceCode: plain, sourceCodeStart: 1, lineNumber: at(plain, "Error('e')") }));
    expect(g.rule!.js).toMatchObject({
      params: ['a'],
      tests: [
        { expr: "a.startsWith('y')", want: true },
        { expr: "a === 'x'", want: false },
      ],
      testsDecide: true,
    });
  });

  it('the package: imports matched with the repository or the packages/<name>/ folder; Node core', () => {
    expect(packageOf('typescript-eslint/typescript-eslint', 'packages/utils/src/x.ts', ['@typescript-eslint/utils', 'typescript'])).toBe(
      '@typescript-eslint/utils',
    );
    expect(packageOf('eemeli/yaml', 'src/public-api.ts', [])).toBe('yaml');
    expect(packageOf('nodejs/node', 'lib/internal/url.js', [])).toBe('node:url');
    expect(packageOf('nodejs/node', 'lib/fs.js', ['node:fs'])).toBe('node:fs');
  });
});
