/**
 * The per-file stage after checking, and what it needs to know: config filters, suppressions,
 * confidence, severity, one finding per call and error, derived records, the baseline.
 *
 * A file's `FileContext` is data (no callbacks into the run): the run builds one per checked file
 * and the same context finishes the file's first check, every re-check of `--fix`'s loop
 * (./fix.ts) and a language-server buffer, so a fix is verified against exactly what the run shows.
 */
import { resolve } from 'node:path';
import { compareDiagnostics } from '../diagnostics/build.js';
import type { Diagnostic } from '../diagnostics/types.js';
import { groupByCallAndError } from '../diagnostics/group.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { Confidence, Rule } from '../rules/types.js';
import type { Pins } from '../rules/condition/versions.js';
import { controlFlowOf } from '../rules/controlflow.js';
import { BUILTIN_RULES } from '../suppress/builtin.js';
import { applySuppressions, type UnusedSuppression } from '../suppress/apply.js';
import { filterBaseline, type Baseline } from '../suppress/baseline.js';
import type { StrategyOption } from '../fix/plan.js';
import { ruleEnabledIn, severityIn, type FileRules } from '../config/resolve.js';
import { checkSource, type CheckOptions, type FileResult } from './check.js';
import type { ProjectModules } from '../semantic/crossfile.js';
import { summarizer } from '../semantic/model.js';
import { projectModules } from './modules.js';
import type { DeriveMode } from '../records/generate/derive.js';

/** What the per-file stage needs to know about the whole run. */
export interface RunContext {
  rules: RuleSet;
  /** Dataset files (absolute) that only some configs load: their rules apply only under those configs. */
  configOnly: Set<string>;
  minConfidence?: Confidence;
  /** Follow values through the project's own modules (semantic/crossfile.ts). */
  crossFile?: boolean;
  /** The project's modules to read them from (the language server's, over its open buffers); else one set per rule set, from the disk. */
  modules?: ProjectModules;
}

/** What the per-file stage needs to know about one file. */
export interface FileContext {
  abs: string;
  /** The path findings show. */
  display: string;
  /** What its configuration says about reporting (src/config/resolve.ts fileRules). */
  rules: FileRules;
  /** `--fix-strategy`, else the config's `fix-strategy`. */
  fixStrategy?: StrategyOption;
  /** The versions the file's project pins (`--target-version` first). */
  pins?: Pins;
  /** `--baseline`: findings it has are not reported. */
  baseline?: Baseline;
  /**
   * Records derived from the installed modules (`derive`): a curated finding at the same call stands
   * for them; under `certain` their possible findings are left out, under `off` all of them.
   */
  derived?: { ids: ReadonlySet<string>; mode: DeriveMode };
}

export interface FinishedFile {
  diagnostics: Diagnostic[];
  unused: UnusedSuppression[];
  suppressed: number;
  /** Findings the baseline has; baseline entries of this file no longer found. */
  baselined: number;
  staleBaseline: number;
}

const BUILTIN_IDS = BUILTIN_RULES.map((r) => r.id);

/** Control-flow rules are off by default (src/rules/controlflow.ts); the answer is kept per rule set. */
const controlFlowMemo = new WeakMap<RuleSet, Map<string, boolean>>();
function isControlFlow(rule: Rule, rules: RuleSet): boolean {
  let memo = controlFlowMemo.get(rules);
  if (!memo) controlFlowMemo.set(rules, (memo = new Map()));
  let v = memo.get(rule.id);
  if (v === undefined) memo.set(rule.id, (v = !!controlFlowOf(rule, rules.exceptions)));
  return v;
}

/** The per-file stage: what a file's check keeps to report. `text`: the file's text, read only when a suppression needs it. */
export function finishFile(r: FileResult, file: FileContext, run: RunContext, text: () => string | undefined = () => r.text): FinishedFile {
  const kept = keptFindings(r, file, run, text);
  if (!file.baseline) return { ...kept, baselined: 0, staleBaseline: 0 };
  const b = filterBaseline(file.baseline, kept.diagnostics, () => file.abs, [file.abs]);
  return { ...kept, diagnostics: b.fresh, baselined: b.known.length, staleBaseline: b.stale };
}

