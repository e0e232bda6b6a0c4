/**
 * Cross-file (semantic/crossfile.ts, semantic/modules.ts) as users run it: `raiselint check` over a
 * project, one file of it (pre-commit), from standard input, with the content cache across an edit
 * of the imported module, and `--no-cross-file`; and module resolution as Python does it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModuleResolver } from '../src/semantic/modules.js';
import { RACY_MS } from '../src/io/fingerprint.js';
import { cli, ROOT, tempTree } from './helpers.js';

const SAVING = 'autogen/saving-state-is-not-yet-implemented';
const GRPC = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime


def make():
    return GrpcWorkerAgentRuntime(host_address="h")
`;
const LOCAL = `from autogen_core import SingleThreadedAgentRuntime


def make():
    return SingleThreadedAgentRuntime()
`;
const SERVICE = `from app.runtime import make


async def run() -> None:
    await make().save_state()
`;

function project(runtime = GRPC): string {
  return tempTree({ 'pyproject.toml': '', 'app/__init__.py': '', 'app/runtime.py': runtime, 'app/service.py': SERVICE });
}

/** Rule ids and lines of a JSON report. */
function findings(stdout: string): string[] {
  return (JSON.parse(stdout) as { diagnostics: { file: string; line: number; ruleId: string }[] }).diagnostics.map((d) => `${d.file}:${d.line} ${d.ruleId}`);
}

describe('raiselint check across modules', () => {
  it('reports the call in service.py on the runtime app/runtime.py makes; not with --no-cross-file', () => {
    const dir = project();
    const r = cli(['check', '.', '--output-format', 'json', '--no-cache'], dir);
    expect(findings(r.stdout)).toEqual([`app/service.py:5 ${SAVING}`]);
    expect(r.code).toBe(1);
    const alone = cli(['check', '.', '--output-format', 'json', '--no-cache', '--no-cross-file'], dir);
    expect(findings(alone.stdout)).toEqual([]);
    expect(alone.code).toBe(0);
  });

  it('one file checked alone (pre-commit) and standard input read the modules it imports from the disk', () => {
    const dir = project();
    expect(findings(cli(['check', 'app/service.py', '--output-format', 'json', '--no-cache'], dir).stdout)).toEqual([`app/service.py:5 ${SAVING}`]);
    const piped = cli(['check', '-', '--stdin-filename', 'app/service.py', '--output-format', 'json'], dir, SERVICE);
    expect(findings(piped.stdout)).toEqual([`app/service.py:5 ${SAVING}`]);
  });

  it('a cached result is used while the modules it was read from are unchanged, and not after an edit of one', () => {
    const dir = project();
    // A stat signature is trusted once the file's change time is a few seconds old (io/fingerprint.ts RACY_MS).
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RACY_MS + 200);
    const first = cli(['check', '.', '--output-format', 'json', '--timings'], dir);
    expect(findings(first.stdout)).toEqual([`app/service.py:5 ${SAVING}`]);
    const warm = cli(['check', '.', '--output-format', 'json', '--timings'], dir);
    expect(findings(warm.stdout)).toEqual([`app/service.py:5 ${SAVING}`]);
    expect(warm.stderr).toMatch(/3 files: 3 cached, 0 read, 0 parsed/);
    // The factory now makes the local runtime; service.py is unchanged.
    writeFileSync(join(dir, 'app', 'runtime.py'), LOCAL);
    const after = cli(['check', '.', '--output-format', 'json', '--timings'], dir);
    expect(findings(after.stdout)).toEqual([]);
    expect(after.code).toBe(0);
  });

  it('a runtime a factory builds in a name or sets in __init__ reaches the caller; one named only in a docstring, a comment or a with-block does not', () => {
    const runtime = `"""Makes runtimes.

>>> from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime
"""
from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime
from autogen_core import SingleThreadedAgentRuntime


def make():
    rt = GrpcWorkerAgentRuntime(host_address="h")
    return rt


def local():
    # not a GrpcWorkerAgentRuntime
    with GrpcWorkerAgentRuntime(host_address="h") as probe:
        probe.start()
    return SingleThreadedAgentRuntime()


class Holder:
    def __init__(self):
        self.rt = GrpcWorkerAgentRuntime(host_address="h")
`;
    const service = `from app.runtime import Holder, local, make


async def run() -> None:
    await make().save_state()
    await local().save_state()
    await Holder().rt.save_state()
`;
    const dir = tempTree({ 'pyproject.toml': '', 'app/__init__.py': '', 'app/runtime.py': runtime, 'app/service.py': service });
    const r = cli(['check', 'app/service.py', '--output-format', 'json', '--no-cache'], dir);
    expect(findings(r.stdout)).toEqual([`app/service.py:5 ${SAVING}`, `app/service.py:7 ${SAVING}`]);
  });

  it('a module of the rules’ library in the project (its own source tree, a vendored copy) is the library, not followed', () => {
    const dir = tempTree({
      'pyproject.toml': '',
      'autogen_ext/__init__.py': '',
      'autogen_ext/runtimes/__init__.py': '',
      'autogen_ext/runtimes/grpc.py': 'class GrpcWorkerAgentRuntime:\n    async def save_state(self):\n        return {}\n',
      'use.py':
        'from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\n\n\nasync def f():\n    await GrpcWorkerAgentRuntime(host_address="h").save_state()\n',
    });
    expect(findings(cli(['check', 'use.py', '--output-format', 'json', '--no-cache'], dir).stdout)).toEqual([`use.py:5 ${SAVING}`]);
  });
});

