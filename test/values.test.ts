/**
 * A standard-library module's platform names as the grounding interpreter has them
 * (src/records/values.ts): `_mswindows`, `os.sep`, `_use_fd_functions`. python3 is asked the same
 * question directly as the oracle.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { askedNames, moduleFacts, moduleValues, publicConstants } from '../src/records/values.js';

const stdlib = execFileSync('python3', ['-I', '-S', '-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: 'utf8' }).trim();

describe("a module's platform names", () => {
  it('asks about names assigned at the top level or in a module-level block, and the platform attributes of its imports', () => {
    const lines = [
      'import os',
      'import sys as _sys',
      'try:',
      '    _x = 1',
      'except ImportError:',
      '    _x = 2',
      'def f():',
      '    local = 3',
      'CONST = os.sep',
      'if _x:',
      '    flag = True',
    ];
    const names = askedNames(lines);
    expect(names).toEqual(expect.arrayContaining(['_x', 'CONST', 'flag', 'os.sep', 'os.name', '_sys.platform']));
    expect(names).not.toContain('local');
  });

  it('python3 agrees on subprocess, shutil and a module it cannot import safely', () => {
    const files = ['subprocess.py', 'shutil.py', 'antigravity.py'].map((f) => join(stdlib, f));
    const [sub, sh, anti] = moduleValues(
      'python3',
      stdlib,
      files.map((file) => ({ file, names: askedNames(readFileSync(file, 'utf8').split('\n')) })),
    );
    const oracle = JSON.parse(
      execFileSync(
        'python3',
        ['-I', '-S', '-c', 'import json, os, shutil, subprocess; print(json.dumps([subprocess._mswindows, os.sep, shutil._use_fd_functions]))'],
        {
          encoding: 'utf8',
        },
      ),
    ) as [boolean, string, boolean];
    expect([sub!._mswindows, sub!['os.sep'], sh!._use_fd_functions]).toEqual(oracle);
    // Only simple values: a function, a class, a dict are not said.
    expect(sub!.Popen).toBeUndefined();
    expect(anti).toEqual({});
  });

  it('says nothing for a file outside the standard library, or without an interpreter', () => {
    expect(moduleValues('python3', stdlib, [{ file: '/tmp/x/mod.py', names: ['a'] }])).toEqual([{}]);
    expect(moduleValues('/no/such/python', stdlib, [{ file: join(stdlib, 'shutil.py'), names: ['_use_fd_functions'] }])).toEqual([{}]);
  });
});

describe("a module's registries", () => {
  it("gives the str keys a module-level dict holds once the module is imported, as python3 has them (shutil's _ARCHIVE_FORMATS)", () => {
    const file = join(stdlib, 'shutil.py');
    const { keys } = moduleFacts('python3', stdlib, [{ file, names: ['_ARCHIVE_FORMATS', '_use_fd_functions'] }]);
    const oracle = JSON.parse(
      execFileSync('python3', ['-I', '-S', '-c', 'import json, shutil; print(json.dumps(sorted(shutil._ARCHIVE_FORMATS)))'], { encoding: 'utf8' }),
    ) as string[];
    expect(keys[0]!._ARCHIVE_FORMATS).toEqual(oracle);
    expect(keys[0]!._use_fd_functions).toBeUndefined();
  });
});

describe("a library's public constants", () => {
  it('gives the UPPER_CASE names of each module and its packages with plain values, as python3 has them; no enum member, no lower-case setting', () => {
    const c = publicConstants('python3', stdlib, [join(stdlib, 'asyncio', 'tasks.py'), join(stdlib, 'locale.py'), join(stdlib, 'signal.py')]);
    const oracle = JSON.parse(
      execFileSync(
        'python3',
        ['-I', '-S', '-c', 'import asyncio, json, locale; print(json.dumps([asyncio.FIRST_EXCEPTION, asyncio.tasks.ALL_COMPLETED, locale.LC_ALL]))'],
        {
          encoding: 'utf8',
        },
      ),
    ) as [string, string, number];
    expect([c['asyncio:FIRST_EXCEPTION'], c['asyncio.tasks:ALL_COMPLETED'], c['locale:LC_ALL']]).toEqual(oracle);
    // signal.SIGINT is a Signals member (an IntEnum), not an int; logging-style settings are lower case.
    expect(c['signal:SIGINT']).toBeUndefined();
    // Lower case only for `string`'s documented constants, asked for with any question.
    expect(
      Object.keys(c)
        .filter((k) => !/:[A-Z][A-Z0-9_]*$/.test(k))
        .sort(),
    ).toEqual(
      ['ascii_letters', 'ascii_lowercase', 'ascii_uppercase', 'digits', 'hexdigits', 'octdigits', 'printable', 'punctuation', 'whitespace'].map(
        (n) => `string:${n}`,
      ),
    );
    expect(c['string:digits']).toBe('0123456789');
    expect(publicConstants('/no/such/python', stdlib, [join(stdlib, 'locale.py')])).toEqual({});
  });
});

describe('the compiler reads them', () => {
  const compile = async (src: string, values: Record<string, boolean | string>) => {
    const { initParser, parsePython } = await import('../src/parse/parser.js');
    const { compileCondition } = await import('../src/compile/condition/compile.js');
    const { condText } = await import('../src/rules/condition/words.js');
    await initParser();
    const tree = parsePython(src);
    try {
      const def = tree.rootNode.descendantsOfType('function_definition').find((d) => d?.text.startsWith('def f'))!;
      const row = src.split('\n').findIndex((l) => l.includes('raise '));
      return condText(compileCondition(def, row, tree.rootNode, { dropFirst: false, entries: ['f'], installed: { values } }).when);
    } finally {
      tree.delete();
    }
  };

  it('a private or UPPER_CASE name and a platform attribute; not a public setting (logging.raiseExceptions) nor a name a function rebinds', async () => {
    const src = `import os
import sys
_windows = sys.platform == "win32"
raiseExceptions = True
_state = None
def reset():
    global _state
    _state = 1
def f(level, path):
    if os.sep == "/":
        return path
    if not _windows and raiseExceptions and _state is None:
        raise TypeError(level)
`;
    const text = await compile(src, { 'os.sep': '\\', _windows: false, raiseExceptions: true, _state: 'x' });
    expect(text).toBe('raiseExceptions and _state is None');
    expect(await compile(src, { 'os.sep': '/' })).toBe('never');
  });
});
