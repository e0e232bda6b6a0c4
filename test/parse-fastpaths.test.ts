/**
 * The parser's fast paths (src/parse/transfer.ts, nodecache.ts, the memo of syntax.ts) give the
 * answers web-tree-sitter gives without them: every node's type, end and text are checked against
 * a TreeCursor walk (other WebAssembly entry points, untouched by the fast paths), and the fields
 * and child lists against the Node API, also after the WebAssembly memory has grown. The nodes
 * fastnodes.ts makes answer every Node getter and method as web-tree-sitter's own nodes do.
 */
import { describe, expect, it } from 'vitest';
import { initParser, parsePython, type Node, type Tree } from '../src/parse/parser.js';
import { descendantsIn, descendantsOfType, field, identifierNames, namedChildren } from '../src/parse/syntax.js';
import { speedUpTransfers } from '../src/parse/transfer.js';
import { fastNodes } from '../src/parse/fastnodes.js';

const SAMPLE = `
import os, json as j  # comment
class A(B, metaclass=M):
    x: int = 1
    def f(self, a, *b, c=2, **d):
        """doc"""
        if a and not b:  # why
            return [i for i in range(a) if i % 2]
        with open(a) as fh, lock:
            try:
                self.y = j.loads(fh.read())[0]
            except (ValueError, KeyError) as e:
                raise RuntimeError(f"bad {a!r}: {e}") from e
        return lambda q: q.get("k", None)
s = "ü" "nicode €" + 'x'
`;

/** One line per node: type, start, end, field name, text. */
type Seen = string;
const line = (type: string, start: number, end: number, field: string | null, text: string) => `${type} ${start} ${end} ${field} ${JSON.stringify(text)}`;

/** Every node in document order, read through a TreeCursor only. */
function cursorWalk(tree: Tree, source: string): Seen[] {
  const out: Seen[] = [];
  const c = tree.walk();
  for (;;) {
    out.push(line(c.nodeType, c.startIndex, c.endIndex, c.currentFieldName, source.slice(c.startIndex, c.endIndex)));
    if (c.gotoFirstChild()) continue;
    while (!c.gotoNextSibling()) if (!c.gotoParent()) return (c.delete(), out);
  }
}

/** Every node in document order through Node objects (`children`), read twice (cached reads). */
function nodeWalk(root: Node): Seen[] {
  const out: Seen[] = [];
  const visit = (n: Node, fieldName: string | null) => {
    const first = line(n.type, n.startIndex, n.endIndex, fieldName, n.text);
    out.push(first === line(n.type, n.startIndex, n.endIndex, fieldName, n.text) ? first : `${first} (read again: changed)`);
    n.children.forEach((c, i) => c && visit(c, n.fieldNameForChild(i)));
  };
  visit(root, null);
  return out;
}

