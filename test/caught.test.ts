/**
 * A raise inside a `try` of the library's own (src/compile/condition/caught.ts): the handler that
 * catches it decides whether it leaves. shutil.rmtree's shape (a callback bound by the def's own
 * branches) is checked against python3 on a real symbolic link.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython, type Node } from '../src/parse/parser.js';
import { field } from '../src/parse/syntax.js';
import { compileCondition } from '../src/compile/condition/compile.js';
import { bindArguments } from '../src/match/bind.js';
import { evaluate } from '../src/rules/condition/eval.js';
import { and, or } from '../src/rules/condition/simplify.js';
import { Scopes } from '../src/semantic/scopes.js';

beforeAll(async () => {
  await initParser();
});

/** How each call in `calls` decides the raise of `library`'s def `f` (true, false, or `?`). */
function decide(library: string, calls: string[]): string[] {
  const lib = parsePython(library);
  const user = parsePython(calls.join('\n') + '\n');
  try {
    const def = lib.rootNode.descendantsOfType('function_definition').find((d) => field(d!, 'name')?.text === 'f')!;
    const row = library.split('\n').findIndex((l) => l.includes('raise OSError('));
    const rc = compileCondition(def, row, lib.rootNode, { dropFirst: false, entries: ['f'] });
    const scopes = new Scopes(user.rootNode);
    return user.rootNode
      .descendantsOfType('call')
      .filter((c): c is Node => !!c && field(c, 'function')?.text === 'f')
      .map((c) => {
        const v = evaluate(rc.when, bindArguments(c, rc.params, () => scopes)!);
        return v === undefined ? '?' : String(v);
      });
  } finally {
    lib.delete();
    user.delete();
  }
}

const RMTREE = `def f(path, ignore_errors=False, onerror=None):
    if ignore_errors:
        def onerror(*args):
            pass
    elif onerror is None:
        def onerror(*args):
            raise
    try:
        if is_link(path):
            raise OSError("Cannot call rmtree on a symbolic link")
    except OSError:
        onerror(is_link, path, sys.exc_info())
        return
    return walk(path, onerror)
`;

const handler = (body: string, caught = 'OSError') => `def f(path, strict=False):
    try:
        raise OSError("bad")
    except ${caught}:
${body.replace(/^/gm, '        ')}
`;

describe('a raise caught by the library itself', () => {
  it("rmtree's shape: ignore_errors=True swallows it; the default re-raises; a callback of the caller's is not known", () => {
    expect(decide(RMTREE, ['f(p)', 'f(p, ignore_errors=True)', 'f(p, True)', 'f(p, onerror=log)', 'f(p, ignore_errors=flag)'])).toEqual([
      '?', // is_link(path) is data
      'false',
      'false',
      '?',
      '?',
    ]);
  });

  it.each([
    ['raise', 'true'],
    ['log(exc)\nraise', '?'], // a call first: it may do anything
    ['pass', 'false'],
    ['return None', 'false'],
    ['handle()', '?'], // a function of the module: not known
  ])('a handler `%s`: %s', (body, want) => {
    // `strict` is never read: only whether the raise leaves decides the call.
    expect(decide(handler(body), ['f(p)'])).toEqual([want]);
  });

  it('a handler of another class (maybe a base of the raised one) or a bare `except:` before it', () => {
    expect(decide(handler('pass', 'ValueError'), ['f(p)'])).toEqual(['?']);
    expect(decide(handler('pass', '(ValueError, OSError)'), ['f(p)'])).toEqual(['false']);
    expect(decide(handler('pass', ''), ['f(p)'])).toEqual(['false']);
    expect(decide(handler('raise', 'Exception as e'), ['f(p)'])).toEqual(['true']);
  });

  it('python3 agrees on the installed shutil.rmtree: a symbolic link raises OSError by default, nothing with ignore_errors=True', () => {
    const script = `import os, shutil, tempfile
d = tempfile.mkdtemp()
os.mkdir(os.path.join(d, 'real'))
link = os.path.join(d, 'link')
os.symlink(os.path.join(d, 'real'), link)
try:
    shutil.rmtree(link)
    print('no error')
except OSError as e:
    print(type(e).__name__, e)
shutil.rmtree(link, ignore_errors=True)
print('ignored', os.path.islink(link))
shutil.rmtree(d)`;
    expect(execFileSync('python3', ['-B', '-c', script], { encoding: 'utf8' }).trim().split('\n')).toEqual([
      'OSError Cannot call rmtree on a symbolic link',
      'ignored True',
    ]);
  });
});

describe('a test and its negation across two alternatives', () => {
  it('(A or R) and (not A or R) is R, A a test on an argument; not for data', () => {
    const a = { k: 'isinstance' as const, param: 'path', types: ['bytes'] };
    const r = { k: 'data' as const, text: 'not samestat(st, fstat(fd))' };
    const x = { k: 'truthy' as const, param: 'strict' };
    expect(and([or([a, r]), x, or([{ k: 'not', e: a }, r])])).toEqual({ k: 'and', es: [r, x] });
    const d = { k: 'data' as const, text: 'self.closed' };
    expect(and([or([d, r]), or([{ k: 'not', e: d }, r])]).k).toBe('and');
    expect((and([or([d, r]), or([{ k: 'not', e: d }, r])]) as { es: unknown[] }).es).toHaveLength(2);
  });
});
