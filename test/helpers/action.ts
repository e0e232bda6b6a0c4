/**
 * Runs the steps of a composite action (action.yml) the way the GitHub runner does, without `act`:
 * each `run:` step through `bash --noprofile --norc -eo pipefail`, with its `env:` and
 * `working-directory:` resolved, GITHUB_OUTPUT / GITHUB_PATH files between steps, `if:` conditions
 * evaluated (the expression forms action.yml uses), and `uses:` steps recorded with their resolved
 * `with:` (not run: setup-node and upload-sarif need GitHub).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

export interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

export interface StepResult {
  step: Step;
  ran: boolean;
  code: number;
  stdout: string;
  stderr: string;
  with?: Record<string, string>;
}

export interface RunContext {
  actionPath: string;
  workspace: string;
  temp: string;
  inputs: Record<string, string>;
  env: NodeJS.ProcessEnv;
  /** Steps (by name) not to run again (already done in this context). */
  skip?: string[];
  /** GITHUB_PATH entries so far, first = most recent. */
  path?: string[];
}

export function loadAction(file: string): Action {
  return parse(readFileSync(file, 'utf8')) as Action;
}

type Ctx = {
  inputs: Record<string, string>;
  github: Record<string, string>;
  runner: Record<string, string>;
  steps: Record<string, { outputs: Record<string, string> }>;
  failed: boolean;
};

function operand(tok: string, ctx: Ctx): string | boolean {
  const t = tok.trim();
  if (t === 'always()') return true;
  if (t === 'success()') return !ctx.failed;
  if (t === 'failure()') return ctx.failed;
  const lit = /^'((?:[^']|'')*)'$/.exec(t);
  if (lit) return lit[1]!.replace(/''/g, "'");
  const path = t.split('.');
  let v: unknown = ctx;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  if (v === undefined) {
    if (path[0] === 'steps' || path[0] === 'inputs') return '';
    throw new Error(`action.yml: unknown expression ${t}`);
  }
  return v as string;
}

/** `a && b`, `x == 'y'`, `x != ''`, `always()`, a context path: what action.yml writes. */
export function evaluate(expr: string, ctx: Ctx): string | boolean {
  const e = expr
    .trim()
    .replace(/^\$\{\{([\s\S]*)\}\}$/, '$1')
    .trim();
  const terms = e.split('&&');
  if (terms.length > 1) return terms.every((t) => truthy(evaluate(t, ctx)));
  const cmp = /^(.*?)\s*(==|!=)\s*(.*)$/.exec(e);
  if (cmp) {
    const [a, b] = [String(operand(cmp[1]!, ctx)), String(operand(cmp[3]!, ctx))];
    return cmp[2] === '==' ? a === b : a !== b;
  }
  return operand(e, ctx);
}

function truthy(v: string | boolean): boolean {
  return v !== false && v !== '' && v !== 'false' && v !== '0';
}

/** A string with `${{ expr }}` in it, substituted. */
export function interpolate(s: string, ctx: Ctx): string {
  return s.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, x: string) => String(evaluate(x, ctx)));
}

function outputsOf(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1);
  }
  return out;
}

/** Runs every step of the action in order; returns each step's result and the action's outputs. */
export function runAction(action: Action, rc: RunContext): { steps: StepResult[]; outputs: Record<string, string>; path: string[] } {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, rc.inputs[k] ?? v.default ?? '']));
  const ctx: Ctx = { inputs, github: { action_path: rc.actionPath, workspace: rc.workspace }, runner: { temp: rc.temp }, steps: {}, failed: false };
  const path = [...(rc.path ?? [])];
  const results: StepResult[] = [];
  action.runs.steps.forEach((step, n) => {
    const ran = step.if === undefined ? !ctx.failed : truthy(evaluate(step.if, ctx));
    if (!ran || rc.skip?.includes(step.name ?? '')) return results.push({ step, ran: false, code: 0, stdout: '', stderr: '' });
    if (step.uses)
      return results.push({
        step,
        ran: true,
        code: 0,
        stdout: '',
        stderr: '',
        with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(String(v), ctx)])),
      });
    const files = { GITHUB_OUTPUT: join(rc.temp, `output-${n}`), GITHUB_PATH: join(rc.temp, `path-${n}`), GITHUB_ENV: join(rc.temp, `env-${n}`) };
    for (const f of Object.values(files)) writeFileSync(f, '');
    const script = join(rc.temp, `step-${n}.sh`);
    writeFileSync(script, step.run!);
    const env = {
      ...rc.env,
      ...files,
      RUNNER_TEMP: rc.temp,
      GITHUB_WORKSPACE: rc.workspace,
      GITHUB_ACTION_PATH: rc.actionPath,
      PATH: [...path, rc.env.PATH].join(':'),
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = interpolate(String(v), ctx);
    const cwd = resolve(rc.workspace, interpolate(step['working-directory'] ?? '.', ctx));
    if (step.shell !== 'bash')
      throw new Error(`action.yml: step ${step.name}: shell ${step.shell} (the runner needs one for composite run steps; this harness runs bash)`);
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, encoding: 'utf8' });
    if (step.id) ctx.steps[step.id] = { outputs: outputsOf(files.GITHUB_OUTPUT) };
    path.unshift(...readFileSync(files.GITHUB_PATH, 'utf8').split('\n').filter(Boolean).reverse());
    if (r.status !== 0) ctx.failed = true;
    return results.push({ step, ran: true, code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr });
  });
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, interpolate(v.value, ctx)]));
  return { steps: results, outputs, path };
}
