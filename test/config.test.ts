/** Configuration: parsing and validation, per-file resolution with inheritance, and the effect of every option. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfigText } from '../src/config/schema.js';
import { ConfigResolver, isExcluded, ruleEnabled, rulePatternMatches, severityOverride } from '../src/config/resolve.js';
import { runProject } from '../src/engine/project.js';
import { ALL_FIVE, ONE, R, checkJson, makeProject, raiselint } from './helpers/project.js';

function configError(text: string, file = '/p/pyproject.toml'): ConfigError {
  try {
    parseConfigText(text, file);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('config file parsing', () => {
  it('reads [tool.raiselint] from pyproject.toml and the top level of raiselint.toml', () => {
    const a = parseConfigText('[project]\nname = "x"\n[tool.raiselint]\nselect = ["autogen"]\nmin-confidence = "certain"\n', '/p/pyproject.toml')!;
    expect(a.select).toEqual(['autogen']);
    expect(a.minConfidence).toBe('certain');
    const b = parseConfigText('root = true\nignore = ["autogen/*"]\nfix-strategy = "type-guard"\n', '/p/raiselint.toml')!;
    expect(b).toMatchObject({ root: true, ignore: ['autogen/*'], fixStrategy: 'type-guard', kind: 'raiselint' });
  });

  it('a pyproject.toml without [tool.raiselint] is not a config', () => {
    expect(parseConfigText('[project]\nname = "x"\n[tool.ruff]\nline-length = 100\n', '/p/pyproject.toml')).toBeUndefined();
  });

  it('keeps severity and per-file-ignores in file order', () => {
    const c = parseConfigText(
      '[severity]\n"autogen/*" = "warning"\n"autogen/x" = "error"\n[per-file-ignores]\n"tests/**" = ["autogen"]\n"__init__.py" = ["*"]\n',
      '/p/raiselint.toml',
    )!;
    expect(c.severity).toEqual([
      ['autogen/*', 'warning'],
      ['autogen/x', 'error'],
    ]);
    expect(c.perFileIgnores).toEqual([
      ['tests/**', ['autogen']],
      ['__init__.py', ['*']],
    ]);
  });

  it('unknown keys name the file, line and key, with a suggestion', () => {
    const e = configError('[project]\nname = "x"\n\n[tool.raiselint]\nselect = []\nmin_confidence = "certain"\n');
    expect(e.describe('/p')).toBe(
      "pyproject.toml:6: key 'tool.raiselint.min_confidence': unknown key (did you mean 'min-confidence'?); known keys: root, records, select, ignore, severity, per-file-ignores, exclude, extend-exclude, extend-include, min-confidence, fix-strategy, target-version, derive",
    );
    expect(configError('selct = ["a"]\n', '/p/raiselint.toml').describe('/p')).toMatch(
      /^raiselint\.toml:1: key 'selct': unknown key \(did you mean 'select'\?\)/,
    );
    expect(configError('[tool]\n[tool.raiselint]\n', '/p/raiselint.toml').key).toBe('tool');
  });

  it('bad values name the key and say what is expected', () => {
    expect(configError('[tool.raiselint]\nmin-confidence = "high"\n').message).toBe('must be one of "certain", "possible", not "high"');
    expect(configError('[tool.raiselint]\nfix-strategy = "rewrite"\n').key).toBe('tool.raiselint.fix-strategy');
    expect(configError('[tool.raiselint]\nselect = "autogen"\n').message).toBe('must be an array of strings, not "autogen"');
    expect(configError('[tool.raiselint]\nignore = ["a", 3]\n').message).toBe('item 2 must be a string, not number 3');
    expect(configError('[tool.raiselint]\nroot = "yes"\n').message).toMatch(/^must be true or false/);
    const sev = configError('[tool.raiselint]\n\n[tool.raiselint.severity]\n"autogen/x" = "fatal"\n');
    expect([sev.key, sev.line, sev.message]).toEqual(['tool.raiselint.severity.autogen/x', 4, 'must be one of "error", "warning", not "fatal"']);
    expect(configError('[tool.raiselint]\nper-file-ignores = { "tests/**" = "autogen" }\n').key).toBe('tool.raiselint.per-file-ignores.tests/**');
    expect(configError('[tool.raiselint]\nexclude = [""]\n').message).toBe('item 1 is empty');
    expect(configError('[tool]\nraiselint = 3\n').message).toBe('must be a table');
  });

  it('every string-list key, and the pattern tables, say what is wrong', () => {
    const fields = {
      records: 'records',
      select: 'select',
      ignore: 'ignore',
      exclude: 'exclude',
      'extend-exclude': 'extendExclude',
      'extend-include': 'extendInclude',
    };
    for (const [key, field] of Object.entries(fields)) {
      expect(configError(`[tool.raiselint]\n${key} = 1\n`).message, key).toBe('must be an array of strings, not number 1');
      expect(parseConfigText(`${key} = ["a", "b"]\n`, '/p/raiselint.toml'), key).toHaveProperty(field, ['a', 'b']);
    }
    expect(configError('[tool.raiselint]\nseverity = ["x"]\n').message).toBe('must be a table of rule pattern = "error" | "warning", not an array');
    expect(configError('[tool.raiselint]\nper-file-ignores = "x"\n').message).toBe('must be a table of file glob = [rule patterns], not "x"');
    const long = 'a'.repeat(1025);
    expect(configError(`[tool.raiselint.severity]\n"${long}" = "error"\n`).message).toBe('a rule pattern is longer than 1024 characters (1025)');
    expect(configError(`[tool.raiselint.per-file-ignores]\n"${long}" = []\n`).message).toBe('a file glob is longer than 1024 characters (1025)');
  });

  it('TOML syntax errors give the line', () => {
    const e = configError('[tool.raiselint]\nselect = ["a"\nignore = []\n');
    expect(e.line).toBeGreaterThanOrEqual(2);
    expect(e.message).toMatch(/^invalid TOML: /);
  });
});

describe('rule patterns', () => {
  it('exact ids, prefixes and globs', () => {
    expect(rulePatternMatches(R.save, R.save)).toBe(true);
    expect(rulePatternMatches('autogen', R.save)).toBe(true);
    expect(rulePatternMatches('autogen/', R.save)).toBe(true);
    expect(rulePatternMatches('auto', R.save)).toBe(false);
    expect(rulePatternMatches('*', R.save)).toBe(true);
    expect(rulePatternMatches('autogen/agent-*', R.agentSave)).toBe(true);
    expect(rulePatternMatches('autogen/agent-*', R.save)).toBe(false);
    expect(rulePatternMatches('*/saving-*', R.save)).toBe(true);
    expect(rulePatternMatches('autogen/saving-state', R.save)).toBe(false);
  });
});

