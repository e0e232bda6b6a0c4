/** `raiselint rules`: lists the rules the records compile to. */
import type { Command } from 'commander';
import { filterBuiltins, filterRules, formatRulesJson, formatRulesText } from '../report/rules.js';
import { BUILTIN_RULES } from '../suppress/builtin.js';
import { UsageError, type IO } from './io.js';
import { addRulePrintOptions, ruleCatalog, type RulePrintFlags } from './rule-options.js';

export function registerRules(program: Command, { stdout, stderr }: IO, setCode: (code: number) => void): void {
  const cmd = program
    .command('rules')
    .description('list the rules: id, error class, raiser, and when each fires (certain, possible, indirect); then the built-in raiselint/* rules')
    .argument('[filter]', 'only rules whose id, error class, raiser or message contains this text');
  addRulePrintOptions(cmd).action(async (filter: string | undefined, flags: RulePrintFlags) => {
    const set = await ruleCatalog(flags, stderr);
    if (!set.rules.length) throw new UsageError('no rules: every record was skipped (see warnings above)');
    const rules = filterRules(
      [...set.rules].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      filter,
    );
    const builtins = filterBuiltins(
      [...BUILTIN_RULES].sort((a, b) => (a.id < b.id ? -1 : 1)),
      filter,
    );
    stdout(flags.format === 'json' ? formatRulesJson(rules, set, builtins) : formatRulesText(rules, set, builtins));
    setCode(filter && !rules.length && !builtins.length ? 1 : 0);
  });
}
