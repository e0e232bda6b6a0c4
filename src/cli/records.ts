/**
 * `raiselint records check <file>`: compiles record datasets and reports, per record, whether it
 * became a rule, what was derived (raising def, error class and its bases, entry points, receiver
 * classes, guards, version notes) and why not where it failed. Exit 0 when every record compiled,
 * 1 when one was skipped, 2 when a dataset cannot be read.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import type { GenerateInput } from '../records/generate/index.js';
import { pythonEnv } from '../workspace/pyenv.js';
import { UsageError } from './io.js';
import { writeReport } from './output.js';
import type { ErrorRecord } from '../records/types.js';
import type { CompileOutcome } from '../rules/types.js';
import type { IO } from './io.js';
import { formatSummary, summarize, type RecordReport } from './records-summary.js';
import { registerRecordsList } from './records-list.js';

interface RecordsCheckFlags {
  format: 'text' | 'json';
  summary?: boolean;
  python?: string;
}

export type { RecordReport } from './records-summary.js';

export function registerRecords(program: Command, io: IO, setCode: (code: number) => void): void {
  const { stdout, stderr } = io;
  const records = program.command('records').description('work with error-record datasets');
  records
    .command('generate')
    .description(
      "write records for every raise site of Python code (a package folder, a folder of modules such as site-packages or src/, an installed distribution by name, or --stdlib) and of an npm package's public API (its folder, e.g. node_modules/semver)",
    )
    .argument('[paths...]', "package folders (Python or npm), folders of modules, or names of distributions installed in the project's Python")
    .option('--stdlib', "the standard library of the project's Python")
    .option('--python <path>', "the project's Python (for --stdlib and distribution names; default: as `check` finds it)")
    .option('-o, --out <file>', 'write the records there (default: standard output)')
    .action(async (paths: string[], flags: { stdlib?: boolean; python?: string; out?: string }) => {
      const { generateRecords } = await import('../records/generate/index.js');
      const inputs = resolveGenerateInputs(paths, flags);
      const { lines, files } = await generateRecords(inputs);
      const text = lines.length ? `${lines.join('\n')}\n` : '';
      if (flags.out) writeReport(flags.out, text);
      else stdout(text);
      stderr(`raiselint: ${lines.length} records from ${files} files\n`);
      setCode(0);
    });
  registerRecordsList(records, io, setCode);
  records
    .command('check')
    .description('compile record datasets and report, per record, what rule it became or why it was skipped')
    .argument('<paths...>', 'dataset files or folders (JSON Lines or JSON arrays of records)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--summary', 'print counts only: compiled and skipped records by kind of raising def, by source and by skip reason')
    .option('--python <path>', "the Python whose installed libraries the records are read from ('none': the records alone)")
    .action(async (paths: string[], flags: RecordsCheckFlags) => {
      const reports = await checkRecords(paths, flags.python === 'none' ? false : flags.python);
      if (flags.summary) {
        const sum = summarize(reports);
        stdout(flags.format === 'json' ? `${JSON.stringify({ version: 1, summary: sum }, null, 2)}\n` : formatSummary(sum));
      } else stdout(flags.format === 'json' ? `${JSON.stringify({ version: 1, records: reports }, null, 2)}\n` : formatReports(reports));
      setCode(reports.some((r) => r.status === 'skipped') ? 1 : 0);
    });
}

/** The folders to read: paths as given, distribution names found in the project's Python, the stdlib. */
function resolveGenerateInputs(paths: string[], flags: { stdlib?: boolean; python?: string }): GenerateInput[] {
  const needEnv = flags.stdlib || paths.some((p) => !existsSync(p));
  const env = needEnv ? pythonEnv(flags.python === 'none' ? false : flags.python) : undefined;
  if (needEnv && !env)
    throw new UsageError(`no Python found to read ${flags.stdlib ? 'the standard library' : 'installed distributions'} from (--python PATH)`);
  const inputs: GenerateInput[] = [];
  if (flags.stdlib) inputs.push({ path: env!.roots[0]!, stdlib: { version: env!.version } });
  for (const p of paths) {
    if (existsSync(p)) {
      if (!statSync(p).isDirectory()) throw new UsageError(`${p}: not a folder (a package folder, a folder of modules, or an installed distribution's name)`);
      inputs.push({ path: p });
      continue;
    }
    const name = p.toLowerCase().replace(/-/g, '_');
    const found = env!.roots
      .slice(1)
      .flatMap((r) => [join(r, name), join(r, p)])
      .find((d) => existsSync(join(d, '__init__.py')));
    if (!found) throw new UsageError(`${p}: no such folder, and no installed package of that name in ${env!.executable}'s site-packages`);
    inputs.push({ path: found });
  }
  if (!inputs.length) throw new UsageError('nothing to read: give package folders, distribution names, or --stdlib');
  return inputs;
}