/** Config filters, suppressions, confidence (and derived records' under `derive = "certain"`), severity, one finding per call and error. */
function keptFindings(
  r: FileResult,
  file: FileContext,
  ctx: RunContext,
  text: () => string | undefined,
): { diagnostics: Diagnostic[]; unused: UnusedSuppression[]; suppressed: number } {
  const cfg = file.rules;
  const derived = file.derived;
  // No finding and no suppression comment (most files): nothing to filter, suppress or report.
  if (!r.diagnostics.length && !r.directives?.length) return { diagnostics: [], unused: [], suppressed: 0 };
  const loaded = (id: string) => {
    // Every rule applies when no dataset is config-only (the usual run): no rule to read, no path to resolve.
    if (!ctx.configOnly.size) return true;
    const rule = ctx.rules.byId.get(id);
    if (!rule) return true;
    const src = resolve(rule.source.file);
    return !ctx.configOnly.has(src) || cfg.records.includes(src);
  };
  const ruleOf = (id: string) => (ctx.rules.byId.has(id) ? id : (ctx.rules.byRecord.get(id) ?? id));
  const active = (id: string) => {
    const rid = ruleOf(id);
    const rule = ctx.rules.byId.get(rid);
    return loaded(rid) && ruleEnabledIn(cfg, rid, !!rule && isControlFlow(rule, ctx.rules), rule?.recordId);
  };
  const raw = r.diagnostics.filter((d) => loaded(d.ruleId));
  const sup = applySuppressions(r.file, raw, r.directives ?? [], {
    active,
    known: (id) => ctx.rules.byId.has(id) || BUILTIN_IDS.includes(id) || ctx.rules.byRecord.has(id),
    text,
  });
  const min = ctx.minConfidence ?? cfg.minConfidence ?? 'possible';
  const diagnostics = [...sup.kept, ...sup.problems]
    .filter((d) => !(derived && leftOut(d, derived)) && (min === 'possible' || d.confidence === 'certain') && active(d.ruleId))
    .map((d) => {
      const s = severityIn(cfg, d.ruleId);
      return s && s !== d.severity ? { ...d, severity: s } : d;
    })
    .sort(compareDiagnostics);
  const grouped = groupByCallAndError(diagnostics, (c) => ctx.rules.exceptions.canonical(c), derived ? (d) => derived.ids.has(d.recordId) : undefined);
  return { diagnostics: grouped, unused: sup.unused, suppressed: sup.suppressed.length };
}

/** A derived record's finding that `derive` leaves out. */
function leftOut(d: Diagnostic, derived: NonNullable<FileContext['derived']>): boolean {
  return derived.mode !== 'all' && derived.ids.has(d.recordId) && (derived.mode === 'off' || d.confidence === 'possible');
}

/** How a file is linted: as the run checks it and with the run's per-file stage, or (no `run`) checked alone. */
export interface LintContext {
  file: FileContext;
  run?: RunContext;
}

/**
 * A lint of a text: checked as the run checks the file, and kept as the run keeps its findings. The
 * one way a text is linted outside a batch: the fix loop's re-lints and the language server's buffers.
 */
export function lintText(text: string, rules: RuleSet, ctx: LintContext): FileResult {
  const modules = ctx.run?.modules ?? (ctx.run?.crossFile ? diskModulesOf(rules) : undefined);
  const r = checkSource(text, ctx.file.display, rules, { fixStrategy: ctx.file.fixStrategy, pins: ctx.file.pins, modules }, ctx.file.abs);
  return ctx.run ? { ...r, diagnostics: finishFile(r, ctx.file, ctx.run).diagnostics } : r;
}

/** The project's modules read from the disk, one set per rule set (a run's re-lints share it). */
const diskModules = new WeakMap<RuleSet, ProjectModules>();
function diskModulesOf(rules: RuleSet): ProjectModules {
  let m = diskModules.get(rules);
  if (!m) diskModules.set(rules, (m = projectModules(rules, summarizer(rules))));
  return m;
}

/** A context for a file linted alone: no config, no per-file stage (tests, fixes of a text alone). */
export function aloneContext(display: string, opts: Pick<CheckOptions, 'fixStrategy' | 'pins'> = {}): LintContext {
  return { file: { abs: display, display, rules: { ignore: [], severity: [], records: [] }, fixStrategy: opts.fixStrategy, pins: opts.pins } };
}
