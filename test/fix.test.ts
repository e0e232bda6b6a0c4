/**
 * Fixes: every `fixtures/fixes/<case>/input.py` fixed in memory must equal `expected.py` byte for
 * byte (`options.json`: `strategy`, `unsafe`, `remaining` findings); every expected file must
 * parse with CPython's `ast`, and fixing it again must change nothing. Then the pieces: edits on
 * bytes, overlapping fixes, verification, the atomic write.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../src/compile/load.js';
import { checkSource } from '../src/engine/check.js';
import { aloneContext, fixBytes as fixIn } from '../src/engine/fix.js';
import type { StrategyOption } from '../src/fix/plan.js';

import { applyBytes, applyText, ChangedOnDiskError, selectEdits, writeAtomic } from '../src/fix/apply.js';
import { UserFile } from '../src/fix/scope.js';
import { lineStarts } from '../src/diagnostics/positions.js';
import { initParser, withTree } from '../src/parse/parser.js';
import type { Fix } from '../src/diagnostics/types.js';
import type { RuleSet } from '../src/rules/ruleset.js';
import { fixesOf } from '../src/lsp/fixes.js';
import { BIN } from './helpers/project.js';

/** A file's lint-and-fix loop with no config: the fix stage alone. */
const fixBytes = (bytes: Buffer, file: string, rules: Parameters<typeof fixIn>[1], o: { unsafe?: boolean; fixStrategy?: StrategyOption } = {}) =>
  fixIn(bytes, rules, aloneContext(file, o), { unsafe: o.unsafe });

const ROOT = join(import.meta.dirname, '..', 'fixtures', 'fixes');
const cases = readdirSync(ROOT)
  .filter((d) => statSync(join(ROOT, d)).isDirectory())
  .sort();
const rulesP = loadRules();

interface CaseOptions {
  strategy?: 'auto' | 'try-except' | 'type-guard';
  unsafe?: boolean;
  remaining?: number;
}

/** The rules of these dataset lines alone (record envelopes, or lines as a dataset file holds them), loaded as `--records FILE --no-bundled` loads them. */
async function rulesOf(lines: (object | string)[], python?: false): Promise<RuleSet> {
  const file = join(mkdtempSync(join(tmpdir(), 'raiselint-fix-')), 'r.jsonl');
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return loadRules({ records: [file], bundled: false, python });
}

function pyParses(file: string): void {
  // Bytes, so that a BOM and a coding cookie are read as CPython reads the file.
  execFileSync('python3', ['-c', 'import ast,sys; ast.parse(open(sys.argv[1], "rb").read())', file]);
}

describe('fixtures/fixes: input.py → expected.py', () => {
  it('has a case for every strategy', () => {
    for (const prefix of ['try_', 'guard_', 'replace_', 'none_'])
      expect(
        cases.some((c) => c.startsWith(prefix)),
        prefix,
      ).toBe(true);
  });
  for (const c of cases) {
    it(c, async () => {
      const rules = await rulesP;
      const dir = join(ROOT, c);
      const o: CaseOptions = existsSync(join(dir, 'options.json')) ? JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8')) : {};
      const opts = { unsafe: !!o.unsafe, fixStrategy: o.strategy ?? 'auto' };
      const input = readFileSync(join(dir, 'input.py'));
      const expected = readFileSync(join(dir, 'expected.py'));
      pyParses(join(dir, 'input.py'));
      pyParses(join(dir, 'expected.py'));
      const before = checkSource(input.toString('utf8').replace(/^\ufeff/, ''), c, rules, opts);
      expect(before.diagnostics.length, 'the input has findings').toBeGreaterThan(0);
      const r = fixBytes(input, c, rules, opts);
      expect(r.errors).toEqual([]);
      const out = r.bytes ?? input;
      expect(out.toString('utf8')).toBe(expected.toString('utf8'));
      expect(out.equals(expected)).toBe(true);
      expect(r.diagnostics.length, 'findings left').toBe(o.remaining ?? 0);
      expect(r.fixed).toBe(before.diagnostics.length - (o.remaining ?? 0));
      if (!o.remaining) expect(out.equals(input)).toBe(false);
      // A second run changes nothing.
      const again = fixBytes(expected, c, rules, opts);
      expect(again.bytes).toBeUndefined();
      expect(again.fixed).toBe(0);
    });
  }
});

