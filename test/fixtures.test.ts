/**
 * Fixture runner (Semgrep-style annotations). Every `fixtures/**.py` file is checked with the
 * bundled rules (plus `fixtures/<dir>/records.jsonl` where a folder has its own dataset):
 *   `# expect: <rule>[, <rule>]`           a certain finding starts on this line
 *   `# expect-possible: <rule>[, <rule>]`  a possible finding starts on this line
 *   `# ok: ...`                            no finding on this line
 * Findings and annotations must match exactly; a file without annotations must be clean.
 * Every file must parse with CPython's `ast` unless its name contains `syntax_error`.
 * A folder of projects (fixtures/crossfile) is read as `raiselint check` reads it: what a file
 * imports from its project's other modules is followed.
 * Each folder is checked through both paths (test/helpers/paths.ts): `raiselint check` with its
 * compiled-rules snapshot, and fresh compilation (`loadRules` + `checkSource`); both must give
 * exactly the annotated findings and confidences.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../src/compile/load.js';
import { checkSource } from '../src/engine/check.js';
import type { RuleSet } from '../src/rules/ruleset.js';
import { mentionsData, onlyLibraryState } from '../src/rules/condition/simplify.js';
import { controlFlowOf } from '../src/rules/controlflow.js';
import { pinsFor } from '../src/config/pins.js';
import { ConfigResolver, fileRules } from '../src/config/resolve.js';
import { finishFile } from '../src/engine/project.js';
import { cliFindings, type CliRun } from './helpers/paths.js';
import { projectModules } from '../src/engine/modules.js';
import { summarizer } from '../src/semantic/model.js';
import type { ProjectModules } from '../src/semantic/crossfile.js';

const ROOT = join(import.meta.dirname, '..', 'fixtures');

function pyFiles(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...pyFiles(p));
    else if (n.endsWith('.py') && !dir.includes(`${join('fixtures', 'fixes')}`)) out.push(p);
  }
  return out;
}

export function expectedFindings(text: string): string[] {
  const out: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const m = /#\s*expect(-possible)?:\s*(.+?)\s*$/.exec(line);
    if (!m) return;
    for (const id of m[2]!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean))
      out.push(`${i + 1} ${m[1] ? 'possible' : 'certain'} ${id}`);
  });
  return out.sort();
}

function okLines(text: string): number[] {
  const out: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (/#\s*ok:/.test(line)) out.push(i + 1);
  });
  return out;
}

const dirs = readdirSync(ROOT).filter((d) => statSync(join(ROOT, d)).isDirectory() && d !== 'fixes');
const ruleSets = new Map<string, Promise<RuleSet>>();
function rulesFor(dir: string): Promise<RuleSet> {
  const own = join(ROOT, dir, 'records.jsonl');
  if (!ruleSets.has(dir)) ruleSets.set(dir, existsSync(own) ? loadRules({ records: [own], bundled: false }) : loadRules());
  return ruleSets.get(dir)!;
}

/**
 * The project's modules of a fixture folder's files, one set per folder (as one run reads them),
 * with one summary alive at a time: every other is dropped and made again when asked
 * (src/semantic/summarycache.ts), which must give the same findings (the CLI path keeps the default).
 */
const moduleSets = new Map<string, ProjectModules>();
function modulesFor(dir: string, rules: RuleSet): ProjectModules {
  let m = moduleSets.get(dir);
  if (!m) moduleSets.set(dir, (m = projectModules(rules, summarizer(rules), undefined, 1)));
  return m;
}

/** A folder's `options.json`: `select` (as `--select`: a folder of control-flow records selects `control-flow`). */
function optionsFor(dir: string): { select?: string[] } {
  const p = join(ROOT, dir, 'options.json');
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as { select?: string[] }) : {};
}

/** The CLI run over a whole fixture folder (one process per folder), run on first use. */
const cliRuns = new Map<string, CliRun>();
function cliFor(dir: string): CliRun {
  const own = join(ROOT, dir, 'records.jsonl');
  const select = optionsFor(dir).select;
  // The annotations are about the folder's records: records derived from the modules a fixture imports
  // (on by default) are left out here, and tested by test/derive.test.ts.
  const extra = [...(select ? ['--select', select.join(',')] : []), '--derive', 'off'];
  let run = cliRuns.get(dir);
  if (!run) cliRuns.set(dir, (run = existsSync(own) ? cliFindings(ROOT, [dir], [own], false, extra) : cliFindings(ROOT, [dir], undefined, true, extra)));
  return run;
}

