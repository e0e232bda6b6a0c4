/**
 * What the commands that read rules share: which records (`--records`, `--no-bundled`), where
 * compiled rules are cached (`--cache-dir`), and for the commands that print rules (explain,
 * rules) `--format text|json` and reading the catalog with its warnings said on stderr; for the
 * commands that check files (check, lsp), `--min-confidence` and `--no-config`.
 */
import { Option, type Command } from 'commander';
import { catalogRules, DEFAULT_CACHE_DIR } from '../engine/batch.js';
import { warningLines } from '../records/load.js';
import type { RuleSet } from '../rules/ruleset.js';
import { collect, type IO } from './io.js';

export interface RuleSourceFlags {
  records: string[];
  bundled: boolean;
  cacheDir: string;
  /** `--python PATH|none`. */
  python?: string;
}

/** `--python`: an interpreter, `none` (records compile from their own windows), or undefined (found: src/workspace/pyenv.ts). */
export function pythonOption(python: string | undefined): string | false | undefined {
  return python === 'none' ? false : python;
}

export interface RulePrintFlags extends RuleSourceFlags {
  format: 'text' | 'json';
}

/** Adds `--records <path>` (repeatable), `--no-bundled` and `--cache-dir <dir>` to a command. */
export function addRuleSourceOptions(cmd: Command): Command {
  return cmd
    .option('--records <path>', 'extra record dataset (file or folder; repeatable)', collect, [])
    .option('--no-bundled', 'do not use the bundled record datasets')
    .option('--cache-dir <dir>', "where compiled rules (and check's results) are cached", DEFAULT_CACHE_DIR)
    .option(
      '--python <path>',
      "the project's Python, whose installed libraries the rules are read from ('none': the records alone; default: $VIRTUAL_ENV, .venv/, venv/, python3)",
    );
}

/** `--min-confidence <level>` and `--no-config`, as check and lsp take them. */
export function addReportingOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('--min-confidence <level>', "lowest confidence to report (default: each file's config, else possible)").choices(['certain', 'possible']),
    )
    .option('--no-config', 'ignore raiselint.toml and [tool.raiselint] in pyproject.toml');
}

/** The rule-source options and `--format text|json`. */
export function addRulePrintOptions(cmd: Command): Command {
  return addRuleSourceOptions(cmd).addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'));
}

/** Every rule the flags name (from the compiled-rules snapshot); each record warning is printed to stderr first. */
export async function ruleCatalog(flags: RuleSourceFlags, stderr: IO['stderr']): Promise<RuleSet> {
  const set = await catalogRules({ records: flags.records, bundled: flags.bundled, python: pythonOption(flags.python) }, flags.cacheDir);
  for (const l of warningLines(set.warnings)) stderr(`${l}\n`);
  return set;
}
