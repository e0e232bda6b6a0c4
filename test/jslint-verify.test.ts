/**
 * `raiselint check` type-checks the suggestions of all its JS/TS files together, once they are
 * linted (src/engine/jslint.ts `deferVerify`, src/eslint/verify.ts `typeChecksFiles`): each finding
 * gets the fix it gets when the plugin checks each file as it lints it (ESLint's way).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { jsRulesOf } from '../src/eslint/plugin.js';
import { jsLinter } from '../src/engine/jslint.js';
import type { RawResult } from '../src/engine/batch.js';
import { typeChecks, typeChecksFiles, type Edit } from '../src/eslint/verify.js';

const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'raiselint-jsverify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
cpSync(join(ROOT, 'fixtures', 'js', 'project', 'tsconfig.json'), join(dir, 'tsconfig.json'));
symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
mkdirSync(join(dir, 'src'));
mkdirSync(join(dir, 'types'));

// yaml's parse record with a guard (made up for the test, as in test/eslint-rules.test.ts): `yaml.isScalar(text)` before `yaml.parse(text)`.
const base = readFileSync(join(ROOT, 'fixtures', 'js', 'js-records.jsonl'), 'utf8')
  .split('\n')
  .map((l) => l && (JSON.parse(l) as { record: Record<string, unknown> }))
  .find((x) => x && String(x.record.slug).startsWith('parse-throws'))!;
const RECORDS = join(dir, 'guard.jsonl');
writeFileSync(
  RECORDS,
  `${JSON.stringify({ record: { ...base.record, id: 'jsguard0001', slug: 'parse-guarded', validationCode: "import * as yaml from 'yaml'\n\nif (yaml.isScalar(text)) {\n  const config = yaml.parse(text)\n}" } })}\n`,
);

const Y = "import { parse } from 'yaml';\nimport * as Y from 'yaml';\ndeclare const text: string;\n";
const FILES: Record<string, string> = {
  // The guard (`Y.isScalar`) type-checks: the first suggestion is the fix.
  'guard.ts': `${Y}export const v = Y.parse(text);\n`,
  // The guard's `Y.isScalar` is shadowed by a local `Y` that has none: the try/catch, the second suggestion, is the fix.
  'second.ts': `${Y}function use(Y: { n: number }) {\n  const config = parse(text);\n  console.log(config, Y.n);\n}\nuse({ n: 1 });\n`,
  // The same shadowed guard, in a function whose return the try/catch would break: no fix.
  'none.ts': `${Y}export function load(Y: { n: number }): number {\n  const config = parse(text) as number;\n  return config + Y.n;\n}\n`,
  // Two findings in one file, their edits apart.
  'two.ts': `${Y}export const a = Y.parse(text);\nconst b = parse(text);\nconsole.log(b);\n`,
};
for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, 'src', name), text);

function lintAll(deferVerify: boolean): Record<string, string[]> {
  const files = Object.keys(FILES).map((n) => join(dir, 'src', n));
  const parsed = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const program = ts.createProgram({ rootNames: files, options: parsed.options });
  const rules = jsRulesOf([RECORDS]);
  const linter = jsLinter(rules, [program], { deferVerify });
  const out: Record<string, RawResult> = {};
  for (const f of files) {
    out[f] = { diagnostics: [], errors: [], directives: [] };
    linter.lint({ abs: program.getSourceFile(f)!.fileName, display: f }, FILES[f.split('/').pop()!]!, out[f]!);
  }
  linter.finish();
  return Object.fromEntries(
    Object.entries(out).map(([f, r]) => [
      f.split('/').pop()!,
      r.diagnostics.map((d) => `${d.line} ${d.ruleId} ${d.fix ? `${d.fix.strategy}: ${d.fix.edits[0]!.text}` : 'no fix'}`),
    ]),
  );
}

describe('suggestions type-checked at the end of the run', () => {
  it('each finding gets the fix the plugin gives it file by file', () => {
    const deferred = lintAll(true);
    expect(deferred).toEqual(lintAll(false));
    expect(deferred['guard.ts']).toEqual(['4 yaml/parse-guarded type-guard: (Y.isScalar(text) ? Y.parse(text) : undefined)']);
    expect(deferred['second.ts']![0]).toMatch(/^5 yaml\/parse-guarded try-except: let config: any;/);
    expect(deferred['none.ts']).toEqual(['5 yaml/parse-guarded no fix']);
    expect(deferred['two.ts']).toEqual([
      '4 yaml/parse-guarded type-guard: (Y.isScalar(text) ? Y.parse(text) : undefined)',
      '5 yaml/parse-guarded type-guard: (Y.isScalar(text) ? parse(text) : undefined)',
    ]);
  });
});

describe('typeChecksFiles', () => {
  const a = 'declare function f(s: string): number;\nconst x = f("x");\nexport const y: number = x;\n';
  const b = 'declare function g(s: string): number;\nconst z = g("z");\nexport const w: number = z;\n';
  const wrap = (text: string, name: string, call: string, fallthrough: boolean): Edit => {
    const stmt = `const ${name} = ${call};`;
    const at = text.indexOf(stmt);
    const by = fallthrough
      ? `let ${name}: number;\ntry {\n  ${name} = ${call};\n} catch {}`
      : `let ${name} = 0;\ntry {\n  ${name} = ${call};\n} catch {\n  ${name} = -1;\n}`;
    return { range: [at, at + stmt.length], text: by };
  };
  const programOf = () => {
    const files = [join(dir, 'a.ts'), join(dir, 'b.ts')];
    writeFileSync(files[0]!, a);
    writeFileSync(files[1]!, b);
    const program = ts.createProgram({ rootNames: files, options: { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, types: [] } });
    return { program, fa: program.getSourceFile(files[0]!)!.fileName, fb: program.getSourceFile(files[1]!)!.fileName };
  };

  it('files of one program checked together: each answer is what the edit alone gives', () => {
    const { program, fa, fb } = programOf();
    const good = wrap(a, 'x', 'f("x")', false);
    const bad = wrap(b, 'z', 'g("z")', true);
    const got = typeChecksFiles(
      program,
      new Map([
        [fa, [good]],
        [fb, [bad, wrap(b, 'z', 'g("z")', false)]],
      ]),
    );
    expect(got.get(fa)).toEqual([true]);
    expect(got.get(fb)).toEqual([false, true]);
    expect(got.get(fb)![0]).toBe(typeChecks(program, fb, bad.range, bad.text));
  });
});
