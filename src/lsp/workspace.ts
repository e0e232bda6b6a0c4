/**
 * What the language server knows of a workspace, so that the editor shows what `raiselint check`
 * reports: the rules (bundled, `--records`, and every dataset a config's `records` names), each
 * file's configuration (nearest `raiselint.toml` / `[tool.raiselint]`, read as the CLI reads it),
 * and the CLI's per-file stage (config filters, suppression comments and the built-in
 * raiselint/* findings, confidence, severity). Buffers are checked from the editor's text.
 * The server drives it; tests use it without a client.
 */
import { dirname, join, resolve } from 'node:path';
import { ConfigResolver, checkRulePatterns, fileRules, isExcluded, rulePatterns, type ResolvedConfig } from '../config/resolve.js';
import { ConfigError } from '../config/schema.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { pinsFor } from '../config/pins.js';
import { fixBytes } from '../engine/fix.js';
import type { StrategyOption } from '../fix/plan.js';
import { finishFile, lintText, type FileContext, type RunContext } from '../engine/filecontext.js';
import { jsRulesOf, type RuleSet } from '../rules/ruleset.js';
import type { Confidence, Rule } from '../rules/types.js';
import { kindOf } from '../parse/kind.js';
import type { JsBuffers } from '../engine/jsbuffer.js';
import { BUILTIN_RULES } from '../suppress/builtin.js';
import { OpenModules } from './modules.js';
import { DEFAULT_DERIVE, type DeriveMode } from '../records/generate/derive.js';

export interface WorkspaceOptions {
  /** Dataset files or folders from the command line (absolute). */
  records: string[];
  /** Overrides every config's `min-confidence` (the `--min-confidence` flag). */
  minConfidence?: Confidence;
  /** Read config files (false: `--no-config`). */
  config: boolean;
  /** The texts of the open buffers by path (a JS/TS buffer's types may come from another open buffer). */
  openTexts?: () => Map<string, string>;
  /** `--derive`: overrides every config's `derive`. */
  derive?: DeriveMode;
}

export interface CheckedText {
  diagnostics: Diagnostic[];
  /** The file is excluded by its config (`exclude` / `extend-exclude`): nothing is reported. */
  excluded: boolean;
  /** A config error met while resolving this file's configuration (the file is checked without config). */
  configError?: string;
  /** A rule pattern in the config that matches no rule (the error `raiselint check` stops with; the config still applies here). */
  ruleProblem?: string;
}

export interface FixAllResult {
  /** The text with every safe fix applied and verified (as `raiselint check --fix`). */
  text: string;
  fixed: number;
  /** Fixes left out (a fix whose result failed verification), one line each. */
  errors: FileError[];
}

const NO_CONFIG = new ConfigResolver({ use: false }).forDir('/');
const BUILTIN_IDS = BUILTIN_RULES.map((r) => r.id);

export class Workspace {
  private resolver: ConfigResolver;
  /** Dataset files named by configs (absolute), all included in `rules`. */
  private configRecords = new Set<string>();
  /** `ruleProblem` per configuration, for the current rules (a check runs on every pause in typing). */
  private ruleProblems = new WeakMap<ResolvedConfig, string | undefined>();
  private readonly jsRuleMemo = new WeakMap<RuleSet, Rule[]>();
  /** The project's modules over the open buffers (cross-file). */
  readonly modules: OpenModules;
  /** The JS/TS checker, once loaded (`useJs`): it loads ESLint and TypeScript, which Python-only workspaces never need. */
  private js: JsBuffers | undefined;

  constructor(
    public rules: RuleSet,
    private readonly opts: WorkspaceOptions,
    /** The workspace folder: the configuration of buffers without a file (untitled) is this folder's. */
    public root?: string,
  ) {
    this.resolver = new ConfigResolver({ use: opts.config });
    this.modules = new OpenModules(opts.openTexts ?? (() => new Map()));
  }

  /** Forget every config file read (they changed on disk): the next check reads them again. */
  resetConfig(): void {
    this.resolver = new ConfigResolver({ use: this.opts.config });
    this.js?.resetConfigs();
  }

  /** The JS/TS rules of the current rules. */
  jsRules(): Rule[] {
    let r = this.jsRuleMemo.get(this.rules);
    if (!r) this.jsRuleMemo.set(this.rules, (r = jsRulesOf(this.rules)));
    return r;
  }

  /** Whether a path is a JS/TS file (checked with the JS/TS rules; the others with the Python rules). */
  static isJs(path: string): boolean {
    return kindOf(path) === 'js';
  }

  /** Whether JS/TS buffers can be checked now (false: the checker is still to load, see `useJs`). */
  get jsLoaded(): boolean {
    return !!this.js;
  }

  /** Gives the workspace its JS/TS checker (engine/jsbuffer.ts, loaded on the first JS/TS buffer). */
  useJs(js: JsBuffers): void {
    this.js = js;
  }

  /** Ids of the records derived from installed modules (rules/reload.ts adds them as buffers import modules). */
  readonly derivedIds = new Set<string>();

  /** What a file's check does with derived records: `--derive`, else its config's `derive`, else the default. */
  deriveMode(cfg: ResolvedConfig): DeriveMode {
    return this.opts.derive ?? cfg.derive ?? DEFAULT_DERIVE;
  }

