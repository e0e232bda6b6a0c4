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

export interface ParsedConfig {
  options: ts.CompilerOptions;
  declarations: string[];
  /** Config files it extends. */
  extended?: string[];
}

/** Reads tsconfig/jsconfig files once each; a broken one is reported once (its files get the default options). */
export class ConfigReader {
  private readonly parsed = new Map<string, ParsedConfig>();
  private readonly nearest = new Map<string, string | null>();

  constructor(
    private readonly errors: FileError[],
    private readonly display: (abs: string) => string,
  ) {}

  /** The nearest config of a file ('' when there is none). */
  configOf(file: string): string {
    return nearestConfig(file, this.nearest) ?? '';
  }

  /** Whether a config could not be read (its files then get the default options, and the run says so). */
  hasErrors(): boolean {
    return this.errors.length > 0;
  }

  /** The files a config extends (a change there changes its options). */
  extendedOf(config: string): string[] {
    return this.read(config).extended ?? [];
  }

  read(config: string): ParsedConfig {
    if (!config) return { options: DEFAULT_OPTIONS, declarations: [] };
    let p = this.parsed.get(config);
    if (!p) this.parsed.set(config, (p = parseConfig(config, this.errors, this.display)));
    return p;
  }
}

function parseConfig(path: string, errors: FileError[], display: (abs: string) => string): ParsedConfig {
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
  const configFile = (parsed.options as { configFile?: { extendedSourceFiles?: string[] } }).configFile;
  return {
    options: { ...parsed.options, allowJs: true, noEmit: true },
    declarations: parsed.fileNames.filter((f) => /\.d\.[cm]?ts$/.test(f)),
    extended: configFile?.extendedSourceFiles ?? [],
  };
}

/** Groups the files by nearest config and builds one program per group (`host`: a compiler host's overrides, as the language server's buffers). */
export function buildPrograms(files: string[], configs: ConfigReader, host?: (options: ts.CompilerOptions) => ts.CompilerHost): ProgramGroup[] {
  const groups = new Map<string, string[]>();
  for (const f of files) {
    const c = configs.configOf(f);
    const list = groups.get(c) ?? [];
    list.push(f);
    groups.set(c, list);
  }
  const out: ProgramGroup[] = [];
  for (const [config, list] of groups) {
    const { options, declarations } = configs.read(config);
    const program = ts.createProgram({ rootNames: [...new Set([...list, ...declarations])], options, host: host?.(options) });
    out.push({ config: config || undefined, files: list, program });
  }
  return out;
}
