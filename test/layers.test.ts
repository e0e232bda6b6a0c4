/** The pipeline's stages import only forwards: a stage never imports a later one. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
// Earlier stages first. `lsp` and `cli` are the front ends (`raiselint lsp` in cli starts the server); `engine` drives the pipeline.
const ORDER = ['parse', 'records', 'rules', 'semantic', 'match', 'analysis', 'eslint', 'diagnostics', 'fix', 'suppress', 'report', 'workspace', 'config', 'cache', 'engine', 'lsp', 'cli'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('layering', () => {
  it('every src folder is a known stage', () => {
    for (const d of readdirSync(SRC)) if (statSync(join(SRC, d)).isDirectory()) expect(ORDER, `src/${d} is not in ORDER`).toContain(d);
  });
  it('no stage imports a later stage', () => {
    for (const f of files(SRC)) {
      const stage = relative(SRC, f).split(/[\\/]/)[0]!;
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/from '\.\.\/([a-z]+)\//g)) {
        const target = m[1]!;
        expect(ORDER.indexOf(target), `${relative(SRC, f)} imports ../${target}`).toBeLessThanOrEqual(ORDER.indexOf(stage));
      }
    }
  });
});
