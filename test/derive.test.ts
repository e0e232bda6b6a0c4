/**
 * `--derive` / `derive = ...`: records derived from the installed modules the checked files import
 * (here the standard library of the machine's python3), cached, certain findings only unless `all`,
 * and never in place of a configured record for the same raise site.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempTree } from './helpers.js';

const APP = 'import statistics\nimport json\n\n\ndef f(xs, s):\n    statistics.quantiles(xs, n=0)\n    json.loads(s)\n';
type D = { line: number; ruleId: string; confidence: string; tips: string[] };
const run = (dir: string, args: string[]): D[] =>
  (JSON.parse(cli(['check', 'app.py', '--no-bundled', '--format', 'json', ...args], dir).stdout) as { diagnostics: D[] }).diagnostics;

describe('derived records', () => {
  it('certain by default: only the certain findings of the imported modules, from a cache on later runs; off turns it off', () => {
    const dir = tempTree({ 'app.py': APP });
    // Off: the bundled records alone, which name nothing here.
    expect((JSON.parse(cli(['check', 'app.py', '--format', 'json', '--derive', 'off'], dir).stdout) as { diagnostics: D[] }).diagnostics).toEqual([]);
    expect(readdirSync(join(dir, '.raiselint_cache'))).not.toContain('derived');
    // The default, as a first run of `raiselint check` gets it.
    const certain = (JSON.parse(cli(['check', 'app.py', '--format', 'json'], dir).stdout) as { diagnostics: D[] }).diagnostics;
    expect(certain.map((d) => [d.line, d.ruleId, d.confidence])).toEqual([[6, 'cpython/quantiles-n-must-be-at-least-1', 'certain']]);
    const derived = join(dir, '.raiselint_cache', 'derived');
    const files = readdirSync(derived)
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    expect(files.map((f) => f.replace(/-[0-9a-f]{16}\.jsonl$/, ''))).toEqual([
      expect.stringMatching(/^json-3\.\d+\.\d+$/),
      expect.stringMatching(/^statistics-3\.\d+\.\d+$/),
    ]);
    const times = files.map((f) => statSync(join(derived, f)).mtimeMs);
    expect(run(dir, ['--derive', 'certain'])).toEqual(certain);
    expect(
      readdirSync(derived)
        .filter((f) => f.endsWith('.jsonl'))
        .sort()
        .map((f) => statSync(join(derived, f)).mtimeMs),
    ).toEqual(times);
    // `--timings` says how many rules were derived.
    expect(cli(['check', 'app.py', '--no-bundled', '--timings'], dir).stderr).toMatch(/; \d+ rules, \d+ derived from 2 imported modules[; ]/);
    // Each cached dataset has an index of its raise sites (what a later run reads); a damaged one is rebuilt from the dataset.
    const sites = readdirSync(derived).filter((f) => f.endsWith('.jsonl.sites'));
    expect(sites).toHaveLength(2);
    writeFileSync(join(derived, sites[0]!), '{not json');
    expect(run(dir, ['--derive', 'certain'])).toEqual(certain);
    expect(Array.isArray(JSON.parse(readFileSync(join(derived, sites[0]!), 'utf8')))).toBe(true);
    // `all`: the possible ones too (json.loads's TypeError for a non-str is a type question: not reported).
    expect(run(dir, ['--derive', 'all']).map((d) => [d.line, d.confidence])).toEqual([
      [6, 'certain'],
      [7, 'possible'],
    ]);
    // The config says it as well.
    writeFileSync(join(dir, 'raiselint.toml'), 'derive = "off"\n');
    expect((JSON.parse(cli(['check', 'app.py', '--format', 'json'], dir).stdout) as { diagnostics: D[] }).diagnostics).toEqual([]);
    writeFileSync(join(dir, 'raiselint.toml'), 'derive = "all"\n');
    expect(run(dir, [])).toHaveLength(2);
  });

  it('a curated record of another raise site at the same call and error is kept and stands for the group', () => {
    // The team's record names json.loads' JSONDecodeError at the same line of another repository: not the same
    // site, so both apply at line 7, in one group; its id sorts after the derived one's.
    const dir = tempTree({ 'app.py': APP });
    run(dir, ['--derive', 'certain']);
    const json = readdirSync(join(dir, '.raiselint_cache', 'derived')).find((f) => f.startsWith('json-') && f.endsWith('.jsonl'))!;
    type R = { record: { preventionTips: string[]; id: string; slug: string; repo: string } };
    const team = readFileSync(join(dir, '.raiselint_cache', 'derived', json), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as R)
      .find((r) => r.record.slug === 'loads-unexpected-utf-8-bom-decode-using-utf-8')!;
    Object.assign(team.record, { id: 'zz-team-bom', slug: 'zz-team-bom', repo: 'acme/notes', preventionTips: ['Strip the BOM (our team rule)'] });
    writeFileSync(join(dir, 'team.jsonl'), `${JSON.stringify(team)}\n`);
    type G = D & { also?: { ruleId: string }[] };
    // The default (`certain`): the derived possible findings at that call are left out before grouping, never the team's.
    const byDefault = run(dir, ['--records', 'team.jsonl']).filter((d) => d.line === 7) as G[];
    expect(byDefault.map((d) => [d.ruleId, d.confidence, d.tips, d.also])).toEqual([
      ['notes/zz-team-bom', 'possible', ['Strip the BOM (our team rule)'], undefined],
    ]);
    // `all`: the derived ones are listed with it, and the team's record stands for the group.
    const all = run(dir, ['--records', 'team.jsonl', '--derive', 'all']).filter((d) => d.line === 7 && d.ruleId.includes('bom')) as G[];
    expect(all).toHaveLength(1);
    expect(all[0]!.ruleId).toBe('notes/zz-team-bom');
    expect(all[0]!.also?.map((a) => a.ruleId)).toContain('cpython/loads-unexpected-utf-8-bom-decode-using-utf-8');
  });

  it('a configured record for the same raise site wins (its tips); a module of the project itself is not derived', () => {
    const dir = tempTree({ 'app.py': APP });
    run(dir, ['--derive', 'certain']);
    const derived = join(dir, '.raiselint_cache', 'derived');
    const stats = readdirSync(derived).find((f) => f.startsWith('statistics-') && f.endsWith('.jsonl'))!;
    const line = readFileSync(join(derived, stats), 'utf8')
      .split('\n')
      .find((l) => l.includes('"n must be at least 1"'))!;
    const curated = JSON.parse(line) as { record: { preventionTips: string[]; id: string } };
    curated.record.preventionTips = ['Pass n >= 1 (our team rule)'];
    curated.record.id = 'team-quantiles';
    writeFileSync(join(dir, 'team.jsonl'), `${JSON.stringify(curated)}\n`);
    const ds = run(dir, ['--derive', 'certain', '--records', 'team.jsonl']);
    expect(ds).toHaveLength(1);
    expect(ds[0]!.tips).toEqual(['Pass n >= 1 (our team rule)']);
    // `statistics.py` next to app.py is the project's own module: nothing is derived for it.
    const own = tempTree({ 'app.py': APP, 'statistics.py': 'def quantiles(xs, n=4):\n    return []\n' });
    expect((JSON.parse(cli(['check', 'app.py', '--format', 'json', '--derive', 'certain'], own).stdout) as { diagnostics: D[] }).diagnostics).toEqual([]);
    expect(
      new Set(
        readdirSync(join(own, '.raiselint_cache', 'derived'))
          .filter((f) => !f.startsWith('sites-'))
          .map((f) => f.split('-')[0]),
      ),
    ).toEqual(new Set(['json']));
  });

  it('the raise sites of the other datasets are indexed in the cache by their stat signature; a changed dataset is read again', () => {
    const dir = tempTree({ 'app.py': APP });
    run(dir, []);
    const derived = join(dir, '.raiselint_cache', 'derived');
    const stats = readdirSync(derived).find((f) => f.startsWith('statistics-') && f.endsWith('.jsonl'))!;
    const line = readFileSync(join(derived, stats), 'utf8')
      .split('\n')
      .find((l) => l.includes('"n must be at least 1"'))!;
    const team = JSON.parse(line) as { record: { preventionTips: string[]; id: string } };
    Object.assign(team.record, { id: 'team-quantiles', preventionTips: ['Pass n >= 1 (our team rule)'] });
    const teamFile = join(dir, 'team.jsonl');
    const write = (text: string) => {
      writeFileSync(teamFile, text);
      // Past the racy window (io/fingerprint.ts: a file changed in the last 3 s is read, not indexed).
      execFileSync('sleep', ['3.2']);
    };
    write(`${JSON.stringify(team)}\n`);
    type G = D & { also?: unknown[] };
    const first = run(dir, ['--records', 'team.jsonl']) as G[];
    expect(first.map((d) => [d.tips, d.also])).toEqual([[['Pass n >= 1 (our team rule)'], undefined]]);
    const indexes = readdirSync(derived).filter((f) => f.startsWith('sites-'));
    expect(indexes).toHaveLength(1);
    // The index is what a later run reads: emptied, the team's site is no longer known, and the derived record is back beside it.
    writeFileSync(join(derived, indexes[0]!), '[]');
    expect((run(dir, ['--records', 'team.jsonl']) as G[]).map((d) => d.also?.length)).toEqual([1]);
    // A changed dataset has another signature: read again (the site known again), and indexed anew.
    write(`${JSON.stringify(team)}\n\n`);
    expect(run(dir, ['--records', 'team.jsonl'])).toEqual(first);
    expect(readdirSync(derived).filter((f) => f.startsWith('sites-'))).toHaveLength(2);
  });

  it('a module derived again (upgraded, or another environment) keeps at most three datasets of it in the cache', () => {
    const dir = tempTree({ 'app.py': 'import json\n\n\ndef f(s):\n    return json.loads(s)\n' });
    const version = execFileSync('python3', ['-c', 'import platform; print(platform.python_version())'], { encoding: 'utf8' }).trim();
    const derived = join(dir, '.raiselint_cache', 'derived');
    mkdirSync(derived, { recursive: true });
    const old = Date.now() / 1000 - 3600;
    for (let i = 0; i < 4; i++) {
      const stale = join(derived, `json-${version}-${String(i).repeat(16)}.jsonl`);
      writeFileSync(stale, '');
      writeFileSync(`${stale}.sites`, '[]');
      utimesSync(stale, old + i, old + i);
      utimesSync(`${stale}.sites`, old + i, old + i);
    }
    run(dir, []);
    const left = readdirSync(derived).filter((f) => f.startsWith('json-'));
    expect(left.filter((f) => f.endsWith('.jsonl'))).toHaveLength(3);
    expect(left.filter((f) => f.endsWith('.sites'))).toHaveLength(3);
    // The newest stale ones stay, with the new dataset.
    expect(left).toContain(`json-${version}-${'3'.repeat(16)}.jsonl`);
    expect(left).not.toContain(`json-${version}-${'0'.repeat(16)}.jsonl`);
  });

  it('a bad --derive value is a usage error (exit 2)', () => {
    const dir = tempTree({ 'app.py': APP });
    const r = cli(['check', 'app.py', '--derive', 'some'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--derive/);
  });
});
