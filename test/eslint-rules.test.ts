/**
 * The ESLint plugin's rules, compiled from the JS/TS records of fixtures/js/js-records.jsonl (read
 * from real package source), through typescript-eslint's RuleTester with type information (the
 * fixture project's tsconfig; tough-cookie, yaml, abstract-level, eslint and @types/node are
 * installed packages). Each invalid case checks the suggestions' output.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RuleTester } from '@typescript-eslint/rule-tester';
import * as vitest from 'vitest';
import { describe, expect, it } from 'vitest';
import { createPlugin, loadPlugin } from '../src/eslint/plugin.js';

RuleTester.afterAll = vitest.afterAll;
RuleTester.it = vitest.it;
RuleTester.itOnly = vitest.it.only;
RuleTester.describe = vitest.describe;

const ROOT = join(import.meta.dirname, '..');
const dir = join(ROOT, 'fixtures', 'js', 'project', 'rule-tester');
const plugin = createPlugin({ records: [join(ROOT, 'fixtures', 'js', 'js-records.jsonl')], bundled: false });
const tester = new RuleTester({ languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: dir } } });
const rule = (id: string) => {
  const r = plugin.rules[id];
  if (!r) throw new Error(`no rule ${id}: ${Object.keys(plugin.rules).join(', ')}`);
  return r;
};

/** The RuleTester registers the rule as `@rule-tester/<name>`: a name without `/`, as ESLint reads scoped ids. */
const run: (id: string, tests: Parameters<typeof tester.run>[2]) => void = (id, tests) => tester.run(id.replace(/\//g, '--'), rule(id), tests);

/** The try/catch suggestion for `stmt` (one statement at the top level of the file). */
const tryFix = (before: string, stmt: string, cls: string, after = '', note = '', head = '') =>
  `${before}${head}try {\n  ${stmt}\n} catch (error) {\n  if (!(error instanceof ${cls})) throw error;${note}\n  // handle the ${note ? note.slice(4) : cls} here\n}${after}`;

describe('plugin', () => {
  it('has meta, recommended config and one rule per JS/TS record plus records', () => {
    expect(plugin.meta.name).toBe('raiselint');
    expect(plugin.meta.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(plugin.rules).sort()).toEqual([
      'abstract-level/get-could-not-decode-value',
      'abstract-level/manifest-must-be-an-object',
      'eslint/fromoptionsmodule-argument-must-be-a-url',
      'node/url-constructor-invalid-url',
      'records',
      'tough-cookie/findcookie-is-not-implemented',
      'yaml/parse-throws-yamlparseerror',
    ]);
    const rec = plugin.configs.recommended as { rules: Record<string, string> };
    expect(rec.rules['raiselint/tough-cookie/findcookie-is-not-implemented']).toBe('error');
    expect(rec.rules['raiselint/yaml/parse-throws-yamlparseerror']).toBe('warn');
    expect(rule('yaml/parse-throws-yamlparseerror').meta.docs?.url).toMatch(/^https:\/\/github\.com\/eemeli\/yaml\/blob\/.*public-api\.ts/);
  });
  it('raiselint/confidence (in recommended) reports possible findings as warnings, as the CLI does; strict keeps the rule level', () => {
    const rec = plugin.configs.recommended as { processor?: string };
    expect(rec.processor).toBe('raiselint/confidence');
    expect((plugin.configs.strict as { processor?: string }).processor).toBeUndefined();
    const p = plugin.processors.confidence;
    expect(p.preprocess('const x = 1;')).toEqual(['const x = 1;']);
    const m = (ruleId: string, messageId: string, severity: 1 | 2) => ({ ruleId, messageId, severity, message: '', line: 1, column: 1 });
    const out = p.postprocess([
      [m('raiselint/a', 'possible', 2), m('raiselint/a', 'certain', 2), m('no-console', 'possible', 2), m('raiselint/b', 'certain', 1)],
    ]);
    expect(out.map((x) => x.severity)).toEqual([1, 2, 2, 1]);
  });
  it('raiselint/confidence keeps one finding per call and error: the most certain, the others named after it', () => {
    const p = plugin.processors.confidence;
    const at = (ruleId: string, messageId: string, message: string, column = 13) => ({
      ruleId,
      messageId,
      severity: 2 as const,
      message,
      line: 6,
      column,
      endLine: 6,
      endColumn: 30,
    });
    const out = p.postprocess([
      [
        at('raiselint/semver/sem-ver-invalid-version', 'possible', 'new SemVer() may throw TypeError depending on its arguments or data: Invalid Version: …'),
        at(
          'raiselint/semver/sem-ver-invalid-major-version',
          'possible',
          'new SemVer() may throw TypeError depending on its arguments or data: Invalid major version',
        ),
        at('raiselint/x/always', 'certain', 'new SemVer() throws TypeError: always'),
        at('raiselint/x/other-class', 'possible', 'new SemVer() may throw RangeError depending on its arguments or data: too big'),
        at(
          'raiselint/semver/sem-ver-invalid-version',
          'possible',
          'new SemVer() may throw TypeError depending on its arguments or data: Invalid Version: …',
          40,
        ),
        at('no-console', 'possible', 'Unexpected console statement'),
      ],
    ]);
    expect(out.map((m) => [m.ruleId, m.column, m.severity, m.message.replace(/^.*?: /, '')])).toEqual([
      ['raiselint/x/always', 13, 2, 'always (also: semver/sem-ver-invalid-major-version, semver/sem-ver-invalid-version)'],
      ['raiselint/x/other-class', 13, 1, 'too big'],
      ['raiselint/semver/sem-ver-invalid-version', 40, 1, 'Invalid Version: …'],
      ['no-console', 13, 2, 'Unexpected console statement'],
    ]);
  });
  it('loadPlugin reads the compiled-rules snapshot: the same rules, compiled once into the cache directory', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'raiselint-plugin-'));
    try {
      const records = [join(ROOT, 'fixtures', 'js', 'js-records.jsonl')];
      const first = await loadPlugin({ records, bundled: false, cacheDir });
      expect(Object.keys(first.rules).sort()).toEqual(Object.keys(plugin.rules).sort());
      const snaps = readdirSync(join(cacheDir, 'rules')).filter((f) => f.endsWith('.snap'));
      expect(snaps).toHaveLength(1);
      const mtime = statSync(join(cacheDir, 'rules', snaps[0]!)).mtimeMs;
      const second = await loadPlugin({ records, bundled: false, cacheDir });
      expect(Object.keys(second.rules).sort()).toEqual(Object.keys(plugin.rules).sort());
      expect(statSync(join(cacheDir, 'rules', snaps[0]!)).mtimeMs).toBe(mtime);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
  it("links the records rule to the plugin's section of docs/js-ts.md, at the repository package.json names", () => {
    // GitHub's heading anchors: lower case, punctuation other than `-` and `_` dropped, spaces to `-`.
    const slug = (h: string) =>
      h
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-');
    const readme = readFileSync(join(import.meta.dirname, '..', 'docs', 'js-ts.md'), 'utf8');
    const anchors = new Set([...readme.matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]!)));
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { repository: { url: string } };
    const url = rule('records').meta.docs?.url ?? '';
    const [base, anchor] = url.split('#');
    expect(base).toBe(`${pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/docs/js-ts.md`);
    expect(anchor).toBe('eslint-plugin-raiselinteslint');
    expect(anchors.has(anchor!), [...anchors].filter((a) => a.startsWith('eslint')).join(', ')).toBe(true);
    expect(anchors.has('javascript-and-typescript')).toBe(true);
  });
});

