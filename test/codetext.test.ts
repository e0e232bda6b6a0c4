/**
 * python/codetext.ts: the text-level reading semantic/projectfacts.ts uses to decide whether a
 * project module may give another module a value of interest, without parsing it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blankInert, exportedNames, typeCheckingSpans } from '../src/python/codetext.js';

describe('blankInert', () => {
  it('blanks comments, docstrings and plain strings, keeping offsets and line breaks', () => {
    const src = '"""Doc: zipfile.ZipFile\n>>> import tarfile\n"""\nx = 1  # tarfile here\ny = b\'zipfile\' + r"tar"\n';
    const out = blankInert(src);
    expect(out).toHaveLength(src.length);
    expect(out.split('\n').length).toBe(src.split('\n').length);
    expect(out).not.toMatch(/zipfile|tarfile|tar"/);
    expect(out).toContain('x = 1');
    expect(out).toContain('y = ');
  });

  it('keeps f-strings and string annotations, which may hold code or a type', () => {
    const src = 'def make() -> "zipfile.ZipFile":\n    a: Optional["Runtime"] = None\n    return f"{tarfile.open(p)}"\n';
    const out = blankInert(src);
    expect(out).toContain('"zipfile.ZipFile"');
    expect(out).toContain('"Runtime"');
    expect(out).toContain('f"{tarfile.open(p)}"');
  });

  it('a string that only looks like a name is blanked when it is not in an annotation place', () => {
    expect(blankInert("if base == 'Doc':\n    pass\n")).not.toContain('Doc');
  });

  it('escaped quotes stay inside their string; an unterminated string ends at its line (or, triple-quoted, at the end)', () => {
    expect(blankInert('s = "a\\"zipfile"\nt = 2\n')).toBe(`s = ${' '.repeat(12)}\nt = 2\n`);
    expect(blankInert('s = "zipfile\nt = 2\n')).toBe(`s = ${' '.repeat(8)}\nt = 2\n`);
    expect(blankInert('s = """zipfile\nt = 2\n')).not.toMatch(/zipfile|t = 2/);
  });

  it('a name ending in a prefix letter is not read as a string prefix', () => {
    // `Buf` ends in `f`: the string after it is a plain string, blanked whole, and `Buf` stays.
    expect(blankInert('x = Buf"zipfile"\n')).toBe(`x = Buf${' '.repeat(9)}\n`);
  });
});

describe('exportedNames', () => {
  const names = (src: string) => exportedNames(blankInert(src));

  it('names at module level, in def and class lines, decorators and returns are exported', () => {
    const got = names('import zipfile\nK = Tar()\n\n@deco\ndef make(a: Anno) -> Ret:\n    return Made()\n');
    for (const n of ['zipfile', 'K', 'Tar', 'deco', 'make', 'Anno', 'Ret', 'Made']) expect(got).toContain(n);
  });

  it('a name used only in a function body is not; one bound there and returned carries what it was built from', () => {
    const got = names('def f(p):\n    with Probe(p) as probe:\n        probe.start()\n    z = Built(p)\n    y = z\n    return y\n');
    expect(got).not.toContain('Probe');
    expect(got).not.toContain('probe');
    for (const n of ['Built', 'z', 'y']) expect(got).toContain(n);
  });

  it('attribute and item stores, yields, lambdas and global writes in a function are exported', () => {
    const got = names(
      'def f(self, d):\n    self.rt = Runtime()\n    d["k"] = Item()\n    yield Yielded()\n    g = lambda: Lam()\n    global G\n    G = Glob()\n',
    );
    for (const n of ['Runtime', 'Item', 'Yielded', 'Lam', 'G', 'Glob']) expect(got).toContain(n);
  });

  it('a class body inside a function is read as a class body', () => {
    const got = names('def factory():\n    class Local(Base):\n        attr = Value()\n    tmp = Unused()\n    return Local\n');
    for (const n of ['Local', 'Base', 'Value']) expect(got).toContain(n);
    expect(got).not.toContain('Unused');
  });

  it('a local carries what it was built from only where its own function exports it, not where another function returns a name like it', () => {
    const got = names(
      'def fetch(url):\n    f = Opener(url)\n    f = GzipLike(fileobj=f)\n    data = f.read()\n\n\ndef other():\n    f = 1\n    return f\n\n\ndef outer():\n    x = Closed()\n\n    def inner():\n        return x\n\n    return inner\n',
    );
    for (const n of ['Opener', 'GzipLike', 'data']) expect(got).not.toContain(n);
    // A closure shares its enclosing function's names.
    expect(got).toContain('Closed');
  });

  it('tuple, for, walrus and multi-line targets bind names', () => {
    const got = names(
      'def f(xs):\n    a, b = Pair()\n    for c in Many():\n        pass\n    if (d := Walrus()):\n        pass\n    e = Long(\n        Inner(),\n    )\n    u = Unused(\n        Hidden(),\n    )\n    return a, c, d, e\n',
    );
    for (const n of ['Pair', 'Many', 'Walrus']) expect(got).toContain(n);
    // Lines joined by brackets are one statement: what binds a returned name is exported, the rest is not.
    for (const n of ['Long', 'Inner']) expect(got).toContain(n);
    for (const n of ['Unused', 'Hidden']) expect(got).not.toContain(n);
  });

  it("asked about some names (the rules' names a module holds), it answers for those as it does for all: over the standard library", () => {
    const lib = execFileSync('python3', ['-c', 'import os; print(os.path.dirname(os.__file__))'], { encoding: 'utf8' }).trim();
    const files = readdirSync(lib)
      .filter((f) => f.endsWith('.py'))
      .sort()
      .slice(0, 120);
    let checked = 0;
    let early = 0;
    for (const f of files) {
      const text = blankInert(readFileSync(join(lib, f), 'utf8'));
      const all = exportedNames(text);
      const written = [...new Set(text.match(/[A-Za-z_]\w*/g) ?? [])];
      // Names the module exports, names it only uses inside functions, and a mix.
      const wants = [written.filter((n) => all.has(n)).slice(0, 3), written.filter((n) => !all.has(n)).slice(0, 3), written.filter((_, i) => i % 7 === 0)];
      for (const want of wants.filter((w) => w.length)) {
        const got = exportedNames(text, new Set(want));
        for (const n of want) expect(got.has(n), `${f}: ${n}`).toBe(all.has(n));
        if (want.every((n) => all.has(n))) early++;
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(200);
    expect(early).toBeGreaterThan(50);
  });
});

