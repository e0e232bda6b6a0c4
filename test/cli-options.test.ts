/** The options every command that reads rules takes are declared once (src/cli/rule-options.ts): same flags, help and defaults. */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCheck } from '../src/cli/check.js';
import { registerExplain } from '../src/cli/explain.js';
import { registerLsp } from '../src/cli/lsp.js';
import { registerRules } from '../src/cli/rules.js';

describe('shared options', () => {
  it('check, explain, rules and lsp declare --records, --no-bundled and --cache-dir alike', () => {
    const program = new Command();
    const io = { stdout: () => {}, stderr: () => {} };
    for (const register of [registerCheck, registerExplain, registerRules, registerLsp]) register(program, io, () => {});
    const shown = program.commands.map((c) => ({
      command: c.name(),
      options: c.options
        .filter((o) => ['--records', '--no-bundled', '--cache-dir'].includes(o.long!))
        .map((o) => ({ flags: o.flags, description: o.description, default: o.defaultValue })),
    }));
    const expected = [
      { flags: '--records <path>', description: 'extra record dataset (file or folder; repeatable)', default: [] },
      { flags: '--no-bundled', description: 'do not use the bundled record datasets', default: undefined },
      { flags: '--cache-dir <dir>', description: "where compiled rules (and check's results) are cached", default: '.raiselint_cache' },
    ];
    expect(shown).toEqual(['check', 'explain', 'rules', 'lsp'].map((command) => ({ command, options: expected })));
  });

  it('check and lsp declare --min-confidence and --no-config alike', () => {
    const program = new Command();
    const io = { stdout: () => {}, stderr: () => {} };
    for (const register of [registerCheck, registerLsp]) register(program, io, () => {});
    const shown = program.commands.map((c) => ({
      command: c.name(),
      options: c.options
        .filter((o) => ['--min-confidence', '--no-config'].includes(o.long!))
        .map((o) => ({ flags: o.flags, description: o.description, choices: o.argChoices })),
    }));
    const expected = [
      {
        flags: '--min-confidence <level>',
        description: "lowest confidence to report (default: each file's config, else possible)",
        choices: ['certain', 'possible'],
      },
      { flags: '--no-config', description: 'ignore raiselint.toml and [tool.raiselint] in pyproject.toml', choices: undefined },
    ];
    expect(shown).toEqual(['check', 'lsp'].map((command) => ({ command, options: expected })));
  });
});
