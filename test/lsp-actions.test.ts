/** The language server's code actions and ignore comments, on real findings (fix data attached where a test needs one). */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, TextEdit } from 'vscode-languageserver';
import { checkSource } from '../src/engine/check.js';
import { loadRules } from '../src/compile/load.js';
import type { Diagnostic } from '../src/diagnostics/types.js';
import type { RuleSet } from '../src/rules/ruleset.js';
import { codeActions, type ActionRequest } from '../src/lsp/actions.js';
import { rangeOf } from '../src/lsp/convert.js';
import { fixesOf, replaceEdit } from '../src/lsp/fixes.js';
import { lineStarts } from '../src/diagnostics/positions.js';
import { ignoreEdits, offsetConverter } from '../src/lsp/ignore.js';
import { Workspace } from '../src/lsp/workspace.js';

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

/**
 * A request as the server makes it. Fix-all here stands in for the server's verified one
 * (Workspace.fixAll, tested below): the first safe fix's edits, counting every safe finding.
 */
function request(text: string, diagnostics: Diagnostic[], over: Partial<ActionRequest> = {}): ActionRequest {
  const first = diagnostics[0] ? rangeOf(diagnostics[0]) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const safe = diagnostics.map((d) => fixesOf(d, text).find((f) => f.applicability === 'safe' && f.edits.length)).filter((f) => f !== undefined);
  const fixAll = () => ({ edits: safe[0]?.edits ?? [], fixed: safe.length });
  return {
    uri: URI,
    version: 3,
    text,
    diagnostics,
    range: first,
    context: { diagnostics: [] },
    documentChanges: true,
    disabledSupport: true,
    ignore: (d) => ignoreEdits(text, [d]),
    fixAll,
    ...over,
  };
}

/** The first (only) ignore edit for a finding, as the "ignore" action carries it. */
function ignoreEdit(text: string, d: Diagnostic): TextEdit {
  const edits = ignoreEdits(text, [d]);
  expect(edits).toHaveLength(1);
  return edits[0]!;
}

function edited(text: string, a: CodeAction): string {
  const dc = a.edit!.documentChanges![0] as { edits: TextEdit[] };
  return TextDocument.applyEdits(TextDocument.create(URI, 'python', 3, text), dc.edits);
}

