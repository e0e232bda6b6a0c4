/**
 * JS/TS results in the content cache (`raiselint check`, the CLI): a second run reads them
 * without building a TypeScript program; an edit to a module that a file imports re-checks that
 * file (its findings read the module's types); and ESLint's own `eslint-disable` comments apply
 * in the CLI, as `// raiselint: ignore` does.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'raiselint.js');
const RECORDS = join(ROOT, 'fixtures', 'js', 'js-records.jsonl');
const RULE = 'tough-cookie/findcookie-is-not-implemented';

type J = any;

let dir: string;
beforeAll(() => {
  expect(existsSync(join(ROOT, 'dist', 'cli', 'main.js')), 'build first: npm test runs tsc').toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'raiselint-jscache-'));
  cpSync(join(ROOT, 'fixtures', 'js', 'project', 'tsconfig.json'), join(dir, 'tsconfig.json'));
  cpSync(join(ROOT, 'fixtures', 'js', 'project', 'types'), join(dir, 'types'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  mkdirSync(join(dir, 'src'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(...args: string[]) {
  const r = spawnSync(
    process.execPath,
    [BIN, 'check', 'src', '--records', RECORDS, '--no-bundled', '--format', 'json', '--timings', '--cache-dir', join(dir, '.cache'), ...args],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  const js =
    /(\d+) JS\/TS files: (\d+) linted with types \((\d+) TypeScript programs?\), (\d+) cleared by types \(no call a rule reaches\), (\d+) cached \((\d+) unchanged by stat\)/.exec(
      r.stderr,
    );
  expect(js, r.stderr).not.toBeNull();
  const doc = JSON.parse(r.stdout) as J;
  return {
    code: r.status,
    linted: Number(js![2]),
    programs: Number(js![3]),
    cleared: Number(js![4]),
    cached: Number(js![5]),
    byStat: Number(js![6]),
    found: (doc.diagnostics as J[]).map((d) => `${d.file}:${d.line} ${d.ruleId} ${d.confidence}`).sort(),
  };
}

const factory = (klass: string) =>
  `import { MemoryCookieStore, Store } from 'tough-cookie';\nexport function make() {\n  return new ${klass}();\n}\nexport { Store };\n`;

describe('JS/TS results in the content cache', () => {
  beforeAll(async () => {
    cpSync(join(ROOT, 'fixtures', 'js', 'project', 'src', 'cookies.ts'), join(dir, 'src', 'cookies.ts'));
    writeFileSync(join(dir, 'src', 'factory.ts'), factory('MemoryCookieStore'));
    writeFileSync(
      join(dir, 'src', 'use.ts'),
      [
        "import { make } from './factory.js';",
        'export async function use(): Promise<void> {',
        '  const s = make();',
        "  await s.findCookie('example.com', '/', 'sid');",
        `  // eslint-disable-next-line raiselint/${RULE} -- ESLint's own form`,
        "  await s.findCookie('example.com', '/', 'sid');",
        '}',
        '',
      ].join('\n'),
    );
    // A stat signature is trusted once the file's times are 3 s old (io/fingerprint.ts): wait, so
    // that the second run reuses entries by stat alone, as on a developer's machine.
    await new Promise((done) => setTimeout(done, 3200));
  });

  it('a second run reads every file from the cache: no program is built, the findings are the same', () => {
    const first = check();
    // cookies.ts and use.ts mention findCookie; factory.ts does not. In use.ts, make() returns a
    // MemoryCookieStore, which implements findCookie: the program's types clear it before ESLint parses it.
    expect(first).toMatchObject({ linted: 1, cleared: 1, cached: 0 });
    expect(first.found.some((f) => f.startsWith('src/cookies.ts'))).toBe(true);
    // make() returns a MemoryCookieStore, which implements findCookie.
    expect(first.found.filter((f) => f.startsWith('src/use.ts'))).toEqual([]);
    const second = check();
    // Unchanged by stat (the files and every file their types were read from): TypeScript is not even loaded.
    expect(second).toMatchObject({ linted: 0, cleared: 0, programs: 0, cached: 2, byStat: 2, found: first.found, code: first.code });
  });

  it('editing an imported module re-checks the file that imports it (its types changed); the others stay cached', () => {
    writeFileSync(join(dir, 'src', 'factory.ts'), factory('Store'));
    const after = check();
    // use.ts again (factory.ts is among the files its entry depends on); cookies.ts imports neither, still by stat.
    expect(after).toMatchObject({ linted: 1, cleared: 0, cached: 1, byStat: 1 });
    // make() now returns a Store, which never implements findCookie: certain. Line 6 is under
    // `eslint-disable-next-line`, which the CLI honours as ESLint does.
    expect(after.found.filter((f) => f.startsWith('src/use.ts'))).toEqual([`src/use.ts:4 ${RULE} certain`]);
  });

  it('--no-cache lints every file again and gives the same findings', () => {
    const cached = check();
    const fresh = check('--no-cache');
    expect(fresh.cached).toBe(0);
    expect(fresh.linted + fresh.cleared).toBe(cached.linted + cached.cleared + cached.cached);
    expect(fresh.found).toEqual(cached.found);
  });
});
