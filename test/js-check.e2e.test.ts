/**
 * JS/TS end to end: `npx eslint` with the plugin in a flat config on the fixture project (the real
 * ESLint CLI), and `node bin/raiselint.js check` on the same project and on a mixed Python +
 * TypeScript folder (one JSON report for both languages, SARIF, GitHub annotations, suppressions,
 * baseline, exit codes). Findings are compared with the fixtures' `expect:` annotations.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'raiselint.js');
const PROJECT = join(ROOT, 'fixtures', 'js', 'project');
const RECORDS = join(ROOT, 'fixtures', 'js', 'js-records.jsonl');

type J = any;

function run(cmd: string[], cwd: string) {
  const r = spawnSync(process.execPath, cmd, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'node_modules' || n === 'rule-tester') return [];
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** `file:line rule confidence` for every `expect:` / `expect-possible:` annotation (`//` or `#`). */
function expected(dir: string): string[] {
  const out: string[] = [];
  for (const f of files(dir)) {
    readFileSync(f, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const m = /(?:\/\/|#) (expect|expect-possible): (\S+)/.exec(line);
        if (m) out.push(`${relative(dir, f)}:${i + 1} ${m[2]} ${m[1] === 'expect' ? 'certain' : 'possible'}`);
      });
  }
  return out.sort();
}

const found = (doc: J) => (doc.diagnostics as J[]).map((d) => `${d.file}:${d.line} ${d.ruleId} ${d.confidence}`).sort();

