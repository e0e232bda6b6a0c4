/** `raiselint check`: the lint run. */
import { Option, type Command } from 'commander';
import { loadRules } from '../engine/rules.js';
import { exitCode, runCheck } from '../engine/run.js';
import { FORMATS, renderReport, reportsErrors, type Format } from '../report/formats.js';
import { UsageError, collect, type IO } from './io.js';
import { writeReport } from './output.js';

interface CheckFlags {
  records: string[];
  bundled: boolean;
  format: Format;
  statistics?: boolean;
  minConfidence: 'certain' | 'possible';
  outputFile?: string;
  color?: boolean;
  gitignore: boolean;
  exclude: string[];
}

export function registerCheck(program: Command, { stdout, stderr }: IO, setCode: (code: number) => void): void {
  program
    .command('check')
    .description('check Python files and directories')
    .argument('[paths...]', 'files or directories to check', ['.'])
    .option('--records <path>', 'extra record dataset (file or folder; repeatable)', collect, [])
    .option('--no-bundled', 'do not use the bundled record datasets')
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('text'))
    .option('--statistics', 'print the number of findings per rule instead of the findings')
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
      const report = renderReport(flags.format, { ...result, rules: rules.byId }, { color, statistics: flags.statistics });
      if (flags.outputFile) writeReport(flags.outputFile, report);
      else stdout(report);
      if (flags.statistics || !reportsErrors(flags.format)) for (const e of result.errors) stderr(`raiselint: ${e.kind === 'syntax' ? 'warning' : 'error'}: ${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}\n`);
      setCode(exitCode(result));
    });

}
