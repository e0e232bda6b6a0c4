/**
 * Every command block of README.md runs, and prints what the README shows. The convention (what is
 * a session, a file, a block not run) is in test/helpers/readme.ts; README.md follows it.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classify, matches, normalise, readBlocks, type Classified } from './helpers/readme.js';

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = readBlocks(README).map(classify);
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** `raiselint` on PATH: this checkout's CLI. */
const SHIM = mkdtempSync(join(tmpdir(), 'raiselint-readme-bin-'));
made.push(SHIM);
writeFileSync(join(SHIM, 'raiselint'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'raiselint.js')}" "$@"\n`);
chmodSync(join(SHIM, 'raiselint'), 0o755);

function folder(files: Map<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'raiselint-readme-'));
  made.push(dir);
  const old = new Date(Date.now() - 3600_000);
  for (const [name, text] of files) {
    const p = join(dir, name);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    utimesSync(p, old, old);
  }
  for (const d of ['fixtures', 'test', 'rules']) symlinkSync(join(ROOT, d), join(dir, d));
  return dir;
}

const SEP = '@@raiselint-readme-command@@';

/** Runs a session's commands in one bash (so `echo $?` sees the command before); returns each command's output. */
function run(dir: string, commands: string[]): string[] {
  // The separator keeps `$?` of the command before it.
  const script = commands.map((c) => `__rc=$?; printf '%s\\n' '${SEP}'; (exit $__rc)\n${c.replace(/\bnpx raiselint\b/g, 'raiselint')}`).join('\n');
  const r = spawnSync('bash', ['-c', `exec 2>&1\n${script}`], { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: `${SHIM}:${process.env.PATH}`, NO_COLOR: '1', FORCE_COLOR: '' }, timeout: 120_000 });
  return r.stdout.split(`${SEP}\n`).slice(1);
}

describe('README.md', () => {
  it('every fenced block is a session, a file or marked as not run', () => {
    const unknown = blocks.filter((b) => b.kind === 'unknown').map((b) => `README.md:${b.block.line}: ${b.block.lines[0]}`);
    expect(unknown, 'see test/helpers/readme.ts for the convention').toEqual([]);
    expect(blocks.filter((b) => b.kind === 'session').length).toBeGreaterThan(10);
  });

  const files = new Map<string, string>();
  for (const b of blocks as Classified[]) {
    if (b.kind === 'file') files.set(b.name, b.text);
    if (b.kind !== 'session') continue;
    const snapshot = new Map(files);
    it(`README.md:${b.block.line}: $ ${b.commands[0]!.cmd}`, () => {
      const dir = folder(snapshot);
      const outputs = run(dir, b.commands.map((c) => c.cmd));
      // RAISELINT_README_DUMP=<file>: the real outputs, to copy into README.md when a change is intended.
      if (process.env.RAISELINT_README_DUMP) writeFileSync(process.env.RAISELINT_README_DUMP, b.commands.map((c, i) => `## README.md:${c.line}: $ ${c.cmd}\n${normalise(outputs[i] ?? '', dir)}\n`).join(''), { flag: 'a' });
      b.commands.forEach((c, i) => {
        const expected = normalise(c.expected.join('\n'));
        const actual = normalise(outputs[i] ?? '', dir);
        if (!matches(expected, actual)) expect(actual, `README.md:${c.line}: $ ${c.cmd}`).toBe(expected);
      });
    });
  }
});

describe('README option summaries', () => {
  // A block marked `skip option summary (raiselint <command> --help)` lists options: each must exist.
  for (const b of blocks) {
    const m = b.kind === 'skip' ? /^option summary \((raiselint [a-z]+) --help\)$/.exec(b.reason) : null;
    if (!m) continue;
    it(`README.md:${b.block.line}: every option is in \`${m[1]} --help\``, () => {
      const help = spawnSync(process.execPath, [join(ROOT, 'bin', 'raiselint.js'), ...m[1]!.split(' ').slice(1), '--help'], { encoding: 'utf8' }).stdout;
      const options = [...new Set(b.block.lines.join('\n').match(/(?<![\w-])--?[a-z][a-z-]*/g) ?? [])];
      expect(options.length).toBeGreaterThan(2);
      expect(options.filter((o) => !new RegExp(`(^|[\\s,])${o}([\\s,=]|$)`, 'm').test(help))).toEqual([]);
    });
  }
});

describe('the README convention', () => {
  it('reads sessions, files and markers', () => {
    const md = ['```python', '# app.py', 'x = 1', '```', '<!-- readme-test: skip editor config -->', '```json', '{}', '```', '<!-- readme-test: file nb.ipynb -->', '', '```json', '{"cells": []}', '```', '```', '$ raiselint check app.py', 'All checks passed!', '$ echo $?', '0', '```', '```text', 'some output', '```'].join('\n');
    const got = readBlocks(md).map(classify);
    expect(got.map((b) => b.kind)).toEqual(['file', 'skip', 'file', 'session', 'unknown']);
    expect(got[0]).toMatchObject({ name: 'app.py', text: '# app.py\nx = 1\n' });
    expect(got[2]).toMatchObject({ name: 'nb.ipynb', text: '{"cells": []}\n' });
    expect(got[3]).toMatchObject({ commands: [{ cmd: 'raiselint check app.py', expected: ['All checks passed!'] }, { cmd: 'echo $?', expected: ['0'] }] });
  });

  it('ellipses and normalisation', () => {
    expect(matches('a\n...\nd', 'a\nb\nc\nd')).toBe(true);
    expect(matches('a\n...\nd', 'a\nd')).toBe(true);
    expect(matches('a\n…', 'a\nb\nc')).toBe(true);
    expect(matches('x ... z', 'x yyy z')).toBe(true);
    expect(matches('a\nb', 'a\nc')).toBe(false);
    expect(matches('a', 'a\nb')).toBe(false);
    expect(normalise('took 210 ms; 1.5 s\n\n', undefined)).toBe('took N ms; N s');
    expect(normalise('/tmp/x/app.py in /tmp/x', '/tmp/x')).toBe('app.py in .');
  });
});