const TC = "import { MemoryCookieStore, Store } from 'tough-cookie';\n";
const FIND = "store.findCookie('example.com', '/', 'sid')";

run('tough-cookie/findcookie-is-not-implemented', {
  valid: [
    `${TC}const store = new MemoryCookieStore();\n${FIND};`,
    `${TC}class Mine extends Store { override findCookie(): never { throw new Error('x'); } }\nconst store = new Mine();\n${FIND};`,
    `${TC}declare const store: Store | MemoryCookieStore;\nif (store instanceof MemoryCookieStore) ${FIND};`,
    `${TC}const store = new Store();\ntry {\n  ${FIND};\n} catch (err) {\n  console.error(err);\n}`,
    `${TC}const store = new Store();\ntry {\n  ${FIND};\n} catch (err) {\n  if (!(err instanceof Error)) throw err;\n}`,
    `${TC}const store = { findCookie(a: string, b: string, c: string) { return [a, b, c]; } };\n${FIND};`,
    // raiselint's own suppression comments, as `raiselint check` reads them: on the line, above the statement, for the file.
    `${TC}const store = new Store();\n${FIND}; // raiselint: ignore[tough-cookie/findcookie-is-not-implemented] -- a test double`,
    `${TC}const store = new Store();\n// raiselint: ignore[tough-cookie/findcookie-is-not-implemented]\n${FIND};`,
    `// raiselint: ignore-file[tough-cookie/findcookie-is-not-implemented]\n${TC}const store = new Store();\n${FIND};`,
  ],
  invalid: [
    {
      code: `${TC}const store = new Store();\n${FIND};`,
      errors: [
        {
          messageId: 'certain',
          line: 3,
          suggestions: [{ messageId: 'wrapTryCatch', output: tryFix(`${TC}const store = new Store();\n`, `${FIND};`, 'Error') }],
        },
      ],
    },
    {
      // A subclass that does not override it; the callback overload (the record shows it too); a chained .catch does not catch a synchronous throw.
      code: `${TC}class Partial extends Store {}\nconst store = new Partial();\n${FIND}.catch(() => undefined);`,
      errors: [
        {
          messageId: 'certain',
          line: 4,
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output: tryFix(`${TC}class Partial extends Store {}\nconst store = new Partial();\n`, `${FIND}.catch(() => undefined);`, 'Error'),
            },
          ],
        },
      ],
    },
    {
      code: `${TC}declare const store: Store;\nstore.findCookie('example.com', '/', 'sid', () => {});`,
      errors: [
        {
          messageId: 'certain',
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output: tryFix(`${TC}declare const store: Store;\n`, "store.findCookie('example.com', '/', 'sid', () => {});", 'Error'),
            },
          ],
        },
      ],
    },
    {
      code: `${TC}declare const store: Store | MemoryCookieStore;\n${FIND};`,
      errors: [
        {
          messageId: 'possible',
          data: { rule: '', callee: 'store.findCookie()', error: 'Error', why: ' when the receiver is a Store', message: 'findCookie is not implemented' },
          suggestions: [{ messageId: 'wrapTryCatch', output: tryFix(`${TC}declare const store: Store | MemoryCookieStore;\n`, `${FIND};`, 'Error') }],
        },
      ],
    },
    {
      code: `${TC}import type { CookieFinder } from '../types/stores.js';\ndeclare const store: CookieFinder;\n${FIND};`,
      errors: [
        {
          messageId: 'possible',
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output: tryFix(`${TC}import type { CookieFinder } from '../types/stores.js';\ndeclare const store: CookieFinder;\n`, `${FIND};`, 'Error'),
            },
          ],
        },
      ],
    },
    {
      code: `${TC}const store = new Store();\ntry {\n  ${FIND};\n} catch (err) {\n  throw err;\n}`,
      errors: [
        {
          messageId: 'certain',
          line: 4,
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output: `${TC}const store = new Store();\ntry {\n  try {\n    ${FIND};\n  } catch (error) {\n    if (!(error instanceof Error)) throw error;\n    // handle the Error here\n  }\n} catch (err) {\n  throw err;\n}`,
            },
          ],
        },
      ],
    },
  ],
});