function parses(text: string): void {
  execFileSync('python3', ['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], { input: text });
}

/** The offset of a 1-based line and UTF-16 column (findings carry fix edits as offsets). */
function offsetOf(text: string, line: number, column: number): number {
  return lineStarts(text)[line - 1]! + column - 1;
}

/** A try/except wrap of the finding's line, shaped as findings carry fixes (offsets, UTF-16). */
function wrapFix(text: string, d: Diagnostic, applicability = 'safe', strategy = 'try-except') {
  const line = text.split('\n')[d.line - 1]!;
  const indent = /^\s*/.exec(line)![0];
  const start = offsetOf(text, d.line, 1);
  const end = offsetOf(text, d.line, line.length + 1);
  return {
    applicability,
    strategy,
    reason: applicability === 'safe' ? undefined : 'the alternative calls SaveStateRequest, which this file does not define',
    edits: [
      { start, end: start, text: `${indent}try:\n    ` },
      { start: end, end, text: `\n${indent}except NotImplementedError:\n${indent}    pass` },
    ],
  };
}

// A safe fix: the file defines what the record's alternative needs (as in test/fix-cli.test.ts).
const SAFE_SRC = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime

from .messages import AGENT_METADATA


async def main(agent):
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    metadata = await runtime.agent_metadata(agent)
    return metadata
`;

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
    expect(acts.map((a) => a.title)).toEqual([
      `Wrap in try/except NotImplementedError (${SAVE}) [safe]`,
      `Ignore ${SAVE} on this line`,
      'Fix all raiselint findings in this file (1)',
    ]);
    expect(acts[0]!.isPreferred).toBe(true);
    expect(acts[0]!.diagnostics!.map((x) => x.code)).toEqual([SAVE]);
    expect((acts[0]!.edit!.documentChanges![0] as { textDocument: unknown }).textDocument).toEqual({ uri: URI, version: 3 });
    const out = edited(TWO, acts[0]!);
    expect(out).toBe(
      `${HEADER}async def f(g: GrpcWorkerAgentRuntime, a) -> None:\n    try:\n        await g.agent_save_state(a)\n    except NotImplementedError:\n        pass\n    await g.save_state()\n`,
    );
    parses(out);
    expect(find(out).map((x) => x.ruleId)).toEqual([SAVING]);
  });

  it('each fix strategy a finding carries is its own quick fix; unsafe ones say so and are never preferred', () => {
    const [d] = find(TWO);
    const guard = {
      ...wrapFix(TWO, d!, 'unsafe', 'type-guard'),
      edits: [{ start: offsetOf(TWO, d!.line, 5), end: offsetOf(TWO, d!.line, 5), text: 'pass  # ' }],
    };
    Object.assign(d!, {
      fix: wrapFix(TWO, d!),
      fixes: [wrapFix(TWO, d!), guard, { applicability: 'display-only', strategy: 'replace', reason: 'needs a SaveStateRequest handler', edits: [] }],
    });
    const acts = codeActions(request(TWO, [d!]));
    expect(acts.map((a) => [a.title, a.isPreferred ?? null, a.disabled?.reason ?? null])).toEqual([
      [`Wrap in try/except NotImplementedError (${SAVE}) [safe]`, true, null],
      [`Guard with isinstance (${SAVE}) [unsafe]`, false, null],
      [`Replace with the recorded alternative (${SAVE})`, null, 'needs a SaveStateRequest handler'],
      [`Ignore ${SAVE} on this line`, null, null],
      ['Fix all raiselint findings in this file (1)', null, null],
    ]);
    // A client that cannot show disabled actions does not get the display-only one.
    expect(codeActions(request(TWO, [d!], { disabledSupport: false })).map((a) => a.title)).not.toContain(`Replace with the recorded alternative (${SAVE})`);
  });

  it('a malformed fix is left out, never half-applied', () => {
    const [d] = find(TWO);
    Object.assign(d!, { fix: { applicability: 'safe', edits: [{ start: -1, end: 1, text: 'x' }] } });
    expect(fixesOf(d!, TWO)).toEqual([]);
    Object.assign(d!, { fix: { applicability: 'safe', edits: [{ start: 0, end: TWO.length + 1, text: 'x' }] } });
    expect(fixesOf(d!, TWO)).toEqual([]);
    Object.assign(d!, { fix: { applicability: 'safe', edits: 'nope' } });
    expect(fixesOf(d!, TWO)).toEqual([]);
    Object.assign(d!, { fix: { edits: [{ start: offsetOf(TWO, d!.line, 1), end: offsetOf(TWO, d!.line, 1), text: '' }] } });
    expect(fixesOf(d!, TWO)[0]!.applicability).toBe('unsafe');
    // No edits: it can only say why (the `none` strategy), as a disabled action.
    Object.assign(d!, { fix: { applicability: 'safe', strategy: 'none', reason: 'no automatic fix: the call is in a lambda', edits: [] } });
    const acts = codeActions(request(TWO, [d!]));
    expect(acts.map((a) => [a.title, a.disabled?.reason ?? null, a.edit === undefined])).toEqual([
      [`No automatic fix (${SAVE})`, 'no automatic fix: the call is in a lambda', true],
      [`Ignore ${SAVE} on this line`, null, false],
    ]);
  });

  it('fix all is asked only when a finding carries a safe fix and the client wants it', () => {
    const diags = find(TWO);
    let asked = 0;
    const fixAll = () => (asked++, { edits: [], fixed: 0 });
    expect(codeActions(request(TWO, diags, { fixAll, context: { diagnostics: [], only: ['source.fixAll'] } }))).toEqual([]);
    expect(asked).toBe(0); // the record's fixes are unsafe here
    Object.assign(diags[0]!, { fix: wrapFix(TWO, diags[0]!) });
    codeActions(request(TWO, diags, { fixAll, context: { diagnostics: [], only: ['quickfix'] } }));
    expect(asked).toBe(0);
    // Nothing survives verification: no action.
    expect(codeActions(request(TWO, diags, { fixAll, context: { diagnostics: [], only: ['source.fixAll'] } }))).toEqual([]);
    expect(asked).toBe(1);
  });

  it("the server's fix all is `--fix`: safe fixes only, round after round, verified, unused suppressions too; the edit is the changed middle", () => {
    const ws = new Workspace(rules, { records: [], config: false });
    const text = `${SAFE_SRC}async def g(rt: GrpcWorkerAgentRuntime, a) -> None:\n    await rt.agent_save_state(a)  # raiselint: ignore[${SAVE}, ${SAVING}]\n`;
    const r = ws.fixAll(undefined, 'a.py', text);
    // The record's fix is unsafe (the record's code): only the unused suppression id goes.
    expect(r.fixed).toBe(1);
    expect(r.errors).toEqual([]);
    expect(r.text).toBe(text.replace(`ignore[${SAVE}, ${SAVING}]`, `ignore[${SAVE}]`));
    parses(r.text);
    expect(ws.check(undefined, 'a.py', r.text).diagnostics.map((d) => d.ruleId)).toEqual(['autogen/agent-metadata-is-not-yet-implemented']);
    const edits = replaceEdit(text, r.text, offsetConverter(text));
    expect(edits).toHaveLength(1);
    expect(TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), edits)).toBe(r.text);
    expect(edits[0]!.range.start.line).toBe(text.split('\n').findIndex((l) => l.includes('# raiselint: ignore')));
    // Nothing to fix: nothing changes.
    expect(ws.fixAll(undefined, 'a.py', r.text)).toEqual({ text: r.text, fixed: 0, errors: [] });
    expect(replaceEdit(r.text, r.text, offsetConverter(r.text))).toEqual([]);
  });

  it('replaceEdit never splits a CRLF or a surrogate pair', () => {
    const at = (t: string) => offsetConverter(t);
    const apply = (a: string, b: string) => TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, a), replaceEdit(a, b, at(a)));
    for (const [a, b] of [
      ['x = 1\r\ny = 2\r\n', 'x = 1\ny = 2\r\n'],
      ['s = "\u{1F600}"\n', 's = "\u{1F601}"\n'],
      ['a\r\n', 'a\r\r\n'],
      ['', 'x\n'],
    ])
      expect(apply(a!, b!)).toBe(b);
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

