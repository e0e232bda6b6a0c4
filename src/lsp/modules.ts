/**
 * The project's modules as the language server reads them (cross-file, semantic/crossfile.ts):
 * an open buffer's text over the file on disk. A buffer that changes drops every summary read so
 * far (one may have been read through another) and names the open files whose findings were read
 * from it, which the server checks again; a module read from the disk that changed there (a
 * checkout, another editor) drops them too, seen by its stat before the next check.
 */
import { statSync } from 'node:fs';
import { sameSig, statSig, type StatSig } from '../io/fingerprint.js';
import type { ProjectModules } from '../semantic/crossfile.js';
import type { RuleSet } from '../rules/ruleset.js';
import { projectModules, readModuleFromDisk } from '../engine/modules.js';
import { summarizer } from '../semantic/model.js';

export class OpenModules {
  private modules?: ProjectModules;
  private rules?: RuleSet;
  /** Modules read from the disk, with their stat signature then (undefined: it could not be read). */
  private readonly disk = new Map<string, StatSig | undefined>();
  /** The modules each checked file's findings were read from. */
  private readonly depsOf = new Map<string, string[]>();
  private readonly fromDisk = readModuleFromDisk();

  constructor(private readonly openTexts: () => Map<string, string>) {}

  /** The modules for a check with these rules (new rules: new summaries; a module changed on disk: the same). */
  for(rules: RuleSet): ProjectModules {
    if (this.modules && this.rules === rules && ![...this.disk].some(([f, sig]) => !same(sig, sigOf(f)))) return this.modules;
    this.disk.clear();
    this.rules = rules;
    this.modules?.release();
    return (this.modules = projectModules(rules, summarizer(rules), (f) => this.read(f)));
  }

  private read(file: string): string | undefined {
    const open = this.openTexts().get(file);
    if (open !== undefined) return open;
    const sig = sigOf(file);
    const text = this.fromDisk(file);
    if (text !== undefined) this.disk.set(file, sig);
    return text;
  }

  /** A file was checked: its findings were read from these modules. */
  checked(file: string, deps: string[] | undefined): void {
    if (deps?.length) this.depsOf.set(file, deps);
    else this.depsOf.delete(file);
  }

  /** A buffer changed: summaries are read again, and the files whose findings came from it are returned (to check again). */
  changed(file: string): string[] {
    const dependents = [...this.depsOf].filter(([f, deps]) => f !== file && deps.includes(file)).map(([f]) => f);
    // Summaries, and what was read of module texts, start again (cheap: made again when asked).
    if (dependents.length || this.modules?.has(file)) {
      this.modules?.release();
      this.modules = undefined;
    }
    return dependents;
  }

  /** A buffer closed: its module is the file on disk again (the files read from it are returned, as for a change). */
  closed(file: string): string[] {
    this.depsOf.delete(file);
    return this.changed(file);
  }
}

function sigOf(file: string): StatSig | undefined {
  try {
    return statSig(statSync(file));
  } catch {
    return undefined;
  }
}

const same = (a: StatSig | undefined, b: StatSig | undefined): boolean => (a && b ? sameSig(a, b) : a === b);