  /** Every dataset the rules should be built from: `--records`, then those configs name. */
  datasets(): string[] {
    return [...this.opts.records, ...this.configRecords];
  }

  /** New rules (reloaded from `datasets()` plus `configRecords`). */
  setRules(rules: RuleSet, configRecords: Iterable<string>): void {
    this.rules = rules;
    this.configRecords = new Set(configRecords);
    this.ruleProblems = new WeakMap();
  }

  /** The configuration of a file (absolute path; undefined for a buffer without a file). */
  configOf(abs: string | undefined): { cfg: ResolvedConfig; error?: string } {
    try {
      return { cfg: this.resolver.forDir(abs ? dirname(abs) : resolve(this.root ?? process.cwd())) };
    } catch (e) {
      if (e instanceof ConfigError) return { cfg: NO_CONFIG, error: e.describe(this.root) };
      throw e;
    }
  }

  /** Datasets a config names that the current rules do not include (the caller reloads the rules). */
  missingRecords(cfg: ResolvedConfig): string[] {
    const have = new Set(this.datasets().map((p) => resolve(p)));
    return cfg.records.filter((f) => !have.has(f) && !this.opts.records.some((p) => f.startsWith(`${resolve(p)}/`)));
  }

  private context(): RunContext {
    const cli = new Set(this.opts.records.map((p) => resolve(p)));
    return {
      rules: this.rules,
      configOnly: new Set([...this.configRecords].filter((f) => !cli.has(f))),
      minConfidence: this.opts.minConfidence,
      crossFile: true,
      modules: this.modules.for(this.rules),
    };
  }

  /** Config keys naming rules that do not exist: the error `raiselint check` would stop with. */
  private ruleProblem(cfg: ResolvedConfig): string | undefined {
    if (!rulePatterns(cfg).length) return undefined;
    if (this.ruleProblems.has(cfg)) return this.ruleProblems.get(cfg);
    let problem: string | undefined;
    try {
      checkRulePatterns([cfg], [...this.rules.byId.keys(), ...BUILTIN_IDS]);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      problem = e.describe(this.root);
    }
    this.ruleProblems.set(cfg, problem);
    return problem;
  }

  /** A buffer's context, as `raiselint check` would make it for the file (`fixStrategy`: as `--fix-strategy`). */
  private fileContext(abs: string | undefined, display: string, cfg: ResolvedConfig, fixStrategy?: StrategyOption): FileContext {
    const path = this.pathOf(abs, display);
    return {
      abs: path,
      display,
      rules: fileRules(cfg, path),
      fixStrategy: fixStrategy ?? cfg.fixStrategy,
      pins: pinsFor(path, cfg.targetVersion),
      ...(this.derivedIds.size ? { derived: { ids: this.derivedIds, mode: this.deriveMode(cfg) } } : {}),
    };
  }

  /** A path for a buffer without a file: per-file-ignores and the like see it in the workspace folder. */
  private pathOf(abs: string | undefined, display: string): string {
    return abs ?? join(resolve(this.root ?? process.cwd()), display.replace(/^.*[\\/]/, '') || 'untitled.py');
  }

  /** Checks a buffer as `raiselint check` would check the file with this text (`fixStrategy`: as `--fix-strategy`). */
  check(abs: string | undefined, display: string, text: string, fixStrategy?: StrategyOption): CheckedText {
    const { cfg, error } = this.configOf(abs);
    if (abs && cfg.sources.length && isExcluded(cfg, abs, false)) return { diagnostics: [], excluded: true, configError: error };
    const file = this.fileContext(abs, display, cfg, fixStrategy);
    let diagnostics: Diagnostic[];
    if (Workspace.isJs(file.abs)) diagnostics = this.lintJs(file, text);
    else {
      const r = lintText(text, this.rules, { file, run: this.context() });
      if (abs) this.modules.checked(abs, r.deps);
      diagnostics = r.diagnostics;
    }
    return { diagnostics, excluded: false, configError: error, ruleProblem: this.ruleProblem(cfg) };
  }

  /** A JS/TS buffer: linted as `raiselint check` lints the file, then the same per-file stage; nothing before the checker is loaded. */
  private lintJs(file: FileContext, text: string): Diagnostic[] {
    const rules = this.jsRules();
    if (!this.js || !rules.length) return [];
    const raw = this.js.lint(file.abs, file.display, text, rules, this.opts.openTexts?.() ?? new Map());
    return finishFile({ ...raw, file: file.display }, file, this.context()).diagnostics;
  }

  /** Every safe fix of the buffer, applied round after round and verified as `--fix` does. */
  fixAll(abs: string | undefined, display: string, text: string): FixAllResult {
    const { cfg } = this.configOf(abs);
    if ((abs && cfg.sources.length && isExcluded(cfg, abs, false)) || (abs && Workspace.isJs(abs))) return { text, fixed: 0, errors: [] };
    const ff = fixBytes(Buffer.from(text, 'utf8'), this.rules, { file: this.fileContext(abs, display, cfg), run: this.context() });
    return { text: ff.after || text, fixed: ff.fixed, errors: ff.errors.filter((e) => e.kind === 'fix') };
  }
}