/** The record findings left after suppression comments (what the server publishes, built-in findings aside). */
function silenced(text: string): Diagnostic[] {
  return new Workspace(rules, { records: [], config: false }).check(undefined, 'a.py', text).diagnostics.filter((d) => !d.ruleId.startsWith('raiselint/'));
}

describe('lsp ignore comments', () => {
  it('a line ending in a backslash continuation gets the comment above its statement', () => {
    const text = `${HEADER}async def f(g: GrpcWorkerAgentRuntime):\n    x = 1 + \\\n        len(await g.save_state()) + \\\n        2\n`;
    const [d] = find(text);
    const e = ignoreEdit(text, d!);
    const out = TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), [e]);
    expect(out).toBe(
      `${HEADER}async def f(g: GrpcWorkerAgentRuntime):\n    # raiselint: ignore[${SAVING}]\n    x = 1 + \\\n        len(await g.save_state()) + \\\n        2\n`,
    );
    parses(out);
    expect(silenced(out)).toEqual([]);
  });

  it('keeps CRLF line endings and trailing whitespace out of the way', () => {
    const text = `${HEADER}async def f(g: GrpcWorkerAgentRuntime):\n    await g.save_state()   \n`.replace(/\n/g, '\r\n');
    const [d] = find(text);
    const out = TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), [ignoreEdit(text, d!)]);
    expect(out.split('\r\n')[3]).toBe(`    await g.save_state()  # raiselint: ignore[${SAVING}]`);
    expect(out.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('a lone-CR buffer gets lone CRs in every edit: the fix and the ignore comment, each on the right line', () => {
    const lf = `${HEADER}async def f(g: GrpcWorkerAgentRuntime):\n    x = 1\n    await g.save_state()\n`;
    const text = lf.replace(/\n/g, '\r');
    const [d] = find(text);
    expect(d?.line).toBe(5);
    for (const fixStrategy of ['try-except', 'type-guard'] as const) {
      const fixes = fixesOf(checkSource(text, 'a.py', rules, { fixStrategy }).diagnostics[0]!, text).filter((f) => f.edits.length);
      const lfFixes = fixesOf(checkSource(lf, 'a.py', rules, { fixStrategy }).diagnostics[0]!, lf);
      // The try/except wrap inserts lines: with lone CRs, as the buffer's own.
      if (fixStrategy === 'try-except')
        expect(
          fixes.some((f) => f.edits.some((e) => e.newText.includes('\r'))),
          fixStrategy,
        ).toBe(true);
      for (const f of fixes) {
        const out = TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), f.edits);
        expect(out, f.title).not.toContain('\n');
        expect(out.replace(/\r/g, '\n'), f.title).toBe(
          TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, lf), lfFixes.find((g) => g.title === f.title)!.edits),
        );
        parses(out);
      }
    }
    const out = TextDocument.applyEdits(TextDocument.create(URI, 'python', 1, text), [ignoreEdit(text, d!)]);
    expect(out).toBe(text.replace('await g.save_state()', `await g.save_state()  # raiselint: ignore[${SAVING}]`));
    expect(silenced(out)).toEqual([]);
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
      expect(silenced(text), body).toHaveLength(left);
    }
  });
});
