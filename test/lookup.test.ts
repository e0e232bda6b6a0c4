/** Finding records from rule ids, runtime messages and tracebacks; the rule listing's reach. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../src/compile/load.js';
import { findRuleById, matchRuntimeError, parseErrorText, parseTraceback, pythonRegex, similarIds } from '../src/rules/lookup.js';
import { reachIndex, ruleReach } from '../src/rules/reach.js';
import { formatRulesJson } from '../src/report/rules.js';
import { ClassRegistry } from '../src/rules/classes.js';
import type { RuleSet } from '../src/rules/ruleset.js';

let rules: RuleSet;
beforeAll(async () => {
  rules = await loadRules();
});

const SAVE = 'autogen/agent-save-state-is-not-yet-implemented';

describe('rule ids', () => {
  it('by id, record id, unambiguous slug, any case', () => {
    expect(findRuleById(rules.rules, SAVE)?.id).toBe(SAVE);
    expect(findRuleById(rules.rules, 'AUTOGEN/Agent-Save-State-Is-Not-Yet-Implemented')?.id).toBe(SAVE);
    expect(findRuleById(rules.rules, '16fc4bb4b7873c4d')?.id).toBe(SAVE);
    expect(findRuleById(rules.rules, 'agent-save-state-is-not-yet-implemented')?.id).toBe(SAVE);
    expect(findRuleById(rules.rules, 'autogen/nope')).toBeUndefined();
  });
  it('suggests near ids', () => {
    expect(similarIds(rules.rules, 'autogen/agent-save')).toEqual([SAVE]);
    expect(similarIds(rules.rules, 'autogen/agent-save-state-is-not-yet-implemnted')[0]).toBe(SAVE);
    expect(similarIds(rules.rules, 'zzz/completely-else')).toEqual([]);
  });
});

describe('python regexes', () => {
  it('translates named groups, anchors and inline flags', () => {
    expect(pythonRegex('(?P<n>\\d+) of (?P=n)')!.test('3 of 3')).toBe(true);
    expect(pythonRegex('(?P<n>\\d+) of (?P=n)')!.test('3 of 4')).toBe(false);
    expect(pythonRegex('\\Aabc\\Z')!.test('abc')).toBe(true);
    expect(pythonRegex('\\Aabc\\Z')!.test('xabc')).toBe(false);
    expect(pythonRegex('(?i)agent SAVE_STATE')!.test('Agent save_state')).toBe(true);
    expect(pythonRegex('(unclosed')).toBeUndefined();
  });
});

describe('error text', () => {
  it('splits `Class: message`, keeps plain messages whole', () => {
    expect(parseErrorText('NotImplementedError: Agent save_state is not yet implemented.')).toEqual({
      errorClass: 'NotImplementedError',
      message: 'Agent save_state is not yet implemented.',
      frames: [],
    });
    expect(parseErrorText('builtins.NotImplementedError: x')).toMatchObject({ errorClass: 'builtins.NotImplementedError', message: 'x' });
    expect(parseErrorText('KeyboardInterrupt')).toMatchObject({ errorClass: 'KeyboardInterrupt', message: '' });
    expect(parseErrorText('Agent save_state is not yet implemented.')).toEqual({ message: 'Agent save_state is not yet implemented.', frames: [] });
    expect(parseErrorText('note: lowercase words are a message')).toEqual({ message: 'note: lowercase words are a message', frames: [] });
  });
});

const TRACEBACK = `Traceback (most recent call last):
  File "/srv/app/main.py", line 12, in <module>
    asyncio.run(main())
  File "/srv/venv/lib/python3.11/site-packages/autogen_ext/runtimes/grpc/_worker_runtime.py", line 502, in agent_save_state
    raise NotImplementedError("Agent save_state is not yet implemented.")
    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
NotImplementedError: Agent save_state is not yet implemented.
`;

describe('tracebacks', () => {
  it('the exception line after the frames, with the frames', () => {
    const t = parseTraceback(`some log line\nERROR: oops\n${TRACEBACK}`)!;
    expect(t.errorClass).toBe('NotImplementedError');
    expect(t.message).toBe('Agent save_state is not yet implemented.');
    expect(t.frames).toEqual([
      { file: '/srv/app/main.py', line: 12, name: '<module>' },
      { file: '/srv/venv/lib/python3.11/site-packages/autogen_ext/runtimes/grpc/_worker_runtime.py', line: 502, name: 'agent_save_state' },
    ]);
  });

  it('chained exceptions: the last one counts', () => {
    const chained = `${TRACEBACK}\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File "/srv/app/main.py", line 20, in save\n    raise RuntimeError("could not save") from e\nmyapp.errors.SaveFailed: could not save\n  second line of the message\n`;
    const t = parseTraceback(chained)!;
    expect(t.errorClass).toBe('myapp.errors.SaveFailed');
    expect(t.message).toBe('could not save\n  second line of the message');
    expect(t.frames).toEqual([{ file: '/srv/app/main.py', line: 20, name: 'save' }]);
    const during = `${TRACEBACK.replace('NotImplementedError: Agent save_state is not yet implemented.', 'KeyError: 1')}\nDuring handling of the above exception, another exception occurred:\n\n${TRACEBACK}`;
    expect(parseTraceback(during)!.errorClass).toBe('NotImplementedError');
  });

  it('exception groups: the sub-exception inside the gutter', () => {
    const group = `  + Exception Group Traceback (most recent call last):
  |   File "/srv/app/main.py", line 9, in main
  |     async with asyncio.TaskGroup() as tg:
  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/srv/venv/autogen_ext/runtimes/grpc/_worker_runtime.py", line 502, in agent_save_state
    |     raise NotImplementedError("Agent save_state is not yet implemented.")
    | NotImplementedError: Agent save_state is not yet implemented.
    +------------------------------------
`;
    const t = parseTraceback(group)!;
    expect(t.errorClass).toBe('NotImplementedError');
    expect(t.message).toBe('Agent save_state is not yet implemented.');
    expect(t.frames.map((f) => f.line)).toEqual([502]);
  });

  it('just an exception line, or nothing', () => {
    expect(parseTraceback('log\nValueError: bad value\nmore log')).toEqual({ errorClass: 'ValueError', message: 'bad value', frames: [] });
    expect(parseTraceback('nothing to see\nhere')).toBeUndefined();
  });
});

describe('matching runtime errors to records', () => {
  it('by message pattern and class; a wrong class does not match', () => {
    const m = matchRuntimeError(rules.rules, parseErrorText('NotImplementedError: Agent save_state is not yet implemented.'));
    expect(m.filter((x) => x.byMessage).map((x) => x.rule.id)).toEqual([SAVE]);
    expect(m[0]!.reasons).toContain('message matches the pattern /Agent save_state is not yet implemented\\./');
    expect(matchRuntimeError(rules.rules, parseErrorText('ValueError: Agent save_state is not yet implemented.'))).toEqual([]);
    expect(matchRuntimeError(rules.rules, parseErrorText('Saving state is not yet implemented.')).map((x) => x.rule.id)).toEqual([
      'autogen/saving-state-is-not-yet-implemented',
    ]);
    expect(matchRuntimeError(rules.rules, parseErrorText('something else entirely'))).toEqual([]);
  });

  it('a messagePattern matches messages the recorded text does not', async () => {
    // A record whose message varies at run time: only its regex can match the real message.
    const dir = mkdtempSync(join(tmpdir(), 'raiselint-lookup-'));
    try {
      const line = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8').split('\n')[0]!);
      Object.assign(line.record, {
        id: 'timeout0000000001',
        slug: 'timed-out',
        errorMessage: 'Timed out after 30 seconds',
        messagePattern: '^Timed out after (?P<s>\\d+) seconds$',
      });
      const file = join(dir, 'records.jsonl');
      writeFileSync(file, JSON.stringify(line) + '\n');
      const set = await loadRules({ records: [file], bundled: false });
      const m = matchRuntimeError(set.rules, parseErrorText('NotImplementedError: Timed out after 5 seconds'));
      expect(m.map((x) => [x.rule.id, x.byMessage])).toEqual([['autogen/timed-out', true]]);
      expect(m[0]!.reasons[1]).toBe('message matches the pattern /^Timed out after (?P<s>\\d+) seconds$/');
      expect(matchRuntimeError(set.rules, parseErrorText('NotImplementedError: Timed out after five seconds')).filter((x) => x.byMessage)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a class alone lists every record of that class; part of a message narrows', () => {
    expect(matchRuntimeError(rules.rules, parseErrorText('NotImplementedError')).length).toBe(5);
    expect(matchRuntimeError(rules.rules, parseErrorText('not yet implemented')).length).toBe(5);
    expect(matchRuntimeError(rules.rules, parseErrorText('Agent load_state')).map((x) => x.rule.id)).toEqual([
      'autogen/agent-load-state-is-not-yet-implemented',
    ]);
  });

  it('the recorded raise line in a traceback frame ranks first', () => {
    const t = parseTraceback(TRACEBACK.replace('NotImplementedError: Agent save_state is not yet implemented.', 'NotImplementedError'))!;
    const m = matchRuntimeError(rules.rules, t);
    expect(m[0]!.rule.id).toBe(SAVE);
    expect(m[0]!.reasons.some((r) => r.includes(':502 is the recorded raise'))).toBe(true);
    expect(m[0]!.score).toBeGreaterThan(m[1]!.score);
  });
});

describe('rule reach (raiselint rules)', () => {
  it('certain, possible (protocol) and indirect paths from curated summaries', () => {
    const r = ruleReach(rules.byId.get(SAVE)!, rules.classes);
    expect(r.certain).toEqual([
      'agent_save_state() on a GrpcWorkerAgentRuntime (autogen_ext.runtimes.grpc._worker_runtime.GrpcWorkerAgentRuntime) or a subclass that does not override it',
    ]);
    expect(r.possible[0]).toContain('receiver typed AgentRuntime (autogen_core._agent_runtime.AgentRuntime)');
    expect(r.indirect).toContain('BaseGroupChat.save_state() -> runtime.agent_save_state()');
    expect(r.indirect).toContain('AgentProxy.save_state() -> runtime.agent_save_state()');
    expect(r.indirect).toContain('SocietyOfMindAgent.save_state() -> team.save_state() on a BaseGroupChat -> runtime.agent_save_state()');
    expect(ruleReach(rules.byId.get('autogen/agent-metadata-is-not-yet-implemented')!, rules.classes).indirect).toEqual([
      'AgentProxy.metadata -> runtime.agent_metadata()',
    ]);
  });

  it('a method name that wrappers also define is not reached through unrelated wrappers', () => {
    // GrpcWorkerAgentRuntime.save_state: SocietyOfMindAgent.save_state calls team.save_state, but a team is no runtime.
    expect(ruleReach(rules.byId.get('autogen/saving-state-is-not-yet-implemented')!, rules.classes).indirect).toEqual([]);
  });

  it('reads the registry once for all the rules it lists, with the same reach as rule by rule', () => {
    // Was O(rules x classes x methods): every method target scanned every class's methods (~6 s of `rules --format json` for 10,000 rules).
    const index = reachIndex(rules.classes);
    for (const r of rules.rules) expect(ruleReach(r, rules.classes, index)).toEqual(ruleReach(r, rules.classes));
    const methodRules = rules.rules.filter((r) => r.targets.some((t) => t.kind === 'method')).length;
    expect(methodRules).toBeGreaterThan(1);
    const all = ClassRegistry.prototype.all;
    let calls = 0;
    ClassRegistry.prototype.all = function (this: ClassRegistry) {
      calls++;
      return all.call(this);
    };
    try {
      formatRulesJson(rules.rules, rules);
    } finally {
      ClassRegistry.prototype.all = all;
    }
    expect(calls).toBe(1);
    expect(() => ruleReach(rules.rules[0]!, new ClassRegistry(), index)).toThrow(/another registry/);
  });
});
