/** The `raiselint` command line. */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { PACKAGE } from '../io/package.js';
import { DatasetError } from '../records/load.js';
import { CuratedDataError } from '../compile/index.js';
import { ConfigError } from '../config/schema.js';
import { BaselineError } from '../suppress/baseline.js';
import { PathError } from '../workspace/discover.js';
import { registerCheck } from './check.js';
import { registerLsp } from './lsp.js';
import { registerExplain } from './explain.js';
import { registerRules } from './rules.js';
import { registerRecords } from './records.js';
import { registerClean } from './clean.js';
import { UsageError, type IO } from './io.js';

const VERSION: string = PACKAGE.version;

export async function main(argv: string[]): Promise<number> {
  const stdout = (s: string | Uint8Array) => process.stdout.write(s);
  const stderr = (s: string) => process.stderr.write(s);
  let code = 0;
  const io: IO = { stdout, stderr };
  const program = new Command('raiselint')
    .description('Finds Python calls that will raise recorded library errors.')
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: stdout, writeErr: stderr, outputError: (s, write) => write(`raiselint: ${s.replace(/^error: /, 'error: ')}`) })
    .showSuggestionAfterError(true);

  // One file per command: check.ts, and the others as they come.
  registerCheck(program, io, (c) => (code = c));
  registerLsp(program, io, (c) => (code = c));
  registerRules(program, io, (c) => (code = c));
  registerExplain(program, io, (c) => (code = c));
  registerRecords(program, io, (c) => (code = c));
  registerClean(program, io, (c) => (code = c));

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2; // commander already printed the one-line error
    }
    if (e instanceof InvalidArgumentError || e instanceof UsageError) {
      stderr(`raiselint: error: ${e.message}\n`);
      return 2;
    }
    if (e instanceof PathError) {
      stderr(`raiselint: error: ${e.path}: ${e.message}\n`);
      return 2;
    }
    if (e instanceof DatasetError) {
      stderr(`raiselint: error: ${e.describe()}\n`);
      return 2;
    }
    if (e instanceof ConfigError) {
      stderr(`raiselint: error: ${e.describe()}\n`);
      return 2;
    }
    if (e instanceof BaselineError) {
      stderr(`raiselint: error: ${e.file}: ${e.message}\n`);
      return 2;
    }
    if (e instanceof CuratedDataError) {
      stderr(`raiselint: error: ${e.message}\n`);
      return 2;
    }
    stderr(`raiselint: internal error: ${(e as Error).message}\n`);
    return 2;
  }
}
