/** Every file and function in src/ stays small enough to read in one sitting. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('size', () => {
  const all = files(SRC);
  it(`no file in src/ is over ${MAX_FILE_LINES} lines`, () => {
    const big = all.map((f) => ({ f: relative(SRC, f), n: readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length })).filter((x) => x.n > MAX_FILE_LINES);
    expect(big.map((x) => `${x.f}: ${x.n} lines`)).toEqual([]);
  });

  it(`no function in src/ is over ${MAX_FUNCTION_LINES} lines`, () => {
    const long: string[] = [];
    for (const f of all) {
      const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (n: ts.Node) => {
        if (ts.isFunctionLike(n) && 'body' in n && n.body) {
          const a = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
          const b = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
          const name = 'name' in n && n.name ? (n.name as ts.Node).getText(sf) : '<anonymous>';
          const len = b - a + 1;
          if (len > MAX_FUNCTION_LINES) long.push(`${relative(SRC, f)}:${a + 1} ${name}: ${len} lines`);
        }
        ts.forEachChild(n, visit);
      };
      visit(sf);
    }
    expect(long).toEqual([]);
  });
});
