/** `raiselint rules`: lists the rules the records compile to. */
import { Option, type Command } from 'commander';
import { describeProblem } from '../records/load.js';
import { catalogRules } from '../engine/batch.js';
import { filterBuiltins, filterRules, formatRulesJson, formatRulesText } from '../report/rules.js';
import { BUILTIN_RULES } from '../suppress/builtin.js';
import { UsageError, type IO } from './io.js';
import { addRuleSourceOptions, type RuleSourceFlags } from './rule-options.js';

interface RulesFlags extends RuleSourceFlags {
  format: 'text' | 'json';
}

export function registerRules(program: Command, { stdout, stderr }: IO, setCode: (code: number) => void): void {
  addRuleSourceOptions(
    program
      .command('rules')
      .description('list the rules: id, error class, raiser, and when each fires (certain, possible, indirect); then the built-in raiselint/* rules')
      .argument('[filter]', 'only rules whose id, error class, raiser or message contains this text'),
  )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (filter: string | undefined, flags: RulesFlags) => {
      const set = await catalogRules({ records: flags.records, bundled: flags.bundled }, flags.cacheDir);
      for (const w of set.warnings) stderr(`raiselint: warning: ${describeProblem(w)}\n`);
      if (!set.rules.length) throw new UsageError('no rules: every record was skipped (see warnings above)');
      const rules = filterRules([...set.rules].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), filter);
      const builtins = filterBuiltins([...BUILTIN_RULES].sort((a, b) => (a.id < b.id ? -1 : 1)), filter);
      stdout(flags.format === 'json' ? formatRulesJson(rules, set, builtins) : formatRulesText(rules, set, builtins));
      setCode(filter && !rules.length && !builtins.length ? 1 : 0);
    });
}
