/**
 * `if kwargs:` after the def pops the keywords it knows (logging.basicConfig, ctypes.CFUNCTYPE,
 * ttk.OptionMenu): a call that passes no keyword leaves `**kwargs` empty, so the "unrecognised
 * argument" raise cannot happen (src/compile/condition/assigns.ts onlyShrunk), nor when it passes only
 * keywords the def pops first; one the def never pops is left (./kwpops.ts). python3 runs the
 * same def on the same calls as the oracle.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython, type Node } from '../src/parse/parser.js';
import { field } from '../src/parse/syntax.js';
import { compileCondition } from '../src/compile/condition/compile.js';
import { bindArguments } from '../src/match/bind.js';
import { evaluate } from '../src/rules/condition/eval.js';
import { Scopes } from '../src/semantic/scopes.js';

beforeAll(async () => {
  await initParser();
});

const CALLS = ['f()', 'f(1)', 'f(force=True)', 'f(colour=1)', 'f(**opts)'];

function decide(library: string): string[] {
  const lib = parsePython(library);
  const user = parsePython(CALLS.join('\n') + '\n');
  try {
    const def = lib.rootNode.descendantsOfType('function_definition').find((d) => field(d!, 'name')?.text === 'f')!;
    const row = library.split('\n').findIndex((l) => l.includes('raise ValueError'));
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

/** What python3 says for each call: 'true' when it raises ValueError. */
function run(library: string): string[] {
  const script = `${library}
opts = {}
out = []
for call in ${JSON.stringify(CALLS)}:
    try:
        eval(call)
        out.append('false')
    except ValueError:
        out.append('true')
print(' '.join(out))`;
  return execFileSync('python3', ['-c', script], { encoding: 'utf8' }).trim().split(' ');
}

const POPPED = `def f(x=None, **kwargs):
    force = kwargs.pop('force', False)
    if 'level' in kwargs:
        kwargs.get('level')
    if kwargs:
        raise ValueError('Unrecognised argument(s): %s' % ', '.join(kwargs))
`;

const STORED = `def f(x=None, **kwargs):
    kwargs['seen'] = True
    if kwargs:
        raise ValueError('never empty')
`;

describe('**kwargs only shrunk before the test', () => {
  it('a call with no keyword, or only popped ones, cannot raise; one with a keyword no pop names does; a splat is not known here', () => {
    expect(decide(POPPED)).toEqual(['false', 'false', 'false', 'true', '?']);
    // python3: no keyword and a popped one do not raise; an unknown one does (opts is empty here).
    expect(run(POPPED)).toEqual(['false', 'false', 'false', 'true', 'false']);
  });

  it('a store into it is no shrinking: nothing is decided', () => {
    expect(decide(STORED)).toEqual(['?', '?', '?', '?', '?']);
    expect(run(STORED)).toEqual(['true', 'true', 'true', 'true', 'true']);
  });
});
