/**
 * What the prefilter reads from a file's bytes around the names it finds (src/prefilter/context.ts):
 * the module roots its imports name, the names its import lists hold, and names written after a `.`.
 * It must never read less than the semantic model does from the tree: checked here against
 * tree-sitter's own import statements and attributes, on hand-made and broken code and on a sample
 * of the standard library.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parsePython, type Node } from '../src/parse/parser.js';
import { importedNames } from '../src/python/imports.js';
import { accessAfter, dotBefore, importContext } from '../src/prefilter/context.js';
import { pyFiles, stdlibDir } from './helpers/stdlib.js';

beforeAll(async () => {
  await initParser();
});

const ctx = (text: string) => {
  const b = Buffer.from(text, 'utf8');
  const c = importContext(b, b.length);
  return { roots: [...c.roots].sort(), imported: [...c.imported].sort() };
};
/** Whether the first occurrence of `name` as a token (after `at`, if given) is after a dot. */
const dotted = (text: string, name: string, at = 0) => {
  const i = text.indexOf(name, at);
  return dotBefore(Buffer.from(text, 'latin1'), i);
};

describe('import statements read from the bytes', () => {
  it('plain imports: the first segment of each module is a root; every name is listed', () => {
    expect(ctx('import os\n')).toEqual({ roots: ['os'], imported: ['os'] });
    expect(ctx('import os.path as p, sys\n')).toEqual({ roots: ['os', 'sys'], imported: ['os', 'p', 'path', 'sys'] });
    expect(ctx('if x: import a.b; y()\n')).toEqual({ roots: ['a'], imported: ['a', 'b'] });
    expect(ctx('import \\\n  os, \\\n  re\n')).toEqual({ roots: ['os', 're'], imported: ['os', 're'] });
  });

  it('from-imports: the root is the first name after `from` and its dots; the listed names are not roots', () => {
    expect(ctx('from os.path import join as j, split\n')).toEqual({ roots: ['os'], imported: ['j', 'join', 'split'] });
    expect(ctx('from json import (\n    loads,  # comment (with a parenthesis)\n    dumps as d,\n)\nx = 1\n')).toEqual({
      roots: ['json'],
      imported: ['d', 'dumps', 'loads'],
    });
    expect(ctx('from .m import x\nfrom .. import y\nfrom . sub . mod import z\n')).toEqual({ roots: ['m', 'sub'], imported: ['x', 'y', 'z'] });
    expect(ctx('from a \\\n  import b\n')).toEqual({ roots: ['a'], imported: ['b'] });
    expect(ctx('from os import *\n')).toEqual({ roots: ['os'], imported: [] });
    // A byte-order mark before the first statement.
    expect(ctx('\uFEFFimport json\n').roots).toEqual(['json']);
    expect(ctx('\uFEFFfrom json import loads\n').roots).toEqual(['json']);
  });

  it('every `import` token counts, even where only a broken file or a string has it; never less', () => {
    // tree-sitter makes these import statements (a missing newline, an ERROR before).
    expect(ctx('x = 1 import os\n').roots).toEqual(['os']);
    expect(ctx('a b import os\n').roots).toEqual(['os']);
    // A number before the keyword ends where the keyword starts, as tree-sitter reads it.
    expect(ctx('1import subprocess\n').roots).toEqual(['subprocess']);
    expect(ctx('1from subprocess import Popen\n')).toEqual({ roots: ['subprocess'], imported: ['Popen'] });
    expect(ctx('0x1Ffrom json import loads\n').roots).toEqual(['json']);
    // A name that ends in the keyword is one name.
    expect(ctx('x1import os\n').roots).toEqual([]);
    expect(ctx('"""\n>>> import json\n"""\n').roots).toEqual(['json']);
    // Not keywords: no import.
    expect(ctx('importlib.import_module("os")\nreimport = 1\n')).toEqual({ roots: [], imported: [] });
    // `yield from x` is no import: `x` is no root.
    expect(ctx('def f():\n    yield from gen\n').roots).toEqual([]);
    // A broken parenthesized list ends at the first byte no list holds; the next `import` starts its own.
    expect(ctx('from os import (a,\n  b = 2\nimport sys\n')).toEqual({ roots: ['os', 'sys'], imported: ['a', 'b', 'sys'] });
  });

  it('names after a dot: across spaces, continuations, line ends and comments', () => {
    expect(dotted('os.makedirs(p)', 'makedirs')).toBe(true);
    expect(dotted('os . makedirs(p)', 'makedirs')).toBe(true);
    expect(dotted('os.\\\n    makedirs(p)', 'makedirs')).toBe(true);
    expect(dotted('(os.\n makedirs)(p)', 'makedirs')).toBe(true);
    expect(dotted('(os.  # why\n  # more\n  makedirs)(p)', 'makedirs')).toBe(true);
    expect(dotted('s = "#"; (os.  # why\n  makedirs)(p)', 'makedirs')).toBe(true);
    expect(dotted('makedirs(p)', 'makedirs')).toBe(false);
    expect(dotted('x = 1  # os\nmakedirs(p)', 'makedirs')).toBe(false);
    expect(dotted('os\nmakedirs(p)', 'makedirs')).toBe(false);
    expect(dotted('# just a comment\nmakedirs(p)', 'makedirs')).toBe(false);
  });
});

