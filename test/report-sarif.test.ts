/**
 * `--format sarif`: every log produced here is validated against the SARIF 2.1.0 JSON schema
 * (test/schemas/sarif-2.1.0.json, from the npm package @microsoft/sarif-multitool-linux; see its README),
 * and the parts CI systems read are checked one by one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic, FileError } from '../src/diagnostics/types.js';
import { lineStarts } from '../src/diagnostics/positions.js';
import { checkSource } from '../src/engine/check.js';
import { loadRules } from '../src/compile/load.js';
import { sequentialCheck } from './helpers/batch.js';
import { artifactLocation, formatSarif, pascalCase, sarifLog, SARIF_SCHEMA_URI, urlLine } from '../src/report/sarif.js';
import type { RuleSet } from '../src/rules/ruleset.js';

const ROOT = join(import.meta.dirname, '..');
const schema = JSON.parse(readFileSync(join(ROOT, 'test', 'schemas', 'sarif-2.1.0.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const validate = ajv.compile(schema);

/** The log, read loosely. */
type J = any;

function expectValid(doc: unknown): void {
  const ok = validate(doc);
  expect(ok ? [] : validate.errors!.slice(0, 5).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)).toEqual([]);
}

const SAMPLE = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime


async def main(agent_id):
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    state = await runtime.agent_save_state(agent_id)
    return state
`;

let rules: RuleSet;
beforeAll(async () => {
  rules = await loadRules();
});

function check(text: string, file = 'app/main.py') {
  const r = checkSource(text, file, rules);
  return { diagnostics: r.diagnostics, errors: r.errors, sources: new Map([[file, text]]), rules: rules.byId };
}

describe('sarif: schema', () => {
  it('runs from the project root (display paths are relative to it)', () => {
    expect(process.cwd()).toBe(ROOT);
  });

  it('the validator rejects what the schema forbids (it is live)', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false); // driver.name required
    expect(validate({ version: '2.0.0', runs: [] })).toBe(false);
    const doc: J = sarifLog(check(SAMPLE));
    doc.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
    expect(validate(doc)).toBe(false);
  });

  it('a run over the whole fixture corpus is valid SARIF 2.1.0', () => {
    {
      const res = sequentialCheck(['fixtures/autogen'], rules, {});
      expect(res.diagnostics.length).toBeGreaterThan(50);
      const doc: J = JSON.parse(formatSarif({ ...res, rules: rules.byId }));
      expectValid(doc);
      expect(doc.runs[0].results).toHaveLength(res.diagnostics.length);
      // The syntax-error fixture becomes a warning notification; the run still succeeded.
      const notes = doc.runs[0].invocations[0].toolExecutionNotifications;
      expect(notes.some((n: J) => n.level === 'warning' && n.locations[0].physicalLocation.artifactLocation.uri === 'fixtures/autogen/syntax_error.py')).toBe(
        true,
      );
      expect(doc.runs[0].invocations[0].executionSuccessful).toBe(true);
    }
  });

  it('an empty run is valid', () => {
    const doc: J = sarifLog({ diagnostics: [], errors: [] });
    expectValid(doc);
    expect(doc.runs[0].results).toEqual([]);
    expect(doc.runs[0].tool.driver.rules).toEqual([]);
  });
});

describe('sarif: log and rules', () => {
  it('has $schema, version, tool and rule metadata from the record', () => {
    const doc: J = sarifLog(check(SAMPLE));
    expectValid(doc);
    expect(doc.$schema).toBe(SARIF_SCHEMA_URI);
    expect(doc.version).toBe('2.1.0');
    const driver = doc.runs[0].tool.driver;
    expect(driver.name).toBe('raiselint');
    expect(driver.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(driver.rules).toHaveLength(1);
    const rule = driver.rules[0];
    const rec = rules.byId.get('autogen/agent-save-state-is-not-yet-implemented')!.record;
    expect(rule.id).toBe('autogen/agent-save-state-is-not-yet-implemented');
    expect(rule.name).toBe('AgentSaveStateIsNotYetImplemented');
    expect(rule.shortDescription.text).toBe('GrpcWorkerAgentRuntime.agent_save_state() raises NotImplementedError: Agent save_state is not yet implemented.');
    expect(rule.fullDescription.text).toBe(rec.documentation);
    for (const tip of rec.preventionTips!) {
      expect(rule.help.text).toContain(`  - ${tip}`);
      expect(rule.help.markdown).toContain(`- ${tip}`);
    }
    for (const s of rec.solutions!) expect(rule.help.text).toContain(s);
    expect(rule.help.markdown).toContain('### Prevention tips');
    expect(rule.help.markdown).toContain('```python\n# before');
    expect(rule.help.text).toContain(`Raised at: ${rec.githubUrl!.replace(/#L.*$/, '')}#L502`);
    // The rule's documentation page (docs/rules/, at this version's tag), not the library's raising line.
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    expect(rule.helpUri).toBe(`https://github.com/raiselint/raiselint/blob/v${version}/docs/rules/autogen/agent-save-state-is-not-yet-implemented.md`);
    expect(readFileSync(join(ROOT, 'docs', 'rules', 'autogen', 'agent-save-state-is-not-yet-implemented.md'), 'utf8')).toContain(rec.documentation!);
    expect(rule.defaultConfiguration.level).toBe('error');
    expect(rule.properties.tags).toContain('NotImplementedError');
  });

  it('rules[] lists each rule with results once, and ruleIndex points at it', () => {
    {
      const res = sequentialCheck(['fixtures/autogen/each_rule.py', 'fixtures/autogen/indirect_teams.py'], rules, {});
      const doc: J = sarifLog({ ...res, rules: rules.byId });
      const ids = doc.runs[0].tool.driver.rules.map((r: J) => r.id);
      expect(ids).toEqual([...new Set(res.diagnostics.map((d) => d.ruleId))].sort());
      for (const r of doc.runs[0].results) expect(ids[r.ruleIndex]).toBe(r.ruleId);
    }
  });
});