describe('typeCheckingSpans', () => {
  const inSpan = (src: string, needle: string) => {
    const at = src.indexOf(needle);
    return typeCheckingSpans(src).some(([s, e]) => at >= s && at < e);
  };

  it('the body of `if TYPE_CHECKING:` by indentation, up to its else or the next statement at its level', () => {
    const src = [
      'from typing import TYPE_CHECKING',
      'if TYPE_CHECKING:',
      '    from typing_extensions import Self',
      '',
      '    import pkg.heavy',
      'else:',
      '    from pkg import runtime',
      'import pkg.after',
      'if typing.TYPE_CHECKING:',
      '    from pkg import dotted',
      'def f():',
      '    if TYPE_CHECKING:',
      '        from pkg import nested',
      '    from pkg import local',
      'if TYPE_CHECKING: from pkg import oneline',
      'from pkg import last',
      '',
    ].join('\n');
    expect(inSpan(src, 'typing_extensions')).toBe(true);
    expect(inSpan(src, 'pkg.heavy')).toBe(true);
    expect(inSpan(src, 'runtime')).toBe(false);
    expect(inSpan(src, 'pkg.after')).toBe(false);
    expect(inSpan(src, 'dotted')).toBe(true);
    expect(inSpan(src, 'nested')).toBe(true);
    expect(inSpan(src, 'local')).toBe(false);
    expect(inSpan(src, 'oneline')).toBe(true);
    expect(inSpan(src, 'last')).toBe(false);
  });

  it('a name that only ends in TYPE_CHECKING, or a test of more than it, is no such block', () => {
    expect(typeCheckingSpans('if MY_TYPE_CHECKING:\n    import a\nif TYPE_CHECKING or DEBUG:\n    import b\n')).toEqual([]);
  });
});
