/**
 * Literal calls run (src/analysis/probe.ts): a pure standard-library call whose arguments are all
 * literals raises on every run or on none; the grounding interpreter runs it and decides. Records
 * are the standard library's own (fixtures/control_flow/records.jsonl).
 */
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT, tempTree } from './helpers.js';
import { runAll, runLiteralCalls } from '../src/analysis/probe.js';
import type { Finding } from '../src/match/match.js';
import type { Rule } from '../src/rules/types.js';
import type { JsTarget } from '../src/rules/js/types.js';
import { isRecordedThrow, runLiteralCall } from '../src/eslint/literal.js';
import ts from 'typescript';

const RECORDS = join(ROOT, 'fixtures', 'control_flow', 'records.jsonl');
const APP = `import ipaddress
import statistics


def parse(text):
    return ipaddress.ip_address(text)


GOOD = ipaddress.ip_address('10.0.0.1')
BAD = ipaddress.ip_address('10.0.0.300')
AVERAGE = statistics.mean([1, 2, 3])
NOTHING = statistics.mean([])
`;

type J = { ruleId: string; line: number; confidence: string; condition?: string };
const check = (dir: string, extra: string[] = []): J[] =>
  (JSON.parse(cli(['check', '.', '--no-config', '--no-bundled', '--records', RECORDS, '--format', 'json', ...extra], dir).stdout) as { diagnostics: J[] })
    .diagnostics;