describe('resolution', () => {
  const tree = () =>
    makeProject({
      'pyproject.toml': '[tool.raiselint]\nignore = ["autogen/agent-*"]\nseverity = { "autogen/saving-*" = "warning" }\nmin-confidence = "certain"\n',
      'pkg/raiselint.toml': 'select = ["autogen/saving-*", "autogen/agent-metadata-*"]\n',
      'pkg/inner/pyproject.toml': '[project]\nname = "no raiselint table here"\n',
      'iso/raiselint.toml': 'root = true\nseverity = { "autogen/loading-*" = "warning" }\n',
      'both/raiselint.toml': 'ignore = ["autogen/loading-*"]\n',
      'both/pyproject.toml': '[tool.raiselint]\nignore = ["autogen/saving-*"]\n',
    });

  it('the nearest config applies and inherits from its parents', () => {
    const root = tree();
    const r = new ConfigResolver();
    const top = r.forFile(join(root, 'a.py'));
    const pkg = r.forFile(join(root, 'pkg/inner/b.py'));
    expect(top.sources).toEqual([join(root, 'pyproject.toml')]);
    expect(pkg.sources).toEqual([join(root, 'pyproject.toml'), join(root, 'pkg/raiselint.toml')]);
    // select from pkg, ignore / severity / min-confidence inherited from the root
    expect(ruleEnabled(pkg, R.save, join(root, 'pkg/inner/b.py'))).toBe(true);
    expect(ruleEnabled(pkg, R.load, join(root, 'pkg/inner/b.py'))).toBe(false);
    expect(ruleEnabled(pkg, R.metadata, join(root, 'pkg/inner/b.py'))).toBe(false); // selected, but the parent ignores agent-*
    expect(severityOverride(pkg, R.save)).toBe('warning');
    expect(pkg.minConfidence).toBe('certain');
    expect(ruleEnabled(top, R.load, join(root, 'a.py'))).toBe(true);
  });

  it('root = true stops inheritance', () => {
    const root = tree();
    const iso = new ConfigResolver().forFile(join(root, 'iso/c.py'));
    expect(iso.sources).toEqual([join(root, 'iso/raiselint.toml')]);
    expect(ruleEnabled(iso, R.agentSave, join(root, 'iso/c.py'))).toBe(true);
    expect(iso.minConfidence).toBeUndefined();
    expect(severityOverride(iso, R.save)).toBeUndefined();
    expect(severityOverride(iso, R.load)).toBe('warning');
  });

  it('raiselint.toml wins over pyproject.toml in the same folder', () => {
    const root = tree();
    const both = new ConfigResolver().forFile(join(root, 'both/d.py'));
    expect(both.sources.at(-1)).toBe(join(root, 'both/raiselint.toml'));
    expect(both.ignore.map((p) => p.pattern)).toEqual(['autogen/loading-*']);
  });

  it('severity: the last matching entry wins, nearer configs after their parents', () => {
    const root = makeProject({
      'raiselint.toml': '[severity]\n"autogen" = "warning"\n"autogen/saving-*" = "error"\n',
      'sub/raiselint.toml': '[severity]\n"autogen/saving-state-is-not-yet-implemented" = "warning"\n',
    });
    const r = new ConfigResolver();
    expect(severityOverride(r.forFile(join(root, 'x.py')), R.save)).toBe('error');
    expect(severityOverride(r.forFile(join(root, 'x.py')), R.load)).toBe('warning');
    expect(severityOverride(r.forFile(join(root, 'sub/x.py')), R.save)).toBe('warning');
  });

  it('exclude replaces the defaults, extend-exclude adds, each relative to its own file', () => {
    const root = makeProject({
      'raiselint.toml': 'extend-exclude = ["gen/", "/top_only.py"]\n',
      'sub/raiselint.toml': 'exclude = ["legacy/"]\n',
    });
    const r = new ConfigResolver();
    const top = r.forFile(join(root, 'x.py'));
    expect(isExcluded(top, join(root, 'build/x.py'), false)).toBe(true); // default
    expect(isExcluded(top, join(root, 'gen/x.py'), false)).toBe(true);
    expect(isExcluded(top, join(root, 'top_only.py'), false)).toBe(true);
    expect(isExcluded(top, join(root, 'a/top_only.py'), false)).toBe(false);
    const sub = r.forFile(join(root, 'sub/x.py'));
    expect(isExcluded(sub, join(root, 'sub/legacy/x.py'), false)).toBe(true);
    expect(isExcluded(sub, join(root, 'sub/build/x.py'), false)).toBe(false); // defaults replaced
    expect(isExcluded(sub, join(root, 'sub/gen/x.py'), false)).toBe(false); // the parent's extend-exclude went with them
  });

  it('a missing records path is an error naming the file and key', () => {
    const root = makeProject({ 'pyproject.toml': '[tool.raiselint]\nrecords = [\n  "data/missing.jsonl",\n]\n' });
    let err: unknown;
    try {
      new ConfigResolver().forFile(join(root, 'x.py'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).describe(root)).toMatch(/^pyproject\.toml:2: key 'tool\.raiselint\.records': 'data\/missing\.jsonl' does not exist/);
  });

  it('--no-config ignores config files', () => {
    const root = tree();
    expect(new ConfigResolver({ use: false }).forFile(join(root, 'pkg/b.py')).sources).toEqual([]);
  });
});

describe('options in a run', () => {
  it('select / ignore / severity / min-confidence change the findings', () => {
    const root = makeProject({
      'pyproject.toml':
        '[tool.raiselint]\nselect = ["autogen/agent-*", "autogen/saving-*"]\nignore = ["autogen/agent-metadata-*"]\n[tool.raiselint.severity]\n"autogen/saving-*" = "warning"\n',
      'app.py': ALL_FIVE,
    });
    const { run, findings } = checkJson(root, ['.']);
    expect(findings.map((f) => `${f.line} ${f.ruleId} ${f.severity}`)).toEqual([`6 ${R.agentSave} error`, `7 ${R.agentLoad} error`, `9 ${R.save} warning`]);
    expect(run.code).toBe(1);
  });

  it("--select replaces the configs' select, --ignore adds to their ignore; both take ids, prefixes and globs, comma-separated or repeated", () => {
    const root = makeProject({
      'pyproject.toml': '[tool.raiselint]\nselect = ["autogen/agent-*"]\nignore = ["autogen/agent-metadata-*"]\n',
      'app.py': ALL_FIVE,
    });
    expect(checkJson(root).findings.map((f) => f.ruleId)).toEqual([R.agentSave, R.agentLoad]);
    expect(checkJson(root, ['--select', 'autogen']).findings.map((f) => f.ruleId)).toEqual([R.agentSave, R.agentLoad, R.save, R.load]);
    expect(checkJson(root, ['--select', `${R.save},${R.metadata}`]).findings.map((f) => f.ruleId)).toEqual([R.save]);
    expect(checkJson(root, ['--ignore', R.agentLoad]).findings.map((f) => f.ruleId)).toEqual([R.agentSave]);
    expect(checkJson(root, ['--select', 'autogen', '--ignore', 'autogen/*-state-*', '--ignore', R.agentSave]).findings.map((f) => f.ruleId)).toEqual([]);
    const show = parseToml(raiselint(root, ['check', '--show-config', 'app.py', '--select', 'autogen/saving-*', '--ignore', 'raiselint']).stdout) as Record<
      string,
      any
    >;
    expect(show.select).toEqual(['autogen/saving-*']);
    expect(show.ignore).toEqual(['autogen/agent-metadata-*', 'raiselint']);
    expect(show.rules).toEqual({ [R.save]: 'error' });
    const unknown = raiselint(root, ['check', '.', '--select', 'autogen/saving-stat']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("raiselint: error: --select: 'autogen/saving-stat' matches no rule (see `raiselint rules`)\n");
    const empty = raiselint(root, ['check', '.', '--ignore', 'autogen,,x']);
    expect(empty.code).toBe(2);
    expect(empty.stderr.trim().split('\n')).toHaveLength(1);
    expect(empty.stderr).toContain('--ignore');
  });

  it('a warning-only run exits 0', () => {
    const root = makeProject({ 'raiselint.toml': 'severity = { "*" = "warning" }\n', 'app.py': ONE });
    const { run, findings } = checkJson(root);
    expect(findings.map((f) => f.severity)).toEqual(['warning']);
    expect(run.code).toBe(0);
  });

  it('min-confidence: config, and the command line overrides it', () => {
    const possible = `from autogen_core import AgentRuntime\n\n\nasync def f(runtime: AgentRuntime) -> None:\n    await runtime.save_state()\n`;
    const root = makeProject({ 'raiselint.toml': 'min-confidence = "certain"\n', 'a.py': possible, 'b.py': ONE });
    expect(checkJson(root).keys).toEqual([`b.py:6 ${R.save}`]);
    expect(checkJson(root, ['--min-confidence', 'possible']).keys).toEqual([`a.py:5 ${R.save}`, `b.py:6 ${R.save}`]);
    writeFileSync(join(root, 'raiselint.toml'), '');
    expect(checkJson(root).keys).toEqual([`a.py:5 ${R.save}`, `b.py:6 ${R.save}`]);
  });

  it('per-file-ignores: gitignore-style globs relative to the config file', () => {
    const root = makeProject({
      'pyproject.toml': '[tool.raiselint.per-file-ignores]\n"tests/**" = ["autogen"]\n"scripts/one.py" = ["autogen/saving-*"]\n"conftest.py" = ["*"]\n',
      'tests/test_a.py': ONE,
      'scripts/one.py': ALL_FIVE,
      'pkg/conftest.py': ONE,
      'pkg/app.py': ONE,
    });
    const keys = checkJson(root).keys;
    expect(keys.filter((k) => k.startsWith('scripts/')).map((k) => k.split(' ')[1])).toEqual([R.agentSave, R.agentLoad, R.metadata, R.load]);
    expect(keys.filter((k) => !k.startsWith('scripts/'))).toEqual([`pkg/app.py:6 ${R.save}`]);
  });

  it('exclude / extend-exclude apply to walked folders and to files named on the command line', () => {
    const root = makeProject({
      'raiselint.toml': 'extend-exclude = ["generated/", "*_pb2.py"]\n',
      'generated/a.py': ONE,
      'pkg/x_pb2.py': ONE,
      'build/b.py': ONE,
      'pkg/app.py': ONE,
    });
    expect(checkJson(root).keys).toEqual([`pkg/app.py:6 ${R.save}`]);
    expect(checkJson(root, ['generated/a.py', 'pkg/x_pb2.py', 'build/b.py', 'pkg/app.py']).keys).toEqual([`pkg/app.py:6 ${R.save}`]);
    writeFileSync(join(root, 'raiselint.toml'), 'exclude = ["generated/"]\n');
    expect(checkJson(root).keys).toEqual([`build/b.py:6 ${R.save}`, `pkg/app.py:6 ${R.save}`, `pkg/x_pb2.py:6 ${R.save}`]);
  });

  it('records: extra datasets, relative to the config, only for the files under it', () => {
    const rec = JSON.parse(require_('rules/records/autogen-grpc-runtime.jsonl').split('\n')[0]!);
    const mine = {
      ...rec.record,
      id: 'rec-local-1',
      repo: 'acme/widgets',
      slug: 'frobnicate-fails',
      filePath: 'src/widgets/core.py',
      lineNumber: 3,
      sourceCode: 'def frobnicate():\n    """Doc."""\n    raise RuntimeError("frobnicate fails")',
      sourceCodeStart: 1,
      errorClass: 'RuntimeError',
      errorMessage: 'frobnicate fails',
      validationCode: 'from widgets import frobnicate',
      typeGuard: null,
      tryCatchPattern: 'from widgets import frobnicate\ntry:\n    frobnicate()\nexcept RuntimeError:\n    pass',
      exampleFix: null,
      githubUrl: null,
    };
    const root = makeProject({
      'svc/pyproject.toml': '[tool.raiselint]\nrecords = ["../data/widgets.jsonl"]\n',
      'data/widgets.jsonl': JSON.stringify({ record: mine, datasetVersion: 'x' }) + '\n',
      'svc/a.py': 'from widgets import frobnicate\n\nfrobnicate()\n',
      'other/b.py': 'from widgets import frobnicate\n\nfrobnicate()\n',
    });
    const { keys } = checkJson(root);
    expect(keys).toEqual(['svc/a.py:3 widgets/frobnicate-fails']);
    const show = raiselint(root, ['check', '--show-config', 'svc/a.py']);
    expect(parseToml(show.stdout).records).toEqual(['data/widgets.jsonl']);
  });

  it('a rule pattern that matches no rule is an error naming the file and key', () => {
    const root = makeProject({ 'pyproject.toml': '[tool.raiselint]\nselect = ["autogen"]\nignore = [\n  "autogen/saving-stat",\n]\n', 'a.py': ONE });
    const r = raiselint(root, ['check', '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("raiselint: error: pyproject.toml:4: key 'tool.raiselint.ignore': 'autogen/saving-stat' matches no rule (see `raiselint rules`)\n");
  });

  it('an invalid config is exit 2 with one line naming file and key', () => {
    const root = makeProject({ 'sub/raiselint.toml': 'min-confidence = "sure"\n', 'sub/a.py': ONE });
    const r = raiselint(root, ['check']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`raiselint: error: sub/raiselint.toml:1: key 'min-confidence': must be one of "certain", "possible", not "sure"\n`);
    expect(r.stdout).toBe('');
  });

  it('resolution does not depend on the paths passed or the working folder', () => {
    const root = makeProject({
      'pyproject.toml': '[tool.raiselint]\nignore = ["autogen/loading-*"]\n',
      'pkg/raiselint.toml': 'select = ["autogen/saving-*", "autogen/loading-*"]\n',
      'pkg/mod/app.py': ALL_FIVE,
      'top.py': ALL_FIVE,
    });
    const norm = (ks: string[]) => ks.map((k) => k.replace(/^.*app\.py/, 'app.py'));
    const fromRoot = checkJson(root, ['.']).keys;
    expect(fromRoot).toEqual([
      `pkg/mod/app.py:9 ${R.save}`,
      ...['6', '7', '8', '9'].map((l, i) => `top.py:${l} ${[R.agentSave, R.agentLoad, R.metadata, R.save][i]}`),
    ]);
    const one = norm(checkJson(root, ['pkg/mod/app.py']).keys);
    const inside = norm(checkJson(join(root, 'pkg/mod'), ['app.py']).keys);
    const dir = norm(checkJson(join(root, 'pkg'), ['mod']).keys);
    expect(one).toEqual([`app.py:9 ${R.save}`]);
    expect(inside).toEqual(one);
    expect(dir).toEqual(one);
  });

  it('fix-strategy is parsed, inherited and exposed', async () => {
    const root = makeProject({ 'raiselint.toml': 'fix-strategy = "try-except"\n', 'sub/raiselint.toml': 'min-confidence = "certain"\n', 'sub/a.py': ONE });
    const r = new ConfigResolver();
    expect(r.forFile(join(root, 'sub/a.py')).fixStrategy).toBe('try-except');
    expect(parseToml(raiselint(root, ['check', '--show-config', 'sub/a.py']).stdout)['fix-strategy']).toBe('try-except');
    const res = await runProject([join(root, 'sub')]);
    expect(res.resolver.forFile(join(root, 'sub/a.py')).fixStrategy).toBe('try-except');
  });
});

describe('--show-config', () => {
  it('prints the sources and the effective settings of one file as TOML', () => {
    const root = makeProject({
      'pyproject.toml':
        '[tool.raiselint]\nignore = ["autogen/agent-*"]\nextend-exclude = ["gen/"]\n[tool.raiselint.per-file-ignores]\n"tests/**" = ["autogen/loading-*"]\n',
      'tests/raiselint.toml': 'severity = { "autogen/saving-*" = "warning" }\nmin-confidence = "certain"\n',
      'tests/test_a.py': ONE,
    });
    const r = raiselint(root, ['check', '--show-config', 'tests/test_a.py']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual([
      '# raiselint configuration for tests/test_a.py',
      '# config files, outermost first:',
      '#   pyproject.toml',
      '#   tests/raiselint.toml',
    ]);
    const doc = parseToml(r.stdout) as Record<string, any>;
    expect(doc.excluded).toBe(false);
    expect(doc.ignore).toEqual(['autogen/agent-*']);
    expect(doc['min-confidence']).toBe('certain');
    expect(doc.severity).toEqual({ 'autogen/saving-*': 'warning' });
    expect(doc.exclude['.']).toContain('gen/');
    expect(doc['per-file-ignores']).toEqual([{ base: '.', glob: 'tests/**', rules: ['autogen/loading-*'], applies: true }]);
    expect(doc.rules).toEqual({
      [R.save]: 'warning',
      'raiselint/blanket-ignore': 'warning',
      'raiselint/unused-ignore': 'warning',
      'raiselint/invalid-ignore': 'warning',
      'raiselint/io-error': 'error',
      'raiselint/too-deep': 'warning',
      'raiselint/too-large': 'error',
    });
    const cli = parseToml(raiselint(root, ['check', '--show-config', 'tests/test_a.py', '--min-confidence', 'possible']).stdout) as Record<string, any>;
    expect(cli['min-confidence']).toBe('possible');
  });

  it('without a config it says so', () => {
    const root = makeProject({ 'a.py': ONE });
    const r = raiselint(root, ['check', '--show-config', 'a.py']);
    expect(r.stdout).toContain('# no config file applies (built-in defaults)');
    expect(parseToml(r.stdout)['fix-strategy']).toBe('auto');
    expect(raiselint(root, ['check', '--show-config', 'nope.py']).code).toBe(2);
  });
});

import { readFileSync } from 'node:fs';
function require_(rel: string): string {
  return readFileSync(join(import.meta.dirname, '..', rel), 'utf8');
}
