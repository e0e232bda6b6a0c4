/** The CI formats other than SARIF, and `--statistics`, on real findings and on hand-made edge cases. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic, FileError } from '../src/diagnostics/types.js';
import { checkSource } from '../src/engine/check.js';
import { loadRules } from '../src/compile/load.js';
import { fingerprints } from '../src/report/fingerprint.js';
import { FORMATS, renderReport, reportsErrors } from '../src/report/formats.js';
import { escapeData, escapeProperty, formatGithub } from '../src/report/github.js';
import { formatGitlab, gitlabPath, gitlabReport } from '../src/report/gitlab.js';
import { formatJson } from '../src/report/json.js';
import { formatJsonLines } from '../src/report/jsonLines.js';
import { formatJunit, xmlEscape } from '../src/report/junit.js';
import { formatStatisticsJson, formatStatisticsText, statistics } from '../src/report/statistics.js';
import { formatRulesJson, formatRulesText } from '../src/report/rules.js';
import type { RuleSet } from '../src/rules/ruleset.js';

const SAMPLE = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime
from autogen_core import AgentRuntime


async def main(agent_id, other: AgentRuntime):
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    state = await runtime.agent_save_state(agent_id)
    await runtime.agent_load_state(agent_id, state)
    await other.agent_save_state(agent_id)
    return await runtime.agent_save_state(agent_id)
`;

/** Parsed output, read loosely. */
type J = any;

let rules: RuleSet;
let diags: Diagnostic[];
let sources: Map<string, string>;
beforeAll(async () => {
  rules = await loadRules();
  // Without the fix stage's own fixes (tested in fix*.test.ts): these tests set fixes by hand.
  diags = checkSource(SAMPLE, 'pkg/app.py', rules).diagnostics.map((d) => ({ ...d, fix: undefined }));
  sources = new Map([['pkg/app.py', SAMPLE]]);
});

function diag(over: Partial<Diagnostic>): Diagnostic {
  return {
    ruleId: 'lib/some-rule',
    recordId: 'r1',
    file: 'a.py',
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 5,
    severity: 'error',
    confidence: 'certain',
    errorClass: 'ValueError',
    message: 'boom',
    tips: [],
    via: [],
    ...over,
  };
}

/** Parses XML documents with CPython's expat (one process) and returns summaries, so malformed XML fails the test. */
function parseXml(...docs: string[]): J[] {
  const py = `
import json, sys, xml.etree.ElementTree as ET
def conv(e):
    return {"tag": e.tag, "attrs": dict(e.attrib), "text": e.text or "", "children": [conv(c) for c in e]}
print(json.dumps([conv(ET.fromstring(d.encode("utf-8"))) for d in json.load(sys.stdin)]))
`;
  return JSON.parse(execFileSync('python3', ['-c', py], { input: JSON.stringify(docs) }).toString());
}

describe('sample findings', () => {
  it('are the ones these tests expect', () => {
    expect(diags.map((d) => `${d.line}:${d.column} ${d.confidence} ${d.ruleId}`)).toEqual([
      '7:19 certain autogen/agent-save-state-is-not-yet-implemented',
      '8:11 certain autogen/agent-load-state-is-not-yet-implemented',
      '9:11 possible autogen/agent-save-state-is-not-yet-implemented',
      '10:18 certain autogen/agent-save-state-is-not-yet-implemented',
    ]);
  });
});

describe('github', () => {
  it('escapes data and properties as the Actions runner expects', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
    // `::` inside the message is left as is (the runner splits on the first `::` after the properties).
    expect(escapeData('x::y')).toBe('x::y');
  });

  it('one ::error / ::warning command per finding, with the full range and a title', () => {
    const out = formatGithub({ diagnostics: diags, errors: [] });
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      '::error file=pkg/app.py,line=7,col=19,endLine=7,endColumn=53,title=raiselint (autogen/agent-save-state-is-not-yet-implemented)::' +
        'pkg/app.py:7:19: autogen/agent-save-state-is-not-yet-implemented runtime.agent_save_state() raises NotImplementedError (GrpcWorkerAgentRuntime.agent_save_state()): Agent save_state is not yet implemented.' +
        '%0Ahelp: Implement a SaveState message handler in stateful agents%0Ahelp: Centralize persistence in app code rather than runtime APIs%0Ahelp: Detect runtime type before per-agent state operations' +
        '%0Araised at: https://github.com/microsoft/autogen/blob/027ecf0a379bcc1d09956d46d12d44a3ad9cee14/python/packages/autogen-ext/src/autogen_ext/runtimes/grpc/_worker_runtime.py#L502',
    );
    expect(lines[2]).toMatch(
      /^::warning file=pkg\/app.py,line=9,col=11,endLine=9,endColumn=43,title=raiselint \(autogen\/agent-save-state-is-not-yet-implemented\)::pkg\/app.py:9:11: autogen\/agent-save-state-is-not-yet-implemented \(possible\) /,
    );
    for (const l of lines) expect(l).not.toMatch(/[\r\n]/);
  });

  it('escapes hostile file names and messages, and reports file errors', () => {
    const d = diag({ file: 'we,ird:name%.py', message: 'line one\nline two, 100%', line: 3, column: 2, endLine: 4, endColumn: 1 });
    const err: FileError = { file: 'x.py', line: 2, column: 5, kind: 'syntax', message: 'syntax error: invalid syntax' };
    const out = formatGithub({ diagnostics: [d], errors: [err, { file: 'y.py', kind: 'read', message: 'cannot read file (EACCES)' }] });
    expect(out).toBe(
      '::error file=we%2Cird%3Aname%25.py,line=3,col=2,endLine=4,endColumn=1,title=raiselint (lib/some-rule)::we,ird:name%25.py:3:2: lib/some-rule line one%0Aline two, 100%25\n' +
        '::warning file=x.py,line=2,col=5,title=raiselint (syntax error)::x.py:2: syntax error: invalid syntax\n' +
        '::error file=y.py,title=raiselint (read error)::y.py: cannot read file (EACCES)\n',
    );
    expect(formatGithub({ diagnostics: [], errors: [] })).toBe('');
  });
});