describe('a pure library call with literal arguments', () => {
  it('is run: no error is no finding; the recorded error is certain; a value from elsewhere stays possible', () => {
    const dir = tempTree({ 'app.py': APP });
    const got = check(dir).map((d) => [d.line, d.ruleId, d.confidence]);
    expect(got).toEqual([
      [6, 'cpython/ip-address-address-does-not-appear-to-be-an', 'possible'],
      [10, 'cpython/ip-address-address-does-not-appear-to-be-an', 'certain'],
      [12, 'cpython/mean-mean-requires-at-least-one-data-point', 'certain'],
    ]);
    const bad = check(dir).find((d) => d.line === 10)!;
    expect(bad.condition).toMatch(/^running ipaddress\.ip_address\('10\.0\.0\.300'\) in Python 3\.\d+\.\d+ raises ValueError: '10\.0\.0\.300' does not appear/);
  });

  it('runs a call whose arguments are locals bound once to literals above it, or constant expressions', () => {
    const app = `import ipaddress


def local_good():
    text = '10.0.0.1'
    return ipaddress.ip_address(text)


def local_bad():
    text = '10.0.0.' + '300'
    return ipaddress.ip_address(text)


def local_changed(other):
    text = '10.0.0.1'
    if other:
        text = other
    return ipaddress.ip_address(text)


PACKED = ipaddress.ip_address(2 ** 32 - 1)
`;
    const got = check(tempTree({ 'app.py': app }));
    // local_good and PACKED (2 ** 32 - 1 is 255.255.255.255) run without error; the rebound local is not known.
    expect(got.map((d) => [d.line, d.confidence])).toEqual([
      [11, 'certain'],
      [18, 'possible'],
    ]);
    expect(got[0]!.condition).toMatch(/^running ipaddress\.ip_address\('10\.0\.0\.300'\) in Python 3\.\d+\.\d+ raises ValueError/);
  });

  it('is not run without an interpreter (--python none): each call is judged from the record alone', () => {
    const dir = tempTree({ 'app.py': APP });
    const lines = check(dir, ['--python', 'none']).map((d) => d.line);
    expect(lines).toContain(9);
    expect(lines.every((l) => [6, 9, 10, 11, 12].includes(l))).toBe(true);
  });

  it("never imports the project's code: a module of the library's name beside it does not run", () => {
    const dir = tempTree({
      'app.py': APP,
      'ipaddress.py': "open(__file__ + '.ran', 'w').write('ran')\n",
      'statistics.py': "open(__file__ + '.ran', 'w').write('ran')\n",
    });
    check(dir);
    expect(existsSync(join(dir, 'ipaddress.py.ran'))).toBe(false);
    expect(existsSync(join(dir, 'statistics.py.ran'))).toBe(false);
  });

  /** A possible finding of `module.path(...)` as the match stage gives it: the call written in `code`. */
  const findingOf = async (code: string, module: string, path: string, errorClass: string, line: number) => {
    const { initParser, parsePython } = await import('../src/parse/parser.js');
    await initParser();
    const node = parsePython(code).rootNode.descendantsOfType('call')[0]!;
    const rule = { id: 'r', errorClass, raiser: { module, qualname: path, line }, record: {}, condition: { when: { k: 'true' } } } as unknown as Rule;
    return { rule, site: { node }, confidence: 'possible', condition: 'x', via: [], receiverProven: true, callee: { module, path } } as unknown as Finding;
  };

  it('runs nothing outside the pure list, even with literal arguments (os.remove)', async () => {
    const dir = tempTree({ victim: 'x' });
    const victim = join(dir, 'victim');
    const finding = await findingOf(`os.remove(${JSON.stringify(victim)})`, 'os', 'remove', 'OSError', 1);
    const out = runLiteralCalls([finding], { executable: 'python3', version: '3' });
    expect(out).toEqual([finding]);
    expect(existsSync(victim)).toBe(true);
  });

  it('leaves the finding when the interpreter cannot run (missing) or the argument is no literal', async () => {
    const mk = (code: string) => findingOf(code, 'ipaddress', 'ip_address', 'ValueError', 54);
    const missing = await mk("ipaddress.ip_address('1.2.3.999')");
    expect(runLiteralCalls([missing], { executable: '/nonexistent/python3', version: '3' })).toEqual([missing]);
    const notLiteral = await mk('ipaddress.ip_address(__import__("os"))');
    expect(runLiteralCalls([notLiteral], { executable: 'python3', version: '3' })).toEqual([notLiteral]);
    // The interpreter reads arguments with ast.literal_eval only: code given as an argument is not run.
    const python = { executable: 'python3', version: '3' };
    const call = { module: 'ipaddress', path: 'ip_address', args: ['__import__("os")'], kwargs: [] };
    expect(runAll(python, [call]).get(JSON.stringify([call.module, call.path, call.args, call.kwargs]))).toMatchObject({ skip: 'ValueError' });
    expect(runLiteralCalls([await mk("ipaddress.ip_address('1.2.3.4')")], python)).toEqual([]);
  });

  it('a call its literal arguments settle is reported only when it runs and raises: not when it cannot run, nor outside the pure list', async () => {
    const settled = async (code: string, module: string, path: string) => ({
      ...(await findingOf(code, module, path, 'ValueError', 54)),
      settled: true as const,
    });
    const python = { executable: 'python3', version: '3' };
    const bad = await settled("ipaddress.ip_address('1.2.3.999')", 'ipaddress', 'ip_address');
    expect(runLiteralCalls([bad], { executable: '/nonexistent/python3', version: '3' })).toEqual([]);
    expect(runLiteralCalls([bad], undefined)).toEqual([]);
    expect(runLiteralCalls([await settled("os.remove('x')", 'os', 'remove')], python)).toEqual([]);
    expect(runLiteralCalls([bad], python).map((f) => f.confidence)).toEqual(['certain']);
  });

  it("looks a module's name up as a constant only: an enum member or a number, never process state, a property or a module that acts on import", () => {
    const python = { executable: 'python3', version: '3' };
    const outcome = (arg: string) => {
      const call = { module: 'inspect', path: 'Parameter', args: ["'a'", arg], kwargs: [] };
      return runAll(python, [call]).get(JSON.stringify([call.module, call.path, call.args, call.kwargs]));
    };
    expect(outcome('ref:inspect:Parameter.KEYWORD_ONLY')).toEqual({ ok: true });
    expect(outcome('ref:stat:S_IFDIR')).toMatchObject({ exc: expect.arrayContaining(['builtins.ValueError']) as unknown });
    // sys.argv is the runner's own, not the program's; a module's function is not a constant.
    expect(outcome('ref:sys:argv')).toEqual({ skip: 'ValueError' });
    expect(outcome('ref:os:getcwd')).toEqual({ skip: 'ValueError' });
    // Attributes are read through modules and classes only: no property of an instance runs.
    expect(outcome('ref:sys:flags.optimize')).toEqual({ skip: 'ValueError' });
    // antigravity opens a web browser when imported: never imported.
    expect(outcome('ref:antigravity:XKCD_URL')).toEqual({ skip: 'ValueError' });
  });

  it('runs a public method of what a pure call made only when its class is on the list too', () => {
    const python = { executable: 'python3', version: '3' };
    const method = (receiver: string, path: string, args: string[]) => {
      const p = { module: '', path, args, kwargs: [] as [string, string][], receiver };
      return runAll(python, [p]).get(JSON.stringify([p.module, p.path, p.args, p.kwargs, receiver]));
    };
    const morsel = 'call:{"f":"http:cookies.Morsel","a":[],"k":[]}';
    expect(method(morsel, 'update', ['{"path": "/"}'])).toEqual({ ok: true });
    expect(method(morsel, 'update', ['{"colour": 1}'])).toMatchObject({ exc: expect.arrayContaining(['http.cookies.CookieError']) as unknown });
    // A pure function's dict is no pure class; a private method is never run.
    expect(method('call:{"f":"json:loads","a":["\'{}\'"],"k":[]}', 'pop', ["'x'"])).toEqual({ skip: 'ValueError' });
    expect(method(morsel, '_private', [])).toEqual({ skip: 'ValueError' });
    // A class the list names methods of: only those run (configparser's read() would read the disk).
    const parser = 'call:{"f":"configparser:RawConfigParser","a":[],"k":[]}';
    expect(method(parser, 'options', ["'server'"])).toMatchObject({ exc: expect.arrayContaining(['configparser.NoSectionError']) as unknown });
    expect(method(parser, 'read_string', ["'[server]\\nhost = a\\n'"])).toEqual({ ok: true });
    expect(method(parser, 'read', ["'setup.cfg'"])).toEqual({ skip: 'ValueError' });
  });
});

