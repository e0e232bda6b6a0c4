/**
 * `raiselint lsp` end to end: the real server (built dist/, spawned as `node bin/raiselint.js lsp`)
 * driven over stdio by a real LSP client connection.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeActionKind, DiagnosticSeverity, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { Client, ROOT } from './lsp-client.js';

const SAVE = 'autogen/agent-save-state-is-not-yet-implemented';
const LOAD = 'autogen/agent-load-state-is-not-yet-implemented';
const SAVING = 'autogen/saving-state-is-not-yet-implemented';

// The record's alternatives use these names: imported, so the fixes apply (with --unsafe-fixes).
const HEADER = `from autogen_core import AgentId, AgentRuntime
from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime
from .messages import LoadStateRequest, SaveStateRequest
`;
const SOURCE = `${HEADER}async def checkpoint(agent: AgentId) -> None:
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    state = await runtime.agent_save_state(agent)
    await runtime.agent_load_state(agent, state)
`;
// 0-based lines of the two calls in SOURCE.
const SAVE_LINE = 5;
const LOAD_LINE = 6;

const uriOf = (name: string) => pathToFileURL(join(ROOT, 'lsp-test', name)).href;

const clients: Client[] = [];
const temps: string[] = [];
function client(args: string[] = []): Client {
  const c = new Client(args);
  clients.push(c);
  return c;
}
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'raiselint-lsp-'));
  temps.push(d);
  return d;
}
afterEach(() => {
  for (const c of clients.splice(0)) c.kill();
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

function parsesAsPython(text: string): void {
  execFileSync('python3', ['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], { input: text });
}

describe('raiselint lsp', () => {
  it('initializes with sync on save, hover and code action capabilities', async () => {
    const c = client();
    const init = await c.initialize();
    expect(init.serverInfo?.name).toBe('raiselint');
    expect(init.capabilities.hoverProvider).toBe(true);
    expect(init.capabilities.textDocumentSync).toEqual({ openClose: true, change: 2, save: { includeText: false } });
    expect(init.capabilities.codeActionProvider).toEqual({ codeActionKinds: [CodeActionKind.QuickFix, 'source.fixAll.raiselint'] });
    expect(await c.shutdown()).toBe(0);
  });

  it('publishes diagnostics on open: rule id, link, severity, tips, exact range', async () => {
    const c = client();
    await c.initialize();
    const uri = uriOf('open.py');
    await c.open(uri, SOURCE);
    const p = await c.diagnosticsAt(uri, 1);
    expect(p.diagnostics.map((d) => d.code)).toEqual([SAVE, LOAD]);
    const d = p.diagnostics[0]!;
    expect(d.source).toBe('raiselint');
    expect(d.severity).toBe(DiagnosticSeverity.Error);
    expect(d.range).toEqual({ start: { line: SAVE_LINE, character: 18 }, end: { line: SAVE_LINE, character: 49 } });
    // The rule's documentation page (docs/rules/<rule id>.md at this version's tag).
    expect(d.codeDescription?.href).toMatch(
      /^https:\/\/github\.com\/raiselint\/raiselint\/blob\/v[\d.]+\/docs\/rules\/autogen\/agent-save-state-is-not-yet-implemented\.md$/,
    );
    expect(d.message).toContain('runtime.agent_save_state() raises NotImplementedError');
    const record = JSON.parse(readFileSync(join(ROOT, 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8').split('\n')[0]!).record;
    expect(d.message).toContain(`help: ${record.preventionTips[0]}`);
  });

  it('reports possible findings as warnings and counts columns in UTF-16 units', async () => {
    const c = client();
    await c.initialize();
    const uri = uriOf('possible.py');
    await c.open(
      uri,
      `${HEADER}async def f(rt: AgentRuntime, g: GrpcWorkerAgentRuntime) -> None:\n    await rt.save_state()\n    x = ("é😀", await g.save_state())\n`,
    );
    const p = await c.diagnosticsAt(uri, 1);
    expect(p.diagnostics.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character, d.range.end.character])).toEqual([
      [SAVING, DiagnosticSeverity.Warning, 4, 10, 25],
      [SAVING, DiagnosticSeverity.Error, 5, 22, 36],
    ]);
    expect(p.diagnostics[0]!.message).toMatch(/^\(possible\) /);
  });

  it('hover on a finding shows the record documentation and tips as markdown; elsewhere nothing', async () => {
    const c = client();
    await c.initialize();
    const uri = uriOf('hover.py');
    await c.open(uri, SOURCE);
    await c.diagnosticsAt(uri, 1);
    const h = await c.hover(uri, SAVE_LINE, 30);
    const content = h!.contents as MarkupContent;
    expect(content.kind).toBe('markdown');
    const record = JSON.parse(readFileSync(join(ROOT, 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8').split('\n')[0]!).record;
    expect(content.value).toContain(`**raiselint** \`${SAVE}\``);
    expect(content.value).toContain(record.documentation);
    for (const tip of record.preventionTips) expect(content.value).toContain(`- ${tip}`);
    expect(content.value).toContain('[raised here](https://github.com/microsoft/autogen/blob/');
    expect(h!.range).toEqual({ start: { line: SAVE_LINE, character: 18 }, end: { line: SAVE_LINE, character: 49 } });
    expect(await c.hover(uri, SAVE_LINE, 2)).toBeNull();
    expect(await c.hover(uri, 0, 0)).toBeNull();
  });

  it('"ignore this finding" inserts the comment; after the edit the diagnostic goes and the others stay', async () => {
    const c = client(['--debounce', '20']);
    await c.initialize();
    const uri = uriOf('ignore.py');
    await c.open(uri, SOURCE);
    const p = await c.diagnosticsAt(uri, 1);
    const target = p.diagnostics[0]!;
    const actions = await c.codeActions(uri, target.range, { diagnostics: [target] });
    const ignore = actions.find((a) => a.title === `Ignore ${SAVE} on this line`)!;
    expect(ignore.kind).toBe(CodeActionKind.QuickFix);
    expect(ignore.diagnostics?.map((d) => d.code)).toEqual([SAVE]);
    // The record's fix (unsafe: the record's code) comes first; no fix-all for unsafe fixes.
    // Every strategy the CLI can apply is its own quick fix: the replacement (auto: the runtime is certainly gRPC) and try/except.
    expect(actions.map((a) => a.title)).toEqual([
      `Replace with the recorded alternative (${SAVE}) [unsafe]`,
      `Wrap in try/except NotImplementedError (${SAVE}) [unsafe]`,
      `Ignore ${SAVE} on this line`,
    ]);
    const version = await c.apply(ignore.edit!);
    expect(c.text(uri).split('\n')[SAVE_LINE]).toBe(`    state = await runtime.agent_save_state(agent)  # raiselint: ignore[${SAVE}]`);
    parsesAsPython(c.text(uri));
    const after = await c.diagnosticsAt(uri, version);
    expect(after.diagnostics.map((d) => d.code)).toEqual([LOAD]);
    // Asked again at the ignored line: nothing left to ignore there.
    expect(await c.codeActions(uri, target.range)).toEqual([]);
  });

  it('a second rule on an ignored line extends the comment, and a finding ending inside a string is ignored above its statement', async () => {
    const c = client(['--debounce', '20']);
    await c.initialize();
    const uri = uriOf('ignore2.py');
    const text = `${HEADER}async def f(g: GrpcWorkerAgentRuntime, a: AgentId) -> None:
    s = [await g.agent_save_state(a), await g.save_state()]  # keep
    print(await g.save_state(), """
    not code""")
`;
    await c.open(uri, text);
    const p = await c.diagnosticsAt(uri, 1);
    expect(p.diagnostics.map((d) => `${d.range.start.line} ${d.code}`)).toEqual([`4 ${SAVE}`, `4 ${SAVING}`, `5 ${SAVING}`]);
    let version = 1;
    for (const d of p.diagnostics.slice(0, 2)) {
      const acts = await c.codeActions(uri, { start: d.range.start, end: d.range.start }, { diagnostics: [d] });
      version = await c.apply(acts.find((a) => a.title === `Ignore ${d.code} on this line`)!.edit!);
    }
    expect(c.text(uri).split('\n')[4]).toBe(`    s = [await g.agent_save_state(a), await g.save_state()]  # keep  # raiselint: ignore[${SAVE}, ${SAVING}]`);
    const mid = await c.diagnosticsAt(uri, version);
    expect(mid.diagnostics.map((d) => d.range.start.line)).toEqual([5]);
    const acts = await c.codeActions(uri, mid.diagnostics[0]!.range);
    version = await c.apply(acts.find((a) => a.title === `Ignore ${SAVING} on this line`)!.edit!);
    expect(c.text(uri).split('\n').slice(5, 7)).toEqual([`    # raiselint: ignore[${SAVING}]`, '    print(await g.save_state(), """']);
    parsesAsPython(c.text(uri));
    expect((await c.diagnosticsAt(uri, version)).diagnostics).toEqual([]);
  });

  it('debounces changes: quick edits give one check of the last text; save checks at once', async () => {
    const c = client(['--debounce', '400']);
    await c.initialize();
    const uri = uriOf('debounce.py');
    await c.open(uri, SOURCE);
    await c.diagnosticsAt(uri, 1);
    // Three edits sent back to back: the first two only restart the quiet period.
    await c.replace(uri, SOURCE.replace('agent_load_state', 'agent_metadata'));
    await c.replace(uri, SOURCE.replace('agent_save_state(agent)', 'get_agent(agent)'));
    const v4 = await c.replace(uri, `${HEADER}async def f(g: GrpcWorkerAgentRuntime) -> None:\n    await g.save_state()\n`);
    const p = await c.diagnosticsAt(uri, v4);
    expect(p.diagnostics.map((d) => d.code)).toEqual([SAVING]);
    expect(c.published.filter((x) => x.uri === uri).map((x) => x.version)).toEqual([1, 4]);

    // With a quiet period longer than any test, only the save makes the check happen.
    const slow = client(['--debounce', '60000']);
    await slow.initialize();
    await slow.open(uri, SOURCE);
    await slow.diagnosticsAt(uri, 1);
    await slow.replace(uri, `${HEADER}x = 1\n`);
    await slow.save(uri);
    expect((await slow.diagnosticsAt(uri, 2)).diagnostics).toEqual([]);
  });

  it('code actions and hover use the text as edited, even before the quiet period ends', async () => {
    const c = client(['--debounce', '60000']);
    await c.initialize();
    const uri = uriOf('pending.py');
    await c.open(uri, `${HEADER}x = 1\n`);
    expect((await c.diagnosticsAt(uri, 1)).diagnostics).toEqual([]);
    const v = await c.replace(uri, SOURCE);
    const acts = await c.codeActions(uri, { start: { line: LOAD_LINE, character: 10 }, end: { line: LOAD_LINE, character: 10 } });
    expect(acts.map((a) => a.title)).toEqual([
      `Replace with the recorded alternative (${LOAD}) [unsafe]`,
      `Wrap in try/except NotImplementedError (${LOAD}) [unsafe]`,
      `Ignore ${LOAD} on this line`,
    ]);
    // Checking for the request also published the new findings.
    expect((await c.diagnosticsAt(uri, v)).diagnostics.map((d) => d.code)).toEqual([SAVE, LOAD]);
  });

  it('clears diagnostics when a document closes; ignores non-Python documents', async () => {
    const c = client();
    await c.initialize();
    const uri = uriOf('close.py');
    await c.open(uri, SOURCE);
    await c.diagnosticsAt(uri, 1);
    await c.close(uri);
    await c.until(() => c.published.find((p) => p.uri === uri && p.version === undefined && p.diagnostics.length === 0));
    const txt = uriOf('notes.txt');
    await c.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: txt, languageId: 'plaintext', version: 1, text: SOURCE } });
    expect((await c.diagnosticsAt(txt, 1)).diagnostics).toEqual([]);
  });

  it('reloads records when the --records file changes on disk', async () => {
    const dir = tempDir();
    const records = join(dir, 'records.jsonl');
    const original = readFileSync(join(ROOT, 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8');
    writeFileSync(records, original);
    const c = client(['--no-bundled', '--records', records]);
    await c.initialize();
    const uri = uriOf('reload.py');
    await c.open(uri, SOURCE);
    expect((await c.diagnosticsAt(uri, 1)).diagnostics[0]!.message).toContain('Agent save_state is not yet implemented.');
    writeFileSync(records, original.replaceAll('Agent save_state is not yet implemented.', 'Agent save_state is gone for good.'));
    const p = await c.until(() => c.published.find((x) => x.uri === uri && x.diagnostics[0]?.message.includes('gone for good')));
    expect(p.diagnostics.map((d) => d.code)).toEqual([SAVE, LOAD]);
  });

  it('with --no-watch, reloads on workspace/didChangeWatchedFiles; a broken dataset keeps the previous rules', async () => {
    const dir = tempDir();
    const records = join(dir, 'records.jsonl');
    const original = readFileSync(join(ROOT, 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8');
    writeFileSync(records, original);
    const c = client(['--no-bundled', '--no-watch', '--records', records]);
    await c.initialize();
    const reg = await c.until(() => c.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles'));
    expect(reg.registerOptions).toEqual({
      watchers: [
        { globPattern: { baseUri: pathToFileURL(dir).href, pattern: 'records.jsonl' } },
        { globPattern: '**/raiselint.toml' },
        { globPattern: '**/pyproject.toml' },
        { globPattern: '**/*.{jsonl,ndjson}' },
        { globPattern: '**/{.python-version,poetry.lock,uv.lock,Pipfile.lock,requirements*.txt}' },
      ],
    });
    const uri = uriOf('watched.py');
    await c.open(uri, SOURCE);
    expect((await c.diagnosticsAt(uri, 1)).diagnostics).toHaveLength(2);

    // Only the load_state record remains.
    writeFileSync(
      records,
      original
        .split('\n')
        .filter((l) => l.includes('agent-load-state'))
        .join('\n'),
    );
    const changed = { changes: [{ uri: pathToFileURL(records).href, type: 2 }] };
    await c.connection.sendNotification('workspace/didChangeWatchedFiles', changed);
    const p = await c.until(() => c.published.find((x) => x.uri === uri && x.diagnostics.length === 1));
    expect(p.diagnostics.map((d) => d.code)).toEqual([LOAD]);

    writeFileSync(records, '{"record": {oops\n');
    await c.connection.sendNotification('workspace/didChangeWatchedFiles', changed);
    const msg = await c.until(() => c.messages.find((m) => m.type === 1));
    expect(msg.message).toMatch(
      new RegExp(`^raiselint: records not reloaded, keeping the previous rules: ${records.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1: invalid JSON`),
    );
    const v = await c.replace(uri, SOURCE + '\n');
    await c.save(uri);
    expect((await c.diagnosticsAt(uri, v)).diagnostics.map((d) => d.code)).toEqual([LOAD]);

    // A change to an unrelated file reloads nothing.
    const before = c.logs.filter((l) => l.includes('records reloaded')).length;
    await c.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(dir, 'other.jsonl')).href, type: 2 }] });
    await c.hover(uri, 0, 0); // a round trip: the notification before it has been handled
    expect(c.logs.filter((l) => l.includes('records reloaded')).length).toBe(before);
  });

  it('--min-confidence certain leaves possible findings out', async () => {
    const c = client(['--min-confidence', 'certain']);
    await c.initialize();
    const uri = uriOf('certain.py');
    await c.open(uri, `${HEADER}async def f(rt: AgentRuntime, g: GrpcWorkerAgentRuntime) -> None:\n    await rt.save_state()\n    await g.save_state()\n`);
    expect((await c.diagnosticsAt(uri, 1)).diagnostics.map((d) => d.range.start.line)).toEqual([5]);
  });

  it('bad arguments end with a one-line error and exit 2 before any protocol traffic', () => {
    const run = (args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'raiselint.js'), 'lsp', ...args], { input: '', encoding: 'utf8' });
    const missing = run(['--records', 'no/such/records.jsonl']);
    expect(missing.status).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^raiselint: error: .*no\/such\/records\.jsonl: records path not found\n$/);
    const bad = run(['--debounce', 'soon']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('--debounce');
  });
});

