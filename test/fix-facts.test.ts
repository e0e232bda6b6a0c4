/**
 * The fix stage reads the file's strings, comments and enclosing definitions from the file's one
 * walk of node types (parse/syntax.ts descendantsIn) by range, not by walking each statement or
 * climbing the tree: the answers must be those of the walks they replace, for every statement.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserFile } from '../src/fix/scope.js';
import { initParser, withTree, type Node } from '../src/parse/parser.js';

const TRICKY = [
  'x = ("a"\n     "b"  # one\n     # two\n     "c")\nprint(f"{\'q\'}"\n      "r\\n", """s\n t""")\n',
  'def f(a=(b := 1)):\n    y = ("p" \\\n         "q")\n    class C:\n        def g(self):\n            return [z for z in f"{\'\'\'m\nn\'\'\'}"]\n    return lambda: (w := 2)\n',
  'if x:\n    call("a",\n         "b")\nelif y:\n    s = """\nx""" "y"\nelse:\n    pass  # c\n',
  'async def h():\n    async with a("x"\n                 "y") as b:\n        await c(# c\n            "d")\n',
];

function files(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) files(p, out);
    else if (e.endsWith('.py')) out.push(p);
  }
  return out;
}

/** What the planner computed before: a walk of the statement for its strings. */
function walkedBreaks(stmt: Node, text: string): number[] {
  const out = new Set<number>();
  for (const s of stmt.descendantsOfType(['string', 'concatenated_string'])) {
    if (!s || s.startPosition.row === s.endPosition.row) continue;
    for (let i = text.indexOf('\n', s.startIndex); i >= 0 && i < s.endIndex - 1; i = text.indexOf('\n', i + 1)) out.add(i + 1);
  }
  return [...out].sort((a, b) => a - b);
}

/** What Scopes.scopesOf computed before: a climb from the statement. */
function climbedScopes(stmt: Node, root: Node): number[] {
  const out: number[] = [];
  let direct = true;
  for (let n = stmt.parent; n; n = n.parent) {
    if (n.type === 'function_definition') {
      out.push(n.id);
      direct = false;
    } else if (n.type === 'class_definition') {
      if (direct) out.push(n.id);
      direct = false;
    }
  }
  return [...out, root.id];
}

describe('fix facts from the file walk', () => {
  it('string line breaks, comments and enclosing scopes equal those of walking each statement', async () => {
    await initParser();
    const sources = [...TRICKY, ...files(join(import.meta.dirname, '..', 'fixtures')).map((f) => readFileSync(f, 'utf8'))];
    let statements = 0;
    let withBreaks = 0;
    for (const text of sources) {
      withTree(text, (tree) => {
        const user = new UserFile(tree.rootNode, text);
        const stmts = tree.rootNode.descendantsOfType([
          'expression_statement',
          'return_statement',
          'if_statement',
          'with_statement',
          'for_statement',
          'assert_statement',
        ]);
        for (const stmt of stmts) {
          if (!stmt) continue;
          statements++;
          const want = walkedBreaks(stmt, text);
          if (want.length) withBreaks++;
          expect([...new Set(user.breaksInStrings(stmt.startIndex, stmt.endIndex))].sort((a, b) => a - b)).toEqual(want);
          expect(user.scopes.scopesOf(stmt).map((n) => n.id)).toEqual(climbedScopes(stmt, tree.rootNode));
          const comments = stmt.descendantsOfType('comment').some((c) => !!c && c.startIndex >= stmt.startIndex && c.endIndex <= stmt.endIndex);
          expect(user.hasComment(stmt.startIndex, stmt.endIndex)).toBe(comments);
        }
      });
    }
    // The comparison covers statements with line breaks in strings (it can fail).
    expect(statements).toBeGreaterThan(500);
    expect(withBreaks).toBeGreaterThan(5);
  });
});
