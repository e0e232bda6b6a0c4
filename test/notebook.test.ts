/** Jupyter notebooks (nbformat 4): discovered, checked as one module of their code cells, reported and fixed per cell. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { cellOf, maskCell, moduleLineOf, readNotebook, rewriteNotebook } from '../src/parse/notebook.js';
import { GRPC_BAD, ROOT, cli, tempTree } from './helpers.js';
import { Client } from './lsp-client.js';

const FIXTURE = readFileSync(join(ROOT, 'test', 'data', 'notebooks', 'grpc_state.ipynb'), 'utf8');
const R_KERNEL = readFileSync(join(ROOT, 'test', 'data', 'notebooks', 'r_kernel.ipynb'), 'utf8');
const SAVE = 'autogen/agent-save-state-is-not-yet-implemented';
const META = 'autogen/agent-metadata-is-not-yet-implemented';

/** A notebook as nbformat writes it (indent 1, sorted keys, sources as lists of lines). */
function notebook(cells: ({ code: string } | { md: string })[]): string {
  const lines = (s: string) => s.split(/(?<=\n)/).filter(Boolean);
  const nb = {
    cells: cells.map((c) =>
      'code' in c
        ? { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: lines(c.code) }
        : { cell_type: 'markdown', metadata: {}, source: lines(c.md) },
    ),
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  return JSON.stringify(nb, null, 1) + '\n';
}

describe('notebook module (src/parse/notebook.ts)', () => {
  it('joins the code cells into one module, each after a marker naming its cell (every cell counted)', () => {
    const nb = readNotebook(FIXTURE);
    expect(nb.cells.map((c) => c.index)).toEqual([2, 3, 5, 6, 7]);
    const lines = nb.module.split('\n');
    expect(lines[0]).toBe('# %% notebook cell 2');
    expect(lines).toContain('# %% notebook cell 5');
    const save = lines.indexOf('state = await runtime.agent_save_state(agent)') + 1;
    expect(cellOf(nb.module, save)).toEqual({ cell: 5, line: 2 });
    expect(moduleLineOf(nb.module, 5, 2)).toBe(save);
    expect(cellOf(nb.module, 1)).toBeUndefined(); // a marker line
  });

  it('masks magics, shell escapes and help lines, keeping the line count; blanks non-Python cell magics', () => {
    expect(maskCell('!pip install x\n%load_ext autoreload\nfiles = !ls\nx, y = %sx ls\nobj?\n    %time f()\nz = 1')).toEqual({
      text: 'pass\npass\nfiles = None\nx, y = None\npass\n    pass\nz = 1',
      masked: [0, 1, 2, 3, 4, 5],
    });
    expect(maskCell('%%bash\necho hi\nls')).toEqual({ text: '\n\n', masked: [0, 1, 2] });
    expect(maskCell('%%time\nx = 1').text).toBe('pass\nx = 1');
    expect(maskCell('x = 1 % 2\nprint("!")').masked).toEqual([]);
    expect(maskCell('pip install -U "autogen-agentchat"\npip = 3').text).toBe('pass\npip = 3');
  });

  it('a notebook whose kernel is not Python has no code to check; bad JSON or nbformat 3 is an error', () => {
    expect(readNotebook(R_KERNEL).module).toBe('');
    expect(() => readNotebook('{"cells": [')).toThrow(/invalid JSON/);
    expect(() => readNotebook('{"nbformat": 3, "worksheets": []}')).toThrow(/nbformat 4/);
  });

  it('rewrites only the changed cells, every other byte as it was', () => {
    const nb = readNotebook(FIXTURE);
    const fixed = nb.module.replace('state = await runtime.agent_save_state(agent)', 'state = await save(agent)\nstate = state or {}');
    const out = rewriteNotebook(FIXTURE, nb, fixed);
    expect(out).toBe(FIXTURE.replace('"state = await runtime.agent_save_state(agent)\\n",', '"state = await save(agent)\\n",\n    "state = state or {}\\n",'));
    expect(rewriteNotebook(FIXTURE, nb, nb.module)).toBe(FIXTURE);
    // An import added above the first cell's marker goes into the first code cell.
    // An import added above the first cell's marker goes into the first code cell, whose magics stay.
    const withImport = rewriteNotebook(FIXTURE, nb, `import x\n${nb.module}`);
    expect(JSON.parse(withImport).cells[1].source).toEqual(['import x\n', '!pip install "autogen-ext[grpc]"\n', '%load_ext autoreload']);
    expect(() => rewriteNotebook(FIXTURE, nb, nb.module.replace('pass\npass', 'pass\nx = 1'))).toThrow(/changes an IPython magic/);
  });
});

describe('raiselint check on notebooks', () => {
  const tree = () => tempTree({ 'nb/grpc_state.ipynb': FIXTURE, 'nb/r_kernel.ipynb': R_KERNEL });

  it("finds notebooks in folders; text reports `cell N:line:column` with the cell's code; names flow across cells", () => {
    const r = cli(['check', '.'], tree());
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`nb/grpc_state.ipynb:cell 5:2:15: ${SAVE} runtime.agent_save_state() raises NotImplementedError`);
    expect(r.stdout).toContain('2 | state = await runtime.agent_save_state(agent)');
    // `runtime` is bound in cell 3; the suppression in cell 6 holds; magics and the %%bash cell are masked.
    expect(r.stdout).not.toContain(META);
    expect(r.stdout).toContain('Found 1 finding (1 certain, 0 possible).');
    expect(r.stderr).toBe('');
    // The same from the cache.
    expect(cli(['check', '.'], r.stdout ? tree() : tree()).stdout).toBe(r.stdout);
  });

  it('the suppression in a cell is what hides the metadata finding', () => {
    const dir = tempTree({ 'a.ipynb': FIXTURE.replace('  # raiselint: ignore[autogen/agent-metadata-is-not-yet-implemented]', '') });
    const doc = JSON.parse(cli(['check', '.', '--format', 'json'], dir).stdout);
    expect(doc.diagnostics.map((d: { ruleId: string; cell: number; line: number }) => [d.ruleId, d.cell, d.line])).toEqual([
      [SAVE, 5, 2],
      [META, 6, 2],
    ]);
  });

  it('JSON and SARIF give the cell and cell-relative lines, with the code of that line', () => {
    const dir = tree();
    const doc = JSON.parse(cli(['check', '.', '--format', 'json'], dir).stdout);
    expect(doc.diagnostics[0]).toMatchObject({ file: 'nb/grpc_state.ipynb', cell: 5, line: 2, column: 15, endLine: 2, endColumn: 46 });
    expect(doc.diagnostics[0].fix.edits[0]).toMatchObject({ cell: 5, line: 2, column: 1, endLine: 2 });
    const sarif = JSON.parse(cli(['check', '.', '--format', 'sarif'], dir).stdout);
    const res = sarif.runs[0].results[0];
    expect(res.locations[0].physicalLocation.region).toMatchObject({ startLine: 2, startColumn: 15, snippet: { text: 'runtime.agent_save_state(agent)' } });
    expect(res.locations[0].physicalLocation.contextRegion.snippet.text).toBe('state = await runtime.agent_save_state(agent)');
    expect(res.properties.cell).toBe(5);
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'test', 'schemas', 'sarif-2.1.0.json'), 'utf8')));
    expect(validate(sarif) ? [] : validate.errors).toEqual([]);
    expect(cli(['check', '.', '--format', 'github'], dir).stdout).toContain(
      'line=2,col=15,endLine=2,endColumn=46,title=raiselint (autogen/agent-save-state-is-not-yet-implemented)::nb/grpc_state.ipynb:cell 5:2:15:',
    );
  });

  it('--fix rewrites only the changed cell and keeps every other byte of the JSON', () => {
    const dir = tree();
    const r = cli(['check', '.', '--fix', '--unsafe-fixes'], dir);
    expect(r.stdout).toContain('Found 1 finding (1 fixed, 0 remaining).');
    expect(r.code).toBe(0);
    const after = readFileSync(join(dir, 'nb', 'grpc_state.ipynb'), 'utf8');
    expect(after).toBe(
      FIXTURE.replace(
        '"state = await runtime.agent_save_state(agent)\\n",',
        '"state = await runtime.send_message(SaveStateRequest(), agent)  # agent handles it\\n",',
      ),
    );
    expect(cli(['check', '.', '--fix', '--unsafe-fixes'], dir).stdout).toContain('All checks passed!');
    const diff = cli(['check', '.', '--diff', '--unsafe-fixes'], tree());
    expect(diff.stdout).toContain('+    "state = await runtime.send_message(SaveStateRequest(), agent)  # agent handles it\\n",');
  });

  it('a fix in a cell with IPython lines keeps them (they are masked only for checking)', () => {
    const text = notebook([
      { code: 'from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\nfrom messages import SaveStateRequest\n' },
      { code: '!ls\nruntime = GrpcWorkerAgentRuntime(host_address="h")\nstate = await runtime.agent_save_state(a)\n%time x = 1\n' },
    ]);
    const dir = tempTree({ 'm.ipynb': text });
    const r = cli(['check', '.', '--fix', '--unsafe-fixes'], dir);
    expect(r.stdout).toContain('Found 1 finding (1 fixed, 0 remaining).');
    const cells = JSON.parse(readFileSync(join(dir, 'm.ipynb'), 'utf8')).cells;
    expect(cells[1].source).toEqual([
      '!ls\n',
      'runtime = GrpcWorkerAgentRuntime(host_address="h")\n',
      'state = await runtime.send_message(SaveStateRequest(), a)  # agent handles it\n',
      '%time x = 1\n',
    ]);
    expect(readFileSync(join(dir, 'm.ipynb'), 'utf8')).toBe(
      text.replace('"state = await runtime.agent_save_state(a)\\n"', '"state = await runtime.send_message(SaveStateRequest(), a)  # agent handles it\\n"'),
    );
  });

  it('a notebook on stdin (--stdin-filename x.ipynb) is checked by cell; --fix prints the fixed JSON', () => {
    const dir = tempTree({});
    const r = cli(['check', '-', '--stdin-filename', 'nb.ipynb', '--output-format', 'concise'], dir, FIXTURE);
    expect(r.stdout).toContain(`nb.ipynb:cell 5:2:15: ${SAVE}`);
    const f = cli(['check', '-', '--stdin-filename', 'nb.ipynb', '--fix', '--unsafe-fixes'], dir, FIXTURE);
    expect(f.stdout).toBe(
      FIXTURE.replace(
        '"state = await runtime.agent_save_state(agent)\\n",',
        '"state = await runtime.send_message(SaveStateRequest(), agent)  # agent handles it\\n",',
      ),
    );
  });

  it('a syntax error is said by cell and line', () => {
    const dir = tempTree({
      's.ipynb': notebook([
        { md: '# x' },
        { code: 'from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\n' },
        { code: 'x = 1\ndef f(:\n    return GrpcWorkerAgentRuntime.agent_save_state\n' },
      ]),
    });
    const r = cli(['check', '.'], dir);
    expect(r.stdout).toMatch(/^s\.ipynb: warning: cell 3, line 2, column \d+: syntax error: /m);
    // The same notebook on standard input: the same words.
    const stdin = cli(['check', '-', '--stdin-filename', 's.ipynb'], dir, readFileSync(join(dir, 's.ipynb'), 'utf8'));
    expect(stdin.stdout).toMatch(/^s\.ipynb: warning: cell 3, line 2, column \d+: syntax error: /m);
  });

  it("exclude / extend-exclude apply to notebooks; a broken notebook is a raiselint/io-error finding (exit 1, as Ruff's E902)", () => {
    const dir = tempTree({ 'a.ipynb': FIXTURE, 'raiselint.toml': 'extend-exclude = ["*.ipynb"]\n', 'b.py': GRPC_BAD });
    expect(JSON.parse(cli(['check', '.', '--format', 'json'], dir).stdout).diagnostics.map((d: { file: string }) => d.file)).toEqual(['b.py']);
    expect(cli(['check', '.', '--show-files', '--isolated', '--extend-exclude', 'b.py'], dir).stdout).toBe('a.ipynb\n');
    writeFileSync(join(dir, 'bad.ipynb'), '{"cells": [}');
    const bad = cli(['check', 'bad.ipynb', '--isolated'], dir);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('bad.ipynb:1:1: raiselint/io-error cannot decode file: not a notebook: invalid JSON at offset 11');
  });
});