describe('sarif: results', () => {
  it('carry the full region, a snippet, the context lines and level', () => {
    const doc: J = sarifLog(check(SAMPLE));
    const r = doc.runs[0].results[0];
    expect(r.level).toBe('error');
    expect(r.message.text).toContain('raises NotImplementedError');
    const loc = r.locations[0].physicalLocation;
    expect(loc.artifactLocation).toEqual({ uri: 'app/main.py', uriBaseId: '%SRCROOT%' });
    expect(loc.region).toEqual({ startLine: 6, startColumn: 19, endLine: 6, endColumn: 53, snippet: { text: 'runtime.agent_save_state(agent_id)' } });
    expect(loc.contextRegion).toEqual({ startLine: 6, endLine: 6, snippet: { text: '    state = await runtime.agent_save_state(agent_id)' } });
    expect(doc.runs[0].originalUriBaseIds['%SRCROOT%'].uri).toMatch(/^file:\/\/.*\/$/);
    expect(doc.runs[0].columnKind).toBe('utf16CodeUnits');
  });

  it('a multi-line call keeps its end line and column', () => {
    const text = SAMPLE.replace('runtime.agent_save_state(agent_id)', 'runtime.agent_save_state(\n        agent_id,\n    )');
    const doc: J = sarifLog(check(text));
    expectValid(doc);
    const region = doc.runs[0].results[0].locations[0].physicalLocation.region;
    expect([region.startLine, region.startColumn, region.endLine, region.endColumn]).toEqual([6, 19, 8, 6]);
    expect(region.snippet.text).toBe('runtime.agent_save_state(\n        agent_id,\n    )');
  });

  it('primaryLocationLineHash survives moving and re-indenting the code, not changing it', () => {
    const hash = (text: string) => (sarifLog(check(text)) as J).runs[0].results.map((r: J) => r.partialFingerprints.primaryLocationLineHash);
    const base = hash(SAMPLE);
    expect(base[0]).toMatch(/^[0-9a-f]{16}:1$/);
    const moved = SAMPLE.replace('async def main', '# a comment\n\n\nasync def main');
    expect(hash(moved)).toEqual(base);
    const tabs = SAMPLE.replace(/\n {4}/g, '\n\t').replace('await runtime', 'await  runtime');
    expect(hash(tabs)).toEqual(base);
    const changed = SAMPLE.replace('state = await', 'saved = await');
    expect(hash(changed)).not.toEqual(base);
    // Two identical findings in one file differ by their occurrence counter.
    const twice = SAMPLE.replace('    return state', '    state = await runtime.agent_save_state(agent_id)\n    return state');
    const h2 = hash(twice);
    expect(h2).toHaveLength(2);
    expect(h2[0]!.split(':')[0]).toBe(h2[1]!.split(':')[0]);
    expect([h2[0]!.split(':')[1], h2[1]!.split(':')[1]]).toEqual(['1', '2']);
  });

  it('partialFingerprints also carry the semantic fingerprint the baseline uses', () => {
    const doc: J = sarifLog(check(SAMPLE));
    const diags = check(SAMPLE).diagnostics;
    expect(doc.runs[0].results.map((r: J) => r.partialFingerprints['raiselint/v1'])).toEqual(diags.map((d) => d.fingerprint));
    expect(diags[0]!.fingerprint).toMatch(/^[0-9a-f]{20}$/);
  });

  it('relatedLocations: only in the checked file, each with a physicalLocation, linked from the message; the raising line as a property and a link', () => {
    const direct: J = sarifLog(check(SAMPLE));
    const d0 = direct.runs[0].results[0];
    expect(d0.relatedLocations).toBeUndefined();
    const raisedAt =
      'https://github.com/microsoft/autogen/blob/027ecf0a379bcc1d09956d46d12d44a3ad9cee14/python/packages/autogen-ext/src/autogen_ext/runtimes/grpc/_worker_runtime.py#L502';
    expect(d0.properties.raisedAt).toBe(raisedAt);
    expect(d0.message.text).toBe(
      'runtime.agent_save_state() raises NotImplementedError (GrpcWorkerAgentRuntime.agent_save_state()): Agent save_state is not yet implemented.',
    );
    expect(d0.message.markdown).toBe(
      `runtime.agent\\_save\\_state() raises NotImplementedError (GrpcWorkerAgentRuntime.agent\\_save\\_state()): Agent save\\_state is not yet implemented. ([raised here](${raisedAt}))`,
    );
    expect(direct.runs[0].automationDetails).toEqual({ id: 'raiselint/' });

    const team = `from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime


async def main(agents):
    runtime = GrpcWorkerAgentRuntime(host_address="localhost:50051")
    team = RoundRobinGroupChat(agents, runtime=runtime)
    return await team.save_state()
`;
    const doc: J = sarifLog(check(team));
    expectValid(doc);
    const r = doc.runs[0].results[0];
    expect(r.ruleId).toBe('autogen/agent-save-state-is-not-yet-implemented');
    expect(r.relatedLocations).toHaveLength(1);
    expect(r.relatedLocations[0]).toMatchObject({ id: 1, message: { text: 'team.save_state(), which calls runtime.agent_save_state()' } });
    expect(r.relatedLocations[0].physicalLocation.artifactLocation).toEqual({ uri: 'app/main.py', uriBaseId: '%SRCROOT%' });
    expect(r.relatedLocations[0].physicalLocation.region.startLine).toBe(8);
    // GitHub links a related location only from the message, as [text](id).
    expect(r.message.text).toMatch(/^\[team\.save_state\(\)\]\(1\) -> runtime\.agent_save_state\(\): /);
    expect(r.properties.via).toEqual(['team.save_state()', 'runtime.agent_save_state()']);
    // Every location of every result (fixtures with every rule) is in the checked files.
    const all: J = sarifLog({ ...sequentialCheck(['fixtures/autogen'], rules, {}), rules: rules.byId });
    expectValid(all);
    for (const res of all.runs[0].results) {
      for (const loc of [...res.locations, ...(res.relatedLocations ?? [])]) {
        expect(loc.physicalLocation.artifactLocation.uriBaseId).toBe('%SRCROOT%');
        expect(loc.physicalLocation.artifactLocation.uri).toMatch(/^fixtures\/autogen\//);
      }
      for (const m of res.message.text.matchAll(/(?<!\\)\[[^\]]*\]\((\d+)\)/g)) expect(res.relatedLocations.map((l: J) => String(l.id))).toContain(m[1]);
    }
  });

  it('fixes[] from a diagnostic that carries a fix; none without one or for display-only fixes', () => {
    // The fix the fix stage planned is carried (a replacement, unsafe: the record's code), and none
    // when it is display-only (SaveStateRequest is not defined).
    expect((sarifLog(check(SAMPLE)) as J).runs[0].results[0].fixes).toBeUndefined();
    const fixable = SAMPLE.replace('\n\n\nasync def', '\nfrom .messages import SaveStateRequest\n\nasync def');
    const planned = check(fixable);
    expect((sarifLog(planned) as J).runs[0].results[0].fixes[0].description.text).toMatch(/^Apply the replace fix \(unsafe\)/);
    const base = { ...planned, diagnostics: planned.diagnostics.map((d) => ({ ...d, fix: undefined })) };
    expect((sarifLog(base) as J).runs[0].results[0].fixes).toBeUndefined();
    const line6 = lineStarts(fixable)[5]!;
    const withFix = (applicability: string): Diagnostic[] =>
      base.diagnostics.map((d) => ({
        ...d,
        fix: {
          applicability,
          strategy: 'try-except',
          reason: 'wraps the statement',
          // Offsets of SAMPLE's 6:1 and 6:5-6:53 (fixes carry offsets; SARIF gives lines and columns).
          edits: [
            { start: line6, end: line6, text: '    try:\n' },
            {
              start: line6 + 4,
              end: line6 + 52,
              text: '    state = await runtime.agent_save_state(agent_id)\n    except NotImplementedError:\n        state = None',
            },
          ],
        },
      })) as Diagnostic[];
    const doc: J = sarifLog({ ...base, diagnostics: withFix('safe') });
    expectValid(doc);
    const fix = doc.runs[0].results[0].fixes[0];
    expect(fix.description.text).toBe('Apply the try-except fix (safe): wraps the statement');
    expect(fix.artifactChanges[0].artifactLocation).toEqual({ uri: 'app/main.py', uriBaseId: '%SRCROOT%' });
    expect(fix.artifactChanges[0].replacements).toEqual([
      { deletedRegion: { startLine: 6, startColumn: 1, endLine: 6, endColumn: 1 }, insertedContent: { text: '    try:\n' } },
      {
        deletedRegion: { startLine: 6, startColumn: 5, endLine: 6, endColumn: 53 },
        insertedContent: { text: '    state = await runtime.agent_save_state(agent_id)\n    except NotImplementedError:\n        state = None' },
      },
    ]);
    expect(fix.properties.applicability).toBe('safe');
    expect((sarifLog({ ...base, diagnostics: withFix('display-only') }) as J).runs[0].results[0].fixes).toBeUndefined();
    // A malformed fix is ignored, not emitted half-way.
    const bad = base.diagnostics.map((d) => ({ ...d, fix: { applicability: 'safe', edits: [{ line: 0, text: 1 }] } })) as unknown as Diagnostic[];
    expect((sarifLog({ ...base, diagnostics: bad }) as J).runs[0].results[0].fixes).toBeUndefined();
  });

  it('file errors become notifications; a read error marks the run unsuccessful', () => {
    const errors: FileError[] = [
      { file: 'bad.py', line: 3, column: 7, kind: 'syntax', message: 'syntax error: invalid syntax' },
      { file: 'gone.py', kind: 'read', message: 'cannot read file (EACCES)' },
    ];
    const doc: J = sarifLog({ diagnostics: [], errors });
    expectValid(doc);
    const inv = doc.runs[0].invocations[0];
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.toolExecutionNotifications).toEqual([
      {
        level: 'warning',
        message: { text: 'syntax error: invalid syntax' },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'bad.py', uriBaseId: '%SRCROOT%' }, region: { startLine: 3, startColumn: 7 } } }],
        descriptor: { id: 'syntax-error' },
      },
      {
        level: 'error',
        message: { text: 'cannot read file (EACCES)' },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'gone.py', uriBaseId: '%SRCROOT%' } } }],
        descriptor: { id: 'read-error' },
      },
    ]);
  });

  it('paths become valid URI references: spaces, percent signs, non-ASCII, absolute paths', () => {
    expect(artifactLocation('my dir/100%/naïve.py')).toEqual({ uri: 'my%20dir/100%25/na%C3%AFve.py', uriBaseId: '%SRCROOT%' });
    expect(artifactLocation('./a.py')).toEqual({ uri: 'a.py', uriBaseId: '%SRCROOT%' });
    expect(artifactLocation('../up/a.py')).toEqual({ uri: '../up/a.py', uriBaseId: '%SRCROOT%' });
    expect(artifactLocation('/abs/x y.py')).toEqual({ uri: 'file:///abs/x%20y.py' });
    const doc: J = sarifLog(check(SAMPLE, 'my dir/100%/naïve.py'));
    expectValid(doc);
    expect(doc.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('my%20dir/100%25/na%C3%AFve.py');
  });

  it('helpers: urlLine and pascalCase', () => {
    expect(urlLine('https://x/y.py#L12')).toEqual({ uri: 'https://x/y.py', line: 12 });
    expect(urlLine('https://x/y.py#L12-L20')).toEqual({ uri: 'https://x/y.py', line: 12 });
    expect(urlLine('https://x/y.py')).toEqual({ uri: 'https://x/y.py' });
    expect(pascalCase('agent-save-state-is-not-yet-implemented')).toBe('AgentSaveStateIsNotYetImplemented');
    expect(pascalCase('404-not_found')).toBe('Rule404NotFound');
  });
});
