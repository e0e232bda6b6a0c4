/**
 * What a JS/TS file's typed findings depend on besides its own text, as one hash: the key of its
 * entry in the content cache (jsrun.ts). A finding reads types, and types come from elsewhere:
 * - the compiler options of the file's nearest tsconfig/jsconfig, and that config's declaration files;
 * - every project file it imports, transitively (their text: an edit to a factory's return type
 *   changes a caller's findings), and import specifiers that do not resolve (creating the file
 *   changes the result);
 * - installed packages by name and version (from the resolution's package id, else the resolved
 *   file's size and mtime), and npm's record of what is installed (`node_modules/.package-lock.json`),
 *   which covers `@types` packages that no import names.
 * Imports are read with `ts.preProcessFile` and resolved with the config's options (no type check).
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { sha256 } from '../io/fingerprint.js';
import type { ConfigReader } from './jsprogram.js';

/** Project files followed from one file at most (a bound on the work; the rest of a huge graph is not keyed). */
const MAX_FILES = 4000;

interface LocalFile {
  hash: string;
  /** The file's import specifiers and `/// <reference path>`s, resolved: `file:<abs>`, `pkg:<name@version>`, `unresolved:<spec>`. */
  deps: string[];
}

export class JsDependencies {
  private readonly local = new Map<string, LocalFile | null>();
  private readonly resolutionCaches = new Map<string, ts.ModuleResolutionCache>();
  private readonly installed = new Map<string, string>();

  constructor(private readonly configs: ConfigReader) {}

  /**
   * The hash of everything the file's findings depend on, its own text included, and the files
   * (and folders, for imports that do not resolve) that hash was read from.
   */
  signature(abs: string, text: string): { hash: string; files: string[] } {
    const config = this.configs.configOf(abs);
    const { options, declarations } = this.configs.read(config);
    const installed = this.installedOf(dirname(config || abs));
    const parts: string[] = [sha256(text), `config:${config}`, JSON.stringify(options), installed];
    const read = new Set<string>([...(config ? [config, ...this.configs.extendedOf(config)] : []), ...(installed ? [installed.split(':')[1]!] : [])]);
    for (const d of declarations) {
      parts.push(`decl:${d}:${this.file(d, options, config)?.hash ?? 'missing'}`);
      read.add(d);
    }
    const seen = new Set<string>([abs]);
    const queue = this.depsOf(abs, text, options, config);
    for (let i = 0; i < queue.length && seen.size < MAX_FILES; i++) {
      const dep = queue[i]!;
      if (seen.has(dep)) continue;
      seen.add(dep);
      if (!dep.startsWith('file:')) {
        parts.push(dep);
        const at = /^(?:pkg|unresolved):(\/[^:]+)/.exec(dep)?.[1];
        if (at) read.add(at);
        continue;
      }
      const f = this.file(dep.slice(5), options, config);
      parts.push(`${dep}:${f?.hash ?? 'missing'}`);
      read.add(f ? dep.slice(5) : dirname(dep.slice(5)));
      if (f) queue.push(...f.deps);
    }
    return { hash: sha256(parts.join('\n')), files: [...read] };
  }

  private file(abs: string, options: ts.CompilerOptions, config: string): LocalFile | undefined {
    const key = `${config}\0${abs}`;
    let f = this.local.get(key);
    if (f === undefined) {
      let text: string | undefined;
      try {
        text = readFileSync(abs, 'utf8');
      } catch {
        text = undefined;
      }
      f = text === undefined ? null : { hash: sha256(text), deps: this.depsOf(abs, text, options, config) };
      this.local.set(key, f);
    }
    return f ?? undefined;
  }

  private depsOf(abs: string, text: string, options: ts.CompilerOptions, config: string): string[] {
    const info = ts.preProcessFile(text, true, true);
    const out: string[] = [];
    let cache = this.resolutionCaches.get(config);
    if (!cache) this.resolutionCaches.set(config, (cache = ts.createModuleResolutionCache(dirname(config || abs), (s) => s, options)));
    for (const ref of info.importedFiles) {
      const r = ts.resolveModuleName(ref.fileName, abs, options, ts.sys, cache).resolvedModule;
      if (!r) out.push(`unresolved:${dirname(abs)}:${ref.fileName}`);
      else if (r.isExternalLibraryImport || r.resolvedFileName.includes('/node_modules/'))
        out.push(
          r.packageId
            ? `pkg:${r.packageId.name}@${r.packageId.version}/${r.packageId.subModuleName}`
            : `pkg:${r.resolvedFileName}:${statOf(r.resolvedFileName)}`,
        );
      else out.push(`file:${r.resolvedFileName}`);
    }
    for (const ref of info.referencedFiles) out.push(`file:${resolve(dirname(abs), ref.fileName)}`);
    for (const ref of info.typeReferenceDirectives) out.push(`types:${ref.fileName}`);
    return out;
  }

  /** npm's record of the installed packages nearest above `dir` (size and mtime), or ''. */
  private installedOf(dir: string): string {
    let v = this.installed.get(dir);
    if (v === undefined) {
      const lock = join(dir, 'node_modules', '.package-lock.json');
      const here = statOf(lock);
      v = here ? `installed:${lock}:${here}` : dirname(dir) === dir ? '' : this.installedOf(dirname(dir));
      this.installed.set(dir, v);
    }
    return v;
  }
}

function statOf(p: string): string {
  try {
    const st = statSync(p);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return '';
  }
}
