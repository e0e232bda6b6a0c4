/**
 * The shape of src/: the pipeline's stages import only forwards (a stage never imports a later
 * one) and no module imports itself through others (no cycle). Sizes: test/size.test.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
// Earlier stages first. `io` is file writing shared by every stage that writes (atomic writes, cache pruning). `python` reads
// syntax into facts for every later stage. `workspace` (files, the project's Python) comes before `compile`, which grounds
// records in the installed libraries. `rules` is the model and index that `compile` produces and every later stage reads;
// `prefilter` is the per-file gate that the compiler builds into the snapshot. `engine` drives the pipeline; `lsp` and `cli`
// are the front ends (`raiselint lsp` in cli starts the server).
const ORDER = [
  'io',
  'parse',
  'python',
  'records',
  'workspace',
  'rules',
  'prefilter',
  'compile',
  'semantic',
  'match',
  'analysis',
  'diagnostics',
  'fix',
  'suppress',
  'eslint',
  'report',
  'config',
  'cache',
  'engine',
  'lsp',
  'cli',
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const stageOf = (f: string) => relative(SRC, f).split(/[\\/]/)[0]!;

/** Relative imports of a file, resolved to .ts paths; `typeOnly` for `import type` / `export type`. */
function importsOf(f: string): { target: string; typeOnly: boolean }[] {
  const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { target: string; typeOnly: boolean }[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    if (spec.startsWith('.')) out.push({ target: resolve(dirname(f), spec).replace(/\.js$/, '.ts'), typeOnly });
  };
  const visit = (n: ts.Node) => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const c = n.importClause;
      const allTypes =
        !!c && (c.isTypeOnly || (!c.name && !!c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(n.moduleSpecifier.text, allTypes);
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) add(n.moduleSpecifier.text, n.isTypeOnly);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0]))
      add(n.arguments[0].text, false);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('layering', () => {
  const all = files(SRC);
  it('every src folder is a known stage', () => {
    for (const d of readdirSync(SRC)) if (statSync(join(SRC, d)).isDirectory()) expect(ORDER, `src/${d} is not in ORDER`).toContain(d);
  });

  it('no stage imports a later stage (at any folder depth)', () => {
    for (const f of all) {
      for (const { target } of importsOf(f)) {
        const to = stageOf(target);
        expect(ORDER.indexOf(to), `${relative(SRC, f)} imports ${relative(SRC, target)}`).toBeLessThanOrEqual(ORDER.indexOf(stageOf(f)));
      }
    }
  });

  it('other stages reach the compiler only through its entry, src/compile/index.ts', () => {
    const entry = join(SRC, 'compile', 'index.ts');
    for (const f of all) {
      if (stageOf(f) === 'compile') continue;
      for (const { target } of importsOf(f))
        if (stageOf(target) === 'compile') expect(target, `${relative(SRC, f)} imports ${relative(SRC, target)}`).toBe(entry);
    }
  });

  it('no import cycle (dynamic and type-only imports included)', () => {
    const graph = new Map(all.map((f) => [f, importsOf(f).map((i) => i.target)]));
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const walk = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].map((p) => relative(SRC, p)).join(' -> '));
        return;
      }
      state.set(f, 'open');
      for (const t of graph.get(f) ?? []) walk(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of all) walk(f, []);
    expect(cycles).toEqual([]);
  });

  it('the checks above see imports of nested folders', () => {
    const f = join(SRC, 'compile', 'python', 'record.ts');
    expect(importsOf(f).map((i) => relative(SRC, i.target))).toContain(join('records', 'types.ts'));
  });
});
