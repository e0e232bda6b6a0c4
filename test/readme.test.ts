/**
 * Every command block of README.md and of the pages under docs/ runs, and prints what the page shows. The
 * convention (what is a session, a file, a block not run) is in test/helpers/readme.ts; every page
 * follows it, and each page is read on its own (a session sees the files defined above it on its page).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classify, matches, normalise, readBlocks, type Classified } from './helpers/readme.js';

const ROOT = join(import.meta.dirname, '..');
/**
 * README.md, then every page under docs/, as paths from the repository root. The rule pages
 * (docs/rules/, written by scripts/gen-rule-docs.mjs from the records: their examples are the
 * records' own fragments) are checked by test/rule-docs.test.ts instead.
 */
function pages(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory() && join(dir, e.name) !== join('docs', 'rules')) walk(join(dir, e.name));
      else if (e.name.endsWith('.md')) out.push(join(dir, e.name));
    }
  };
  walk('docs');
  return out;
}
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = pages().flatMap((p) => readBlocks(readFileSync(join(ROOT, p), 'utf8')).map(classify));
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
  const r = spawnSync('bash', ['-c', `exec 2>&1\n${script}`], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${SHIM}:${process.env.PATH}`, NO_COLOR: '1', FORCE_COLOR: '' },
    timeout: 120_000,
  });
  return r.stdout.split(`${SEP}\n`).slice(1);
}

for (const page of pages()) {
  describe(page, () => {
    const pageBlocks = readBlocks(readFileSync(join(ROOT, page), 'utf8')).map(classify);
    it('every fenced block is a session, a file or marked as not run', () => {
      const unknown = pageBlocks.filter((b) => b.kind === 'unknown').map((b) => `${page}:${b.block.line}: ${b.block.lines[0]}`);
      expect(unknown, 'see test/helpers/readme.ts for the convention').toEqual([]);
    });

    const files = new Map<string, string>();
    for (const b of pageBlocks as Classified[]) {
      if (b.kind === 'file') files.set(b.name, b.text);
      if (b.kind !== 'session') continue;
      const snapshot = new Map(files);
      it(`${page}:${b.block.line}: $ ${b.commands[0]!.cmd}`, () => {
        const dir = folder(snapshot);
        const outputs = run(
          dir,
          b.commands.map((c) => c.cmd),
        );
        // RAISELINT_README_DUMP=<file>: the real outputs, to copy into the page when a change is intended.
        if (process.env.RAISELINT_README_DUMP)
          writeFileSync(
            process.env.RAISELINT_README_DUMP,
            b.commands.map((c, i) => `## ${page}:${c.line}: $ ${c.cmd}\n${normalise(outputs[i] ?? '', dir)}\n`).join(''),
            { flag: 'a' },
          );
        b.commands.forEach((c, i) => {
          const expected = normalise(c.expected.join('\n'));
          const actual = normalise(outputs[i] ?? '', dir);
          if (!matches(expected, actual)) expect(actual, `${page}:${c.line}: $ ${c.cmd}`).toBe(expected);
        });
      });
    }
  });
}

describe('the README and docs together', () => {
  it('run more than 10 sessions, and the README stays under 500 lines', () => {
    const sessions = pages()
      .flatMap((p) => readBlocks(readFileSync(join(ROOT, p), 'utf8')).map(classify))
      .filter((b) => b.kind === 'session');
    expect(sessions.length).toBeGreaterThan(10);
    expect(README.split('\n').length).toBeLessThanOrEqual(500);
  });
});

describe('README option summaries', () => {
  // A block marked `skip option summary (raiselint <command> --help)` lists options: each must exist.
  for (const b of blocks) {
    const m = b.kind === 'skip' ? /^option summary \((raiselint [a-z]+) --help\)$/.exec(b.reason) : null;
    if (!m) continue;
    it(`line ${b.block.line}: every option is in \`${m[1]} --help\``, () => {
      const help = spawnSync(process.execPath, [join(ROOT, 'bin', 'raiselint.js'), ...m[1]!.split(' ').slice(1), '--help'], { encoding: 'utf8' }).stdout;
      const options = [...new Set(b.block.lines.join('\n').match(/(?<![\w-])--?[a-z][a-z-]*/g) ?? [])];
      expect(options.length).toBeGreaterThan(2);
      expect(options.filter((o) => !new RegExp(`(^|[\\s,])${o}([\\s,=]|$)`, 'm').test(help))).toEqual([]);
    });
  }
});

describe('the README convention', () => {
  it('reads sessions, files and markers', () => {
    const md = [
      '```python',
      '# app.py',
      'x = 1',
      '```',
      '<!-- readme-test: skip editor config -->',
      '```json',
      '{}',
      '```',
      '<!-- readme-test: file nb.ipynb -->',
      '',
      '```json',
      '{"cells": []}',
      '```',
      '```',
      '$ raiselint check app.py',
      'All checks passed!',
      '$ echo $?',
      '0',
      '```',
      '```text',
      'some output',
      '```',
    ].join('\n');
    const got = readBlocks(md).map(classify);
    expect(got.map((b) => b.kind)).toEqual(['file', 'skip', 'file', 'session', 'unknown']);
    expect(got[0]).toMatchObject({ name: 'app.py', text: '# app.py\nx = 1\n' });
    expect(got[2]).toMatchObject({ name: 'nb.ipynb', text: '{"cells": []}\n' });
    expect(got[3]).toMatchObject({
      commands: [
        { cmd: 'raiselint check app.py', expected: ['All checks passed!'] },
        { cmd: 'echo $?', expected: ['0'] },
      ],
    });
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