describe('what a project module hands on (src/semantic/projectfacts.ts)', () => {
  it('a library function a project module hands on is followed; one it defines itself is its own: that file is not even parsed', () => {
    const call = (from: string) => `${from}\n\nmake_archive("x", "nope")\n`;
    const dir = tempTree({
      'pyproject.toml': '',
      'proj/__init__.py': '',
      'proj/util.py': 'import shutil\nfrom shutil import make_archive\n',
      'proj/own.py': 'import shutil\n\n\ndef make_archive(base, fmt):\n    return shutil.make_archive(base, "zip")\n',
      'use_handed.py': call('from proj.util import make_archive'),
      'use_own.py': call('from proj.own import make_archive'),
      'use_own_module.py': 'from proj import own\n\nown.make_archive("x", "nope")\n',
      // The library module itself handed on (requests' and distlib's `compat` modules).
      'proj/compat.py': 'import shutil\n',
      'use_compat.py': 'from proj.compat import shutil as sh\n\nsh.make_archive("x", "nope")\n',
    });
    const records = join(ROOT, 'fixtures/grounding/records.jsonl');
    const r = cli(['check', '.', '--output-format', 'json', '--no-cache', '--derive', 'off', '--timings', '--records', records], dir);
    expect(findings(r.stdout)).toEqual([
      'use_compat.py:3 cpython/make-archive-unknown-archive-format-s',
      'use_handed.py:3 cpython/make-archive-unknown-archive-format-s',
    ]);
    // proj/own.py (it calls shutil.make_archive), use_handed.py and use_compat.py; not the callers of own.make_archive.
    expect(r.stderr).toMatch(/8 files: 0 cached, 8 read, 3 parsed/);
  });

  it('a call of a project function a plain `def` binds is no alias of a rule’s: its module is not summarised for it', () => {
    const use = (helper: string) => `import shutil\nfrom proj import helpers\n\nshutil.make_archive("x", "nope")\nhelpers.${helper}("x")\n`;
    // It names a rule's function where other modules can get it (`rmtree`): it may hand one on.
    const helpers = 'from shutil import rmtree\n\n\ndef tidy(p):\n    rmtree(p)\n\n\n@staticmethod\ndef wrapped(p):\n    rmtree(p)\n';
    const records = join(ROOT, 'fixtures/grounding/records.jsonl');
    const run = (helper: string) => {
      const dir = tempTree({ 'pyproject.toml': '', 'proj/__init__.py': '', 'proj/helpers.py': helpers, 'use.py': use(helper) });
      const r = cli(['check', 'use.py', '--output-format', 'json', '--no-cache', '--derive', 'off', '--timings', '--records', records], dir);
      expect(findings(r.stdout)).toEqual(['use.py:4 cpython/make-archive-unknown-archive-format-s']);
      return /(\d+) module summar/.exec(r.stderr)?.[1] ?? '0';
    };
    expect(run('tidy')).toBe('0');
    // A decorated def may be anything the decorator makes of it.
    expect(run('wrapped')).toBe('1');
  });
});