const Y = "import { parse } from 'yaml';\ndeclare const text: string;\n";

run('yaml/parse-throws-yamlparseerror', {
  valid: [
    `${Y}import { YAMLError } from 'yaml';\ntry {\n  parse(text);\n} catch (err) {\n  if (!(err instanceof YAMLError)) throw err;\n}`,
    `${Y}import { YAMLParseError } from 'yaml';\ntry {\n  parse(text);\n} catch (err) {\n  if (err instanceof YAMLParseError) console.error(err.message);\n  else throw err;\n}`,
    "function parse(s: string) { return s; }\nparse('a: b');",
    "import { parseDocument } from 'yaml';\nparseDocument('a: b');",
  ],
  invalid: [
    {
      // The try/catch would leave `config` unassigned when the catch falls through: `return config`
      // fails to type-check ("used before being assigned"), so no suggestion is offered.
      code: `${Y}export function load(): number {\n  const config = parse(text) as number;\n  return config;\n}`,
      errors: [{ messageId: 'possible', suggestions: [] }],
    },
    {
      code: `${Y}const config = parse(text);`,
      errors: [
        {
          messageId: 'possible',
          suggestions: [{ messageId: 'wrapTryCatch', output: tryFix(Y, 'config = parse(text);', 'Error', '', ' // YAMLParseError', 'let config: any;\n') }],
        },
      ],
    },
    {
      code: "import YAML from 'yaml';\ndeclare const text: string;\nYAML.parse(text, (_k, v) => v);",
      errors: [
        {
          messageId: 'possible',
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output: tryFix("import YAML from 'yaml';\ndeclare const text: string;\n", 'YAML.parse(text, (_k, v) => v);', 'Error', '', ' // YAMLParseError'),
            },
          ],
        },
      ],
    },
    {
      code: "import * as y from 'yaml';\nimport { YAMLParseError } from 'yaml';\ndeclare const text: string;\ny.parse(text);",
      errors: [
        {
          messageId: 'possible',
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output: tryFix(
                "import * as y from 'yaml';\nimport { YAMLParseError } from 'yaml';\ndeclare const text: string;\n",
                'y.parse(text);',
                'YAMLParseError',
              ),
            },
          ],
        },
      ],
    },
    {
      code: `${Y}try {\n  parse(text);\n} catch (err) {\n  if (!(err instanceof TypeError)) throw err;\n}`,
      errors: [
        {
          messageId: 'possible',
          line: 4,
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output: `${Y}try {\n  try {\n    parse(text);\n  } catch (error) {\n    if (!(error instanceof Error)) throw error; // YAMLParseError\n    // handle the YAMLParseError here\n  }\n} catch (err) {\n  if (!(err instanceof TypeError)) throw err;\n}`,
            },
          ],
        },
      ],
    },
  ],
});

const DB = "import type { AbstractLevel } from 'abstract-level';\ndeclare const db: AbstractLevel<string, string, string>;\n";

