/** `raiselint check --show-config <file>`: the resolved configuration of one file, as TOML. */
import { isAbsolute, relative, resolve } from 'node:path';
import { stringify } from 'smol-toml';
import { fileRules, isExcluded, ruleEnabledIn, severityIn, type ResolvedConfig } from './resolve.js';

function shown(p: string, cwd: string): string {
  const rel = relative(cwd, p);
  return !rel ? '.' : rel.startsWith('..') || isAbsolute(rel) ? p : rel.split('\\').join('/');
}

/**
 * `ruleIds`: every known rule (the file's enabled rules are listed with their effective severity).
 * `minConfidence`: the command line's override, if any.
 */
export function formatConfig(
  file: string,
  cfg: ResolvedConfig,
  ruleIds: { id: string; defaultSeverity: string }[],
  cwd = process.cwd(),
  minConfidence?: string,
): string {
  const abs = resolve(file);
  const head = [
    `# raiselint configuration for ${shown(abs, cwd)}`,
    cfg.sources.length ? '# config files, outermost first:' : '# no config file applies (built-in defaults)',
    ...cfg.sources.map((s) => `#   ${shown(s, cwd)}`),
  ];
  const excludeByBase: Record<string, string[]> = {};
  for (const l of cfg.exclude) (excludeByBase[shown(l.base, cwd)] ??= []).push(...l.patterns);
  // The file's rules decided once, not per rule id.
  const decided = fileRules(cfg, abs);
  const enabled = ruleIds.filter((r) => ruleEnabledIn(decided, r.id));
  const doc: Record<string, unknown> = {
    excluded: isExcluded(cfg, abs, false),
    records: cfg.records.map((r) => shown(r, cwd)),
    select: cfg.select ? cfg.select.map((p) => p.pattern) : ['*'],
    ignore: cfg.ignore.map((p) => p.pattern),
    'min-confidence': minConfidence ?? cfg.minConfidence ?? 'possible',
    'fix-strategy': cfg.fixStrategy ?? 'auto',
    severity: Object.fromEntries(cfg.severity.map((s) => [s.pattern.pattern, s.severity])),
    exclude: excludeByBase,
    'per-file-ignores': cfg.perFileIgnores.map((p) => ({
      base: shown(p.base, cwd),
      glob: p.glob,
      rules: p.rules.map((r) => r.pattern),
      applies: (() => {
        const rel = relative(p.base, abs);
        return !!rel && !rel.startsWith('..') && !isAbsolute(rel) && p.ig.ignores(rel.split('\\').join('/'));
      })(),
    })),
    rules: Object.fromEntries(enabled.map((r) => [r.id, severityIn(decided, r.id) ?? r.defaultSeverity])),
  };
  return `${head.join('\n')}\n${stringify(doc)}\n`;
}
