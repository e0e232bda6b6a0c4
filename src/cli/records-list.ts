/**
 * `raiselint records list [paths...]`: which datasets a `raiselint check` of the paths would load,
 * and why (src/engine/datasets.ts), as text or JSON.
 */
import { relative } from 'node:path';
import { Option, type Command } from 'commander';
import { collect, type IO } from './io.js';

interface ListFlags {
  records: string[];
  bundled: boolean;
  config: boolean;
  derive?: 'off' | 'certain' | 'all';
  python?: string;
  cacheDir?: string;
  format: 'text' | 'json';
}

const LABEL = { bundled: 'bundled', 'records-option': '--records', config: 'config', derived: 'derived' } as const;

export function registerRecordsList(records: Command, { stdout }: IO, setCode: (code: number) => void): void {
  records
    .command('list')
    .description('list the datasets `raiselint check` of these paths would load (bundled, --records, configured, derived) and why')
    .argument('[paths...]', 'the paths check would be given (default: the current folder)')
    .option('--records <path>', 'extra record dataset, as for check (repeatable)', collect, [])
    .option('--no-bundled', 'leave the bundled datasets out, as for check')
    .option('--no-config', 'ignore raiselint.toml and [tool.raiselint] in pyproject.toml')
    .addOption(new Option('--derive <mode>', 'records for the installed modules the files import, as for check').choices(['off', 'certain', 'all']))
    .option('--python <path>', "the project's Python ('none': no derivation)")
    .option('--cache-dir <dir>', 'where derived datasets are cached (default: .raiselint_cache)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (paths: string[], flags: ListFlags) => {
      const { activeDatasets } = await import('../engine/datasets.js');
      const list = await activeDatasets(paths.length ? paths : ['.'], {
        records: flags.records,
        bundled: flags.bundled,
        config: flags.config,
        derive: flags.derive,
        python: flags.python === 'none' ? false : flags.python,
        cacheDir: flags.cacheDir,
      });
      if (flags.format === 'json') stdout(`${JSON.stringify({ version: 1, ...list }, null, 2)}\n`);
      else {
        const shown = (f: string) => {
          const rel = relative(process.cwd(), f);
          return rel.startsWith('..') ? f : rel;
        };
        const rows = list.datasets.map((d) => [LABEL[d.source], shown(d.file), `${d.records} record${d.records === 1 ? '' : 's'}`, d.why]);
        const w = [0, 1, 2].map((i) => Math.max(0, ...rows.map((r) => r[i]!.length)));
        for (const r of rows) stdout(`${r[0]!.padEnd(w[0]!)}  ${r[1]!.padEnd(w[1]!)}  ${r[2]!.padStart(w[2]!)}  ${r[3]}\n`);
        const n = (k: number, what: string) => `${k} ${what} file${k === 1 ? '' : 's'}`;
        stdout(
          `${list.datasets.length} dataset${list.datasets.length === 1 ? '' : 's'} for ${n(list.files, 'Python')} and ${n(list.jsFiles, 'JS/TS')}; derive = "${list.derive}"\n`,
        );
      }
      setCode(0);
    });
}