run('abstract-level/get-could-not-decode-value', {
  valid: [
    `${DB}export async function f() { return db.get('k').catch(() => undefined); }`,
    `${DB}export async function f() { return db.get('k').then((v) => v, () => undefined); }`,
    `${DB}export async function f() {\n  try {\n    return await db.get('k');\n  } catch {\n    return undefined;\n  }\n}`,
    "const m = new Map<string, string>();\nm.get('k');",
    // ModuleError (module-error's declarations: another package) is the recorded class.
    `${DB}import ModuleError from 'module-error';\nexport async function f() {\n  try {\n    return await db.get('k');\n  } catch (err) {\n    if (!(err instanceof ModuleError)) throw err;\n  }\n}`,
  ],
  invalid: [
    {
      code: `${DB}export async function f() {\n  const v = await db.get('k');\n  return v;\n}`,
      errors: [
        {
          messageId: 'possible',
          line: 4,
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output: `${DB}export async function f() {\n  let v: string | undefined;\n  try {\n    v = await db.get('k');\n  } catch (error) {\n    if (!(error instanceof Error)) throw error; // ModuleError\n    // handle the ModuleError here\n  }\n  return v;\n}`,
            },
          ],
        },
      ],
    },
    {
      // Not awaited inside the try: the rejection escapes it.
      code: `${DB}export function f() {\n  try {\n    db.get('k');\n  } catch {}\n}`,
      errors: [{ messageId: 'possible', line: 5, suggestions: [] }],
    },
  ],
});

run('abstract-level/manifest-must-be-an-object', {
  valid: [
    // A subclass passes its own manifest: the data-dependent throw is its constructor's business.
    "import { AbstractLevel } from 'abstract-level';\nclass Db extends AbstractLevel<string> { constructor() { super({ encodings: { utf8: true } }); } }\nnew Db();",
  ],
  invalid: [
    {
      code: "import { AbstractLevel } from 'abstract-level';\ndeclare const manifest: any;\nnew AbstractLevel(manifest);",
      errors: [
        {
          messageId: 'possible',
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output: tryFix("import { AbstractLevel } from 'abstract-level';\ndeclare const manifest: any;\n", 'new AbstractLevel(manifest);', 'TypeError'),
            },
          ],
        },
      ],
    },
  ],
});

run('node/url-constructor-invalid-url', {
  valid: [
    'declare const input: string;\nif (URL.canParse(input)) new URL(input);',
    'declare const input: string;\nexport const u = URL.canParse(input) ? new URL(input) : undefined;',
    'declare const input: string;\nexport function f() {\n  if (!URL.canParse(input)) return;\n  return new URL(input);\n}',
    'declare const input: string;\ntry {\n  new URL(input);\n} catch (err) {\n  if (!(err instanceof TypeError)) throw err;\n}',
    { code: 'class URL { constructor(_s: string) {} }\nnew URL("x");', filename: 'file.ts' },
  ],
  invalid: [
    {
      code: 'declare const input: string;\nconst url = new URL(input);',
      errors: [
        {
          messageId: 'possible',
          suggestions: [
            { messageId: 'addGuard', output: 'declare const input: string;\nconst url = (URL.canParse(input) ? new URL(input) : undefined);' },
            {
              messageId: 'wrapTryCatch',
              output: tryFix('declare const input: string;\n', 'url = new URL(input);', 'TypeError', '', '', 'let url: import("url").URL;\n'),
            },
          ],
        },
      ],
    },
    {
      code: "import { URL as NodeURL } from 'node:url';\ndeclare const input: string;\nnew NodeURL(input, 'https://example.org');",
      errors: [
        {
          messageId: 'possible',
          suggestions: [
            {
              messageId: 'addGuard',
              output:
                "import { URL as NodeURL } from 'node:url';\ndeclare const input: string;\n(URL.canParse(input) ? new NodeURL(input, 'https://example.org') : undefined);",
            },
            {
              messageId: 'wrapTryCatch',
              output: tryFix(
                "import { URL as NodeURL } from 'node:url';\ndeclare const input: string;\n",
                "new NodeURL(input, 'https://example.org');",
                'TypeError',
              ),
            },
          ],
        },
      ],
    },
    {
      // Plain JavaScript, typed by checkJs: no type annotation in the fix.
      code: '/** @type {string} */\nconst input = process.argv[2] ?? "";\nconst url = new URL(input);\nexport { url };',
      filename: 'script.js',
      errors: [
        {
          messageId: 'possible',
          suggestions: [
            {
              messageId: 'addGuard',
              output:
                '/** @type {string} */\nconst input = process.argv[2] ?? "";\nconst url = (URL.canParse(input) ? new URL(input) : undefined);\nexport { url };',
            },
            {
              messageId: 'wrapTryCatch',
              output: tryFix(
                '/** @type {string} */\nconst input = process.argv[2] ?? "";\n',
                'url = new URL(input);',
                'TypeError',
                '\nexport { url };',
                '',
                'let url;\n',
              ),
            },
          ],
        },
      ],
    },
  ],
});

