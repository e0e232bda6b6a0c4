/**
 * `raiselint lsp` on JS/TS files: a `.ts` buffer gets the diagnostics `raiselint check` gives the
 * file (the same rules, types from its tsconfig and installed packages), from the editor's text;
 * an unsaved edit of an imported module, open in the editor, changes them; hover shows the record,
 * and code actions offer `// raiselint: ignore[...]` and the display-only try/catch.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticSeverity, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { Client, ROOT } from './lsp-client.js';

const RECORDS = join(ROOT, 'fixtures', 'js', 'js-records.jsonl');
const RULE = 'tough-cookie/findcookie-is-not-implemented';

let dir: string;
let c: Client;
const uriOf = (name: string) => pathToFileURL(join(dir, 'src', name)).href;

const factory = (klass: string) =>
  `import { MemoryCookieStore, Store } from 'tough-cookie';\nexport function make() {\n  return new ${klass}();\n}\nexport { Store };\n`;
const USE = [
  "import { make } from './factory.js';",
  "import { Store } from 'tough-cookie';",
  'export async function use(): Promise<void> {',
  "  await new Store().findCookie('example.com', '/', 'sid');",
  "  await make().findCookie('example.com', '/', 'sid');",
  '}',
  '',
].join('\n');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'raiselint-lspjs-'));
  cpSync(join(ROOT, 'fixtures', 'js', 'project', 'tsconfig.json'), join(dir, 'tsconfig.json'));
  cpSync(join(ROOT, 'fixtures', 'js', 'project', 'types'), join(dir, 'types'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'factory.ts'), factory('MemoryCookieStore'));
  writeFileSync(join(dir, 'src', 'use.ts'), USE);
  c = new Client(['--records', RECORDS, '--no-bundled', '--cache-dir', join(dir, '.cache')], dir);
  await c.initialize(dir);
});
afterAll(() => {
  c.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('raiselint lsp on TypeScript files', () => {
  it('a .ts buffer gets diagnostics: certain as an error with the rule id and the record link', async () => {
    const uri = uriOf('use.ts');
    await c.open(uri, USE, 'typescript');
    const p = await c.until(() => c.published.find((x) => x.uri === uri && x.diagnostics.length));
    // new Store() never implements findCookie; make() returns a MemoryCookieStore, which does.
    expect(p.diagnostics.map((d) => [d.range.start.line, d.code, d.severity])).toEqual([[3, RULE, DiagnosticSeverity.Error]]);
    expect(p.diagnostics[0]!.codeDescription?.href).toMatch(/^https?:\/\//);
    const hover = await c.hover(uri, 3, 22);
    expect((hover?.contents as MarkupContent).value).toContain('findCookie is not implemented');
  });

  it("an unsaved edit of an imported module, open in the editor, changes the buffer's findings", async () => {
    const f = uriOf('factory.ts');
    await c.open(f, factory('MemoryCookieStore'), 'typescript');
    await c.replace(f, factory('Store'));
    const uri = uriOf('use.ts');
    // A change to use.ts re-checks it with the open factory.ts as edited (not as on disk).
    const v = await c.edit(uri, [{ range: { start: { line: 6, character: 0 }, end: { line: 6, character: 0 } }, newText: '// edited\n' }]);
    const p = await c.diagnosticsAt(uri, v);
    expect(p.diagnostics.map((d) => [d.range.start.line, d.code, d.severity])).toEqual([
      [3, RULE, DiagnosticSeverity.Error],
      [4, RULE, DiagnosticSeverity.Error],
    ]);
  });

  it('code actions: ignore with a `//` comment (the finding goes after it), and the try/catch shown disabled', async () => {
    const uri = uriOf('use.ts');
    const version = c.docs.get(uri)!.version;
    const diags = (await c.diagnosticsAt(uri, version)).diagnostics;
    const first = diags.find((d) => d.range.start.line === 3)!;
    const actions = await c.codeActions(uri, first.range, { diagnostics: [first] });
    const ignore = actions.find((a) => a.title === `Ignore ${RULE} on this line`)!;
    expect(actions.filter((a) => a.disabled).map((a) => a.title)).toEqual([`Wrap in try/catch for Error (${RULE}) [display-only]`]);
    const v = await c.apply(ignore.edit!);
    expect(c.text(uri).split('\n')[3]).toBe(`  await new Store().findCookie('example.com', '/', 'sid');  // raiselint: ignore[${RULE}]`); // as --add-ignore writes it
    const after = await c.diagnosticsAt(uri, v);
    expect(after.diagnostics.map((d) => d.range.start.line)).toEqual([4]);
  });
});
