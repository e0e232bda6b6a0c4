/** Semantic fingerprints and the baseline file. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkSource } from '../src/engine/check.js';
import { loadRules } from '../src/compile/load.js';
import type { RuleSet } from '../src/rules/ruleset.js';
import { ONE, R, checkJson, makeProject, raiselint } from './helpers/project.js';

let rules: RuleSet;
beforeAll(async () => {
  rules = await loadRules();
});

const fp = (text: string) => checkSource(text, 'a.py', rules).diagnostics.map((d) => `${d.ruleId} ${d.fingerprint}`);

const BASE = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime


class Store:
    def __init__(self) -> None:
        self.runtime = GrpcWorkerAgentRuntime(host_address="x")

    async def save(self) -> None:
        await self.runtime.save_state()
        await self.runtime.save_state()


async def main() -> None:
    runtime = GrpcWorkerAgentRuntime(host_address="x")
    await runtime.save_state()
`;

describe('fingerprints', () => {
  it('every finding has one; equal calls in one function differ by their index', () => {
    const f = fp(BASE);
    expect(f).toHaveLength(3);
    expect(new Set(f).size).toBe(3);
    for (const x of f) expect(x).toMatch(/^autogen\/saving-state-is-not-yet-implemented [0-9a-f]{20}$/);
  });

  it('reformatting, added lines and comments keep them', () => {
    const reformatted = BASE.replace('from autogen_ext', '"""Module doc."""\n\nimport os\n\nfrom autogen_ext')
      .replace('await self.runtime.save_state()\n        await', 'await self.runtime.save_state(\n        )\n\n        # a comment\n        await')
      .replace('    runtime = Grpc', '    print(os.getcwd())\n    runtime = Grpc');
    expect(fp(reformatted)).toEqual(fp(BASE));
  });

  it('moving a function keeps them; renaming the enclosing function or the target changes them', () => {
    const parts = BASE.split('\n\n\n');
    const moved = [parts[0], parts[2]!.trimEnd() + '\n', parts[1]].join('\n\n\n');
    expect(fp(moved).sort()).toEqual(fp(BASE).sort());
    expect(fp(BASE.replace('async def main', 'async def run'))[2]).not.toBe(fp(BASE)[2]);
    expect(fp(BASE.replace('class Store', 'class Keeper'))[0]).not.toBe(fp(BASE)[0]);
    // a different call target (another rule on the same receiver) has another fingerprint
    const other = fp(BASE.replace('    await runtime.save_state()', '    await runtime.load_state({})'))[2]!;
    expect(other.split(' ')[0]).toBe(R.load);
  });

  it('renaming a local variable keeps them (the target is the receiver class, not its name)', () => {
    expect(fp(BASE.replace(/    runtime = /, '    rt = ').replace('await runtime.save_state()', 'await rt.save_state()'))).toEqual(fp(BASE));
  });
});

describe('baseline', () => {
  it('--update-baseline writes it; --baseline reports only new findings; reformatting keeps old ones known', () => {
    const root = makeProject({ 'src/a.py': BASE, 'src/b.py': ONE });
    const w = raiselint(root, ['check', '--update-baseline']);
    expect(w.stderr).toBe('raiselint: wrote 4 findings to raiselint-baseline.json\n');
    expect(w.code).toBe(0);
    const doc = JSON.parse(readFileSync(join(root, 'raiselint-baseline.json'), 'utf8'));
    expect(doc.version).toBe(1);
    expect(doc.findings.map((f: { file: string; ruleId: string }) => `${f.file} ${f.ruleId}`)).toEqual([
      ...Array(3).fill(`src/a.py ${R.save}`),
      `src/b.py ${R.save}`,
    ]);

    expect(checkJson(root, ['--baseline', 'raiselint-baseline.json']).keys).toEqual([]);
    // Reformat a.py, add a new finding to b.py
    writeFileSync(join(root, 'src/a.py'), '\n\n# moved down\n' + BASE.replace('await runtime.save_state()', 'await runtime.save_state(\n    )'));
    writeFileSync(join(root, 'src/b.py'), ONE + '    await runtime.load_state({})\n    await runtime.save_state()\n');
    const { run, keys } = checkJson(root, ['--baseline', 'raiselint-baseline.json']);
    expect(keys).toEqual([`src/b.py:7 ${R.load}`, `src/b.py:8 ${R.save}`]);
    expect(run.code).toBe(1);
  });

  it('paths are relative to the baseline file: it works from another folder and with explicit files', () => {
    const root = makeProject({ 'pkg/a.py': ONE });
    raiselint(root, ['check', '--update-baseline', '--baseline', 'ci/baseline.json']);
    expect(JSON.parse(readFileSync(join(root, 'ci/baseline.json'), 'utf8')).findings[0].file).toBe('../pkg/a.py');
    expect(checkJson(join(root, 'pkg'), ['--baseline', '../ci/baseline.json', 'a.py']).keys).toEqual([]);
  });

  it('a fixed finding is counted as gone; entries of files not checked are not', () => {
    const root = makeProject({ 'a.py': ONE, 'b.py': ONE });
    raiselint(root, ['check', '--update-baseline']);
    writeFileSync(join(root, 'a.py'), ONE.replace('await runtime.save_state()', 'pass'));
    const r = raiselint(root, ['check', '--baseline', 'raiselint-baseline.json']);
    expect(r.stderr).toBe('raiselint: 1 baseline finding is gone (run with --update-baseline to drop them)\n');
    expect(r.code).toBe(0);
    expect(raiselint(root, ['check', '--baseline', 'raiselint-baseline.json', 'b.py']).stderr).toBe('');
  });

  it('a renamed file is new to the baseline', () => {
    const root = makeProject({ 'a.py': ONE });
    raiselint(root, ['check', '--update-baseline']);
    mkdirSync(join(root, 'x'));
    renameSync(join(root, 'a.py'), join(root, 'x', 'a.py'));
    expect(checkJson(root, ['--baseline', 'raiselint-baseline.json']).keys).toEqual([`x/a.py:6 ${R.save}`]);
  });

  it('a missing or malformed baseline is exit 2 with one line', () => {
    const root = makeProject({
      'a.py': ONE,
      'bad.json': '{"version": 1, "findings": [{"file": "a.py"}]}',
      'v2.json': '{"version": 2, "findings": []}',
      'nojson.json': '{',
    });
    const cases: [string, string][] = [
      ['missing.json', 'raiselint: error: missing.json: baseline file not found (create it with --update-baseline)\n'],
      ['bad.json', "raiselint: error: bad.json: field 'findings[0].ruleId': expected a string\n"],
      ['v2.json', "raiselint: error: v2.json: field 'version': expected 1, got 2\n"],
    ];
    for (const [file, err] of cases) {
      const r = raiselint(root, ['check', '--baseline', file]);
      expect([r.code, r.stderr]).toEqual([2, err]);
    }
    const r = raiselint(root, ['check', '--baseline', 'nojson.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('raiselint: error: nojson.json: invalid JSON at column 2 (not a raiselint baseline, or damaged)\n');
  });
});
