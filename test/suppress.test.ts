/** Suppression comments: reading them from the tree, what they cover, blanket/invalid/unused reports, removal and --add-ignore. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, withTree } from '../src/parse/parser.js';
import { collectDirectives, type Directive } from '../src/suppress/directives.js';
import { applySuppressions, type UnusedSuppression } from '../src/suppress/apply.js';
import { applyEdits, unusedSuppressionEdits } from '../src/suppress/edits.js';
import { runProject } from '../src/engine/project.js';
import { ALL_FIVE, ONE, R, checkJson, makeProject, raiselint, read } from './helpers/project.js';

beforeAll(() => initParser());

function directives(text: string): Directive[] {
  return withTree(text, (t) => collectDirectives(t.rootNode, text));
}

describe('reading directives', () => {
  it('reads trailing and own-line comments, ids, reasons and kinds; never strings', () => {
    const text = [
      'import x',
      'a = x.f()  # raiselint: ignore[autogen/a, autogen/b] -- known, tracked in #12',
      's = "# raiselint: ignore[autogen/c]"',
      't = """',
      '# raiselint: ignore[autogen/d]',
      '"""',
      '# raiselint: ignore-file[autogen/e]',
      'b = 1  # noqa: E501  # raiselint: ignore[autogen/f]',
    ].join('\n');
    const ds = directives(text);
    expect(ds.map((d) => [d.kind, d.line, d.ids.map((i) => i.id), d.reason ?? null, d.ownLine])).toEqual([
      ['line', 2, ['autogen/a', 'autogen/b'], 'known, tracked in #12', false],
      ['file', 7, ['autogen/e'], null, true],
      ['line', 8, ['autogen/f'], null, false],
    ]);
    const [d] = ds;
    expect(text.slice(d!.ids[1]!.start, d!.ids[1]!.end)).toBe('autogen/b');
    expect(d!.column).toBe(12);
  });

  it('an own-line comment covers the whole statement below it; compound statements only their header', () => {
    const text = [
      '# raiselint: ignore[r/a]', // 1
      'value = call(', // 2
      '    1,', // 3
      ')', // 4
      '', // 5
      '# raiselint: ignore[r/b]', // 6
      '# another comment', // 7
      'if cond(', // 8
      '    x):', // 9
      '    body()', // 10
      'def f():', // 11
      '    # raiselint: ignore[r/c]', // 12
      '    return g()', // 13
      '# raiselint: ignore[r/d]', // 14
      '', // 15
      'far()', // 16
      '# raiselint: ignore[r/e]', // 17
      '@deco(', // 18
      '    arg)', // 19
      'def h(): pass', // 20
    ].join('\n');
    const span = (id: string) => {
      const d = directives(text).find((x) => x.ids[0]!.id === id)!;
      return [d.from, d.to];
    };
    expect(span('r/a')).toEqual([2, 4]);
    expect(span('r/b')).toEqual([8, 9]);
    expect(span('r/c')).toEqual([13, 13]);
    expect(span('r/d')).toEqual([14, 14]); // a blank line breaks the link
    expect(span('r/e')).toEqual([18, 20]);
  });

  it('finds each marked comment once, wherever it sits: touching code, after non-ASCII text, two marks, CRLF', () => {
    const text = [
      'é = "ü"# raiselint: ignore[r/a]', // 1: no space before the comment, non-ASCII before it
      'x = 1  # raiselint: ignore[r/b]  # raiselint: ignore[r/c]', // 2: two marks, one comment
      'y = 2  #', // 3: `#` ending a line ...
      'raiselint: ignore[r/x]', // 4: ... and a mark-like line of code below: no directive
      'z = f"{1}# raiselint: ignore[r/y]"', // 5: in an f-string
      'w = 3  # raiselint: ignore[r/d]\r', // 6: CRLF
      'v = 4',
    ].join('\n');
    const ds = directives(text);
    expect(ds.map((d) => [d.line, d.column, d.ids.map((i) => i.id)])).toEqual([
      [1, 8, ['r/a']],
      [2, 8, ['r/b']],
      [2, 34, ['r/c']],
      [6, 8, ['r/d']],
    ]);
    expect(ds.map((d) => text.slice(d.commentStart, d.commentEnd))).toEqual([
      '# raiselint: ignore[r/a]',
      '# raiselint: ignore[r/b]  # raiselint: ignore[r/c]',
      '# raiselint: ignore[r/b]  # raiselint: ignore[r/c]',
      '# raiselint: ignore[r/d]',
    ]);
  });

  it('marks blanket and malformed directives', () => {
    const ds = directives(
      'a = 1  # raiselint: ignore\nb = 2  # raiselint: ignore[]\nc = 3  # raiselint: ignores[x]\nd = 4  # raiselint: ignore[x] trailing words\ne = 5  # raiselint: ignore[a b]\n',
    );
    expect(ds.map((d) => [d.line, d.ids.length, d.invalid ?? null])).toEqual([
      [1, 0, null],
      [2, 0, 'empty rule id in brackets'],
      [3, 0, "not a raiselint directive: expected '# raiselint: ignore[rule-id]' or '# raiselint: ignore-file[rule-id]'"],
      [4, 0, "not a raiselint directive: expected '# raiselint: ignore[rule-id]' or '# raiselint: ignore-file[rule-id]'"],
      [5, 0, "'a b' is not a rule id"],
    ]);
  });
});

describe('suppressing findings', () => {
  it('trailing, own-line above a multi-line statement, and file-wide ignores suppress; others do not', () => {
    const text = ALL_FIVE.replace(
      'await runtime.agent_save_state(agent_id)',
      `await runtime.agent_save_state(agent_id)  # raiselint: ignore[${R.agentSave}] -- fixed upstream in 0.5`,
    )
      .replace(
        '    await runtime.agent_load_state(agent_id, {})',
        `    # raiselint: ignore[${R.agentLoad}]\n    await runtime.agent_load_state(\n        agent_id,\n        {},\n    )`,
      )
      .concat(`# raiselint: ignore-file[${R.metadata}]\n`)
      .replace('    await runtime.save_state()', `    # raiselint: ignore[${R.save}]\n\n    await runtime.save_state()`);
    const root = makeProject({ 'app.py': text });
    const { keys } = checkJson(root);
    // save_state: the blank line breaks the link, so the comment is unused and the finding stays
    expect(keys).toEqual([`app.py:13 raiselint/unused-ignore`, `app.py:15 ${R.save}`, `app.py:16 ${R.load}`]);
  });

  it('a record id works as well as a rule id', () => {
    const root = makeProject({ 'app.py': ONE });
    const { run } = checkJson(root);
    const recordId = JSON.parse(run.stdout).diagnostics[0].recordId as string;
    expect(recordId).toMatch(/^[0-9a-f]+$/);
    writeFileSync(join(root, 'app.py'), ONE.replace('await runtime.save_state()', `await runtime.save_state()  # raiselint: ignore[${recordId}]`));
    expect(checkJson(root).keys).toEqual([]);
  });

  it('a blanket ignore suppresses nothing and is reported with the ids to write', () => {
    const root = makeProject({ 'app.py': ONE.replace('await runtime.save_state()', 'await runtime.save_state()  # raiselint: ignore') });
    const { findings } = checkJson(root);
    expect(findings.map((f) => `${f.line}:${f.column} ${f.ruleId} ${f.severity}`)).toEqual([`6:11 ${R.save} error`, '6:33 raiselint/blanket-ignore warning']);
    expect(findings[1]!.message).toBe(`blanket suppression without rule ids suppresses nothing: write \`# raiselint: ignore[${R.save}]\``);
  });

  it('an invalid directive is reported', () => {
    const root = makeProject({ 'app.py': ONE.replace('await runtime.save_state()', `await runtime.save_state()  # raiselint: ignore(${R.save})`) });
    expect(checkJson(root).keys).toEqual([`app.py:6 ${R.save}`, 'app.py:6 raiselint/invalid-ignore']);
  });

  it('unused: an id with no finding, an unknown rule; not a rule the config turns off here', () => {
    const text = `x = 1  # raiselint: ignore[${R.save}]\ny = 2  # raiselint: ignore[acme/nope]\nz = 3  # raiselint: ignore[${R.load}]\n`;
    const root = makeProject({ 'raiselint.toml': `ignore = ["${R.load}"]\n`, 'a.py': text });
    const { findings } = checkJson(root);
    expect(findings.map((f) => `${f.line}:${f.column} ${f.ruleId} ${f.severity}`)).toEqual([
      '1:28 raiselint/unused-ignore warning',
      '2:28 raiselint/unused-ignore warning',
    ]);
    expect(findings.map((f) => f.message)).toEqual([`unused suppression: no '${R.save}' finding on this line`, "unused suppression: unknown rule 'acme/nope'"]);
  });

  it('the built-in rules obey select / ignore / severity like the others', () => {
    const root = makeProject({
      'raiselint.toml': 'ignore = ["raiselint/unused-ignore"]\nseverity = { "raiselint/blanket-ignore" = "error" }\n',
      'a.py': `x = 1  # raiselint: ignore[${R.save}]\ny = 2  # raiselint: ignore\n`,
    });
    const { run, findings } = checkJson(root);
    expect(findings.map((f) => `${f.line} ${f.ruleId} ${f.severity}`)).toEqual(['2 raiselint/blanket-ignore error']);
    expect(run.code).toBe(1);
  });

  it('a suppression stays used when min-confidence hides its finding', () => {
    const text = `from autogen_core import AgentRuntime\n\n\nasync def f(runtime: AgentRuntime) -> None:\n    await runtime.save_state()  # raiselint: ignore[${R.save}]\n`;
    const root = makeProject({ 'a.py': text });
    expect(checkJson(root, ['--min-confidence', 'certain']).keys).toEqual([]);
    expect(checkJson(root).keys).toEqual([]);
  });
});

function unusedOf(text: string, ruleIdsFound: { line: number; ruleId: string }[]): UnusedSuppression[] {
  const ds = directives(text);
  const diags = ruleIdsFound.map((d) => ({
    ...d,
    file: 'a.py',
    column: 1,
    endLine: d.line,
    endColumn: 2,
    recordId: '',
    severity: 'error' as const,
    confidence: 'certain' as const,
    errorClass: '',
    message: '',
    tips: [],
    via: [],
  }));
  return applySuppressions('a.py', diags, ds, { active: () => true, known: () => true }).unused;
}

describe('unusedSuppressionEdits (what --fix applies)', () => {
  const fix = (text: string, found: { line: number; ruleId: string }[] = []) => applyEdits(text, unusedSuppressionEdits(text, unusedOf(text, found)));

  it('removes a trailing comment and the spaces before it', () => {
    expect(fix('a = f()  # raiselint: ignore[r/x]\nb = 2\n')).toBe('a = f()\nb = 2\n');
  });
  it('removes an own-line comment with its line (CRLF kept elsewhere)', () => {
    expect(fix('a = 1\r\n    # raiselint: ignore[r/x] -- why\r\nb = f()\r\n')).toBe('a = 1\r\nb = f()\r\n');
  });
  it('on CRLF lines, a trailing comment goes without its line ending, and a kept reason has no stray \\r', () => {
    expect(fix('a = f()  # raiselint: ignore[r/x]\r\nb = 2\r\n')).toBe('a = f()\r\nb = 2\r\n');
    expect(fix('a = f()  # raiselint: ignore[r/x, r/y] -- why\r\nb = 2\r\n', [{ line: 1, ruleId: 'r/y' }])).toBe(
      'a = f()  # raiselint: ignore[r/y] -- why\r\nb = 2\r\n',
    );
    expect(directives('a = f()  # raiselint: ignore[r/x] -- why\r\n')[0]!.reason).toBe('why');
  });
  it('drops only the unused ids and keeps the reason', () => {
    expect(fix('a = f()  # raiselint: ignore[r/x, r/y, r/z] -- because\n', [{ line: 1, ruleId: 'r/y' }])).toBe(
      'a = f()  # raiselint: ignore[r/y] -- because\n',
    );
  });
  it('keeps other comment text', () => {
    expect(fix('a = f()  # noqa: E501  # raiselint: ignore[r/x]\n')).toBe('a = f()  # noqa: E501\n');
    expect(fix('a = f()  # raiselint: ignore[r/x]  # type: ignore\n')).toBe('a = f()  # type: ignore\n');
  });
  it('handles two directives in one comment', () => {
    expect(fix('a = f()  # raiselint: ignore[r/x]  # raiselint: ignore[r/y]\n', [{ line: 1, ruleId: 'r/y' }])).toBe('a = f()  # raiselint: ignore[r/y]\n');
    expect(fix('a = f()  # raiselint: ignore[r/x]  # raiselint: ignore[r/y]\n')).toBe('a = f()\n');
  });
  it('removes unused file-wide ignores, keeps used ones', () => {
    expect(fix('# raiselint: ignore-file[r/x]\n# raiselint: ignore-file[r/y]\na = f()\n', [{ line: 3, ruleId: 'r/y' }])).toBe(
      '# raiselint: ignore-file[r/y]\na = f()\n',
    );
  });
  it('changes nothing when everything is used', () => {
    const text = 'a = f()  # raiselint: ignore[r/x]\n';
    expect(unusedSuppressionEdits(text, unusedOf(text, [{ line: 1, ruleId: 'r/x' }]))).toEqual([]);
  });
  it('the result is clean on a real run', async () => {
    const text =
      ONE.replace('await runtime.save_state()', `await runtime.save_state()  # raiselint: ignore[${R.save}, ${R.load}]`) +
      `x = 1  # raiselint: ignore[${R.metadata}]\n`;
    const root = makeProject({ 'a.py': text });
    const res = await runProject([root]);
    const o = [...res.outcomes.values()][0]!;
    expect(res.diagnostics.map((d) => d.ruleId)).toEqual(['raiselint/unused-ignore', 'raiselint/unused-ignore']);
    const fixed = applyEdits(o.text!, unusedSuppressionEdits(o.text!, o.unused));
    expect(fixed).toBe(ONE.replace('await runtime.save_state()', `await runtime.save_state()  # raiselint: ignore[${R.save}]`) + 'x = 1\n');
    writeFileSync(join(root, 'a.py'), fixed);
    expect((await runProject([root])).diagnostics).toEqual([]);
  });
});

describe('--add-ignore', () => {
  it('suppresses every current finding, merging into existing comments; a second run changes nothing', () => {
    const text = [
      'from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime',
      '',
      '',
      'async def main(agent_id) -> None:',
      '    runtime = GrpcWorkerAgentRuntime(host_address="x")',
      '    await runtime.agent_save_state(agent_id)  # keep this note',
      `    await runtime.agent_load_state(agent_id, {})  # raiselint: ignore[${R.metadata}] -- reason`,
      '    await runtime.save_state(); await runtime.load_state({})',
      '    await runtime.agent_metadata("""',
      '    multi-line',
      '    """)',
      '',
    ].join('\n');
    const root = makeProject({ 'a.py': text, 'clean.py': 'x = 1\n' });
    const r = raiselint(root, ['check', '--add-ignore']);
    expect(r.stdout).toBe('Added 5 suppressions in 1 file.\n');
    expect(r.code).toBe(0);
    expect(read(root, 'a.py')).toBe(
      [
        'from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime',
        '',
        '',
        'async def main(agent_id) -> None:',
        '    runtime = GrpcWorkerAgentRuntime(host_address="x")',
        `    await runtime.agent_save_state(agent_id)  # keep this note  # raiselint: ignore[${R.agentSave}]`,
        `    await runtime.agent_load_state(agent_id, {})  # raiselint: ignore[${R.agentLoad}, ${R.metadata}] -- reason`,
        `    await runtime.save_state(); await runtime.load_state({})  # raiselint: ignore[${R.load}, ${R.save}]`,
        `    # raiselint: ignore[${R.metadata}]`,
        '    await runtime.agent_metadata("""',
        '    multi-line',
        '    """)',
        '',
      ].join('\n'),
    );
    expect(read(root, 'clean.py')).toBe('x = 1\n');
    // The metadata id on line 7 had no finding before: it is still unused and reported.
    expect(checkJson(root).keys).toEqual(['a.py:7 raiselint/unused-ignore']);
    const again = raiselint(root, ['check', '--add-ignore']);
    expect(again.stdout).toBe('Added 0 suppressions in 0 files.\n');
  });

  it('keeps CRLF line endings and a BOM', () => {
    const root = makeProject({});
    const crlf = '\uFEFF' + ONE.replace(/\n/g, '\r\n');
    writeFileSync(join(root, 'w.py'), crlf);
    raiselint(root, ['check', '--add-ignore']);
    const out = readFileSync(join(root, 'w.py'));
    expect([...out.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(out.toString('utf8').slice(1)).toBe(
      ONE.replace(/\n/g, '\r\n').replace('await runtime.save_state()', `await runtime.save_state()  # raiselint: ignore[${R.save}]`),
    );
    expect(checkJson(root).keys).toEqual([]);
  });

  it('with --baseline, only new findings get a comment', () => {
    const root = makeProject({ 'a.py': ONE });
    raiselint(root, ['check', '--update-baseline']);
    writeFileSync(join(root, 'a.py'), ONE + '    await runtime.load_state({})\n');
    expect(raiselint(root, ['check', '--baseline', 'raiselint-baseline.json', '--add-ignore']).stdout).toBe('Added 1 suppression in 1 file.\n');
    expect(read(root, 'a.py')).toBe(ONE + `    await runtime.load_state({})  # raiselint: ignore[${R.load}]\n`);
  });
});

describe('the built-in rules in CI reports', () => {
  it('SARIF describes them and stays valid against the SARIF 2.1.0 schema', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const addFormats = (await import('ajv-formats')).default as unknown as (a: unknown) => void;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(import.meta.dirname, 'schemas', 'sarif-2.1.0.json'), 'utf8')));
    const root = makeProject({ 'a.py': `x = 1  # raiselint: ignore[${R.save}]\ny = 2  # raiselint: ignore\n` });
    const doc = JSON.parse(raiselint(root, ['check', '--format', 'sarif']).stdout);
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const rules = doc.runs[0].tool.driver.rules as { id: string; shortDescription: { text: string } }[];
    expect(rules.map((r) => [r.id, r.shortDescription.text])).toEqual([
      ['raiselint/blanket-ignore', 'A suppression comment without rule ids suppresses nothing'],
      ['raiselint/unused-ignore', 'A suppression comment names a rule that reports nothing there'],
    ]);
  });
});