run('eslint/fromoptionsmodule-argument-must-be-a-url', {
  valid: [
    "import { ESLint } from 'eslint';\nexport const p = ESLint.fromOptionsModule(new URL('file:///x.js')).catch(() => undefined);",
    { code: "const { ESLint } = require('eslint');\nESLint.fromOptionsModule(new URL('file:///x.js')).then(() => {}, () => {});", filename: 'common.cjs' },
  ],
  invalid: [
    {
      code: "import { ESLint } from 'eslint';\nexport async function f(u: URL) {\n  return await ESLint.fromOptionsModule(u);\n}",
      errors: [
        {
          messageId: 'possible',
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output:
                "import { ESLint } from 'eslint';\nexport async function f(u: URL) {\n  try {\n    return await ESLint.fromOptionsModule(u);\n  } catch (error) {\n    if (!(error instanceof TypeError)) throw error;\n    // handle the TypeError here\n  }\n}",
            },
          ],
        },
      ],
    },
    {
      // A value typed `typeof ESLint` may hold a subclass that overrides the static.
      code: "import type { ESLint } from 'eslint';\nexport async function f(Cls: typeof ESLint, u: URL) {\n  await Cls.fromOptionsModule(u);\n}",
      errors: [
        {
          messageId: 'possible',
          data: {
            rule: '',
            callee: 'Cls.fromOptionsModule()',
            error: 'TypeError',
            why: ' when Cls is ESLint itself or a subclass that does not override fromOptionsModule',
            message: 'Argument must be a URL object',
          },
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output:
                "import type { ESLint } from 'eslint';\nexport async function f(Cls: typeof ESLint, u: URL) {\n  try {\n    await Cls.fromOptionsModule(u);\n  } catch (error) {\n    if (!(error instanceof TypeError)) throw error;\n    // handle the TypeError here\n  }\n}",
            },
          ],
        },
      ],
    },
    {
      code: "const { ESLint } = require('eslint');\n/** @param {URL} u */\nasync function f(u) {\n  await ESLint.fromOptionsModule(u);\n}\nmodule.exports = { f };",
      filename: 'common.cjs',
      errors: [
        {
          messageId: 'possible',
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output:
                "const { ESLint } = require('eslint');\n/** @param {URL} u */\nasync function f(u) {\n  try {\n    await ESLint.fromOptionsModule(u);\n  } catch (error) {\n    if (!(error instanceof TypeError)) throw error;\n    // handle the TypeError here\n  }\n}\nmodule.exports = { f };",
            },
          ],
        },
      ],
    },
  ],
});

run('yaml/parse-throws-yamlparseerror', {
  valid: [],
  invalid: [
    {
      // `import x = require()`: the alias is followed to the package's declaration.
      code: "import yaml = require('yaml');\ndeclare const text: string;\nyaml.parse(text);",
      errors: [
        {
          messageId: 'possible',
          suggestions: [
            {
              messageId: 'wrapTryCatch',
              output: tryFix("import yaml = require('yaml');\ndeclare const text: string;\n", 'yaml.parse(text);', 'Error', '', ' // YAMLParseError'),
            },
          ],
        },
      ],
    },
  ],
});

describe('records from settings and overloads', () => {
  // The tough-cookie record without its callback example: then the callback overload (Node-style
  // APIs pass errors to the callback) is not a throwing overload; the promise one still is.
  const dir = mkdtempSync(join(tmpdir(), 'raiselint-eslint-'));
  const line = readFileSync(join(ROOT, 'fixtures', 'js', 'js-records.jsonl'), 'utf8').split('\n')[0]!;
  const entry = JSON.parse(line) as { record: Record<string, unknown> };
  entry.record.triggerScenarios = 'Calling `store.findCookie(domain, path, key)` on a plain `new Store()`.';
  const file = join(dir, 'promise-only.jsonl');
  writeFileSync(file, `${JSON.stringify(entry)}\n`);
  vitest.afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const records = plugin.rules.records!;
  const settings = { raiselint: { records: [file] } };
  tester.run('records', records, {
    valid: [
      { code: `${TC}declare const store: Store;\nstore.findCookie('example.com', '/', 'sid', () => {});`, settings },
      { code: `${TC}declare const store: Store;\n${FIND};` },
    ],
    invalid: [
      {
        code: `${TC}declare const store: Store;\n${FIND};`,
        settings,
        errors: [
          {
            messageId: 'certain',
            data: {
              rule: 'tough-cookie/findcookie-is-not-implemented: ',
              callee: 'store.findCookie()',
              error: 'Error',
              why: '',
              message: 'findCookie is not implemented',
            },
            suggestions: [{ messageId: 'wrapTryCatch', output: tryFix(`${TC}declare const store: Store;\n`, `${FIND};`, 'Error') }],
          },
        ],
      },
    ],
  });
});

