/** The language server's code actions and ignore comments, on real findings (fix data attached where a test needs one). */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, TextEdit } from 'vscode-languageserver';
import { checkSource } from '../src/engine/check.js';
import { loadRules } from '../src/engine/rules.js';
import type { Diagnostic } from '../src/diagnostics/types.js';
import type { RuleSet } from '../src/rules/ruleset.js';
import { codeActions, type ActionRequest } from '../src/lsp/actions.js';
import { rangeOf } from '../src/lsp/convert.js';
import { fixAllEdits, fixesOf } from '../src/lsp/fixes.js';
import { ignoreEdit, withoutIgnored } from '../src/lsp/ignore.js';

const SAVE = 'autogen/agent-save-state-is-not-yet-implemented';
const SAVING = 'autogen/saving-state-is-not-yet-implemented';
const HEADER = 'from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\n\n';
const URI = 'file:///w/a.py';

let rules: RuleSet;
beforeAll(async () => {
  rules = await loadRules();
});

function find(text: string): Diagnostic[] {
  return checkSource(text, 'a.py', rules).diagnostics;
}

function request(text: string, diagnostics: Diagnostic[], over: Partial<ActionRequest> = {}): ActionRequest {
  const first = diagnostics[0] ? rangeOf(diagnostics[0]) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return { uri: URI, version: 3, text, diagnostics, range: first, context: { diagnostics: [] }, documentChanges: true, disabledSupport: true, ...over };
}

function edited(text: string, a: CodeAction): string {
  const dc = a.edit!.documentChanges![0] as { edits: TextEdit[] };
  return TextDocument.applyEdits(TextDocument.create(URI, 'python', 3, text), dc.edits);
}

