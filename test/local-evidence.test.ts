/**
 * What the library's own def shows, read at the call (issue 28): a local the def binds to a literal
 * container and only reads (`modes = {"r": "rb", "w": "wb"}`, `ext.keys()`); a receiver the caller
 * made and entered with `with p:`; an `AssertionError` ending an `elif` dispatch over a local,
 * which the library asserts cannot happen. Records come from `raiselint records generate` over a
 * small package (fixtures/local_evidence/acme), then `raiselint check` runs on an application.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT, tempTree } from './helpers.js';

const PKG = join(ROOT, 'fixtures', 'local_evidence', 'acme');
const APP = `from acme import Archive, pack, pack_more, Proc, decode, Handler, lookup


def main(name, extra, c):
    Archive(name, "w")
    Archive(name, "a")
    pack(name, "xz")
    pack(name, compress=None)
    pack(name, "zip")
    pack_more(name, "gzip", extra)
    p = Proc(c)
    with p:
        p.communicate(b"x")
    decode(name)
    Handler().write(name)


def other(h: Handler, c):
    h.write(1)
    q = Proc(c)
    print(q)
    q.communicate(b"z")
    return lookup(c, h)
`;

type D = { ruleId: string; line: number; confidence: string; condition: string };
let dir: string;
let records: string;

const REG = `from acme import Registry


def read(server, key):
    reg = Registry()
    a = reg.get(server, "username")
    if reg.has_option(server, "repository"):
        b = reg.get(server, "repository")
    c = reg.get(server, "x") if reg.has_option(server, "x") else None
    for s in reg.sections():
        for o in reg.options(s):
            print(reg.get(s, o))
        print(reg.get(s, "only-section-known"))
    if not reg.has_section(key):
        reg.add_section(key)
    reg.set(key, "k", "v")
    reg.set(server, "k", "v")
    if reg.has_option(server, "y"):
        d = reg.get(key, "y")
    wanted = [s for s in reg.sections() if s.startswith("x")]
    for s in wanted:
        reg.set(s, "k", "v")
    picked = [s for s in key.split(",") if s]
    for s in picked:
        reg.set(s, "k", "v")
    e = reg.has_option(server, "z") and reg.get(server, "z")
    f = reg.has_section(server) or reg.get(server, "w")
    for s in reg.sections():
        print(reg.items(s))
        opts = reg.options(s)
        for o in opts:
            print(reg.get(s, o))
        more = reg.options(s)
        more.append("extra")
        for o in more:
            print(reg.get(s, o))
    g = reg.items(server)
    return a, b, c, d, e, f, g
`;

const READER = `from acme import Reader


def f(n, kw):
    Reader(n, strip=0)
    Reader(n, strp=0)
    Reader(n, **kw)
    Reader(n)
`;

beforeAll(() => {
  dir = tempTree({ 'app.py': APP, 'reg.py': REG, 'rd.py': READER });
  records = join(dir, 'acme.jsonl');
  const g = cli(['records', 'generate', PKG, '--out', records], dir);
  expect(g.code, g.stderr).toBe(0);
  expect(readFileSync(records, 'utf8').trim().split('\n')).toHaveLength(12);
});

const check = (...args: string[]): D[] => checkFile('app.py', ...args);
const checkFile = (file: string, ...args: string[]): D[] => {
  const r = cli(['check', file, '--records', records, '--no-bundled', '--no-cache', '--no-config', '--python', 'none', '--format', 'json', ...args], dir);
  expect(r.code, r.stderr).toBeLessThan(2);
  return (JSON.parse(r.stdout) as { diagnostics: D[] }).diagnostics;
};

describe('evidence from the library def, read at the call', () => {
  it('a local bound to a literal dict decides a membership test: one of its keys is clean, another is certain', () => {
    const at = (line: number) => check().filter((d) => d.line === line);
    expect(at(5)).toEqual([]);
    expect(at(6).map((d) => [d.ruleId, d.confidence])).toEqual([['acme/init-mode-must-be-r-or-w', 'certain']]);
    // Through `.keys()`, and a None that the test lets through.
    expect(at(7)).toEqual([]);
    expect(at(8)).toEqual([]);
    expect(at(9).map((d) => d.confidence)).toEqual(['certain']);
    // A dict the def changes (`ext.update(extra)`) holds what the caller adds: not decided.
    expect(at(10).map((d) => d.confidence)).toEqual(['possible']);
  });

  it('`with p:` on a receiver fresh from its constructor is a call of __enter__, not a hand-off', () => {
    const ds = check();
    expect(ds.filter((d) => d.line === 13)).toEqual([]);
    // Handed to other code (`print(q)`), the object may have been used: possible.
    expect(ds.filter((d) => d.line === 22).map((d) => d.confidence)).toEqual(['possible']);
  });

  it('an AssertionError ending an elif dispatch over a local is off by default; one over the object state is a finding', () => {
    const ds = check();
    expect(ds.filter((d) => d.line === 14)).toEqual([]);
    // A fresh Handler has no status: write() returns before the raise.
    expect(ds.filter((d) => d.line === 15)).toEqual([]);
    expect(ds.filter((d) => d.line === 19).map((d) => [d.ruleId, d.confidence])).toEqual([['acme/write-write-before-start-response', 'possible']]);
    const on = check('--select', 'control-flow').filter((d) => d.line === 14);
    expect(on.map((d) => d.ruleId)).toEqual(['acme/decode-unexpected-kind-kind']);
    const rc = cli(['records', 'check', records, '--python', 'none'], dir);
    expect(rc.stdout).toContain(
      'off by default  the library asserts this raise cannot happen (`raise AssertionError` ending the `elif` chain `kind == "q" / kind == "b"`, which tests no argument)',
    );
  });

  it('a parameter the call decides is not named as unknown', () => {
    // `fallback` is not passed: the sentinel default decides `fallback is _UNSET`; the KeyError is the table's.
    const [d] = check().filter((x) => x.line === 23);
    expect(d?.condition).toBe('raises when fallback not passed and KeyError was raised and caught; the rest depends on data or state');
  });

  it('a lookup whose key the call site shows is there is not reported: has_*() (also before `and`), a loop over what the receiver lists, an add after a failed has_*(), a list of the receiver keys', () => {
    const got = checkFile('reg.py').map((d) => `${d.line} ${d.ruleId}`);
    expect(got).toEqual([
      // Nothing shows either key.
      '6 acme/get-option',
      '6 acme/get-section',
      // A loop over sections() shows the section, not the option.
      '13 acme/get-option',
      // `server` was never checked; `key` was added when missing.
      '17 acme/set-section',
      // has_option(server, "y") says nothing of `key`'s option (its section was added above).
      '19 acme/get-option',
      // A list of some of the receiver's sections says them; one made from other data does not.
      '25 acme/set-section',
      // `has_option(...) and get(...)` says both keys; after `has_section(server) or`, the section is missing.
      '27 acme/get-option',
      '27 acme/get-section',
      // A copy of the looked-up table raises no KeyError of its own: the loop over sections() shows the key.
      // A local bound once to options(s) lists them; one changed since does not.
      '36 acme/get-option',
      '37 acme/items-section',
    ]);
  });

  it('a loop over **options that raises for a key not in a class-level dict: decided by the keywords the call passes', () => {
    expect(checkFile('rd.py').map((d) => `${d.line} ${d.confidence}`)).toEqual(['6 certain', '7 possible']);
    const rc = cli(['records', 'check', records, '--python', 'none'], dir);
    expect(rc.stdout).toContain("condition     raises when a keyword other than skip, strip passed and options passed (decided by the call's options)");
  });
});