describe('a project that loads the DOM library', () => {
  // There `URL` is typed by lib.dom.d.ts (`declare var URL: { new(...) }`); under Node it is node:url's class.
  const dom = new RuleTester({ languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: join(dir, 'dom') } } });
  dom.run('node--url-constructor-invalid-url--dom', rule('node/url-constructor-invalid-url'), {
    valid: ['declare const input: string;\nif (URL.canParse(input)) new URL(input);'],
    invalid: [
      {
        code: 'declare const input: string;\nnew URL(input);',
        errors: [
          {
            messageId: 'possible',
            suggestions: [
              { messageId: 'addGuard', output: 'declare const input: string;\n(URL.canParse(input) ? new URL(input) : undefined);' },
              { messageId: 'wrapTryCatch', output: tryFix('declare const input: string;\n', 'new URL(input);', 'TypeError') },
            ],
          },
        ],
      },
    ],
  });
});

describe('untyped packages: the import is followed one hop at a time', () => {
  // The yaml record as if its package had no declarations (`yaml-untyped` resolves to nothing: every value is `any`).
  const dir2 = mkdtempSync(join(tmpdir(), 'raiselint-eslint-'));
  const line = readFileSync(join(ROOT, 'fixtures', 'js', 'js-records.jsonl'), 'utf8').split('\n')[1]!;
  const entry = JSON.parse(line) as { record: Record<string, unknown> };
  entry.record.repo = 'eemeli/yaml-untyped';
  entry.record.tryCatchPattern = String(entry.record.tryCatchPattern).replace("from 'yaml'", "from 'yaml-untyped'");
  const file = join(dir2, 'untyped.jsonl');
  writeFileSync(file, `${JSON.stringify(entry)}\n`);
  vitest.afterAll(() => rmSync(dir2, { recursive: true, force: true }));
  const untyped = createPlugin({ records: [file], bundled: false });
  const r = untyped.rules['yaml-untyped/parse-throws-yamlparseerror']!;
  const fix = (before: string, stmt: string) => tryFix(before, stmt, 'Error', '', ' // YAMLParseError');
  tester.run('yaml-untyped', r, {
    valid: [
      { code: "const { parse } = require('yaml');\nparse('a: b');", filename: 'common.cjs' },
      { code: "const { stringify } = require('yaml-untyped');\nstringify({});", filename: 'common.cjs' },
    ],
    invalid: [
      {
        code: "const { parse } = require('yaml-untyped');\nparse('a: b');",
        filename: 'common.cjs',
        errors: [
          {
            messageId: 'possible',
            suggestions: [{ messageId: 'wrapTryCatch', output: fix("const { parse } = require('yaml-untyped');\n", "parse('a: b');") }],
          },
        ],
      },
      {
        code: "const Y = require('yaml-untyped');\nY.parse('a: b');",
        filename: 'common.cjs',
        errors: [
          { messageId: 'possible', suggestions: [{ messageId: 'wrapTryCatch', output: fix("const Y = require('yaml-untyped');\n", "Y.parse('a: b');") }] },
        ],
      },
      {
        code: "import { parse as p } from 'yaml-untyped';\np('a: b');",
        filename: 'module.mjs',
        errors: [
          { messageId: 'possible', suggestions: [{ messageId: 'wrapTryCatch', output: fix("import { parse as p } from 'yaml-untyped';\n", "p('a: b');") }] },
        ],
      },
    ],
  });
});

