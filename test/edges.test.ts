/**
 * Clean recovery at the edges: a damaged results cache is a miss, never a wrong report; temporary
 * files that a killed `--fix` left next to the user's files are removed by the next run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, GRPC_BAD, tempTree } from './helpers.js';

/** The pid of a process that has ended (a temporary file named with it is stale). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('the results cache', () => {
  it('a flipped byte in a results bucket is a miss: the report is the real one', () => {
    const dir = tempTree({ 'app.py': GRPC_BAD });
    const first = cli(['check', '.', '--format', 'json'], dir);
    const cache = join(dir, '.raiselint_cache');
    const buckets = readdirSync(cache).filter((n) => n.startsWith('results-'));
    expect(buckets).toHaveLength(1);
    const path = join(cache, buckets[0]!);
    const text = readFileSync(path, 'utf8');
    // Change what a served entry would say: the message of the finding.
    const at = text.indexOf('Agent save_state is not yet implemented');
    expect(at).toBeGreaterThan(0);
    writeFileSync(path, `${text.slice(0, at)}Agent save_state is NOT yet implemented${text.slice(at + 'Agent save_state is not yet implemented'.length)}`);
    const again = cli(['check', '.', '--format', 'json'], dir);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stdout).not.toContain('NOT yet');
  });
});

describe('temporary files of a killed --fix', () => {
  it('a run removes the stale `.<name>.<pid>-<hex>.raiselint.tmp` files of dead processes, and keeps other files', () => {
    const pid = deadPid();
    const stale = `.app.py.${pid}-0badc0de.raiselint.tmp`;
    const live = `.app.py.${process.pid}-0badc0de.raiselint.tmp`;
    const dir = tempTree({ 'app.py': GRPC_BAD, [stale]: 'half', [live]: 'in use', 'sub/.x.py.1-zz.raiselint.tmp': 'not our shape' });
    cli(['check', '.'], dir);
    const names = readdirSync(dir);
    expect(names).not.toContain(stale);
    expect(names).toContain(live);
    expect(readdirSync(join(dir, 'sub'))).toEqual(['.x.py.1-zz.raiselint.tmp']);
  });
});