describe('fixtures/fixes through `raiselint check --fix` (the compiled-rules snapshot)', () => {
  it('every case fixed on disk by the CLI equals expected.py byte for byte', () => {
    // One CLI run per set of options, over copies of the inputs (a fresh cache: the snapshot is compiled and read back).
    const groups = new Map<string, string[]>();
    for (const c of cases) {
      const dir = join(ROOT, c);
      const o: CaseOptions = existsSync(join(dir, 'options.json')) ? JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8')) : {};
      const args = ['--fix', ...(o.unsafe ? ['--unsafe-fixes'] : []), '--fix-strategy', o.strategy ?? 'auto'];
      const k = args.join(' ');
      groups.set(k, [...(groups.get(k) ?? []), c]);
    }
    for (const [k, list] of groups) {
      const work = mkdtempSync(join(tmpdir(), 'raiselint-fixcli-'));
      for (const c of list) writeFileSync(join(work, `${c}.py`), readFileSync(join(ROOT, c, 'input.py')));
      const cache = mkdtempSync(join(tmpdir(), 'raiselint-fixcache-'));
      const r = spawnSync(process.execPath, [BIN, 'check', '--no-config', '--no-cache', '--cache-dir', cache, ...k.split(' '), '.'], {
        cwd: work,
        encoding: 'utf8',
      });
      expect(r.stderr, k).not.toMatch(/error:/);
      for (const c of list) expect(readFileSync(join(work, `${c}.py`)).equals(readFileSync(join(ROOT, c, 'expected.py'))), `${c} (${k})`).toBe(true);
    }
  });
});

describe('fixes for every record shape (fixtures/shapes)', () => {
  it('every applicable fix verifies, the results parse with CPython, and a second run changes nothing', async () => {
    const shapes = join(import.meta.dirname, '..', 'fixtures', 'shapes');
    const rules = await loadRules({ records: [join(shapes, 'records.jsonl')], bundled: false });
    const out = mkdtempSync(join(tmpdir(), 'raiselint-shapes-'));
    let fixed = 0;
    const written: string[] = [];
    for (const f of readdirSync(shapes)
      .filter((n) => n.endsWith('.py'))
      .sort()) {
      const r = fixBytes(readFileSync(join(shapes, f)), f, rules, { unsafe: true });
      expect(
        r.errors.filter((e) => e.kind !== 'syntax'),
        f,
      ).toEqual([]);
      fixed += r.fixed;
      if (!r.bytes) continue;
      writeFileSync(join(out, f), r.bytes);
      written.push(join(out, f));
      expect(fixBytes(r.bytes, f, rules, { unsafe: true }).bytes, `${f}: second run`).toBeUndefined();
    }
    expect(fixed).toBeGreaterThan(50);
    execFileSync('python3', ['-c', 'import ast,sys\nfor f in sys.argv[1:]: ast.parse(open(f, "rb").read(), f)', ...written]);
  });
});

