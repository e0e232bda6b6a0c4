/**
 * The GitHub Action (action.yml), run through its steps with a local path as the action's checkout
 * (`act` is not available): a clone of HEAD is installed by the action's own install step, then
 * `raiselint check` runs in a workspace with a bad file, in SARIF and in annotations mode.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAction, runAction, type RunContext } from './helpers/action.js';
import { cloneHead } from './helpers/git.js';
import { GRPC_BAD } from './helpers.js';

const ROOT = join(import.meta.dirname, '..');
const LONG = 600_000;
const action = loadAction(join(ROOT, 'action.yml'));
const JSON_BAD = `import json


def read(text):
    return json.loads(text)
`;

let tmp: string;
let base: Omit<RunContext, 'inputs' | 'temp'>;
let installed: string[] = [];

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'raiselint-action-'));
  const actionPath = join(tmp, 'action');
  cloneHead(actionPath);
  const workspace = join(tmp, 'workspace');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(join(workspace, 'src', 'app.py'), GRPC_BAD);
  writeFileSync(join(workspace, 'src', 'io_.py'), JSON_BAD);
  writeFileSync(join(workspace, 'our-errors.jsonl'), readFileSync(join(ROOT, 'fixtures', 'shapes', 'records.jsonl')));
  // The runner's npm prefix (setup-node's) is the user's; here a temporary one.
  base = { actionPath, workspace, env: { ...process.env, npm_config_prefix: join(tmp, 'prefix'), NO_COLOR: '1' } };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function temp(name: string): string {
  const d = join(tmp, `runner-${name}`);
  mkdirSync(d);
  return d;
}

describe('action.yml', () => {
  it('is a composite action: set up Node, install from the action path, check, upload SARIF, fail on findings', () => {
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps;
    expect(steps.map((s) => s.uses ?? s.name)).toEqual([
      'actions/setup-node@v4',
      "Install raiselint (this action's ref)",
      'raiselint check',
      'github/codeql-action/upload-sarif@v3',
      'Fail on findings',
    ]);
    expect(steps[1]!.env!.RAISELINT_SRC).toBe('${{ github.action_path }}');
    // Inputs reach the scripts through env only (no ${{ }} inside a script: no injection).
    for (const s of steps) if (s.run) expect(s.run).not.toContain('${{');
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining(['paths', 'format', 'min-confidence', 'records', 'args', 'upload', 'category', 'fail-on-findings']),
    );
  });

  it(
    'format sarif: installs raiselint from the local path, writes a valid SARIF log, hands it to upload-sarif, fails the job',
    () => {
      const r = runAction(action, { ...base, temp: temp('sarif'), inputs: { paths: 'src', records: 'our-errors.jsonl' } });
      const [setup, install, check, upload, fail] = r.steps;
      expect(setup!.with).toEqual({ 'node-version': '20' });
      expect(install!.code, install!.stderr).toBe(0);
      expect(install!.stdout).toMatch(/^installed \d+\.\d+\.\d+ from /m);
      installed = r.path;
      expect(check!.code, check!.stderr).toBe(0);
      expect(r.outputs['exit-code']).toBe('1');
      const sarifFile = r.outputs['sarif-file']!;
      expect(upload!.ran).toBe(true);
      expect(upload!.with).toEqual({ sarif_file: sarifFile, category: 'raiselint' });
      const log = JSON.parse(readFileSync(sarifFile, 'utf8'));
      const schema = JSON.parse(readFileSync(join(ROOT, 'test', 'schemas', 'sarif-2.1.0.json'), 'utf8'));
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      (addFormats as unknown as (a: Ajv2020) => void)(ajv);
      expect(ajv.validate(schema, log), JSON.stringify(ajv.errors?.slice(0, 3))).toBe(true);
      const results = log.runs[0].results.map((x: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) => [
        x.ruleId,
        x.locations[0]!.physicalLocation.artifactLocation.uri,
      ]);
      // The bundled rule, and one from the `records` input.
      expect(results).toContainEqual(['autogen/agent-save-state-is-not-yet-implemented', 'src/app.py']);
      expect(results).toContainEqual(['cpython/json-expecting-value', 'src/io_.py']);
      // The findings are in the log too.
      expect(check!.stdout).toContain('src/app.py:6:19: autogen/agent-save-state-is-not-yet-implemented');
      expect(fail!.ran).toBe(true);
      expect(fail!.code).toBe(1);
    },
    LONG,
  );

  it(
    'format github: annotations on stdout, min-confidence and extra args passed; nothing to upload; fail-on-findings false passes',
    () => {
      expect(installed.length, 'the install step ran in the test before').toBeGreaterThan(0);
      const inputs = {
        paths: 'src/app.py\nsrc/io_.py',
        format: 'github',
        'min-confidence': 'certain',
        args: '--select autogen',
        'fail-on-findings': 'false',
        records: 'our-errors.jsonl',
      };
      const r = runAction(action, { ...base, temp: temp('github'), inputs, skip: ["Install raiselint (this action's ref)"], path: installed });
      const [, , check, upload, fail] = r.steps;
      expect(check!.code, check!.stderr).toBe(0);
      expect(check!.stdout).toMatch(
        /^::error file=src\/app\.py,line=6,col=19,endLine=6,endColumn=53,title=raiselint \(autogen\/agent-save-state-is-not-yet-implemented\)::/m,
      );
      expect(check!.stdout).not.toContain('cpython/'); // --select autogen
      expect(r.outputs).toEqual({ 'exit-code': '1', 'sarif-file': '' });
      expect(upload!.ran).toBe(false);
      expect(fail!.ran).toBe(false);
    },
    LONG,
  );

  it(
    'a bad input (a missing path) fails the check step with exit 2 and a one-line error; nothing is uploaded',
    () => {
      expect(installed.length).toBeGreaterThan(0);
      const r = runAction(action, { ...base, temp: temp('bad'), inputs: { paths: 'nope' }, skip: ["Install raiselint (this action's ref)"], path: installed });
      const [, , check, upload] = r.steps;
      expect(check!.code).toBe(2);
      expect(check!.stderr).toMatch(/^raiselint: error: nope: no such file or directory$/m);
      expect(r.outputs['exit-code']).toBe('2');
      expect(upload!.ran).toBe(false);
    },
    LONG,
  );
});