describe('junit', () => {
  // Parsed once, lazily, inside the tests: malformed XML fails them (not a hook).
  let parsed: J[] | undefined;
  const docs = () =>
    (parsed ??= parseXml(
      formatJunit({ diagnostics: diags, errors: [] }),
      formatJunit({
        diagnostics: [diag({ file: 'a&b.py', message: 'x < y && "q" \'s\' \u0001 > z\u0007' })],
        errors: [
          { file: 'a&b.py', line: 9, column: 1, kind: 'syntax', message: 'syntax error: <bad>' },
          { file: 'z.py', kind: 'decode', message: 'not valid UTF-8 (line 1, byte 3)' },
        ],
      }),
      formatJunit({ diagnostics: [], errors: [] }),
    ));

  it('is well-formed XML with one failing test case per finding, grouped by file', () => {
    expect(formatJunit({ diagnostics: diags, errors: [] }).startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const doc = docs()[0];
    expect(doc.tag).toBe('testsuites');
    expect(doc.attrs).toEqual({ name: 'raiselint', tests: '4', failures: '4', errors: '0' });
    expect(doc.children).toHaveLength(1);
    const suite = doc.children[0];
    expect(suite.attrs).toEqual({ name: 'pkg/app.py', tests: '4', failures: '4', errors: '0' });
    const tc = suite.children[0];
    expect(tc.attrs).toEqual({ name: 'autogen/agent-save-state-is-not-yet-implemented (7:19)', classname: 'pkg/app.py', file: 'pkg/app.py', line: '7' });
    expect(tc.children[0].tag).toBe('failure');
    expect(tc.children[0].attrs.type).toBe('NotImplementedError');
    expect(tc.children[0].attrs.message).toBe(diags[0]!.message);
    expect(tc.children[0].text).toContain('pkg/app.py:7:19: ');
    expect(tc.children[0].text).toContain('\nhelp: Implement a SaveState message handler in stateful agents');
  });

  it('escapes markup and control characters; file errors are <error>s, syntax warnings are not failures', () => {
    const doc = docs()[1];
    expect(doc.attrs).toEqual({ name: 'raiselint', tests: '3', failures: '1', errors: '1' });
    const [ab, z] = doc.children;
    expect(ab.attrs).toEqual({ name: 'a&b.py', tests: '2', failures: '1', errors: '0' });
    expect(ab.children[0].children[0].attrs.message).toBe('x < y && "q" \'s\'  > z');
    expect(ab.children[1].children[0].tag).toBe('system-err');
    expect(ab.children[1].children[0].text).toBe('a&b.py:9:1: warning: syntax error: <bad>');
    expect(z.children[0].children[0].tag).toBe('error');
    expect(z.children[0].children[0].attrs.type).toBe('decode-error');
    expect(xmlEscape('a\nb')).toBe('a&#10;b');
    expect(xmlEscape('\uD800x')).toBe('x');
  });

  it('with nothing to report, one passing test case', () => {
    const empty = docs()[2];
    expect(empty.attrs).toEqual({ name: 'raiselint', tests: '1', failures: '0', errors: '0' });
    expect(empty.children[0].children[0].attrs).toEqual({ name: 'No findings', classname: 'raiselint' });
    expect(empty.children[0].children[0].children).toEqual([]);
  });
});

describe('gitlab', () => {
  it('code quality issues with required fields, positions and unique fingerprints', () => {
    const issues = gitlabReport({ diagnostics: diags, errors: [], sources, cwd: '/repo' }, {}) as J[];
    expect(issues).toHaveLength(4);
    const first = issues[0];
    expect(first.type).toBe('issue');
    expect(first.check_name).toBe('autogen/agent-save-state-is-not-yet-implemented');
    expect(first.description).toBe(`autogen/agent-save-state-is-not-yet-implemented: ${diags[0]!.message}`);
    expect(first.severity).toBe('major');
    expect(issues[2].severity).toBe('minor'); // the possible finding
    expect(first.location).toEqual({ path: 'pkg/app.py', positions: { begin: { line: 7, column: 19 }, end: { line: 7, column: 53 } } });
    expect(first.categories).toEqual(['Bug Risk']);
    expect(first.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(4);
    expect(JSON.parse(formatGitlab({ diagnostics: [], errors: [] }, {}))).toEqual([]);
  });

  it('fingerprints are semantic (as the baseline): they stay when code moves or is edited around the call, change with the function or file; paths follow CI_PROJECT_DIR', () => {
    const fp = (text: string, file = 'pkg/app.py') =>
      gitlabReport({ diagnostics: checkSource(text, file, rules).diagnostics, errors: [], sources: new Map([[file, text]]) }, {}).map((i: J) => i.fingerprint);
    const base = fp(SAMPLE);
    expect(fp(SAMPLE.replace('async def main', '\n\n# moved\nasync def main'))).toEqual(base);
    expect(fp(SAMPLE.replace('state = await runtime.agent_save_state', 'saved = await runtime.agent_save_state'))).toEqual(base);
    expect(fp(SAMPLE.replace('async def main', 'async def run'))[0]).not.toBe(base[0]);
    expect(fp(SAMPLE, 'pkg/other.py')[0]).not.toBe(base[0]);
    expect(gitlabPath('src/a.py', '/builds/g/p/sub', '/builds/g/p')).toBe('sub/src/a.py');
    expect(gitlabPath('/builds/g/p/x.py', '/elsewhere', '/builds/g/p')).toBe('x.py');
    expect(gitlabPath('src/a.py', '/repo', undefined)).toBe('src/a.py');
    const issues = gitlabReport({ diagnostics: diags, errors: [], cwd: '/builds/g/p/sub' }, { CI_PROJECT_DIR: '/builds/g/p' }) as J[];
    expect(issues[0].location.path).toBe('sub/pkg/app.py');
  });

  it('the occurrence counter separates equal findings in one file', () => {
    const f = fingerprints([diag({}), diag({})], new Map([['a.py', 'boom()\n']]));
    expect(f[0]!.lineHash.split(':')[0]).toBe(f[1]!.lineHash.split(':')[0]);
    expect(f[0]!.full).not.toBe(f[1]!.full);
  });
});

describe('json-lines', () => {
  it('one object per line, equal to the json format diagnostics', () => {
    const out = formatJsonLines(diags);
    const lines = out.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(4);
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed).toEqual(JSON.parse(formatJson(diags, [])).diagnostics);
    expect(parsed[0].ruleId).toBe('autogen/agent-save-state-is-not-yet-implemented');
    expect(formatJsonLines([])).toBe('');
  });
});

describe('statistics', () => {
  it('counts per rule, most frequent first, with certain/possible and fixable', () => {
    const stats = statistics(diags);
    expect(stats).toEqual([
      {
        ruleId: 'autogen/agent-save-state-is-not-yet-implemented',
        errorClass: 'NotImplementedError',
        count: 3,
        certain: 2,
        possible: 1,
        fixable: 0,
        unsafeFixable: 0,
      },
      {
        ruleId: 'autogen/agent-load-state-is-not-yet-implemented',
        errorClass: 'NotImplementedError',
        count: 1,
        certain: 1,
        possible: 0,
        fixable: 0,
        unsafeFixable: 0,
      },
    ]);
    expect(formatStatisticsText(diags)).toBe(
      '3\tautogen/agent-save-state-is-not-yet-implemented\tNotImplementedError (2 certain, 1 possible)\n' +
        '1\tautogen/agent-load-state-is-not-yet-implemented\tNotImplementedError (1 certain, 0 possible)\n' +
        'Found 4 findings (3 certain, 1 possible) from 2 rules.\n',
    );
    expect(JSON.parse(formatStatisticsJson(diags))).toEqual(stats);
    expect(formatStatisticsText([])).toBe('All checks passed!\n');
  });

  it('marks rules with fixes, as Ruff does', () => {
    const fixed = diags.map((d, i) =>
      i === 1 ? { ...d, fix: { applicability: 'safe', edits: [{ line: 8, column: 5, endLine: 8, endColumn: 5, text: 'x' }] } } : d,
    ) as Diagnostic[];
    const text = formatStatisticsText(fixed);
    expect(text).toContain('1\tautogen/agent-load-state-is-not-yet-implemented\t[*] NotImplementedError');
    expect(text).toContain('3\tautogen/agent-save-state-is-not-yet-implemented\t    NotImplementedError');
    expect(text).toContain('[*] fixable with `--fix`');
    // Only unsafe fixes: `[-]`, never `[*]` (`--fix` alone would fix nothing); `[*]` with --unsafe-fixes.
    const unsafe = diags.map((d, i) =>
      i === 1 ? { ...d, fix: { applicability: 'unsafe', edits: [{ line: 8, column: 5, endLine: 8, endColumn: 5, text: 'x' }] } } : d,
    ) as Diagnostic[];
    expect(formatStatisticsText(unsafe)).toContain('1\tautogen/agent-load-state-is-not-yet-implemented\t[-] NotImplementedError');
    expect(formatStatisticsText(unsafe)).not.toContain('[*]');
    expect(formatStatisticsText(unsafe, { unsafeFixes: true })).toContain('\t[*] NotImplementedError');
  });
});

describe('text and concise', () => {
  it('a record message, tip or condition with line breaks or control characters stays on its line, escaped', () => {
    const d = diag({
      message: 'file could not be opened successfully:\n{error_msgs_summary}\x1b[2J',
      tips: ['first\r\nsecond'],
      condition: 'raises when x\ty',
    });
    const concise = renderReport('concise', { diagnostics: [d], errors: [] });
    expect(concise.split('\n')[0]).toBe('a.py:1:1: lib/some-rule file could not be opened successfully:\\n{error_msgs_summary}\\x1b[2J');
    const text = renderReport('text', { diagnostics: [d], errors: [], sources: new Map([['a.py', 'x = 1\n']]) });
    expect(text).toContain('= help: first\\r\\nsecond\n');
    expect(text).toContain('= when: raises when x\\ty\n');
    expect(text).not.toContain('\x1b');
    // JSON keeps the message as the record has it.
    expect(JSON.parse(renderReport('json', { diagnostics: [d], errors: [] })).diagnostics[0].message).toBe(d.message);
  });

  it('a rule title is one line (`raiselint rules`, explain, docs): a line break of the message is shown escaped', async () => {
    const source = 'def open_it(name):\n    raise OSError("could not open:\\n" + name)\n';
    const record = {
      id: 'feedfeedfeed0001',
      repo: 'acme/lib',
      slug: 'could-not-open',
      errorMessage: 'could not open:\n{summary}',
      errorClass: 'OSError',
      severity: 'error',
      filePath: 'lib/core.py',
      lineNumber: 2,
      sourceCode: source,
      sourceCodeStart: 1,
      tags: ['python'],
      schemaVersion: 2,
    };
    const dir = mkdtempSync(join(tmpdir(), 'raiselint-title-'));
    writeFileSync(join(dir, 'r.jsonl'), JSON.stringify({ record, datasetVersion: 'x' }) + '\n');
    const set = await loadRules({ records: [join(dir, 'r.jsonl')], bundled: false });
    const out = formatRulesText(set.rules, set);
    expect(out).toContain('  raises    OSError: could not open:\\n{summary}\n');
    expect(JSON.parse(formatRulesJson(set.rules, set))[0].errorMessage).toBe('could not open:\n{summary}');
  });
});

describe('format dispatch', () => {
  it('every format renders, and --statistics replaces the findings', () => {
    for (const f of FORMATS) {
      const out = renderReport(f, { diagnostics: diags, errors: [], sources, rules: rules.byId });
      expect(out.length, f).toBeGreaterThan(0);
      expect(out, f).toContain('autogen/agent-load-state-is-not-yet-implemented');
    }
    expect(renderReport('sarif', { diagnostics: diags, errors: [] })).toContain('"version": "2.1.0"');
    expect(renderReport('concise', { diagnostics: diags, errors: [], sources })).not.toContain(' | ');
    expect(renderReport('text', { diagnostics: diags, errors: [], sources })).toContain(' | ');
    for (const f of ['text', 'concise', 'sarif', 'github', 'gitlab', 'junit'] as const) {
      expect(renderReport(f, { diagnostics: diags, errors: [] }, { statistics: true }), f).toBe(formatStatisticsText(diags));
    }
    expect(renderReport('json', { diagnostics: diags, errors: [] }, { statistics: true })).toBe(formatStatisticsJson(diags));
    expect(
      renderReport('json-lines', { diagnostics: diags, errors: [] }, { statistics: true })
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).ruleId),
    ).toEqual(['autogen/agent-save-state-is-not-yet-implemented', 'autogen/agent-load-state-is-not-yet-implemented']);
    expect(FORMATS.filter(reportsErrors)).toEqual(['text', 'concise', 'github', 'junit']);
  });
});