for (const dir of dirs) {
  describe(`fixtures/${dir}`, () => {
    for (const file of pyFiles(join(ROOT, dir))) {
      const name = relative(ROOT, file);
      it(name, async () => {
        const rules = await rulesFor(dir);
        const text = readFileSync(file, 'utf8');
        // The pins of the file's project (pyproject.toml, requirements, .python-version), as `raiselint check` reads them.
        // With the project's modules, as `raiselint check` reads them (cross-file: fixtures/crossfile).
        const res = checkSource(text, name, rules, { pins: pinsFor(file), modules: modulesFor(dir, rules) }, file);
        // The per-file stage `raiselint check` runs after checking: selection (control-flow rules are off unless selected), suppressions, one finding per call and error.
        const cfg = new ConfigResolver({ use: false, overrides: { select: optionsFor(dir).select } }).forFile(file);
        const kept = finishFile(res, { abs: file, display: name, rules: fileRules(cfg, file) }, { rules, configOnly: new Set() }, () => text).diagnostics;
        const got = kept.map((d) => `${d.line} ${d.confidence} ${d.ruleId}`).sort();
        expect(got, 'fresh compilation (loadRules + checkSource)').toEqual(expectedFindings(text));
        expect(cliFor(dir).byFile.get(name) ?? [], 'raiselint check (compiled-rules snapshot)').toEqual(expectedFindings(text));
        const flagged = new Set(kept.map((d) => d.line));
        for (const l of okLines(text)) expect(flagged.has(l), `line ${l} is marked ok`).toBe(false);
        if (!name.includes('syntax_error')) {
          expect(res.errors).toEqual([]);
          execFileSync('python3', ['-c', 'import ast,sys; ast.parse(open(sys.argv[1], encoding="utf-8").read())', file]);
        } else expect(res.errors.some((e) => e.kind === 'syntax')).toBe(true);
      });
    }
  });
}

describe('fixture annotations', () => {
  it('every rule of the bundled dataset has at least one certain fixture finding', async () => {
    const rules = await loadRules();
    const all = pyFiles(join(ROOT, 'autogen'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    for (const r of rules.rules) expect(all, r.id).toContain(`# expect: ${r.id}`);
  });

  for (const dir of dirs.filter((d) => existsSync(join(ROOT, d, 'records.jsonl')))) {
    // A record whose raise depends on data or state (or whose window shows no def) can give only possible findings;
    // one whose condition a call's arguments decide (or that always raises) needs a certain one.
    it(`fixtures/${dir}: every record of its dataset compiles and has a fixture finding, certain when a call can decide its condition`, async () => {
      const rules = await rulesFor(dir);
      expect(rules.outcomes.filter((o) => !o.outcome.rule).map((o) => `${o.record.record.slug}: ${o.outcome.skipped}`)).toEqual([]);
      expect(rules.rules.length).toBe(rules.outcomes.length);
      const all = pyFiles(join(ROOT, dir))
        .map((f) => readFileSync(f, 'utf8'))
        .join('\n');
      const select = optionsFor(dir).select ?? [];
      for (const r of rules.rules) {
        // A control-flow rule is off unless selected: its calls are `# ok:` lines then.
        if (controlFlowOf(r, rules.exceptions) && !select.includes('control-flow')) continue;
        // A raise that depends only on the library's own state is never reported: its calls are `# ok:` lines.
        if (onlyLibraryState(r.condition.when) && !r.condition.unknown) continue;
        // A generator raises when the iterator the call returns is iterated: possible at most.
        const decidable = !r.condition.unknown && !r.condition.onIteration && !mentionsData(r.condition.when);
        expect(all, r.id).toMatch(new RegExp(`# expect${decidable ? '' : '(-possible)?'}: ${r.id}(,|\\s*$)`, 'm'));
      }
    });
  }
});