describe('fix planning', () => {
  it('a value hoisted out of a `for` or `with` header is unsafe when the statement iterates or enters it', async () => {
    const rules = await rulesP;
    const head =
      'from contextlib import nullcontext\nfrom autogen_core import AgentId, AgentRuntime\nfrom .messages import AGENT_METADATA\n\n\nasync def f(runtime: AgentRuntime, agent: AgentId) -> None:\n';
    const cases: [string, RegExp | null][] = [
      ['    for k in await runtime.agent_metadata(agent):\n        print(k)\n', /unsafe: the `for` statement iterates over the alternative's value;/],
      ['    for k in sorted(await runtime.agent_metadata(agent)):\n        print(k)\n', null],
      [
        '    with (await runtime.agent_metadata(agent)) as m:\n        print(m)\n',
        /unsafe: the `with` statement enters the alternative's value as a context manager;/,
      ],
      ['    with nullcontext(await runtime.agent_metadata(agent)) as m:\n        print(m)\n', null],
    ];
    for (const [body, unsafe] of cases) {
      const [d] = checkSource(head + body, 'x.py', rules, { fixStrategy: 'try-except' }).diagnostics;
      expect(d!.fix!.strategy, body).toBe('try-except');
      // Record code and a possible finding make every such fix unsafe; the header adds its own reason.
      expect(d!.fix!.applicability, body).toBe('unsafe');
      expect(d!.fix!.reason, body).toMatch(/the finding is only possible: .*; the alternative is the record's code \(third-party data\)$/);
      if (unsafe) expect(d!.fix!.reason, body).toMatch(unsafe);
      else expect(d!.fix!.reason, body).not.toMatch(/`(for|with)` statement/);
    }
  });
  it('imports an error class under an alias when the file already uses its name (its own `class Error`)', async () => {
    // copy.Error, whose record handles it as `except Error` after `from copy import copy, Error`. From the
    // record's window alone: grounded in the installed copy module, the raise is unreachable (no finding).
    const rules = await rulesOf([readFileSync(join(import.meta.dirname, 'data', 'copy-error-record.jsonl'), 'utf8').trim()], false);
    const code = 'from copy import copy\n\n\nclass Error(Exception):\n    pass\n\n\ndef f(x):\n    y = copy(x)\n    return y\n';
    const r = fixBytes(Buffer.from(code), 'x.py', rules, { unsafe: true });
    expect(r.errors).toEqual([]);
    expect(r.fixed).toBe(1);
    const out = r.bytes!.toString('utf8');
    expect(out).toContain('from copy import Error as CopyError\n');
    expect(out).toContain('    except CopyError:\n');
    expect(out).toContain('class Error(Exception):');
    // Without the clash, the record's own spelling.
    const plain = fixBytes(Buffer.from(code.replace('class Error', 'class Failure')), 'x.py', rules, { unsafe: true }).bytes!.toString('utf8');
    expect(plain).toContain('from copy import Error\n');
    expect(plain).toContain('    except Error:\n');
  });
  it('says why a call has no automatic fix', async () => {
    const rules = await rulesP;
    const text = readFileSync(join(ROOT, 'none_unwrappable', 'input.py'), 'utf8');
    const reasons = checkSource(text, 'x.py', rules).diagnostics.map((d) => `${d.fix!.strategy} ${d.fix!.applicability} ${d.fix!.reason}`);
    expect(reasons).toEqual([
      expect.stringMatching(/^none display-only no automatic fix: the call is in a `while` condition/),
      expect.stringMatching(/^none display-only no automatic fix: the call is in an `elif` condition/),
      expect.stringMatching(
        /^none display-only no automatic fix: the call is in the header of a `with` statement, after its first context manager is entered$/,
      ),
      expect.stringMatching(/^none display-only no automatic fix: the call is in a lambda/),
      expect.stringMatching(/^none display-only no automatic fix: the call is in a generator expression/),
      expect.stringMatching(/^none display-only no automatic fix: the call is in a decorator/),
      expect.stringMatching(/^none display-only no automatic fix: the call is in a default argument/),
    ]);
    const indirect = readFileSync(join(ROOT, 'none_indirect', 'input.py'), 'utf8');
    expect(checkSource(indirect, 'x.py', rules).diagnostics[0]!.fix).toEqual({
      applicability: 'display-only',
      strategy: 'none',
      reason: expect.stringContaining('raised inside `team.save_state()`'),
      edits: [],
    });
  });

  it('lists the names the alternative needs and the file lacks, and shows the fix only (unsafe still means valid)', async () => {
    const rules = await rulesP;
    const text = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime


async def main(agent):
    runtime = GrpcWorkerAgentRuntime(host_address="h")
    return await runtime.save_state()
`;
    const [d] = checkSource(text, 'x.py', rules).diagnostics;
    expect(d!.fix!.applicability).toBe('display-only');
    expect(d!.fix!.strategy).toBe('replace');
    expect(d!.fix!.reason).toContain(
      'the alternative uses `SaveStateRequest`, `agent_ids`, which this file does not define or import: define them to apply the fix',
    );
    // Defining them makes it applicable, and unsafe: the alternative is the record's code.
    const [d2] = checkSource(
      text.replace('async def main(agent):', 'from msgs import SaveStateRequest\nagent_ids = []\n\n\nasync def main(agent):'),
      'x.py',
      rules,
    ).diagnostics;
    expect(d2!.fix!.applicability).toBe('unsafe');
    expect(d2!.fix!.reason).toMatch(/unsafe: the alternative is the record's code \(third-party data\)$/);
  });

  it('catches exactly the record error class, and re-running argument calls in the handler is unsafe', async () => {
    const rules = await rulesP;
    const text = `from autogen_core import AgentId, AgentRuntime
from .m import SaveStateRequest


async def f(runtime: AgentRuntime, name: str):
    return await runtime.agent_save_state(AgentId(name, "x"))
`;
    const [d] = checkSource(text, 'x.py', rules, { fixStrategy: 'try-except' }).diagnostics;
    expect(d!.fix!.edits[0]!.text).toContain('except NotImplementedError:');
    expect(d!.fix!.applicability).toBe('unsafe');
    expect(d!.fix!.reason).toContain('`AgentId(name, "x")` is evaluated again in the handler');
  });

  it('works for any record of that shape: a module function, a library error class, a multi-statement handler', async () => {
    const source =
      'import os\n\nfrom .errors import ConfigError\n\n\ndef load_config(path):\n    if not os.path.exists(path):\n        raise ConfigError(f"no config at {path}")\n    return {}\n';
    const record = {
      id: 'abcd1234abcd1234',
      repo: 'acme/confpkg',
      slug: 'no-config-file',
      errorMessage: 'no config at X',
      errorClass: 'ConfigError',
      severity: 'error',
      filePath: 'src/confpkg/loader.py',
      lineNumber: 8,
      sourceCode: source,
      sourceCodeStart: 1,
      handlingStrategy: 'try-catch',
      tryCatchPattern:
        'from confpkg import load_config\nfrom confpkg.errors import ConfigError\n\ntry:\n    config = load_config(path)\nexcept ConfigError as exc:\n    log.warning("using defaults: %s", exc)\n    config = dict(DEFAULTS)\n',
      tags: ['python'],
      schemaVersion: 2,
    };
    const rules = await rulesOf([{ record, datasetVersion: 'x' }]);
    const user = `import logging

from confpkg import load_config

log = logging.getLogger(__name__)
DEFAULTS = {"a": 1}


def main(exc):
    settings = load_config("app.toml")
    return settings, exc
`;
    const r = fixBytes(Buffer.from(user), 'user.py', rules, { unsafe: true });
    expect(r.errors).toEqual([]);
    expect(r.bytes?.toString()).toBe(
      user
        .replace('from confpkg import load_config\n', 'from confpkg import load_config\nfrom confpkg.errors import ConfigError\n')
        .replace(
          '    settings = load_config("app.toml")\n',
          '    try:\n        settings = load_config("app.toml")\n    except ConfigError as exc_1:\n        log.warning("using defaults: %s", exc_1)\n        settings = dict(DEFAULTS)\n',
        ),
    );
  });

  it('one call that may raise several errors gets one try with a handler for each, a subclass before its base', async () => {
    const source =
      'import os\n\n\ndef open_port(name, mode="r"):\n    if not name:\n        raise TypeError("name must not be empty")\n    if mode not in "rw":\n        raise ValueError(f"bad mode {mode}")\n    if not os.path.exists(name):\n        raise FileNotFoundError(name)\n    if os.path.isdir(name):\n        raise OSError("is a directory")\n    return name\n';
    const rec = (slug: string, errorClass: string, lineNumber: number, handler: string) => ({
      record: {
        id: `${slug
          .replace(/[^a-f0-9]/g, '')
          .padEnd(16, '0')
          .slice(0, 12)}${String(lineNumber).padStart(4, '0')}`,
        repo: 'acme/ports',
        slug,
        errorMessage: slug,
        errorClass,
        severity: 'error',
        filePath: 'src/ports/core.py',
        lineNumber,
        sourceCode: source,
        sourceCodeStart: 1,
        handlingStrategy: 'try-catch',
        tryCatchPattern: `from ports.core import open_port\n\ntry:\n    port = open_port(name)\nexcept ${errorClass}:\n    ${handler}\n`,
        tags: ['python'],
        schemaVersion: 2,
      },
      datasetVersion: 'x',
    });
    // By rule id the OSError record comes first: its handler must still follow FileNotFoundError's.
    const rules = await rulesOf([
      rec('a-is-a-directory', 'OSError', 12, 'port = None'),
      rec('b-bad-mode', 'ValueError', 8, 'port = ""'),
      rec('c-missing', 'FileNotFoundError', 10, 'port = "/dev/null"'),
      rec('d-not-a-str', 'TypeError', 6, 'port = None'),
    ]);
    const user = 'from ports.core import open_port\n\n\ndef main(path, mode):\n    port = open_port(path, mode)\n    return port\n';
    const ds = checkSource(user, 'user.py', rules).diagnostics;
    expect(ds.map((d) => d.errorClass).sort()).toEqual(['FileNotFoundError', 'OSError', 'TypeError', 'ValueError']);
    // Every finding carries the one fix of the statement, and it handles each of their errors (the editor's title says which).
    expect(new Set(ds.map((d) => JSON.stringify(d.fix))).size).toBe(1);
    expect(fixesOf(ds[0]!, user)[0]!.title).toBe(`Wrap in try/except FileNotFoundError, OSError, ValueError, TypeError (${ds[0]!.ruleId}) [unsafe]`);
    const r = fixBytes(Buffer.from(user), 'user.py', rules, { unsafe: true });
    expect(r.errors).toEqual([]);
    expect(r.fixed).toBe(4);
    const out = r.bytes!.toString();
    const heads = out.split('\n').filter((l) => l.trim().startsWith('except'));
    expect(heads.map((l) => l.trim())).toEqual(['except FileNotFoundError:', 'except OSError:', 'except ValueError:', 'except TypeError:']);
    expect(out).toBe(
      'from ports.core import open_port\n\n\ndef main(path, mode):\n    try:\n        port = open_port(path, mode)\n    except FileNotFoundError:\n        port = "/dev/null"\n    except OSError:\n        port = None\n    except ValueError:\n        port = ""\n    except TypeError:\n        port = None\n    return port\n',
    );
    const dirOut = mkdtempSync(join(tmpdir(), 'raiselint-fix-'));
    writeFileSync(join(dirOut, 'user.py'), out);
    pyParses(join(dirOut, 'user.py'));
    // Each error reaches its own handler: nothing is left to report.
    expect(checkSource(out, 'user.py', rules).diagnostics).toEqual([]);
  });

  it('binds a dotted receiver of the pattern (`self.client`) and re-indents a pattern written inside a method', async () => {
    const record = {
      id: 'feedfacefeedface',
      repo: 'acme/netlib',
      slug: 'client-offline',
      errorMessage: 'offline',
      errorClass: 'ClientError',
      severity: 'error',
      filePath: 'src/netlib/client.py',
      lineNumber: 3,
      sourceCode: 'class Client:\n    def fetch(self, url):\n        raise ClientError("offline")\n',
      sourceCodeStart: 1,
      handlingStrategy: 'try-catch',
      tryCatchPattern:
        'from netlib import Client, ClientError\n\n\nclass Service:\n    def get(self, url):\n        try:\n            data = self.client.fetch(url)\n        except ClientError:\n            data = self.client.fetch_cached(url)\n        return data\n',
      tags: ['python'],
      schemaVersion: 2,
    };
    const rules = await rulesOf([{ record, datasetVersion: 'x' }]);
    const user = 'from netlib import Client\n\n\ndef load(api: Client, endpoint):\n    result = api.fetch(endpoint)\n    return result\n';
    const r = fixBytes(Buffer.from(user), 'user.py', rules, { unsafe: true });
    expect(r.bytes?.toString()).toBe(
      'from netlib import Client\nfrom netlib import ClientError\n\n\ndef load(api: Client, endpoint):\n    try:\n        result = api.fetch(endpoint)\n    except ClientError:\n        result = api.fetch_cached(endpoint)\n    return result\n',
    );
  });

  it('a replacement that covers another in the copied statement wins (nested certain calls, a multi-line statement)', async () => {
    const record = {
      id: '0123456789abcdef',
      repo: 'acme/shapes',
      slug: 'box-bad-items',
      errorMessage: 'bad items',
      errorClass: 'ValueError',
      severity: 'error',
      filePath: 'src/shapes/box.py',
      lineNumber: 3,
      sourceCode: 'class Box:\n    def __init__(self, items):\n        raise ValueError("bad items")\n',
      sourceCodeStart: 1,
      handlingStrategy: 'try-catch',
      tryCatchPattern: 'from shapes import Box\n\ntry:\n    box = Box(items)\nexcept ValueError:\n    box = None\n',
      tags: ['python'],
      schemaVersion: 2,
    };
    const rules = await rulesOf([{ record, datasetVersion: 'x' }]);
    const user = 'from shapes import Box\n\n\ndef show(n):\n    print(str(Box([Box(n)])),\n          "end")\n';
    expect(checkSource(user, 'user.py', rules).diagnostics.map((d) => [d.line, d.column, d.confidence])).toEqual([
      [5, 15, 'certain'],
      [5, 20, 'certain'],
    ]);
    const r = fixBytes(Buffer.from(user), 'user.py', rules, { unsafe: true });
    expect(r.errors).toEqual([]);
    // Before, the inner replacement was spliced into the outer one's text too: `str(NoneNone]))`, which does not parse.
    expect(r.bytes?.toString()).toBe(
      'from shapes import Box\n\n\ndef show(n):\n    try:\n        print(str(Box([Box(n)])),\n              "end")\n    except ValueError:\n        print(str(None),\n              "end")\n',
    );
  });

  it('plans no applicable fix when the alternative calls the raising function again', async () => {
    const rec = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8').split('\n')[0]!);
    rec.record.handlingStrategy = 'try-catch';
    rec.record.tryCatchPattern =
      'try:\n    state = await runtime.agent_save_state(agent_id)\nexcept NotImplementedError:\n    state = await runtime.agent_save_state(agent_id)\n';
    const rules = await rulesOf([rec]);
    const src =
      'from autogen_core import AgentRuntime\n\n\nasync def f(runtime: AgentRuntime, agent_id):\n    state = await runtime.agent_save_state(agent_id)\n    return state\n';
    const [d] = checkSource(src, 'x.py', rules, { fixStrategy: 'try-except' }).diagnostics;
    expect(d!.fix!.applicability).toBe('display-only');
    expect(d!.fix!.reason).toContain("the record's alternative calls `runtime.agent_save_state` again");
  });

  it('refuses a fix whose result has a new finding (verification), and reports it', async () => {
    const lines = readFileSync(join(import.meta.dirname, '..', 'rules', 'records', 'autogen-grpc-runtime.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const save = JSON.parse(lines[0]!);
    const metadata = lines.find((l) => l.includes('"agent-metadata-is-not-yet-implemented"'))!;
    save.record.handlingStrategy = 'try-catch';
    save.record.exampleFix = null;
    // The handler calls another recorded raiser: the fixed code would have a new finding.
    save.record.tryCatchPattern =
      'try:\n    state = await runtime.agent_save_state(agent_id)\nexcept NotImplementedError:\n    state = await runtime.agent_metadata(agent_id)\n';
    const rules = await rulesOf([save, metadata]);
    const src = Buffer.from(`from autogen_core import AgentRuntime


async def f(runtime: AgentRuntime, agent_id):
    state = await runtime.agent_save_state(agent_id)
    return state
`);
    const [d] = checkSource(src.toString(), 'x.py', rules, { fixStrategy: 'try-except' }).diagnostics;
    expect(d!.fix!.applicability).toBe('unsafe');
    const r = fixBytes(src, 'x.py', rules, { fixStrategy: 'try-except', unsafe: true });
    expect(r.bytes).toBeUndefined();
    expect(r.fixed).toBe(0);
    expect(r.errors).toEqual([
      {
        file: 'x.py',
        line: 5,
        column: 19,
        kind: 'fix',
        message: expect.stringContaining('the fixed code has a new autogen/agent-metadata-is-not-yet-implemented finding'),
      },
    ]);
  });

  it('does not fix a file with a syntax error, nor a file in another encoding', async () => {
    const rules = await rulesP;
    const bad = Buffer.from(`from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime
from m import AGENT_METADATA

async def f(agent):
    runtime = GrpcWorkerAgentRuntime(host_address="h")
    meta = await runtime.agent_metadata(agent)
    def g(:
        pass
`);
    const r = fixBytes(bad, 'x.py', rules, { unsafe: true });
    expect(r.bytes).toBeUndefined();
    expect(r.errors.map((e) => `${e.kind} ${e.message}`)).toEqual([
      expect.stringMatching(/^syntax syntax error/),
      'syntax not fixed: the file has a syntax error',
    ]);
    const good =
      'from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\nfrom m import AGENT_METADATA\n\n\nasync def f(agent):\n    runtime = GrpcWorkerAgentRuntime(host_address="h")\n    meta = await runtime.agent_metadata(agent)\n    x = "caf';
    const latin = Buffer.concat([Buffer.from(`# -*- coding: latin-1 -*-\n${good}`), Buffer.from([0xe9]), Buffer.from('"\n')]);
    expect(fixBytes(Buffer.from(`${good}e"\n`), 'x.py', rules, { unsafe: true }).bytes).toBeDefined();
    const r2 = fixBytes(latin, 'x.py', rules, { unsafe: true });
    expect(r2.bytes).toBeUndefined();
    expect(r2.errors.map((e) => e.message)).toEqual(['not fixed: fixes are written only to UTF-8 files']);
  });
});

describe('applying edits', () => {
  it('splices the original bytes: BOM, CRLF and multi-byte text outside the edits stay', () => {
    const text = 'é = "😀"\r\nx = 1\r\ny = 2\r\n';
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    const edits = [{ start: text.indexOf('x'), end: text.indexOf('x') + 5, text: 'x = 10' }];
    const out = applyBytes(bytes, text, true, edits);
    expect(out.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(out.subarray(3).toString('utf8')).toBe(applyText(text, edits));
    expect(out.subarray(3).toString('utf8')).toBe('é = "😀"\r\nx = 10\r\ny = 2\r\n');
  });

  /** A fix of `text` from 1-based [line, column, endLine, endColumn, text] (fixes carry offsets). */
  const fix = (text: string, edits: [number, number, number, number, string][]): Fix => {
    const at = (line: number, column: number) => lineStarts(text)[line - 1]! + column - 1;
    return {
      applicability: 'safe',
      strategy: 'type-guard',
      reason: 'r',
      edits: edits.map(([line, column, endLine, endColumn, t]) => ({ start: at(line, column), end: at(endLine, endColumn), text: t })),
    };
  };

  it('applies identical edits once and defers a fix that overlaps another', () => {
    const text = 'import a\nx()\ny()\n';
    const imp: [number, number, number, number, string] = [2, 1, 2, 1, 'import b\n'];
    const f1 = fix(text, [imp, [2, 1, 2, 4, 'X()']]);
    const f2 = fix(text, [imp, [3, 1, 3, 4, 'Y()']]);
    const f3 = fix(text, [[2, 2, 3, 2, 'zz']]);
    const sel = selectEdits(text, [f1, f2, f3]);
    expect(sel.applied).toEqual([f1, f2]);
    expect(sel.deferred).toEqual([f3]);
    expect(applyText(text, sel.edits)).toBe('import a\nimport b\nX()\nY()\n');
  });

  it('two different insertions at one point wait for the next round', () => {
    const text = 'a\n';
    const sel = selectEdits(text, [fix(text, [[1, 1, 1, 1, 'x\n']]), fix(text, [[1, 1, 1, 1, 'y\n']])]);
    expect(sel.applied).toHaveLength(1);
    expect(sel.deferred).toHaveLength(1);
  });
});

describe('writing files', () => {
  it('writes atomically with the same mode, through a symbolic link, leaving no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'raiselint-write-'));
    const f = join(dir, 'a.py');
    writeFileSync(f, 'old\n');
    chmodSync(f, 0o640);
    symlinkSync(f, join(dir, 'link.py'));
    const ino = statSync(f).ino;
    writeAtomic(join(dir, 'link.py'), Buffer.from('new\n'), Buffer.from('old\n'));
    expect(readFileSync(f, 'utf8')).toBe('new\n');
    expect(statSync(f).mode & 0o777).toBe(0o640);
    expect(statSync(f).ino).not.toBe(ino);
    expect(lstatSync(join(dir, 'link.py')).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['a.py', 'link.py']);
  });

  it('refuses a file that changed since it was read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'raiselint-write-'));
    const f = join(dir, 'a.py');
    writeFileSync(f, 'edited meanwhile\n');
    expect(() => writeAtomic(f, Buffer.from('new\n'), Buffer.from('old\n'))).toThrow(ChangedOnDiskError);
    expect(readFileSync(f, 'utf8')).toBe('edited meanwhile\n');
    expect(readdirSync(dir)).toEqual(['a.py']);
  });
});

describe('file facts', () => {
  it('places an import after the docstring and __future__ imports, or at the top after a shebang', async () => {
    await initParser();
    const spot = (src: string) =>
      withTree(src, (t) => {
        const s = new UserFile(t.rootNode, src).importSpot('from pkg import C');
        return src.slice(0, s.offset) + s.before + 'from pkg import C\n' + s.after + src.slice(s.offset);
      });
    expect(spot('"""Doc."""\nfrom __future__ import annotations\n\nx = 1\n')).toBe(
      '"""Doc."""\nfrom __future__ import annotations\n\nfrom pkg import C\n\nx = 1\n',
    );
    expect(spot('#!/usr/bin/env python\n# -*- coding: utf-8 -*-\nx = 1\n')).toBe(
      '#!/usr/bin/env python\n# -*- coding: utf-8 -*-\nfrom pkg import C\n\nx = 1\n',
    );
    expect(spot('import os\nimport zlib\n\nx = 1')).toBe('import os\nfrom pkg import C\nimport zlib\n\nx = 1');
    expect(spot('import os')).toBe('import os\nfrom pkg import C\n');
  });
});
