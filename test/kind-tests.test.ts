/**
 * A TypeError whose condition is nothing but the argument's kind, a library's kind predicates
 * among them (`futures.isfuture(fs) or coroutines.iscoroutine(fs)`, `not isframe(frame)`), is a
 * type checker's question: not reported when the argument's kind is not known at the call
 * (src/rules/condition/simplify.ts onlyTypeTests). A condition that also needs something else
 * (getfile's "built-in class": a class with no `__file__`) is not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython, type Node } from '../src/parse/parser.js';
import { field } from '../src/parse/syntax.js';
import { compileCondition } from '../src/compile/condition/compile.js';
import { judge } from '../src/match/bind.js';
import { Scopes } from '../src/semantic/scopes.js';

beforeAll(async () => {
  await initParser();
});

const LIBRARY = `from . import coroutines, futures

def wait(fs, *, timeout=None):
    if futures.isfuture(fs) or coroutines.iscoroutine(fs):
        raise TypeError(f"expect a list of futures, not {type(fs).__name__}")
    return fs

def getframeinfo(frame):
    if not isframe(frame):
        raise TypeError('{!r} is not a frame or traceback object'.format(frame))

def getfile(object):
    if not ismodule(object) and isinstance(object, type):
        module = sys.modules.get(object.__module__)
        if getattr(module, '__file__', None):
            return module.__file__
        raise TypeError('{!r} is a built-in class'.format(object))

def pick(seq):
    if not seq:
        raise TypeError('empty')
`;

function verdict(name: string, call: string, typeError: boolean): boolean | undefined {
  const lib = parsePython(LIBRARY);
  const user = parsePython(`${call}\n`);
  try {
    const def = lib.rootNode.descendantsOfType('function_definition').find((d) => field(d!, 'name')?.text === name)!;
    const lines = LIBRARY.split('\n');
    const row = lines.findIndex((l, i) => i > def.startPosition.row && l.includes('raise TypeError'));
    const rc = compileCondition(def, row, lib.rootNode, { dropFirst: false, entries: [name] });
    const scopes = new Scopes(user.rootNode);
    const c = user.rootNode.descendantsOfType('call').find((x): x is Node => !!x && field(x, 'function')?.text === name)!;
    return judge(rc, c, name, true, { scopes: () => scopes, typeError }).raises;
  } finally {
    lib.delete();
    user.delete();
  }
}

describe("a TypeError over the argument's kind alone", () => {
  it('is a type checker question: not reported when the kind is not known at the call', () => {
    expect(verdict('wait', 'wait(tasks)', true)).toBe(false);
    expect(verdict('getframeinfo', 'getframeinfo(f)', true)).toBe(false);
  });

  it('stays possible when the condition needs more than the kind, or the raise is no TypeError', () => {
    expect(verdict('getfile', 'getfile(cls)', true)).toBeUndefined();
    expect(verdict('pick', 'pick(items)', true)).toBeUndefined();
    expect(verdict('wait', 'wait(tasks)', false)).toBeUndefined();
  });
});
