/**
 * The literal runs' interpreter (src/analysis/pyserver.ts): one process answers a thread's batches;
 * one that does not answer in time is killed and replaced; none keeps the process alive.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { askPython } from '../src/analysis/pyserver.js';
import { ROOT } from './helpers.js';

/** Answers each line with its pid and the line; `hang` never answers; `exit` ends the process. */
const ECHO = String.raw`
import os, sys, time
while True:
    line = sys.stdin.readline()
    if not line:
        break
    line = line.strip()
    if line == 'hang':
        time.sleep(60)
    if line == 'exit':
        sys.exit(0)
    sys.stdout.write('%d %s\n' % (os.getpid(), line))
    sys.stdout.flush()
`;
const python = 'python3';

/** Whether a process runs (a zombie, killed and not yet reaped, does not). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || !/^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
}

/** Whether the process ends within `ms`. */
function ends(pid: number, ms: number): boolean {
  for (const t = Date.now(); Date.now() - t < ms; spawnSync('sleep', ['0.05'])) if (!running(pid)) return true;
  return false;
}
const ask = (line: string, ms = 5000) => askPython(python, ['-c', ECHO], line, ms);

describe('the literal runs interpreter', () => {
  it('answers every batch from one process', () => {
    const a = ask('one')!.split(' ');
    const b = ask('two')!.split(' ');
    expect([a[1], b[1]]).toEqual(['one', 'two']);
    expect(b[0]).toBe(a[0]);
  });

  it('kills an interpreter that does not answer in time, and starts another for the next batch', () => {
    const before = ask('first')!.split(' ')[0]!;
    const t = Date.now();
    expect(ask('hang', 300)).toBeUndefined();
    expect(Date.now() - t).toBeLessThan(5000);
    // The old one is gone (killed, not left sleeping).
    expect(ends(Number(before), 2000)).toBe(true);
    const after = ask('again')!.split(' ');
    expect(after[1]).toBe('again');
    expect(after[0]).not.toBe(before);
  });

  it('answers nothing when the interpreter exits or cannot start, and recovers on the next batch', () => {
    expect(ask('exit')).toBeUndefined();
    expect(ask('back')!.split(' ')[1]).toBe('back');
    expect(askPython(join(ROOT, 'no-such-python'), [], 'x', 2000)).toBeUndefined();
  });

  it('does not keep the process alive: a run that asked exits at once, and its interpreter with it', () => {
    const code = `import('${join(ROOT, 'dist', 'analysis', 'pyserver.js')}').then((m) => { console.log(m.askPython('python3', ['-c', ${JSON.stringify(ECHO)}], 'hi', 5000)); });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(0);
    const [pid, line] = r.stdout.trim().split(' ');
    expect(line).toBe('hi');
    // Its input closed with the process: the interpreter ends on its own.
    expect(ends(Number(pid), 5000)).toBe(true);
  });
});
