/**
 * The project's modules as a run reads them (semantic/crossfile.ts): from the disk, decoded as a
 * checked file is, within the file-size limit; a module that cannot be read is not followed.
 */
import { readRegular, sourceLimits } from '../parse/files.js';
import { decodeSource } from '../parse/source.js';
import { ProjectModules, type ReadModule, type Summarize } from '../semantic/crossfile.js';
import type { RuleSet } from '../rules/ruleset.js';
import { prefilterFor } from '../prefilter/index.js';

export function readModuleFromDisk(maxBytes?: number): ReadModule {
  return (file) => {
    try {
      return decodeSource(readRegular(file, sourceLimits(maxBytes)).bytes).text;
    } catch {
      return undefined;
    }
  };
}

/**
 * The project's modules for a run with these rules; `read` overlays the disk (the language
 * server's open buffers). `summarize`: the model's summarizer, when the caller has it loaded
 * (else given later: a batch's prefilter asks about imports before the model is loaded).
 * `maxAlive`: summaries alive at most (semantic/summarycache.ts).
 */
export function projectModules(rules: RuleSet, summarize: Summarize, read: ReadModule = readModuleFromDisk(), maxAlive?: number): ProjectModules {
  return new ProjectModules(summarize, read, libraryTops(rules), maxAlive);
}

/** The top-level modules of the rules' libraries: their classes' modules and the import roots the prefilter requires of a file. */
export function libraryTops(rules: RuleSet): Set<string> {
  const out = prefilterFor(rules).libraryRoots();
  for (const c of rules.classes.all()) {
    if (c.key.startsWith('<local>')) continue;
    out.add(c.module.split('.')[0]!);
    for (const a of c.aliases) out.add(a.split('.')[0]!);
  }
  return out;
}
