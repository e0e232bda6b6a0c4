/** `raiselint lsp`: the language server over stdio. */
import { resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DERIVE_MODES, type DeriveMode } from '../records/generate/derive.js';
import { catalogRules } from '../engine/batch.js';
import { initParser } from '../parse/parser.js';
import { warningLines } from '../records/load.js';
import type { IO } from './io.js';
import { addReportingOptions, addRuleSourceOptions, pythonOption, type RuleSourceFlags } from './rule-options.js';

interface LspFlags extends RuleSourceFlags {
  derive?: DeriveMode;
  minConfidence?: 'certain' | 'possible';
  debounce: number;
  watch: boolean;
  config: boolean;
}

function milliseconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 60_000) throw new InvalidArgumentError('expected a whole number of milliseconds from 0 to 60000');
  return Number(value);
}

function pid(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a process id');
  return Number(value);
}

export function registerLsp(program: Command, { stderr }: IO, setCode: (code: number) => void): void {
  addReportingOptions(
    addRuleSourceOptions(
      program
        .command('lsp')
        .description('run the language server (LSP over stdio) for editors; records and config files are reloaded when they change')
        .option('--stdio', 'talk over stdin/stdout (the default and only transport; accepted for clients that pass it)')
        // vscode-languageclient passes it when it starts the server as a Node module (the VS Code extension);
        // vscode-languageserver reads it from the process arguments and exits when that process is gone.
        .addOption(new Option('--clientProcessId <pid>', 'process id of the editor (exit when it is gone)').argParser(pid).hideHelp()),
    ),
  )
    .option('--debounce <ms>', 'quiet period after an edit before re-checking', milliseconds, 250)
    .addOption(
      new Option(
        '--derive <mode>',
        "records for the installed modules the buffers import: off, their certain findings, or all (default: the config's derive, else certain)",
      ).choices(DERIVE_MODES),
    )
    .option('--no-watch', "do not watch records and config files on disk (rely on the client's workspace/didChangeWatchedFiles)")
    .action(async (flags: LspFlags) => {
      // Loaded here, so other commands do not pay for the LSP libraries at startup.
      const { startServer } = await import('../lsp/server.js');
      const records = flags.records.map((p) => resolve(p));
      // Bad records stop the server before it starts: one line on stderr, exit 2 (main reports it).
      const cacheDir = resolve(flags.cacheDir);
      const rules = await catalogRules({ records, bundled: flags.bundled, python: pythonOption(flags.python) }, cacheDir);
      await initParser();
      for (const l of warningLines(rules.warnings)) stderr(`${l}\n`);
      // stdout carries the protocol: anything printed by mistake goes to stderr instead.
      for (const k of ['log', 'info', 'debug', 'warn'] as const) console[k] = (...args: unknown[]) => void stderr(`${args.map(String).join(' ')}\n`);
      const { done } = startServer(
        rules,
        {
          records,
          bundled: flags.bundled,
          python: pythonOption(flags.python),
          minConfidence: flags.minConfidence,
          config: flags.config,
          derive: flags.derive,
          cacheDir,
          debounceMs: flags.debounce,
          watch: flags.watch,
        },
        process.stdin,
        process.stdout,
      );
      await done;
      setCode(0);
    });
}