describe('bad input in an imported module', () => {
  it('a module nested too deep to infer, or not UTF-8, is not followed: the file that imports it is still checked', () => {
    const deep = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\n\n\ndef make():\n    return ${'('.repeat(30000)}GrpcWorkerAgentRuntime(host_address="h")${')'.repeat(30000)}\n`;
    const dir = tempTree({
      'pyproject.toml': '',
      'app/__init__.py': '',
      'app/deep.py': deep,
      'app/latin.py': Buffer.from('def make():\n    return "caf\xe9"\n', 'latin1'),
      'app/service.py': `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\n\nfrom app.deep import make\nfrom app.latin import make as other\n\n\nasync def run() -> None:\n    await make().save_state()\n    await other().save_state()\n    await GrpcWorkerAgentRuntime(host_address="h").save_state()\n`,
    });
    const r = cli(['check', 'app/service.py', '--output-format', 'json', '--no-cache'], dir);
    expect(findings(r.stdout)).toEqual([`app/service.py:10 ${SAVING}`]);
    expect(r.stderr).not.toMatch(/internal error|RangeError|at .*\.js/);
    expect(r.code).toBe(1);
  });
});

describe('module resolution', () => {
  const tree = (files: string[]) => tempTree(Object.fromEntries(files.map((f) => [f, ''])));

  it('a package module resolves from the folder above its top-most package; a script from its own folder', () => {
    const dir = tree([
      'proj/pyproject.toml',
      'proj/app/__init__.py',
      'proj/app/sub/__init__.py',
      'proj/app/sub/x.py',
      'proj/app/core.py',
      'proj/tool.py',
      'proj/scripts/run.py',
      'proj/scripts/util.py',
    ]);
    const r = new ModuleResolver();
    const x = join(dir, 'proj/app/sub/x.py');
    expect(r.resolve(x, 'app.core.make')).toEqual({ file: join(dir, 'proj/app/core.py'), name: 'app.core', rest: ['make'] });
    expect(r.resolve(x, 'app.sub')).toEqual({ file: join(dir, 'proj/app/sub/__init__.py'), name: 'app.sub', rest: [] });
    expect(r.resolve(join(dir, 'proj/scripts/run.py'), 'util.f')?.file).toBe(join(dir, 'proj/scripts/util.py'));
    expect(r.resolve(join(dir, 'proj/scripts/run.py'), 'tool.f')?.file).toBe(join(dir, 'proj/tool.py'));
    expect(r.resolve(x, 'json.loads')).toBeUndefined();
    expect(r.absolute(x, 1, 'y')).toBe('app.sub.y');
    expect(r.absolute(x, 2, '')).toBe('app');
    expect(r.absolute(x, 2, 'core')).toBe('app.core');
  });

  it('src/ layouts and the source folders pyproject.toml names (setuptools package-dir, hatch, poetry)', () => {
    const dir = tree(['a/pyproject.toml', 'a/src/acme/__init__.py', 'a/tests/t.py', 'b/lib/bee/__init__.py', 'c/code/cee.py', 'd/pkgs/dee/__init__.py']);
    writeFileSync(join(dir, 'b/pyproject.toml'), '[tool.setuptools]\npackage-dir = { "" = "lib" }\n');
    writeFileSync(join(dir, 'c/pyproject.toml'), '[tool.hatch.build.targets.wheel]\npackages = ["code/cee"]\n');
    writeFileSync(join(dir, 'd/pyproject.toml'), '[tool.poetry]\npackages = [{ include = "dee", from = "pkgs" }]\n');
    for (const [p, where] of [
      ['b', 'x.py'],
      ['c', 'x.py'],
      ['d', 'x.py'],
    ])
      writeFileSync(join(dir, p!, where!), '');
    const r = new ModuleResolver();
    expect(r.resolve(join(dir, 'a/tests/t.py'), 'acme.f')?.file).toBe(join(dir, 'a/src/acme/__init__.py'));
    expect(r.resolve(join(dir, 'b/x.py'), 'bee.f')?.file).toBe(join(dir, 'b/lib/bee/__init__.py'));
    expect(r.resolve(join(dir, 'c/x.py'), 'cee.f')?.file).toBe(join(dir, 'c/code/cee.py'));
    expect(r.resolve(join(dir, 'd/x.py'), 'dee.f')?.file).toBe(join(dir, 'd/pkgs/dee/__init__.py'));
  });

  it('a namespace package needs no __init__.py; one module name in two projects stays two modules', () => {
    const dir = tree(['one/pyproject.toml', 'one/ns/app/m.py', 'one/ns/app/use.py', 'two/pyproject.toml', 'two/ns/app/m.py', 'two/ns/app/use.py']);
    mkdirSync(join(dir, 'one/ns/empty'));
    const r = new ModuleResolver();
    expect(r.resolve(join(dir, 'one/ns/app/use.py'), 'ns.app.m.f')?.file).toBe(join(dir, 'one/ns/app/m.py'));
    expect(r.resolve(join(dir, 'two/ns/app/use.py'), 'ns.app.m.f')?.file).toBe(join(dir, 'two/ns/app/m.py'));
    expect(r.resolve(join(dir, 'one/ns/app/use.py'), 'ns.empty.f')).toBeUndefined();
    expect(r.absolute(join(dir, 'one/ns/app/use.py'), 2, 'app.m')).toBe('ns.app.m');
  });
});

describe('summaries dropped and made again (src/semantic/summarycache.ts)', () => {
  it('a function reference handed out of a dropped summary still names the function', async () => {
    const { loadRules } = await import('../src/compile/load.js');
    const { projectModules } = await import('../src/engine/modules.js');
    const { summarizer } = await import('../src/semantic/model.js');
    const { initParser } = await import('../src/parse/parser.js');
    await initParser();
    const rules = await loadRules();
    const app = join(ROOT, 'fixtures', 'crossfile', 'dropped', 'app');
    const modules = projectModules(rules, summarizer(rules), undefined, 1);
    const view = modules.view(join(app, 'main.py'), rules.classes);
    const ref = view.evaluate('app.factory.builder()', 0);
    expect(ref).toHaveLength(1);
    expect(ref![0]).toMatchObject({ kind: 'ref', qualname: expect.stringMatching(/^<m0@\d+>$/) });
    // Reading another module drops the factory's summary (one alive).
    expect(view.evaluate('app.other.Local', 0)).toBeDefined();
    const before = modules.computed;
    const made = view.evaluate(`${(ref![0] as { qualname: string }).qualname}()`, 0);
    expect(modules.computed).toBe(before + 1);
    expect(made).toEqual([expect.objectContaining({ kind: 'inst', key: expect.stringContaining('GrpcWorkerAgentRuntime') })]);
  });
});

describe('the facts of what a file imports (src/semantic/projectfacts.ts)', () => {
  it('asked again for the same text: the same answer, not computed again; for an edited text: its own imports', async () => {
    const { loadRules } = await import('../src/compile/load.js');
    const { projectModules } = await import('../src/engine/modules.js');
    const { summarizer } = await import('../src/semantic/model.js');
    const { projectImports } = await import('../src/semantic/projectfacts.js');
    const { prefilterFor } = await import('../src/prefilter/index.js');
    const { initParser } = await import('../src/parse/parser.js');
    await initParser();
    const rules = await loadRules();
    const dir = project();
    const modules = projectModules(rules, summarizer(rules), undefined, 1);
    const file = join(dir, 'app/service.py');
    const facts = (text: string) => projectImports(modules, file, text, prefilterFor(rules))();
    const first = facts(SERVICE);
    expect([...(first?.files ?? [])]).toEqual([join(dir, 'app/runtime.py')]);
    // The prefilter, the check and the model each ask: one computation.
    expect(facts(SERVICE)).toBe(first);
    // The buffer edited (an editor): the import it now has, not the kept answer.
    expect(facts('import os\n')).toBeUndefined();
    const edited = facts(`from app import helpers\n${SERVICE}`);
    expect(edited).not.toBe(first);
    expect([...(edited?.files ?? [])].sort()).toEqual([join(dir, 'app/__init__.py'), join(dir, 'app/runtime.py')]);
  });
});