// A safe fix (the file defines what the record's alternative needs), as in test/fix-cli.test.ts.
const META = 'autogen/agent-metadata-is-not-yet-implemented';
const SAFE = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime

from .messages import AGENT_METADATA


async def main(agent):
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    metadata = await runtime.agent_metadata(agent)
    return metadata
`;

describe('raiselint lsp: configuration and suppressions as `raiselint check` reads them', () => {
  /** A workspace folder with files (written), opened in a client started in it. */
  async function workspace(files: Record<string, string>, args: string[] = []) {
    const dir = tempDir();
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const c = client(args);
    await c.initialize(dir);
    return { dir, c, uri: (name: string) => pathToFileURL(join(dir, name)).href };
  }

  it('select / ignore / severity / per-file-ignores / min-confidence from the nearest config', async () => {
    const { c, uri } = await workspace({
      'raiselint.toml': `ignore = ["${LOAD}"]\nmin-confidence = "certain"\n[severity]\n"${SAVE}" = "warning"\n[per-file-ignores]\n"tests/*" = ["autogen"]\n`,
      'sub/raiselint.toml': 'root = true\n',
    });
    const possible = `${HEADER}async def f(rt: AgentRuntime) -> None:\n    await rt.save_state()\n`;
    await c.open(uri('app.py'), SOURCE + possible.slice(HEADER.length));
    const p = await c.diagnosticsAt(uri('app.py'), 1);
    expect(p.diagnostics.map((d) => [d.code, d.severity])).toEqual([[SAVE, DiagnosticSeverity.Warning]]);
    await c.open(uri('tests/test_app.py'), SOURCE);
    expect((await c.diagnosticsAt(uri('tests/test_app.py'), 1)).diagnostics).toEqual([]);
    // `root = true`: nothing inherited, so both findings, as errors, and the possible one too.
    await c.open(uri('sub/app.py'), SOURCE + possible.slice(HEADER.length));
    expect((await c.diagnosticsAt(uri('sub/app.py'), 1)).diagnostics.map((d) => [d.code, d.severity])).toEqual([
      [SAVE, DiagnosticSeverity.Error],
      [LOAD, DiagnosticSeverity.Error],
      [SAVING, DiagnosticSeverity.Warning],
    ]);
    // --min-confidence overrides the config; --no-config ignores it.
    const flag = client(['--min-confidence', 'possible']);
    await flag.initialize(join(uri('app.py'), '..'));
    await flag.open(uri('app.py'), SOURCE + possible.slice(HEADER.length));
    expect((await flag.diagnosticsAt(uri('app.py'), 1)).diagnostics.map((d) => d.code)).toEqual([SAVE, SAVING]);
    const none = client(['--no-config']);
    await none.initialize();
    await none.open(uri('tests/test_app.py'), SOURCE);
    expect((await none.diagnosticsAt(uri('tests/test_app.py'), 1)).diagnostics.map((d) => d.code)).toEqual([SAVE, LOAD]);
  });

  it('files the config excludes get no diagnostics', async () => {
    const { c, uri } = await workspace({ 'pyproject.toml': '[project]\nname = "x"\n\n[tool.raiselint]\nextend-exclude = ["generated/"]\n' });
    await c.open(uri('generated/stub.py'), SOURCE);
    expect((await c.diagnosticsAt(uri('generated/stub.py'), 1)).diagnostics).toEqual([]);
    await c.open(uri('app.py'), SOURCE);
    expect((await c.diagnosticsAt(uri('app.py'), 1)).diagnostics.map((d) => d.code)).toEqual([SAVE, LOAD]);
  });

  it('suppression comments as the CLI reads them: file-wide and above the statement; blanket and unused ones are reported, and an unused one has a quick fix', async () => {
    const { c, uri } = await workspace({});
    const text = SOURCE.replace('    state = await', `    # raiselint: ignore[${SAVE}] -- tracked in #12\n    state = await`).replace(
      '    await runtime.agent_load_state(agent, state)\n',
      `    await runtime.agent_load_state(agent, state)  # raiselint: ignore[${LOAD}, ${SAVING}]\n    x = 1  # raiselint: ignore\n`,
    );
    await c.open(uri('sup.py'), text);
    const p = await c.diagnosticsAt(uri('sup.py'), 1);
    expect(p.diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([
      ['raiselint/unused-ignore', LOAD_LINE + 1],
      ['raiselint/blanket-ignore', LOAD_LINE + 2],
    ]);
    const unused = p.diagnostics[0]!;
    const acts = await c.codeActions(uri('sup.py'), unused.range, { diagnostics: [unused] });
    const remove = acts.find((a) => a.title === 'Remove the unused suppression (raiselint/unused-ignore) [safe]')!;
    expect(remove.isPreferred).toBe(true);
    // No "ignore" action for the built-in rules.
    expect(acts.map((a) => a.title)).toEqual(['Remove the unused suppression (raiselint/unused-ignore) [safe]', 'Fix all raiselint findings in this file (1)']);
    const v = await c.apply(remove.edit!);
    expect(c.text(uri('sup.py')).split('\n')[LOAD_LINE + 1]).toBe(`    await runtime.agent_load_state(agent, state)  # raiselint: ignore[${LOAD}]`);
    expect((await c.diagnosticsAt(uri('sup.py'), v)).diagnostics.map((d) => d.code)).toEqual(['raiselint/blanket-ignore']);
    await c.open(uri('file.py'), `# raiselint: ignore-file[${SAVE}, ${LOAD}]\n${SOURCE}`);
    expect((await c.diagnosticsAt(uri('file.py'), 1)).diagnostics).toEqual([]);
  });

  it('reloads the configuration when a config file changes on disk, and on workspace/didChangeWatchedFiles', async () => {
    const { dir, c, uri } = await workspace({ 'raiselint.toml': '' });
    await c.open(uri('app.py'), SOURCE);
    expect((await c.diagnosticsAt(uri('app.py'), 1)).diagnostics.map((d) => d.code)).toEqual([SAVE, LOAD]);
    writeFileSync(join(dir, 'raiselint.toml'), `ignore = ["${SAVE}"]\n`);
    await c.until(() => c.published.find((x) => x.uri === uri('app.py') && x.diagnostics.length === 1));
    expect(c.published.at(-1)!.diagnostics.map((d) => d.code)).toEqual([LOAD]);
    // A new config file in a folder between the document and the old one.
    mkdirSync(join(dir, 'pkg'));
    await c.open(uri('pkg/mod.py'), SOURCE);
    await c.diagnosticsAt(uri('pkg/mod.py'), 1);
    // The nearest `ignore` wins over the parent's.
    writeFileSync(join(dir, 'pkg', 'pyproject.toml'), `[tool.raiselint]\nignore = ["${LOAD}"]\n`);
    await c.until(() => c.published.find((x) => x.uri === uri('pkg/mod.py') && x.diagnostics.length === 1 && x.diagnostics[0]!.code === SAVE));

    // --no-watch: the client's notification alone.
    const quiet = client(['--no-watch']);
    await quiet.initialize(dir);
    await quiet.open(uri('app.py'), SOURCE);
    expect((await quiet.diagnosticsAt(uri('app.py'), 1)).diagnostics.map((d) => d.code)).toEqual([LOAD]);
    writeFileSync(join(dir, 'raiselint.toml'), '');
    await quiet.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: pathToFileURL(join(dir, 'raiselint.toml')).href, type: 2 }],
    });
    await quiet.until(() => quiet.published.find((x) => x.uri === uri('app.py') && x.diagnostics.length === 2));
  });

  it('datasets a config names apply under it; a broken config is shown once and the file is checked without it', async () => {
    const original = readFileSync(join(ROOT, 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8');
    const { dir, c, uri } = await workspace(
      {
        'team/records.jsonl': original
          .split('\n')
          .filter((l) => l.includes('agent-load-state'))
          .join('\n'),
        'team/raiselint.toml': 'records = ["records.jsonl"]\n',
        'other/app.py': SOURCE,
      },
      ['--no-bundled', '--records', join(ROOT, 'fixtures', 'shapes', 'records.jsonl')],
    );
    await c.open(uri('team/app.py'), SOURCE);
    await c.until(() => c.published.find((x) => x.uri === uri('team/app.py') && x.diagnostics.length === 1));
    expect(
      c.published
        .filter((x) => x.uri === uri('team/app.py'))
        .at(-1)!
        .diagnostics.map((d) => d.code),
    ).toEqual([LOAD]);
    await c.open(uri('other/app.py'), SOURCE);
    expect((await c.diagnosticsAt(uri('other/app.py'), 1)).diagnostics).toEqual([]);

    writeFileSync(join(dir, 'team', 'raiselint.toml'), 'records = ["records.jsonl"]\nselect = 3\n');
    const msg = await c.until(() => c.messages.find((m) => m.message.includes('config error')));
    expect(msg.type).toBe(1);
    expect(msg.message).toBe("raiselint: config error, checking without it: team/raiselint.toml:2: key 'select': must be an array of strings, not number 3");
    // A rule pattern that matches no rule: said once (as `raiselint check` would stop with it); the rest of the config applies.
    const { c: c2, uri: uri2 } = await workspace({ 'raiselint.toml': `ignore = ["${LOAD}", "autogen/no-such-rule"]\n` });
    await c2.open(uri2('app.py'), SOURCE);
    expect((await c2.diagnosticsAt(uri2('app.py'), 1)).diagnostics.map((d) => d.code)).toEqual([SAVE]);
    const problem = await c2.until(() => c2.messages.find((m) => m.message.includes('matches no rule')));
    expect(problem.message).toBe("raiselint: config error: raiselint.toml:1: key 'ignore': 'autogen/no-such-rule' matches no rule (see `raiselint rules`)");
    await c2.save(uri2('app.py'));
    await c2.diagnosticsAt(uri2('app.py'), 1);
    expect(c2.messages.filter((m) => m.message.includes('matches no rule'))).toHaveLength(1);

    const v = await c.replace(uri('team/app.py'), SOURCE + '\n');
    await c.save(uri('team/app.py'));
    await c.diagnosticsAt(uri('team/app.py'), v);
    expect(c.messages.filter((m) => m.message.includes('config error'))).toHaveLength(1);
  });

  it('fix all applies every safe fix, verified as `--fix` does, including unused suppressions', async () => {
    const { c, uri } = await workspace({});
    const text = SAFE.replace('    return metadata\n', `    return metadata  # raiselint: ignore[${SAVE}]\n`);
    await c.open(uri('fixme.py'), text);
    const p = await c.diagnosticsAt(uri('fixme.py'), 1);
    expect(p.diagnostics.map((d) => d.code)).toEqual([META, 'raiselint/unused-ignore']);
    const acts = await c.codeActions(
      uri('fixme.py'),
      { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      { only: [CodeActionKind.SourceFixAll] },
    );
    // The record's fix is unsafe (the record's code): fix all, like `--fix`, removes the unused suppression only.
    expect(acts.map((a) => a.title)).toEqual(['Fix all raiselint findings in this file (1)']);
    const v = await c.apply(acts[0]!.edit!);
    const fixed = c.text(uri('fixme.py'));
    parsesAsPython(fixed);
    expect(fixed).toBe(SAFE);
    expect((await c.diagnosticsAt(uri('fixme.py'), v)).diagnostics.map((d) => d.code)).toEqual([META]);
    expect(
      await c.codeActions(uri('fixme.py'), { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, { only: [CodeActionKind.SourceFixAll] }),
    ).toEqual([]);
  });
});