let tmp: string;
beforeAll(() => {
  expect(existsSync(join(ROOT, 'dist', 'eslint', 'index.js')), 'build first: npm test runs tsc').toBe(true);
  tmp = mkdtempSync(join(tmpdir(), 'raiselint-js-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('npx eslint with raiselint/eslint in a flat config', () => {
  it('reports the annotated calls of the fixture project, with the record rules ids', () => {
    const r = run([join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--format', 'json', '.'], PROJECT);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1); // error-level findings (certain records at severity error)
    const results = JSON.parse(r.stdout) as J[];
    const got = results
      .flatMap((f) =>
        (f.messages as J[]).map(
          (m) =>
            `${relative(PROJECT, f.filePath)}:${m.line} ${String(m.ruleId).replace(/^raiselint\//, '')} ${m.messageId === 'certain' ? 'certain' : 'possible'}`,
        ),
      )
      .sort();
    expect(got).toEqual(expected(join(PROJECT, 'src')).map((e) => `src/${e}`));
    // Severities as the CLI reports them (the recommended config's raiselint/confidence processor):
    // possible findings are warnings, certain ones errors (these records' level).
    const levels = new Set(results.flatMap((f) => (f.messages as J[]).map((m) => `${m.messageId} ${m.severity}`)));
    // A certain finding of a warning-level record (`new NodeURL('not a url')`) stays a warning.
    expect(levels).toEqual(new Set(['certain 2', 'certain 1', 'possible 1']));
    const fatal = results.flatMap((f) => (f.messages as J[]).filter((m) => m.fatal));
    expect(fatal).toEqual([]);
    const withSuggestions = results.flatMap((f) => f.messages as J[]).filter((m) => m.suggestions?.length);
    expect(withSuggestions.length).toBeGreaterThan(10);
  });
});

describe('npx eslint with the bundled plugin and records from settings', () => {
  it('raiselint/records checks the records settings.raiselint.records names', () => {
    const r = run([join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--format', 'json', '-c', 'eslint.settings.config.mjs', 'src/urls.js'], PROJECT);
    const [file] = JSON.parse(r.stdout) as J[];
    expect((file.messages as J[]).map((m) => [m.line, m.ruleId, m.message.split(':')[0]])).toEqual([
      [6, 'raiselint/records', 'node/url-constructor-invalid-url'],
      [7, 'raiselint/records', 'node/url-constructor-invalid-url'],
      [17, 'raiselint/records', 'node/url-constructor-invalid-url'],
    ]);
  });
});

describe('raiselint check on JS/TS files', () => {
  it('the fixture project: the same findings as ESLint, in raiselint JSON; a suppression comment applies', () => {
    const r = run([BIN, 'check', '.', '--records', RECORDS, '--format', 'json', '--no-cache', '--cache-dir', join(tmp, 'c1')], PROJECT);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as J;
    expect(found(doc)).toEqual(expected(join(PROJECT, 'src')).map((e) => `src/${e}`));
    // eslint.config.mjs has a `new URL(...)` under `// raiselint: ignore[...]`.
    expect((doc.diagnostics as J[]).some((d) => d.file === 'eslint.config.mjs')).toBe(false);
    const url = (doc.diagnostics as J[]).find((d) => d.ruleId === 'node/url-constructor-invalid-url')!;
    expect(url).toMatchObject({
      severity: 'warning',
      confidence: 'possible',
      errorClass: 'TypeError',
      sourceUrl: 'https://github.com/nodejs/node/blob/v20.20.2/lib/internal/url.js#L806',
    });
    expect(url.fix).toMatchObject({ applicability: 'display-only', strategy: 'type-guard' });
    expect(url.fix.edits[0].text).toBe('(URL.canParse(input) ? new URL(input) : undefined)');
    expect(url.fingerprint).toMatch(/^[0-9a-f]{20}$/);
  });

  describe('a mixed Python + TypeScript folder', () => {
    let dir: string;
    beforeAll(() => {
      dir = join(tmp, 'mixed');
      cpSync(join(ROOT, 'fixtures', 'js', 'mixed'), dir, { recursive: true });
      // The packages the code imports, as an installed project has them (tools/ is under no tsconfig).
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    });
    const check = (...args: string[]) => run([BIN, 'check', '.', '--records', RECORDS, '--no-cache', '--cache-dir', join(tmp, 'c2'), ...args], dir);

    it('one JSON report holds both languages; exit 1', () => {
      const r = check('--format', 'json');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout) as J;
      expect(found(doc)).toEqual(expected(dir));
      expect(new Set((doc.diagnostics as J[]).map((d) => d.file.split('.').pop()))).toEqual(new Set(['py', 'ts', 'mjs']));
      expect(Object.keys(doc.diagnostics[0]).sort()).toEqual(Object.keys(doc.diagnostics[doc.diagnostics.length - 1]).sort());
    });

    it('SARIF and GitHub annotations name the TypeScript findings too', () => {
      const sarif = check('--format', 'sarif');
      const log = JSON.parse(sarif.stdout) as J;
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      (addFormats as unknown as (a: Ajv2020) => void)(ajv);
      const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'test', 'schemas', 'sarif-2.1.0.json'), 'utf8')));
      expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
      const uris = (log.runs[0].results as J[]).map((x) => x.locations[0].physicalLocation.artifactLocation.uri);
      expect(uris).toContain('web/src/settings.ts');
      const gh = check('--format', 'github');
      expect(gh.stdout).toMatch(/^::error file=web\/src\/settings\.ts,line=6,/m);
      expect(gh.stdout).toMatch(/^::warning file=tools\/check-url\.mjs,line=3,/m);
    });

    it('baseline: --update-baseline, then only new findings (none): exit 0', () => {
      const baseline = join(dir, 'raiselint-baseline.json');
      expect(check('--update-baseline', '--baseline', baseline).code).toBe(0);
      const again = check('--baseline', baseline, '--format', 'json');
      expect(again.code).toBe(0);
      expect((JSON.parse(again.stdout) as J).diagnostics).toEqual([]);
    });

    it('an unused JS suppression is reported; a syntax error is a warning, not a crash', () => {
      writeFileSync(join(dir, 'tools', 'extra.ts'), 'export const x = 1; // raiselint: ignore[node/url-constructor-invalid-url]\nexport const y = new URL(;\n');
      const r = check('--format', 'json');
      const doc = JSON.parse(r.stdout) as J;
      expect((doc.diagnostics as J[]).filter((d) => d.file === 'tools/extra.ts').map((d) => d.ruleId)).toEqual(['raiselint/unused-ignore']);
      expect((doc.errors as J[]).filter((e) => e.file === 'tools/extra.ts').map((e) => e.kind)).toEqual(['syntax']);
      rmSync(join(dir, 'tools', 'extra.ts'));
    });

    it('--add-ignore writes `// raiselint: ignore[...]` into JS/TS files (`#` into Python); the next run is clean', () => {
      const copy = join(tmp, 'mixed-adopt');
      cpSync(dir, copy, { recursive: true, dereference: false });
      writeFileSync(join(copy, 'tools', 'template.ts'), 'export const t = (s: string) => `${new URL(s)}\n`;\n');
      const adopt = run([BIN, 'check', '.', '--records', RECORDS, '--no-cache', '--cache-dir', join(tmp, 'c4'), '--add-ignore'], copy);
      expect(adopt.stdout).toBe('Added 6 suppressions in 4 files.\n');
      expect(readFileSync(join(copy, 'tools', 'check-url.mjs'), 'utf8')).toContain(
        'return new URL(input); // expect-possible: node/url-constructor-invalid-url  // raiselint: ignore[node/url-constructor-invalid-url]\n',
      );
      // A line that ends inside a template literal: the comment goes on the line above.
      expect(readFileSync(join(copy, 'tools', 'template.ts'), 'utf8')).toBe(
        '// raiselint: ignore[node/url-constructor-invalid-url]\nexport const t = (s: string) => `${new URL(s)}\n`;\n',
      );
      expect(readFileSync(join(copy, 'app.py'), 'utf8')).toContain('# raiselint: ignore[autogen/agent-save-state-is-not-yet-implemented]');
      const again = run([BIN, 'check', '.', '--records', RECORDS, '--no-cache', '--cache-dir', join(tmp, 'c4'), '--format', 'json'], copy);
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ diagnostics: [], errors: [] });
    });

    it('without JS/TS rules (bundled records only), only the Python file is checked', () => {
      const r = run([BIN, 'check', '.', '--no-cache', '--cache-dir', join(tmp, 'c3'), '--format', 'json', '--timings'], dir);
      const doc = JSON.parse(r.stdout) as J;
      expect(found(doc)).toEqual(expected(dir).filter((e) => e.startsWith('app.py')));
      expect(r.stderr).toMatch(/raiselint: 1 files:/);
    });
  });
});
