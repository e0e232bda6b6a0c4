/** The configuration and adoption flags of `raiselint check`: --show-config, --update-baseline, --add-ignore. */
import { existsSync } from 'node:fs';
import { formatConfig } from '../config/show.js';
import { ConfigResolver, checkRulePatterns, type RuleOverrides } from '../config/resolve.js';
import { catalogRules } from '../engine/batch.js';
import { addIgnores, updateBaseline } from '../engine/adopt.js';
import type { ProjectResult } from '../engine/project.js';
import { BUILTIN_RULES } from '../suppress/builtin.js';
import { DEFAULT_BASELINE } from '../suppress/baseline.js';
import { UsageError, type IO } from './io.js';

export async function showConfig(
  file: string,
  opts: {
    records: string[];
    bundled: boolean;
    python?: string | false;
    config: boolean;
    configFile?: string;
    minConfidence?: string;
    cacheDir?: string;
  } & RuleOverrides,
  { stdout }: IO,
): Promise<number> {
  if (!existsSync(file)) throw new UsageError(`${file}: no such file or directory`);
  const cfg = new ConfigResolver({ use: opts.config, file: opts.configFile, overrides: { select: opts.select, ignore: opts.ignore } }).forFile(file);
  const rules = await catalogRules({ records: [...opts.records, ...cfg.records], bundled: opts.bundled, python: opts.python }, opts.cacheDir);
  const ids = [
    ...rules.rules.map((r) => ({ id: r.id, defaultSeverity: r.defaultSeverity })),
    ...BUILTIN_RULES.map((r) => ({ id: r.id, defaultSeverity: r.defaultSeverity })),
  ];
  checkRulePatterns(
    [cfg],
    ids.map((r) => r.id),
  );
  stdout(formatConfig(file, cfg, ids, process.cwd(), opts.minConfidence));
  return 0;
}

export function baselineTarget(baseline: string | undefined): string {
  return baseline ?? DEFAULT_BASELINE;
}

export function writeBaselineReport(result: ProjectResult, path: string, { stderr }: IO): number {
  const n = updateBaseline(result, path);
  stderr(`raiselint: wrote ${n} finding${n === 1 ? '' : 's'} to ${path}\n`);
  return 0;
}

export function addIgnoreReport(result: ProjectResult, { stdout, stderr }: IO): number {
  const r = addIgnores(result);
  for (const s of r.skipped) stderr(`raiselint: warning: ${s.file}: not changed: ${s.reason}\n`);
  stdout(`Added ${r.added} suppression${r.added === 1 ? '' : 's'} in ${r.files} file${r.files === 1 ? '' : 's'}.\n`);
  return r.skipped.length ? 1 : 0;
}
