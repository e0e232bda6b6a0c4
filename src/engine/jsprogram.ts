/**
 * TypeScript programs for a run's JS/TS files: one per nearest `tsconfig.json` (or
 * `jsconfig.json`), with that config's compiler options, and one default program for files under
 * no config. A program's roots are the files to lint plus the config's declaration files (so
 * ambient `declare module` and global declarations are seen), not every file the config includes:
 * the checker loads what the roots import.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import type { FileError } from '../diagnostics/types.js';

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

/** The default options for files under no tsconfig: what a Node project would use. */
export const DEFAULT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowJs: true,
  checkJs: false,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  jsx: ts.JsxEmit.Preserve,
  // Every installed `@types` package, as TypeScript before 6.0 did by default (`@types/node` for Node's globals).
  types: ['*'],
};

export function nearestConfig(file: string, cache: Map<string, string | null>): string | undefined {
  const seen: string[] = [];
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const known = cache.get(dir);
    if (known !== undefined) {
      for (const d of seen) cache.set(d, known);
      return known ?? undefined;
    }
    seen.push(dir);
    const hit = CONFIG_NAMES.map((n) => join(dir, n)).find((p) => existsSync(p));
    if (hit || dirname(dir) === dir || existsSync(join(dir, '.git'))) {
      for (const d of seen) cache.set(d, hit ?? null);
      return hit;
    }
  }
}

export interface ProgramGroup {
  config?: string;
  files: string[];
  program: ts.Program;
}

function configOf(path: string, errors: FileError[], display: (abs: string) => string): { options: ts.CompilerOptions; declarations: string[] } {
  const problems: string[] = [];
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => problems.push(ts.flattenDiagnosticMessageText(d.messageText, ' ')),
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(path, { noEmit: true }, host);
  const first = parsed?.errors.find((e) => e.category === ts.DiagnosticCategory.Error && e.code !== 18003);
  if (!parsed || problems.length || first) {
    const why = problems[0] ?? (first ? ts.flattenDiagnosticMessageText(first.messageText, ' ') : 'cannot be read');
    errors.push({ file: display(path), kind: 'syntax', message: `${why} (its files are checked with default compiler options)` });
    return { options: DEFAULT_OPTIONS, declarations: [] };
  }
  return { options: { ...parsed.options, allowJs: true, noEmit: true }, declarations: parsed.fileNames.filter((f) => /\.d\.[cm]?ts$/.test(f)) };
}

/** Groups the files by nearest config and builds one program per group. */
export function buildPrograms(files: string[], errors: FileError[], display: (abs: string) => string): ProgramGroup[] {
  const cache = new Map<string, string | null>();
  const groups = new Map<string, string[]>();
  for (const f of files) {
    const c = nearestConfig(f, cache) ?? '';
    const list = groups.get(c) ?? [];
    list.push(f);
    groups.set(c, list);
  }
  const out: ProgramGroup[] = [];
  for (const [config, list] of groups) {
    const { options, declarations } = config ? configOf(config, errors, display) : { options: DEFAULT_OPTIONS, declarations: [] };
    const program = ts.createProgram({ rootNames: [...new Set([...list, ...declarations])], options });
    out.push({ config: config || undefined, files: list, program });
  }
  return out;
}