describe('parser fast paths', () => {
  it('types, ends and texts equal a TreeCursor walk', async () => {
    await initParser();
    // Utf-16 and astral characters move byte offsets; the big source grows the WebAssembly memory.
    const big = Array.from({ length: 4000 }, (_, i) => `def f${i}(a, b=${i}):\n    return g("𝔘 ${i}", a)[b]\n`).join('');
    for (const src of [SAMPLE, big, SAMPLE]) {
      const tree = parsePython(src);
      try {
        const want = cursorWalk(tree, src);
        expect(want.length).toBeGreaterThan(50);
        expect(nodeWalk(tree.rootNode).join('\n')).toBe(want.join('\n'));
      } finally {
        tree.delete();
      }
    }
  });

  it('descendantsIn lists the nodes of its types in the order of a TreeCursor walk, outer before inner (readFlows relies on it)', async () => {
    await initParser();
    const types = new Set(['assignment', 'function_definition', 'class_definition', 'string', 'comment', 'return_statement', 'for_in_clause', 'as_pattern']);
    const nested = `${SAMPLE}def g():\n    def h():\n        x = "a" if y else 'b'  # c\n        return x\n    return h\n`;
    const tree = parsePython(nested);
    try {
      const want = cursorWalk(tree, nested)
        .filter((l) => types.has(l.split(' ')[0]!))
        .map((l) => l.split(' ').slice(0, 3).join(' '));
      expect(want.length).toBeGreaterThan(15);
      const got = descendantsIn(tree.rootNode, types).map((n) => `${n.type} ${n.startIndex} ${n.endIndex}`);
      expect(got).toEqual(want);
    } finally {
      tree.delete();
    }
  });

  it('field and namedChildren give the Node API answers, one object per node', async () => {
    await initParser();
    const tree = parsePython(SAMPLE);
    try {
      const stack: Node[] = [tree.rootNode];
      const names = [
        'name',
        'body',
        'function',
        'arguments',
        'object',
        'attribute',
        'left',
        'right',
        'condition',
        'superclasses',
        'parameters',
        'value',
        'nope',
      ];
      let asked = 0;
      while (stack.length) {
        const n = stack.pop()!;
        const kids = namedChildren(n);
        expect(kids.map((k) => k.id)).toEqual(n.namedChildren.filter((k) => k && k.type !== 'comment').map((k) => k!.id));
        // A copy each time (callers may pop it), of the same node objects.
        kids.pop();
        expect(namedChildren(n).length).toBe(kids.length + (n.namedChildren.some((k) => k && k.type !== 'comment') ? 1 : 0));
        for (const name of names) {
          const f = field(n, name);
          const want = name === 'nope' ? null : n.childForFieldName(name);
          expect(f?.id ?? null).toBe(want?.id ?? null);
          expect(field(n, name)).toBe(f);
          if (f) {
            asked++;
            const again = namedChildren(n).find((k) => k.id === f.id);
            if (again) expect(again).toBe(f);
          }
        }
        stack.push(...namedChildren(n));
      }
      expect(asked).toBeGreaterThan(20);
    } finally {
      tree.delete();
    }
  });

  it("nodes read through the transfer buffer answer as web-tree-sitter's own", async () => {
    await initParser();
    expect(fastNodes()).toBe(true);
    const big = Array.from({ length: 3000 }, (_, i) => `class C${i}(B):\n    def m(self, a=${i}):\n        return self.x[a].y("é ${i}")\n`).join('');
    for (const src of [SAMPLE, big]) {
      const tree = parsePython(src);
      try {
        const facts = (n: Node) =>
          [
            n.id,
            n.type,
            n.typeId,
            n.startIndex,
            n.endIndex,
            n.startPosition.row,
            n.startPosition.column,
            n.endPosition.row,
            n.text,
            n.isNamed,
            n.childCount,
            n.parent?.id ?? 0,
            n.nextSibling?.id ?? 0,
            n.hasError,
            n.grammarType,
          ].join('|');
        let compared = 0;
        const stack: Node[] = [tree.rootNode];
        while (stack.length) {
          const n = stack.pop()!;
          const own = n.namedChildren.filter((k): k is Node => !!k && k.type !== 'comment');
          const mine = namedChildren(n);
          expect(mine.map(facts)).toEqual(own.map(facts));
          for (const name of ['name', 'body', 'function', 'arguments', 'object', 'attribute', 'left', 'right', 'value']) {
            const f = field(n, name);
            const want = n.childForFieldName(name);
            expect(f && facts(f)).toEqual(want && facts(want));
          }
          compared += mine.length;
          stack.push(...mine);
        }
        expect(compared).toBeGreaterThan(100);
      } finally {
        tree.delete();
      }
    }
  });

  it("the fast nodes' parent, child, namedChild, children, siblings, fields and descendantsOfType answer as the Node API, one object per node", async () => {
    await initParser();
    const tree = parsePython(SAMPLE);
    try {
      // web-tree-sitter's own getters and methods, called on the fast nodes.
      const api = (await import('web-tree-sitter')).Node.prototype as Node;
      const own = <K extends keyof Node>(n: Node, k: K, ...args: unknown[]): unknown => {
        const d = Object.getOwnPropertyDescriptor(api, k)!;
        return d.get ? d.get.call(n) : (d.value as (...a: unknown[]) => unknown).apply(n, args);
      };
      const ids = (ns: unknown) => (ns as (Node | null)[]).map((x) => x?.id ?? 0);
      const types = [['identifier'], ['call', 'attribute'], ['string', 'comment', 'ERROR'], ['nope']];
      let compared = 0;
      const stack = [...namedChildren(tree.rootNode)];
      while (stack.length) {
        const n = stack.pop()!;
        expect(Object.getPrototypeOf(n)).not.toBe(api);
        expect(n.parent?.id).toBe((own(n, 'parent') as Node | null)?.id);
        expect(n.parent).toBe(n.parent);
        for (let i = 0; i <= n.childCount; i++) {
          expect(n.child(i)?.id ?? 0).toBe((own(n, 'child', i) as Node | null)?.id ?? 0);
          expect(n.namedChild(i)?.id ?? 0).toBe((own(n, 'namedChild', i) as Node | null)?.id ?? 0);
        }
        for (const name of ['alternative', 'name', 'subscript', 'body', 'argument'])
          expect(ids(n.childrenForFieldName(name))).toEqual(ids(own(n, 'childrenForFieldName', name)));
        for (let f = 0; f <= tree.language.fields.length; f++)
          expect(n.childForFieldId(f)?.id ?? 0).toBe((own(n, 'childForFieldId', f) as Node | null)?.id ?? 0);
        expect(ids(n.children)).toEqual(ids(own(n, 'children')));
        expect(ids(n.namedChildren)).toEqual(ids(own(n, 'namedChildren')));
        for (const k of ['nextSibling', 'previousSibling', 'nextNamedSibling', 'previousNamedSibling'] as const)
          expect(n[k]?.id ?? 0).toBe((own(n, k) as Node | null)?.id ?? 0);
        if (n.nextSibling) expect(n.nextSibling.previousSibling).toBe(n);
        for (const t of types) expect(ids(n.descendantsOfType(t))).toEqual(ids(own(n, 'descendantsOfType', t)));
        // One object per node: a child reached as a child, a field, a descendant or a parent is one object.
        for (const k of namedChildren(n)) {
          expect(k.parent).toBe(n);
          expect(n.namedChildren.find((c) => c?.id === k.id)).toBe(k);
          expect(n.child(n.children.findIndex((c) => c?.id === k.id))).toBe(k);
        }
        const d = n.descendantsOfType('identifier')[0];
        if (d) expect(descendantsOfType(n, ['identifier'])[0]).toBe(d);
        compared++;
        stack.push(...namedChildren(n));
      }
      expect(compared).toBeGreaterThan(80);
      // The root is made there too, the one object of its id.
      expect(Object.getPrototypeOf(tree.rootNode)).not.toBe(api);
      expect(tree.rootNode).toBe(tree.rootNode);
      expect(namedChildren(tree.rootNode)[0]!.parent).toBe(tree.rootNode);
      expect(ids(descendantsOfType(tree.rootNode, 'identifier'))).toEqual(ids(own(tree.rootNode, 'descendantsOfType', 'identifier')));
    } finally {
      tree.delete();
    }
  });

  it('identifierNames reads the names a walk of the nodes reads, also with names outside ASCII and without a kept source', async () => {
    await initParser();
    const texts = (n: Node) => [...new Set(n.descendantsOfType('identifier').map((x) => x!.text))].sort();
    for (const src of [SAMPLE, `${SAMPLE}\nnaïve = größe(ﬁ)\n`, 'def f(:\n    ünï = g(x\n']) {
      const tree = parsePython(src);
      try {
        const want = texts(tree.rootNode);
        expect(want.length).toBeGreaterThan(2);
        expect([...identifierNames(tree.rootNode)].sort()).toEqual(want);
        // Some names already made as nodes, some not: the same set.
        const def = tree.rootNode.descendantsOfType('function_definition')[0];
        if (def) expect([...identifierNames(def)].sort()).toEqual(texts(def));
        expect([...identifierNames(tree.rootNode)].sort()).toEqual(want);
      } finally {
        tree.delete();
      }
    }
  });

  it('speedUpTransfers stores and loads i32 as the module does, and leaves other types to it', () => {
    const mem = new ArrayBuffer(64);
    const dv = new DataView(mem);
    const calls: string[] = [];
    const module = {
      HEAP32: new Int32Array(mem),
      setValue(ptr: number, value: number, type = 'i8') {
        calls.push(`set ${type}`);
        if (type === 'i32') dv.setInt32(ptr, value, true);
        else dv.setInt8(ptr, value);
      },
      getValue(ptr: number, type = 'i8') {
        calls.push(`get ${type}`);
        return type === 'i32' ? dv.getInt32(ptr, true) : dv.getInt8(ptr);
      },
    };
    expect(speedUpTransfers(module)).toBe(true);
    module.setValue(8, -123456789, 'i32');
    expect(dv.getInt32(8, true)).toBe(-123456789);
    expect(module.getValue(8, 'i32')).toBe(-123456789);
    module.setValue(20, 0x1_0000_0005, 'i32'); // wraps as a 32-bit store does
    expect(module.getValue(20, 'i32')).toBe(5);
    module.setValue(3, 7, 'i8');
    expect(module.getValue(3)).toBe(7);
    expect(calls).toEqual(['set i8', 'get i8']);
    // The memory grew: the old buffer is detached and the module has a new view.
    const grown = new ArrayBuffer(128);
    structuredClone(mem, { transfer: [mem] });
    module.HEAP32 = new Int32Array(grown);
    module.setValue(100, 42, 'i32');
    expect(new DataView(grown).getInt32(100, true)).toBe(42);
    expect(module.getValue(100, 'i32')).toBe(42);
    expect(speedUpTransfers({ setValue() {}, getValue() {} })).toBe(false);
  });
});