// A guard named through the package's namespace in the record (`YAML.isScalar(text)` before
// `YAML.parse(text)`; made up for the test) protects the call under any import binding that the
// checker resolves to that function of that package; a look-alike of another origin does not.
describe('a guard under any import binding', () => {
  const base = readFileSync(join(ROOT, 'fixtures', 'js', 'js-records.jsonl'), 'utf8')
    .split('\n')
    .map((l) => l && (JSON.parse(l) as { record: Record<string, unknown> }))
    .find((x) => x && String(x.record.slug).startsWith('parse-throws'))!;
  const tmpDir = mkdtempSync(join(tmpdir(), 'raiselint-guard-'));
  const file = join(tmpDir, 'guard.jsonl');
  const record = {
    ...base.record,
    id: 'jsguard0001',
    slug: 'parse-guarded',
    validationCode: "import * as yaml from 'yaml'\n\nif (yaml.isScalar(text)) {\n  const config = yaml.parse(text)\n}",
  };
  writeFileSync(file, `${JSON.stringify({ record })}\n`);
  const guardPlugin = createPlugin({ records: [file], bundled: false });
  vitest.afterAll(() => rmSync(tmpDir, { recursive: true, force: true }));
  const id = Object.keys(guardPlugin.rules).find((k) => k !== 'records')!;
  it('the rule has the guard, as the record writes it', () => {
    expect(id).toBe('yaml/parse-guarded');
  });
  tester.run('yaml--parse-guarded', guardPlugin.rules[id]!, {
    valid: [
      "import * as yaml from 'yaml';\ndeclare const text: string;\nif (yaml.isScalar(text)) yaml.parse(text);",
      "import { isScalar, parse } from 'yaml';\ndeclare const text: string;\nif (isScalar(text)) parse(text);",
      "import { isScalar as scalar, parse } from 'yaml';\ndeclare const text: string;\nif (!scalar(text)) throw new Error('no');\nparse(text);",
      "import YAML from 'yaml';\ndeclare const text: string;\nconst v = YAML.isScalar(text) ? YAML.parse(text) : undefined;",
    ],
    invalid: [
      {
        // The guard suggestion names the guard as this file imports it (the record writes `yaml.isScalar`).
        code: "import { isScalar as scalar, parse } from 'yaml';\ndeclare const text: string;\nexport const v = parse(text);",
        errors: [
          {
            messageId: 'possible',
            suggestions: [
              {
                messageId: 'addGuard',
                output:
                  "import { isScalar as scalar, parse } from 'yaml';\ndeclare const text: string;\nexport const v = (scalar(text) ? parse(text) : undefined);",
              },
            ],
          },
        ],
      },
      {
        code: "import * as Y from 'yaml';\ndeclare const text: string;\nexport const v = Y.parse(text);",
        errors: [
          {
            messageId: 'possible',
            suggestions: [
              {
                messageId: 'addGuard',
                output: "import * as Y from 'yaml';\ndeclare const text: string;\nexport const v = (Y.isScalar(text) ? Y.parse(text) : undefined);",
              },
            ],
          },
        ],
      },
      {
        // Another function of that name, not the package's.
        code: "import { parse } from 'yaml';\ndeclare const text: string;\nfunction isScalar(s: string) { return s.length > 0; }\nif (isScalar(text)) parse(text);",
        // (no suggestion type-checks here: the guard's `yaml.isScalar` names nothing in this file)
        errors: [{ messageId: 'possible', suggestions: [] }],
      },
    ],
  });
});