/** Compiles the datasets alone (with the bundled curated data) and describes each record's outcome. */
export async function checkRecords(paths: string[], python?: string | false): Promise<RecordReport[]> {
  // Loaded here: the compiler is not part of every command's start-up.
  const { loadRules } = await import('../compile/index.js');
  const set = await loadRules({ records: paths, bundled: false, python });
  const reports: RecordReport[] = [];
  const idOf = (r: ErrorRecord) => `${(r.repo.split('/').pop() ?? r.repo).toLowerCase()}/${r.slug}`;
  for (const { record, outcome } of set.outcomes) {
    reports.push(describe(record.source.file, record.source.line, idOf(record.record), record.record, outcome));
  }
  const duplicate = (w: { message: string }) => w.message.startsWith('duplicate record');
  for (const w of set.warnings) {
    // Records the loader rejected (a bad field) never reach the compiler: report them in place.
    if (w.field === 'record' || duplicate(w) || !w.skipsRecord) continue;
    reports.push({
      file: w.file,
      line: w.line,
      id: '?',
      status: 'skipped',
      reason: `field '${w.field}': ${w.message}`,
      entryPoints: [],
      receiverClasses: [],
      guards: [],
      versions: [],
      notes: [],
    });
  }
  for (const w of set.warnings) {
    if (w.skipsRecord) continue;
    const r = reports.find((x) => x.file === w.file && x.line === w.line);
    r?.notes.push(`field '${w.field}': ${w.message}`);
  }
  for (const w of set.warnings) {
    if (!duplicate(w)) continue;
    const r = reports.find((x) => x.file === w.file && x.line === w.line);
    if (r) {
      r.status = 'skipped';
      r.reason = w.message;
    }
  }
  // Rules renamed because two records share a slug keep their final id.
  const { fixPatterns } = await import('../compile/index.js');
  for (const rule of set.rules) {
    const r = reports.find((x) => x.file === rule.source.file && x.line === rule.source.line);
    if (!r) continue;
    r.id = rule.id;
    if (rule.controlFlow) r.controlFlow = rule.controlFlow;
    // Record code is third-party data: a fix that would write one of these is shown only.
    const p = fixPatterns(rule);
    const risky = new Set([p.tryExcept, p.guard, p.replace].flatMap((x) => x?.alt.risky ?? []));
    if (risky.size)
      r.notes.push(
        `the fix code runs ${[...risky].map((x) => `\`${x}\``).join(', ')}: its fixes are shown only, never applied, unless the user's statement already does the same`,
      );
  }
  return reports.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

function describe(file: string, line: number, id: string, rec: ErrorRecord, o: CompileOutcome): RecordReport {
  const d = o.derived;
  return {
    file,
    line,
    id,
    recordId: rec.id,
    status: o.rule ? 'compiled' : 'skipped',
    reason: o.skipped,
    kind: d.kind,
    module: d.module,
    raiser: d.raiser && d.module ? `${d.module}.${d.raiser}` : d.raiser,
    raisedAt: `${rec.filePath}:${rec.lineNumber}`,
    errorClass: d.errorClass,
    errorBases: d.errorBases,
    entryPoints: d.entryPoints,
    entrySource: d.entrySource,
    raiserKind: d.raiserKind,
    derivedFrom: d.fields,
    condition: d.condition,
    when: d.when,
    receiverClasses: d.receiverClasses,
    guards: d.guards,
    versions: d.versions ?? [],
    notes: [],
  };
}

export function formatReports(reports: RecordReport[]): string {
  const out: string[] = [];
  const none = (xs: string[] | undefined) => (xs?.length ? xs.join(', ') : '-');
  for (const r of reports) {
    if (r.status === 'skipped') {
      out.push(`${r.file}:${r.line} ${r.id}: skipped: ${r.reason ?? 'unknown reason'}`);
      if (r.raiser) out.push(`    raiser        ${r.raiser}  (${r.raisedAt})`);
    } else {
      out.push(`${r.file}:${r.line} ${r.id}: compiled (${r.kind})`);
      out.push(`    raiser        ${r.raiser}  (${r.raisedAt})`);
      out.push(`    error         ${[r.errorClass, ...(r.errorBases ?? [])].join(' < ')}`);
      out.push(`    entry points  ${none(r.entryPoints)}${r.entrySource ? `  [from ${r.entrySource}]` : ''}`);
      out.push(`    receivers     ${none(r.receiverClasses)}`);
      if (r.guards.length) out.push(`    guards        ${none(r.guards)}`);
      out.push(`    versions      ${none(r.versions)}`);
      if (r.when) out.push(`    condition     ${r.when}`);
      if (r.controlFlow) out.push(`    off by default  ${r.controlFlow} (\`--select control-flow\` turns it on)`);
      if (r.derivedFrom)
        out.push(
          `    derived from  ${Object.entries(r.derivedFrom)
            .map(([what, from]) => `${what}: ${from}`)
            .join('; ')}`,
        );
    }
    for (const n of r.notes) out.push(`    warning       ${n}`);
  }
  const compiled = reports.filter((r) => r.status === 'compiled').length;
  out.push(`${reports.length} record${reports.length === 1 ? '' : 's'}: ${compiled} compiled, ${reports.length - compiled} skipped`);
  return `${out.join('\n')}\n`;
}
