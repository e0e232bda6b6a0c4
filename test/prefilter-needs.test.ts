/**
 * The prefilter's per-rule combination (src/prefilter/needs.ts) near its boundary, through the
 * real pipeline: for each snippet, the findings of the semantic model without the prefilter are
 * the expected ones (so the case is real), the prefilter lets it through exactly when there are
 * findings, or says so where it knowingly lets one more file through, and the findings with it are
 * the same.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canMatch, checkSource } from '../src/engine/check.js';
import { loadRules } from '../src/compile/load.js';
import { ClassRegistry, newClassInfo } from '../src/rules/classes.js';
import { prefilterNames } from '../src/compile/python/meta.js';
import { Prefilter, prefilterSpec } from '../src/prefilter/index.js';
import type { RuleSet } from '../src/rules/ruleset.js';
import type { RuleTarget } from '../src/rules/types.js';
import { ROOT } from './helpers.js';

const J = 'cpython/json-expecting-value';
const SEEK = 'cpython/seeking-is-only-supported-on-files-open-for-reading';
const ISO = 'cpython/invalid-isoformat-string';
const SAVE = 'autogen/agent-save-state-is-not-yet-implemented';
const IP4 = 'cpython/unexpected-slash-in-ipv4-address';

let rules: RuleSet;
beforeAll(async () => {
  rules = await loadRules({ records: [join(ROOT, 'fixtures', 'shapes', 'records.jsonl')] });
}, 120_000);

/** Rule ids found without the prefilter; the prefilter's verdict; and the same findings with it. */
function run(text: string): { ids: string[]; passes: boolean } {
  const ids = (prefilter: boolean) => checkSource(text, 'case.py', rules, { prefilter, fixes: false }).diagnostics.map((d) => d.ruleId);
  const all = ids(false);
  expect(ids(true), text).toEqual(all);
  return { ids: [...new Set(all)].sort(), passes: canMatch(text, rules) };
}

const found = (text: string, want: string[]) => {
  const r = run(text);
  expect(r.ids, text).toEqual(want);
  expect(r.passes, text).toBe(true);
};
const rejected = (text: string) => expect(run(text), text).toEqual({ ids: [], passes: false });

describe('a call target: its module root imported, its name written as an attribute or imported', () => {
  it('finds each way the model resolves the call', () => {
    found('import json\n\ndef f(t):\n    return json.loads(t)\n', [J]);
    found('import json as j\nj.loads(t)\n', [J]);
    found('from json import loads as parse\nparse(t)\n', [J]);
    found('def f(t):\n    import json as jl\n    return jl.loads(t)\n', [J]);
    // Through a variable, a return value, a line continuation.
    found('import json\nf = json.loads\nf(t)\n', [J]);
    found('import json\n\ndef get():\n    return json.loads\n\ng = get()\ng(t)\n', [J]);
    found('import json\njson.\\\n    loads(t)\n', [J]);
    // A class method, through the module or the class, and through a subclass defined in the file.
    found('from datetime import date\ndate.fromisoformat(s)\n', [ISO]);
    found('import datetime as dt\ndt.date.fromisoformat(s)\n', [ISO]);
    found('from datetime import date\n\nclass D(date):\n    pass\n\nD.fromisoformat(s)\n', [ISO]);
  });

  it('rejects files that name it but cannot resolve it (they passed on names alone)', () => {
    // `json` as a word or an attribute, not an import.
    rejected('data = resp.json()\nobj.loads(t)\n');
    rejected('"""Reads json."""\nimport simplejson\nsimplejson.loads(t)\n');
    // Imported, but the bare name is unbound: a file's own `loads`.
    rejected('import json\n\ndef loads(t):\n    return t\n\nloads(t)\n');
  });

  it('lets a file through on an import written in a comment (read from bytes, never less than the tree)', () => {
    expect(run('# import json\nobj.loads(t)\n')).toEqual({ ids: [], passes: true });
  });
});

describe('a call target: its name written as a value a call can reach', () => {
  it('finds a constructor however its value reaches the call', () => {
    found('from ipaddress import IPv4Address\nIPv4Address(v)\n', [IP4]);
    found('from ipaddress import IPv4Address as Addr\nAddr(v)\n', [IP4]);
    // A bare use of the imported name passes the value on; so does an attribute.
    found('from ipaddress import IPv4Address\nmake = IPv4Address\nmake(v)\n', [IP4]);
    found('import ipaddress\nKINDS = [ipaddress.IPv4Address]\nfor k in KINDS:\n    k(v)\n', [IP4]);
    // A subclass without its own __init__ inherits the constructor.
    found('from ipaddress import IPv4Address\n\nclass Tagged(IPv4Address):\n    tag = 1\n\nTagged(v)\n', [IP4]);
    found('import ipaddress\n\nclass Tagged(ipaddress.IPv4Address):\n    tag = 1\n\nTagged(v)\n', [IP4]);
  });

  it('rejects a name only subscripted or accessed, never a value (it passed on imports)', () => {
    rejected('import ipaddress\nprint(ipaddress.IPv4Address.max_prefixlen)\n');
    rejected('from ipaddress import IPv4Address\nBITS = IPv4Address.max_prefixlen\nx = IPv4Address [0] if False else None\n');
    rejected('import json\nprint(json.loads.__doc__)\n');
  });
});

