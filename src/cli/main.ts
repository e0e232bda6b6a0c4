/** The `raiselint` command line. */
import { readFileSync, writeFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DatasetError } from '../records/load.js';
import { CuratedDataError } from '../rules/curated.js';
import { loadRules } from '../engine/rules.js';
import { exitCode, runCheck } from '../engine/run.js';
import { formatJson } from '../report/json.js';
import { formatText } from '../report/text.js';
import { PathError } from '../workspace/discover.js';

const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

/** A one-line error that ends the run with exit 2. */
export class UsageError extends Error {}

function collect(value: string, prev: string[]): string[] {
  return [...prev, value];
}

interface CheckFlags {
  records: string[];
  bundled: boolean;
  format: 'text' | 'json' | 'concise';
  minConfidence: 'certain' | 'possible';
  outputFile?: string;
  color?: boolean;
  gitignore: boolean;
  exclude: string[];
}

export async function main(argv: string[]): Promise<number> {
  const stdout = (s: string) => process.stdout.write(s);
  const stderr = (s: string) => process.stderr.write(s);
  let code = 0;
  const program = new Command('raiselint')
    .description('Finds Python calls that will raise recorded library errors.')
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: stdout, writeErr: stderr, outputError: (s, write) => write(`raiselint: ${s.replace(/^error: /, 'error: ')}`) })
    .showSuggestionAfterError(true);

  program
    .command('check')
    .description('check Python files and directories')
    .argument('[paths...]', 'files or directories to check', ['.'])
    .option('--records <path>', 'extra record dataset (file or folder; repeatable)', collect, [])
    .option('--no-bundled', 'do not use the bundled record datasets')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'concise']).default('text'))
    .addOption(new Option('--min-confidence <level>', 'lowest confidence to report').choices(['certain', 'possible']).default('possible'))
    .option('-o, --output-file <file>', 'write the report to a file')
    .option('--color', 'force colours')
    .option('--no-color', 'no colours')
    .option('--no-gitignore', 'do not honour .gitignore files')
    .option('--exclude <glob>', 'exclude paths matching a gitignore-style glob (repeatable)', collect, [])
    .action(async (paths: string[], flags: CheckFlags) => {
      const rules = await loadRules({ records: flags.records, bundled: flags.bundled });
      for (const w of rules.warnings) stderr(`raiselint: warning: ${w.file}:${w.line}: ${w.field ? `field '${w.field}': ` : ''}${w.message}\n`);
      if (!rules.rules.length) throw new UsageError('no rules: every record was skipped (see warnings above)');
      const result = runCheck(paths, rules, { minConfidence: flags.minConfidence, respectGitignore: flags.gitignore, exclude: flags.exclude });
      const color = flags.color ?? (!flags.outputFile && process.stdout.isTTY === true && !process.env.NO_COLOR);
      const report =
        flags.format === 'json'
          ? formatJson(result.diagnostics, result.errors)
          : formatText(result.diagnostics, result.errors, { color, sources: result.sources, concise: flags.format === 'concise' });
      if (flags.outputFile) writeFileSync(flags.outputFile, report);
      else stdout(report);
      if (flags.format === 'json') for (const e of result.errors) stderr(`raiselint: ${e.kind === 'syntax' ? 'warning' : 'error'}: ${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}\n`);
      code = exitCode(result);
    });

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
    if (e instanceof CuratedDataError) {
      stderr(`raiselint: error: ${e.message}\n`);
      return 2;
    }
    stderr(`raiselint: internal error: ${(e as Error).message}\n`);
    return 2;
  }
}