function parses(text: string): void {
  execFileSync('python3', ['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], { input: text });
}

/** A try/except wrap of the finding's line, shaped as findings carry fixes (1-based, UTF-16). */
function wrapFix(text: string, d: Diagnostic, applicability = 'safe', strategy = 'try-except') {
  const line = text.split('\n')[d.line - 1]!;
  const indent = /^\s*/.exec(line)![0];
  return {
    applicability,
    strategy,
    reason: applicability === 'safe' ? undefined : 'the alternative calls SaveStateRequest, which this file does not define',
    edits: [
      { line: d.line, column: 1, endLine: d.line, endColumn: 1, text: `${indent}try:\n    ` },
      { line: d.line, column: line.length + 1, endLine: d.line, endColumn: line.length + 1, text: `\n${indent}except NotImplementedError:\n${indent}    pass` },
    ],
  };
}

const TWO = `${HEADER}async def f(g: GrpcWorkerAgentRuntime, a) -> None:\n    await g.agent_save_state(a)\n    await g.save_state()\n`;

describe('lsp code actions: fixes', () => {
  it('a finding without a fix offers only the ignore action, and no fix-all', () => {
    const diags = find(TWO).map((d) => ({ ...d, fix: undefined }));
    const acts = codeActions(request(TWO, diags));
    expect(acts.map((a) => [a.title, a.kind])).toEqual([[`Ignore ${SAVE} on this line`, 'quickfix']]);
    expect(codeActions(request(TWO, diags, { context: { diagnostics: [], only: ['source.fixAll'] } }))).toEqual([]);
  });

  it('a safe fix is the preferred quick fix and its edits apply at the right places', () => {
    const diags = find(TWO);
    const d = Object.assign(diags[0]!, { fix: wrapFix(TWO, diags[0]!) });
    const acts = codeActions(request(TWO, [d, diags[1]!]));
    expect(acts.map((a) => a.title)).toEqual([`Wrap in try/except (${SAVE})`, `Ignore ${SAVE} on this line`, 'Fix all raiselint findings in this file (1)']);
    expect(acts[0]!.isPreferred).toBe(true);
    expect(acts[0]!.diagnostics!.map((x) => x.code)).toEqual([SAVE]);
    expect((acts[0]!.edit!.documentChanges![0] as { textDocument: unknown }).textDocument).toEqual({ uri: URI, version: 3 });
    const out = edited(TWO, acts[0]!);
    expect(out).toBe(`${HEADER}async def f(g: GrpcWorkerAgentRuntime, a) -> None:\n    try:\n        await g.agent_save_state(a)\n    except NotImplementedError:\n        pass\n    await g.save_state()\n`);
    parses(out);
    expect(find(out).map((x) => x.ruleId)).toEqual([SAVING]);
  });

  it('each fix strategy a finding carries is its own quick fix; unsafe ones say so and are never preferred', () => {
    const [d] = find(TWO);
    const guard = { ...wrapFix(TWO, d!, 'unsafe', 'type-guard'), edits: [{ line: d!.line, column: 5, endLine: d!.line, endColumn: 5, text: 'pass  # ' }] };
    Object.assign(d!, { fix: wrapFix(TWO, d!), fixes: [wrapFix(TWO, d!), guard, { applicability: 'display-only', strategy: 'replace', reason: 'needs a SaveStateRequest handler', edits: [] }] });
    const acts = codeActions(request(TWO, [d!]));
    expect(acts.map((a) => [a.title, a.isPreferred ?? null, a.disabled?.reason ?? null])).toEqual([
      [`Wrap in try/except (${SAVE})`, true, null],
      [`Guard with isinstance (${SAVE}) [unsafe]`, false, null],
      [`Replace with the recorded alternative (${SAVE})`, null, 'needs a SaveStateRequest handler'],
      [`Ignore ${SAVE} on this line`, null, null],
      ['Fix all raiselint findings in this file (1)', null, null],
    ]);
    // A client that cannot show disabled actions does not get the display-only one.
    expect(codeActions(request(TWO, [d!], { disabledSupport: false })).map((a) => a.title)).not.toContain(`Replace with the recorded alternative (${SAVE})`);
    expect(fixAllEdits([d!]).edits).toEqual(fixesOf(d!)[0]!.edits);
  });

  it('a malformed fix is left out, never half-applied', () => {
    const [d] = find(TWO);
    Object.assign(d!, { fix: { applicability: 'safe', edits: [{ line: d!.line, column: 0, endLine: d!.line, endColumn: 1, text: 'x' }] } });
    expect(fixesOf(d!)).toEqual([]);
    Object.assign(d!, { fix: { applicability: 'safe', edits: 'nope' } });
    expect(fixesOf(d!)).toEqual([]);
    Object.assign(d!, { fix: { edits: [{ line: d!.line, column: 1, endLine: d!.line, endColumn: 1, text: '' }] } });
    expect(fixesOf(d!)[0]!.applicability).toBe('unsafe');
    // No edits: it can only say why (the `none` strategy), as a disabled action.
    Object.assign(d!, { fix: { applicability: 'safe', strategy: 'none', reason: 'no automatic fix: the call is in a lambda', edits: [] } });
    const acts = codeActions(request(TWO, [d!]));
    expect(acts.map((a) => [a.title, a.disabled?.reason ?? null, a.edit === undefined])).toEqual([
      [`No automatic fix (${SAVE})`, 'no automatic fix: the call is in a lambda', true],
      [`Ignore ${SAVE} on this line`, null, false],
    ]);
  });

  it('fix all applies every safe fix once, skips unsafe and overlapping ones, and the result is clean Python', () => {
    const diags = find(TWO);
    Object.assign(diags[0]!, { fix: wrapFix(TWO, diags[0]!) });
    Object.assign(diags[1]!, { fix: wrapFix(TWO, diags[1]!) });
    const acts = codeActions(request(TWO, diags, { context: { diagnostics: [], only: ['source.fixAll'] } }));
    expect(acts.map((a) => [a.title, a.kind])).toEqual([['Fix all raiselint findings in this file (2)', 'source.fixAll.raiselint']]);
    const out = edited(TWO, acts[0]!);
    parses(out);
    expect(find(out)).toEqual([]);

    // Unsafe: not in fix all.
    Object.assign(diags[1]!, { fix: wrapFix(TWO, diags[1]!, 'unsafe') });
    expect(fixAllEdits(diags).fixed).toBe(1);
    // Overlapping: the second waits for a re-check.
    const overlapping = { applicability: 'safe', edits: [{ line: diags[0]!.line, column: 5, endLine: diags[1]!.line, endColumn: 6, text: '' }] };
    Object.assign(diags[1]!, { fix: overlapping });
    expect(fixAllEdits(diags)).toEqual({ edits: fixesOf(diags[0]!)[0]!.edits, fixed: 1 });
    // One fix shared by two findings (one wrapped statement) is applied once, and counts for both.
    Object.assign(diags[1]!, { fix: wrapFix(TWO, diags[0]!) });
    expect(fixAllEdits(diags)).toEqual({ edits: fixesOf(diags[0]!)[0]!.edits, fixed: 2 });
  });

  it('kinds: `only: quickfix` leaves fix-all out; clients without documentChanges get `changes`', () => {
    const diags = find(TWO);
    Object.assign(diags[0]!, { fix: wrapFix(TWO, diags[0]!) });
    expect(codeActions(request(TWO, diags, { context: { diagnostics: [], only: ['quickfix'] } })).map((a) => a.kind)).toEqual(['quickfix', 'quickfix']);
    expect(codeActions(request(TWO, diags)).map((a) => a.kind)).toEqual(['quickfix', 'quickfix', 'source.fixAll.raiselint']);
    const plain = codeActions(request(TWO, diags, { documentChanges: false }));
    expect(Object.keys(plain[0]!.edit!.changes!)).toEqual([URI]);
  });
});

describe('lsp ignore comments', () => {
  it('a line ending in a backslash continuation gets the comment above its statement', () => {
    const text = `${HEADER}async def f(g: GrpcWorkerAgentRuntime):\n    x = 1 + \\\n        len(await g.save_state()) + \\\n        2\n`;
    const [d] = find(text);
    const e = ignoreEdit(text, d!)!;
    const out = TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), [e]);
    expect(out).toBe(`${HEADER}async def f(g: GrpcWorkerAgentRuntime):\n    # raiselint: ignore[${SAVING}]\n    x = 1 + \\\n        len(await g.save_state()) + \\\n        2\n`);
    parses(out);
    expect(withoutIgnored(out, find(out))).toEqual([]);
  });

  it('keeps CRLF line endings and trailing whitespace out of the way', () => {
    const text = `${HEADER}async def f(g: GrpcWorkerAgentRuntime):\n    await g.save_state()   \n`.replace(/\n/g, '\r\n');
    const [d] = find(text);
    const out = TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), [ignoreEdit(text, d!)!]);
    expect(out.split('\r\n')[3]).toBe(`    await g.save_state()  # raiselint: ignore[${SAVING}]`);
    expect(out.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('silences by rule id or record id, with a reason, on the line or alone above the statement; never from a string', () => {
    const base = `${HEADER}async def f(g: GrpcWorkerAgentRuntime):\n`;
    const recordId = rules.byId.get(SAVING)!.recordId;
    const cases: [string, number][] = [
      [`    await g.save_state()  # raiselint: ignore[${SAVING}] -- gRPC runtime never saves here\n`, 0],
      [`    await g.save_state()  # raiselint: ignore[${recordId}]\n`, 0],
      [`    # raiselint: ignore[${SAVING}]\n    await g.save_state()\n`, 0],
      [`    # raiselint: ignore[${SAVING}]\n    x = [\n        await g.save_state()]\n`, 0],
      [`    await g.save_state()  # raiselint: ignore[${SAVE}]\n`, 1],
      [`    await g.save_state(); y = "# raiselint: ignore[${SAVING}]"\n`, 1],
      [`    y = 1  # raiselint: ignore[${SAVING}]\n    await g.save_state()\n`, 1],
    ];
    for (const [body, left] of cases) {
      const text = base + body;
      parses(text);
      expect(withoutIgnored(text, find(text)), body).toHaveLength(left);
    }
  });
});