describe('a method target: a class of its family imported and named, the method written as an attribute', () => {
  it('finds each way a receiver gets its type', () => {
    found('import bz2\nbz2.BZ2File("p").seek(0)\n', [SEEK]);
    found('from bz2 import BZ2File as B\nB("p").seek(0)\n', [SEEK]);
    // A string annotation, a return annotation, a `self` method of a subclass.
    found('import bz2\n\ndef f(x: "bz2.BZ2File"):\n    x.seek(0)\n', [SEEK]);
    found('from bz2 import BZ2File\n\ndef mk() -> BZ2File:\n    ...\n\nmk().seek(0)\n', [SEEK]);
    found('import lzma\n\nclass W(lzma.LZMAFile):\n    def go(self):\n        self.seek(0)\n', [SEEK]);
    // A class of the family that keeps the raising one in a field (autogen's curated data: BaseAgent.runtime).
    found('from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\n\nasync def f(r: GrpcWorkerAgentRuntime, a):\n    await r.agent_save_state(a)\n', [
      SAVE,
    ]);
    // A legacy alias of the class.
    found(
      'from autogen_ext.runtimes.grpc import WorkerAgentRuntime\n\nasync def f(a):\n    r = WorkerAgentRuntime(host_address="x")\n    await r.agent_save_state(a)\n',
      [SAVE],
    );
  });

  it('rejects a receiver no class of the family can type', () => {
    // The module imported, the class never named: `open()`'s file.
    rejected('import bz2\n\nwith open(p, "rb") as f:\n    f.seek(0)\n');
    // The method called bare (a function of the file).
    rejected('from bz2 import BZ2File\n\ndef seek(n):\n    return n\n\nseek(0)\n');
  });
});

/** A rule set of hand-made targets (no records): what the prefilter derives from them. */
function handMade(targets: RuleTarget[], classes = new ClassRegistry()): Prefilter {
  const set = {
    rules: [{ targets, prefilter: prefilterNames(targets, []) }],
    triggerNames: new Set<string>(),
    summaryMethods: new Set<string>(),
    classes,
    guards: new Map(),
  };
  return Prefilter.build(prefilterSpec(set as unknown as RuleSet));
}
const pass = (p: Prefilter, text: string) => p.candidateText(text) !== null;

describe('what the model resolves without an import', () => {
  it('a bare built-in exception name is `builtins.<name>`: no import needed, nor an attribute', () => {
    const p = handMade([{ kind: 'call', symbol: { module: 'builtins', path: 'UnicodeDecodeError', aliases: [] }, what: 'constructor' }]);
    expect(pass(p, 'raise UnicodeDecodeError("x", b"", 0, 1, "r")\n')).toBe(true);
    // Other built-ins are not read as `builtins.open` unless imported so.
    const q = handMade([{ kind: 'call', symbol: { module: 'builtins', path: 'open', aliases: [] }, what: 'function' }]);
    expect(pass(q, 'open(p)\n')).toBe(false);
    expect(pass(q, 'import builtins\nbuiltins.open(p)\n')).toBe(true);
    expect(pass(q, 'from builtins import open as o\no(p)\n')).toBe(true);
  });

  it('a method of a built-in exception class: its bare name types the receiver', () => {
    const classes = new ClassRegistry();
    classes.add(newClassInfo('builtins.UnicodeError'));
    const p = handMade([{ kind: 'method', classKey: 'builtins.UnicodeError', method: 'with_note' }], classes);
    expect(pass(p, 'e = UnicodeError("x")\ne.with_note("y")\n')).toBe(true);
    expect(pass(p, 'e = make()\ne.with_note("y")\n')).toBe(false);
  });

  it("an alias ending in another name: any local name equal to the rule's can hold it", () => {
    const p = handMade([{ kind: 'call', symbol: { module: 'pkg', path: 'make', aliases: ['legacy.build'] }, what: 'function' }]);
    expect(pass(p, 'from legacy import build\nmake = build\nmake()\n')).toBe(true);
    expect(pass(p, 'import pkg\nmake()\n')).toBe(true);
    // Still an import of one of its roots.
    expect(pass(p, 'make = build\nmake()\n')).toBe(false);
  });
});