describe('a pure package export called with literal arguments (JS/TS)', () => {
  const callIn = (code: string) => {
    const sf = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, true);
    let found: ts.CallExpression | ts.NewExpression | undefined;
    const visit = (n: ts.Node): void => {
      if (!found && (ts.isCallExpression(n) || ts.isNewExpression(n))) found = n;
      ts.forEachChild(n, visit);
    };
    visit(sf);
    return found!;
  };
  const target = (over: Partial<JsTarget>): JsTarget => ({
    language: 'typescript',
    package: 'node:url',
    kind: 'constructor',
    className: 'URL',
    name: 'URL',
    async: false,
    always: false,
    errorClass: 'TypeError',
    errorBases: [],
    arities: [],
    guards: [],
    names: [],
    ...over,
  });
  const file = join(ROOT, 'src', 'x.ts');

  it('runs it: no throw, or the thrown class and message', () => {
    expect(runLiteralCall(callIn("new URL('https://example.org/')"), target({}), file)).toEqual({ throws: false });
    const bad = runLiteralCall(callIn("new URL('not a url')"), target({}), file);
    expect(bad).toMatchObject({ throws: true, message: 'Invalid URL' });
    expect(bad?.throws && isRecordedThrow(bad, 'TypeError', 'Invalid URL')).toBe(true);
    expect(bad?.throws && isRecordedThrow(bad, 'RangeError', 'Invalid URL')).toBe(false);
    // A variable, a spread, a template with a substitution: not literal, not run.
    expect(runLiteralCall(callIn('new URL(input)'), target({}), file)).toBeUndefined();
    expect(runLiteralCall(callIn('new URL(`${a}`)'), target({}), file)).toBeUndefined();
  });

  it('never runs what is not on the pure list (node:fs), nor a method, nor an async function', () => {
    const dir = tempTree({ victim: 'x' });
    const victim = join(dir, 'victim');
    const rm = target({ package: 'node:fs', kind: 'function', className: undefined, name: 'rmSync', errorClass: 'Error' });
    expect(runLiteralCall(callIn(`rmSync(${JSON.stringify(victim)})`), rm, file)).toBeUndefined();
    expect(existsSync(victim)).toBe(true);
    expect(runLiteralCall(callIn("u.toString('x')"), target({ kind: 'method', name: 'toString' }), file)).toBeUndefined();
    expect(runLiteralCall(callIn("new URL('x')"), target({ async: true }), file)).toBeUndefined();
  });
});

describe('raiselint check on TypeScript with records generated from installed packages', () => {
  it('a valid literal is not reported, an invalid one is certain for the record that throws, a variable stays possible', () => {
    const dir = tempTree({
      'a.ts': [
        "import { Name } from 'ajv';",
        "import { SemVer } from 'semver';",
        '',
        'export function f(s: string) {',
        "  const a = new Name('fullFormats');",
        "  const b = new Name('bad name');",
        '  const c = new Name(s);',
        "  const d = new SemVer('1.2.3');",
        "  const e = new SemVer('not.a.version');",
        '  return [a, b, c, d, e];',
        '}',
        '',
      ].join('\n'),
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext' }, include: ['*.ts'] }),
    });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const records = join(dir, 'records.jsonl');
    expect(cli(['records', 'generate', join(ROOT, 'node_modules', 'ajv'), join(ROOT, 'node_modules', 'semver'), '-o', records], dir).code).toBe(0);
    const r = cli(['check', 'a.ts', '--no-config', '--no-bundled', '--no-cache', '--records', records, '--format', 'json'], dir);
    const got = (JSON.parse(r.stdout) as { diagnostics: J[] }).diagnostics.map((d) => `${d.line} ${d.confidence} ${d.ruleId}`);
    expect(got).toEqual([
      '6 certain ajv/name-code-gen-name-must-be-a-valid-identifier',
      '7 possible ajv/name-code-gen-name-must-be-a-valid-identifier',
      '9 certain semver/sem-ver-invalid-version',
    ]);
  });
});