// What the window says about the arguments the throw needs (made up on yaml's parse for the test):
// `if (options) { ... throw }` needs the third argument given and truthy; the `default:` of
// `switch (reviver)` is not reached by a call that passes one of the case literals, and a `case`
// clause only by its own.
describe('arguments the throw needs', () => {
  const base = readFileSync(join(ROOT, 'fixtures', 'js', 'js-records.jsonl'), 'utf8')
    .split('\n')
    .map((l) => l && (JSON.parse(l) as { record: Record<string, unknown> }))
    .find((x) => x && String(x.record.slug).startsWith('parse-throws'))!;
  const tmpDir = mkdtempSync(join(tmpdir(), 'raiselint-needs-'));
  const file = join(tmpDir, 'needs.jsonl');
  const window = (body: string) => ({
    sourceCode: `export function parse(src, reviver, options) {\n${body}\n  return src\n}`,
    sourceCodeStart: 1,
    lineNumber: 4,
  });
  const needs = {
    ...base.record,
    id: 'jsneeds0001',
    slug: 'parse-needs-options',
    ...window('  if (options) {\n    if (options.strict && !src)\n      throw new YAMLParseError(src)\n  }'),
  };
  const unless = {
    ...base.record,
    id: 'jsneeds0002',
    slug: 'parse-unless-reviver',
    ...window("  switch (reviver) {\n    case 'a': case 'b': break\n    default: throw new YAMLParseError(src)\n  }"),
    lineNumber: 4,
  };
  const only = {
    ...unless,
    id: 'jsneeds0003',
    slug: 'parse-only-strict',
    ...window("  switch (reviver) {\n    case 'lax': break\n    case 'strict': throw new YAMLParseError(src)\n  }"),
  };
  // The tests around the throw, read with the call's literal arguments; an early return before it keeps it possible.
  const tests = {
    ...unless,
    id: 'jsneeds0004',
    slug: 'parse-tests-decide',
    ...window("  if (typeof reviver === 'string') {\n    if (reviver.startsWith('x') || options === 1)\n      throw new YAMLParseError(src)\n  }"),
  };
  const early = {
    ...tests,
    id: 'jsneeds0005',
    slug: 'parse-tests-early',
    ...window("  if (!src) return null\n  if (reviver === 'x')\n    throw new YAMLParseError(src)"),
    lineNumber: 4,
  };
  // An options object the parameter's pattern reads (`{ strict: s, level } = {}`), passed as an object literal.
  const fields = {
    ...unless,
    id: 'jsneeds0006',
    slug: 'parse-fields',
    sourceCode: 'export function parse(src, { strict: s, level } = {}) {\n  if (s === true && level > 1)\n    throw new YAMLParseError(src)\n  return src\n}',
    sourceCodeStart: 1,
    lineNumber: 3,
  };
  // `instanceof` of the package's class, decided by the argument's type.
  const typed = {
    ...unless,
    id: 'jsneeds0007',
    slug: 'parse-instanceof',
    ...window('  if (!(reviver instanceof Document)) {\n    if (!src)\n      throw new YAMLParseError(src)\n  }'),
  };
  writeFileSync(file, [needs, unless, only, tests, early, fields, typed].map((record) => `${JSON.stringify({ record })}\n`).join(''));
  const p = createPlugin({ records: [file], bundled: false });
  vitest.afterAll(() => rmSync(tmpDir, { recursive: true, force: true }));
  it('the rules read the arguments from the window', () => {
    expect(p.rules['yaml/parse-needs-options']).toBeDefined();
    expect(p.rules['yaml/parse-unless-reviver']).toBeDefined();
  });
  const head = "import { parse } from 'yaml';\ndeclare const text: string;\ndeclare const opts: any;\n";
  // In a function whose return the try/catch would break: no suggestion type-checks, so none is offered.
  const inFn = (call: string, pre = '') => `${head}export function load(): number {\n  ${pre}const v = ${call} as number;\n  return v;\n}`;
  const possible = { messageId: 'possible' as const, suggestions: [] };
  tester.run('yaml--parse-needs-options', p.rules['yaml/parse-needs-options']!, {
    valid: [inFn('parse(text)'), inFn('parse(text, undefined, undefined)'), inFn('parse(text, undefined, null as any)'), inFn('parse(text, opts, (0))')],
    invalid: [
      { code: inFn('parse(text, undefined, opts)'), errors: [possible] },
      // A spread may give the argument.
      { code: inFn('parse(...args)', 'const args: [string, any, any] = [text, undefined, opts];\n  '), errors: [possible] },
    ],
  });
  tester.run('yaml--parse-unless-reviver', p.rules['yaml/parse-unless-reviver']!, {
    valid: [inFn("parse(text, 'a' as any)"), inFn("parse(text, ('b') as any)")],
    invalid: [
      { code: inFn("parse(text, 'c' as any)"), errors: [possible] },
      { code: inFn('parse(text, opts)'), errors: [possible] },
    ],
  });
  tester.run('yaml--parse-tests-decide', p.rules['yaml/parse-tests-decide']!, {
    valid: [inFn('parse(text)'), inFn("parse(text, 'abc' as any)"), inFn("parse(text, 'abc' as any, 2 as any)")],
    invalid: [
      { code: inFn("parse(text, 'xyz' as any)"), errors: [{ ...possible, messageId: 'certain' }] },
      { code: inFn("parse(text, 'abc' as any, 1 as any)"), errors: [{ ...possible, messageId: 'certain' }] },
      // `options` not known: the `||` is not decided.
      { code: inFn("parse(text, 'abc' as any, opts)"), errors: [possible] },
      { code: inFn('parse(text, opts)'), errors: [possible] },
    ],
  });
  tester.run('yaml--parse-tests-early', p.rules['yaml/parse-tests-early']!, {
    valid: [inFn("parse(text, 'y' as any)")],
    invalid: [{ code: inFn("parse(text, 'x' as any)"), errors: [possible] }],
  });
  tester.run('yaml--parse-fields', p.rules['yaml/parse-fields']!, {
    valid: [
      inFn('parse(text)'),
      inFn('parse(text, { strict: false, level: 3 } as any)'),
      inFn("parse(text, { level: 3, 'strict': 1 } as any)"),
      inFn('parse(text, {} as any)'),
    ],
    invalid: [
      { code: inFn('parse(text, { strict: true, level: 2 } as any)'), errors: [{ ...possible, messageId: 'certain' }] },
      { code: inFn('parse(text, { strict: true, level: opts } as any)'), errors: [possible] },
      { code: inFn('parse(text, opts)'), errors: [possible] },
    ],
  });
  const withDoc = (call: string) =>
    inFn(call).replace("import { parse } from 'yaml';", "import { parse, Document } from 'yaml';\ndeclare const doc: Document;");
  tester.run('yaml--parse-instanceof', p.rules['yaml/parse-instanceof']!, {
    valid: [withDoc('parse(text, doc as never)')],
    invalid: [
      { code: withDoc("parse(text, 'x' as never)"), errors: [possible] },
      { code: withDoc('parse(text, opts)'), errors: [possible] },
    ],
  });
  // `case 'strict': throw`: only that literal reaches it.
  tester.run('yaml--parse-only-strict', p.rules['yaml/parse-only-strict']!, {
    valid: [inFn("parse(text, 'lax' as any)"), inFn("parse(text, 'other' as any)")],
    invalid: [
      { code: inFn("parse(text, 'strict' as any)"), errors: [possible] },
      { code: inFn('parse(text, opts)'), errors: [possible] },
    ],
  });
});