describe('raiselint lsp on notebook cells', () => {
  const clients: Client[] = [];
  afterEach(() => {
    for (const c of clients.splice(0)) c.kill();
  });

  it("checks a vscode-notebook-cell: document as Python (magics masked) with the notebook's config", async () => {
    const dir = tempTree({ 'nb.ipynb': FIXTURE, 'raiselint.toml': `ignore = ["${META}"]\n` });
    const c = new Client([]);
    clients.push(c);
    await c.initialize(dir);
    const nbUri = pathToFileURL(join(dir, 'nb.ipynb')).href.replace(/^file:/, 'vscode-notebook-cell:');
    const cell = `${nbUri}#W2sZmlsZQ%3D%3D`;
    await c.open(
      cell,
      '!pip install x\nfrom autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\nruntime = GrpcWorkerAgentRuntime(host_address="h")\nawait runtime.agent_save_state(a)\nawait runtime.agent_metadata(a)\n',
    );
    const p = await c.diagnosticsAt(cell, 1);
    expect(p.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character])).toEqual([[SAVE, 3, 6]]);
  });

  it('offers every fix strategy in a cell with IPython lines, each planned on the masked cell', async () => {
    const dir = tempTree({ 'nb.ipynb': FIXTURE });
    const c = new Client([]);
    clients.push(c);
    await c.initialize(dir);
    const cell = `${pathToFileURL(join(dir, 'nb.ipynb')).href.replace(/^file:/, 'vscode-notebook-cell:')}#W3sZmlsZQ%3D%3D`;
    const text =
      '%load_ext autoreload\nfrom autogen_core import AgentId, AgentRuntime\nfrom autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\nfrom messages import SaveStateRequest\n\nasync def restore(runtime: AgentRuntime, agent: AgentId, state: dict) -> None:\n    files = !ls\n    await runtime.agent_save_state(agent)\n';
    await c.open(cell, text);
    const [d] = (await c.diagnosticsAt(cell, 1)).diagnostics;
    expect([d!.code, d!.range.start.line]).toEqual([SAVE, 7]);
    const acts = await c.codeActions(cell, d!.range, { diagnostics: [d!] });
    expect(acts.map((a) => a.title)).toEqual([
      `Guard with isinstance(runtime, GrpcWorkerAgentRuntime) (${SAVE}) [unsafe]`,
      `Wrap in try/except NotImplementedError (${SAVE}) [unsafe]`,
      `Ignore ${SAVE} on this line`,
    ]);
    await c.apply(acts[1]!.edit!);
    // The magic line is kept as written; only the statement is wrapped.
    expect(c.text(cell)).toMatch(/^%load_ext autoreload\n[\s\S]*    try:\n        await runtime\.agent_save_state\(agent\)\n    except NotImplementedError:\n/);
  });
});
