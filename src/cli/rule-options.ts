/** The options every command that reads rules takes: which records (`--records`, `--no-bundled`) and where compiled rules are cached. */
import type { Command } from 'commander';
import { DEFAULT_CACHE_DIR } from '../engine/batch.js';
import { collect } from './io.js';

export interface RuleSourceFlags {
  records: string[];
  bundled: boolean;
  cacheDir: string;
}

/** Adds `--records <path>` (repeatable), `--no-bundled` and `--cache-dir <dir>` to a command. */
export function addRuleSourceOptions(cmd: Command): Command {
  return cmd
    .option('--records <path>', 'extra record dataset (file or folder; repeatable)', collect, [])
    .option('--no-bundled', 'do not use the bundled record datasets')
    .option('--cache-dir <dir>', "where compiled rules (and check's results) are cached", DEFAULT_CACHE_DIR);
}