/** An identifier's expression: the attribute it names (`x.name`), or itself. */
const exprOf = (id: Node): Node => {
  const p = id.parent;
  return p?.type === 'attribute' && p.childForFieldName('attribute')?.id === id.id ? p : id;
};
/** The expression is subscripted or its attribute read (`e[...]`, `e.x`), or it is no expression (a dotted name). */
const accessed = (e: Node): boolean => {
  const p = e.parent;
  if (!p) return false;
  if (p.type === 'dotted_name') return true;
  if (p.type === 'attribute') return p.childForFieldName('object')?.id === e.id;
  if (p.type === 'subscript') return p.childForFieldName('value')?.id === e.id;
  if (p.type === 'generic_type') return true;
  return false;
};

/**
 * What the model reads from a tree (src/python/imports.ts, attribute nodes), against what the
 * bytes give: never less. Every import root and listed name is read; code read as an import
 * list's name is one in the tree, marked aliased when the tree's is; a name read as subscripted
 * or accessed is so in the tree.
 */
function checkAgainstTree(text: string, label: string): { imports: number; attributes: number } {
  const bytes = Buffer.from(text, 'utf8');
  const c = importContext(bytes, bytes.length);
  // tree-sitter's indices count UTF-16 code units; the bytes are UTF-8.
  const byteAt = (i: number) => (bytes.length === text.length ? i : Buffer.byteLength(text.slice(0, i), 'utf8'));
  const tree = parsePython(text);
  let imports = 0;
  let attributes = 0;
  const inImports = new Map<number, boolean>();
  const code = new Set<number>();
  try {
    const cursor = tree.walk();
    const visit = (n: Node) => {
      if (n.type === 'identifier') {
        code.add(byteAt(n.startIndex));
        const e = n.endIndex;
        if (accessAfter(bytes, byteAt(e), bytes.length)) expect(accessed(exprOf(n)), `${label}: ${n.parent?.text} accessed`).toBe(true);
      }
      if (n.type === 'future_import_statement') for (const id of n.descendantsOfType('identifier')) if (id) inImports.set(byteAt(id.startIndex), false);
      if (n.type === 'import_statement' || n.type === 'import_from_statement') {
        for (const id of n.descendantsOfType('identifier')) if (id) inImports.set(byteAt(id.startIndex), false);
        for (const a of n.descendantsOfType('aliased_import')) {
          const ids = a?.childForFieldName('name')?.descendantsOfType('identifier') ?? [];
          const lastId = ids[ids.length - 1];
          if (lastId) inImports.set(byteAt(lastId.startIndex), true);
        }
        for (const i of importedNames(n)) {
          imports++;
          const root = i.module.replace(/^\.+/, '').split('.')[0]!;
          if (root && /^[A-Za-z_]\w*$/.test(root)) expect(c.roots.has(root), `${label}: root ${root} of ${n.text}`).toBe(true);
          for (const name of i.kind === 'from' ? [...i.name!.split('.'), i.local] : [i.local]) {
            if (/^[A-Za-z_]\w*$/.test(name)) expect(c.imported.has(name), `${label}: ${name} in ${n.text}`).toBe(true);
          }
        }
      } else if (n.type === 'attribute') {
        const a = n.childForFieldName('attribute');
        if (a) {
          attributes++;
          expect(dotBefore(bytes, byteAt(a.startIndex)), `${label}: ${n.text}`).toBe(true);
        }
      }
    };
    // Every node, depth first, through one cursor.
    for (;;) {
      visit(cursor.currentNode);
      if (cursor.gotoFirstChild()) continue;
      let done = false;
      while (!done && !cursor.gotoNextSibling()) done = !cursor.gotoParent();
      if (done) break;
    }
    // (A name listed outside the tree's imports is in a string or a comment: no use is lost.)
    for (const [s, aliased] of c.listed) {
      expect(!code.has(s) || inImports.has(s), `${label}: code at ${s} (${bytes.subarray(s, s + 20).toString()}) read as an import's name`).toBe(true);
      if (inImports.get(s)) expect(aliased, `${label}: ${bytes.subarray(s, s + 20).toString()} is aliased`).toBe(true);
    }
    return { imports, attributes };
  } finally {
    tree.delete();
  }
}

describe('never less than the tree', () => {
  it('on hand-made and broken code', () => {
    const cases = [
      'import os, sys as s\nfrom a.b import (c, d as e)\nos.path.join(a . b, c.\\\n d)\n',
      'x = 1 import os\nprint(1) import os.path as p\nfoo import bar\n',
      'from os import (a,\n  b = 2\nimport sys\n',
      'def f(:\n  import os\n  os.x\n',
      'x. # c\n  y\nz = (a.  # c\n  # d\n  b)\n',
      'if x: from q import r\nelse: import t.u as v\n',
      'from . import a\nfrom .b.c import d\nfrom ... import e as f\n',
      'import é\nfrom ü import ö\nx.é\n',
      '\uFEFFimport os\r\nfrom a.b import c\r\nos.path\r\n',
      'class A(mod.Base):\n    def m(self) -> "pkg.Klass":\n        return self.x.y().z\n',
      '1import subprocess\nsubprocess.Popen(a)\n1from os import path\n2 import sys\n',
    ];
    for (const t of cases) checkAgainstTree(t, JSON.stringify(t));
  });

  const stdlib = stdlibDir();
  it.skipIf(!stdlib)(
    'on a sample of the standard library (every 8th file)',
    () => {
      let imports = 0;
      let attributes = 0;
      pyFiles(stdlib!).forEach((f, i) => {
        if (i % 8 !== 3) return;
        let text: string;
        try {
          text = readFileSync(f, 'utf8');
        } catch {
          return;
        }
        const r = checkAgainstTree(text, f);
        imports += r.imports;
        attributes += r.attributes;
      });
      expect(imports).toBeGreaterThan(1000);
      expect(attributes).toBeGreaterThan(10000);
    },
    300_000,
  );
});
