/**
 * The ESLint plugin (`raiselint/eslint`): one typed rule per JS/TS record, named by the rule id
 * (`raiselint/yaml/parse-throws-yamlparseerror`), plus `raiselint/records`, which checks the records
 * of the datasets named by `settings.raiselint.records` (paths). Rules need type information
 * (`parserOptions.projectService` or `project`), as typescript-eslint's typed rules do.
 */
import { dirname, join, resolve } from 'node:path';
import type { Directive } from '../suppress/directives.js';
import { collectJsDirectives } from '../suppress/jsdirectives.js';
import { suppressedBy } from '../suppress/apply.js';
import { fileURLToPath } from 'node:url';
import { ESLintUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import ts from 'typescript';
import { PACKAGE, readmeUrl } from '../io/package.js';
import { datasetFiles, loadDataset } from '../records/load.js';
import { compileJsRecord, isJsRecord, prepareRules } from '../compile/index.js';
import type { JsTarget } from '../rules/js/types.js';
import type { Rule } from '../rules/types.js';
import { guardSuggestion, trySuggestion, type SuggestionText } from './fixes.js';
import { baseChain, inPackage, judgeCall, setProgram, testsVerdict } from './resolve.js';
import { candidates as candidateRules } from './candidates.js';
import { isHandled } from './handled.js';
import { typeChecksAll } from './verify.js';
import { isRecordedThrow, runLiteralCall } from './literal.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
type MessageIds = 'certain' | 'possible' | 'wrapTryCatch' | 'addGuard';

export interface PluginOptions {
  /** Rules to create (the CLI passes those of its rule snapshot); default: compiled from the datasets below. */
  rules?: Rule[];
  /** Extra dataset files or folders. */
  records?: string[];
  /** Use the bundled datasets (default true). */
  bundled?: boolean;
  /**
   * Leave out findings that `// raiselint: ignore[...]` comments suppress (default true).
   * `raiselint check` says false: its per-file stage applies them, and reports the unused ones.
   */
  suppress?: boolean;
  /**
   * Offer a suggestion only when the fixed file type-checks (default true). `raiselint check` says
   * false: it type-checks the suggestions of all its files together, once they are linted (src/engine/jslint.ts).
   */
  verify?: boolean;
}

/** What a rule's listener does beside finding: apply `// raiselint: ignore`, type-check suggestions. */
interface ListenerFlags {
  suppress: boolean;
  verify: boolean;
}

/** The JS/TS rules of dataset files (records of other languages are left to `raiselint check`). */
export function jsRulesOf(paths: string[]): Rule[] {
  const out: Rule[] = [];
  const ids = new Set<string>();
  for (const p of paths) {
    for (const f of datasetFiles(p)) {
      for (const lr of loadDataset(f).records) {
        const tags = (lr.record.tags ?? []).map((t) => t.toLowerCase());
        if (tags.includes('python') || !isJsRecord(tags, lr.record.filePath)) continue;
        const rule = compileJsRecord(lr).rule;
        if (!rule || ids.has(rule.id)) continue;
        ids.add(rule.id);
        out.push(rule);
      }
    }
  }
  return out;
}

/** The error class's declaration: in the package's declarations first, else in any installed package's (`ModuleError` of `module-error` for abstract-level). */
function errorDeclaration(t: JsTarget, program: ts.Program): ts.ClassDeclaration | undefined {
  let fallback: ts.ClassDeclaration | undefined;
  let found: ts.ClassDeclaration | undefined;
  for (const f of program.getSourceFiles()) {
    if (!f.isDeclarationFile || !f.fileName.includes('/node_modules/')) continue;
    const mine = inPackage(f, t.package);
    const visit = (n: ts.Node) => {
      if (found) return;
      if (ts.isClassDeclaration(n) && n.name?.text === t.errorClass) {
        if (mine || inPackage(n, t.package)) found = n;
        else fallback ??= n;
      } else if (ts.isSourceFile(n) || ts.isModuleDeclaration(n) || ts.isModuleBlock(n)) ts.forEachChild(n, visit);
    };
    visit(f);
    if (found) return found;
  }
  return fallback;
}

const basesCache = new WeakMap<ts.Program, Map<string, string[]>>();

/** The error class and its bases, as the record and the program's declarations say. */
function errorClasses(t: JsTarget, program: ts.Program): string[] {
  let m = basesCache.get(program);
  if (!m) basesCache.set(program, (m = new Map()));
  const key = `${t.package}\0${t.errorClass}`;
  let bases = m.get(key);
  if (!bases) {
    bases = [...t.errorBases];
    const decl = errorDeclaration(t, program);
    const checker = program.getTypeChecker();
    const sym = decl?.name && checker.getSymbolAtLocation(decl.name);
    if (sym)
      for (const b of baseChain(checker.getDeclaredTypeOfSymbol(sym), checker).slice(1))
        if (b.symbol && !bases.includes(b.symbol.name)) bases.push(b.symbol.name);
    if (!bases.includes('Error') && t.errorClass !== 'Error') bases.push('Error');
    m.set(key, bases);
  }
  return [t.errorClass, ...bases];
}

function shownCallee(node: ts.CallExpression | ts.NewExpression): string {
  const text = node.expression.getText();
  const short = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  return ts.isNewExpression(node) ? `new ${short}()` : `${short}()`;
}

type Listener = (node: TSESTree.CallExpression | TSESTree.NewExpression) => void;

const directivesOf = new WeakMap<object, Directive[]>();
/** The file's `// raiselint: ignore[...]` comments (read once per file, whatever the number of rules). */
function fileDirectives(context: Readonly<TSESLint.RuleContext<MessageIds, []>>): Directive[] {
  const source = context.sourceCode;
  let d = directivesOf.get(source);
  if (!d) directivesOf.set(source, (d = source.text.includes('raiselint') ? collectJsDirectives(source.text, context.filename) : []));
  return d;
}

/** A finding waiting for the end of the file: its suggestions are type-checked together with the file's others. */
interface Pending {
  context: Readonly<TSESLint.RuleContext<MessageIds, []>>;
  node: TSESTree.CallExpression | TSESTree.NewExpression;
  messageId: MessageIds;
  data: Record<string, string>;
  suggestions: SuggestionText[];
  ok?: boolean[];
}

/** The findings of every raiselint rule on one file (one per ESLint pass: the rules share the file's source code object). */
const pendingOf = new WeakMap<object, { all: Pending[]; checked: boolean; fileName?: string }>();

/**
 * At a rule's `Program:exit`: the traversal is over, so every raiselint rule has found what it
 * finds in the file. The first rule to get here type-checks all of their suggestions at once
 * (./verify.ts: one program for edits that do not overlap, instead of one per suggestion); each
 * rule then reports its own findings, with the suggestions that add no type error.
 */
function flush(context: Readonly<TSESLint.RuleContext<MessageIds, []>>, program: ts.Program, verify: boolean): void {
  const store = pendingOf.get(context.sourceCode);
  if (!store) return;
  if (!store.checked) {
    store.checked = true;
    const all = store.all.flatMap((p) => p.suggestions);
    const ok = !verify ? all.map(() => true) : store.fileName ? typeChecksAll(program, store.fileName, all) : [];
    let i = 0;
    for (const p of store.all) p.ok = p.suggestions.map(() => ok[i++]!);
  }
  for (const p of store.all) {
    if (p.context !== context) continue;
    const suggest = p.suggestions.flatMap((s, i) =>
      p.ok![i] ? [{ messageId: s.messageId as MessageIds, data: s.data, fix: (fixer: TSESLint.RuleFixer) => fixer.replaceTextRange(s.range, s.text) }] : [],
    );
    context.report({ node: p.node, messageId: p.messageId, data: p.data, suggest });
  }
}

/** Checks calls against rules: the call listener, and the `Program:exit` that reports. */
function listener(
  context: Readonly<TSESLint.RuleContext<MessageIds, []>>,
  rules: () => Rule[],
  prefix: boolean,
  flags: ListenerFlags,
): { check: Listener; exit: () => void } {
  const services = ESLintUtils.getParserServices(context, true);
  const program = services.program;
  if (!program) return { check: () => {}, exit: () => {} };
  const checker = program.getTypeChecker();
  setProgram(checker, program);
  const isTs = /\.[cm]?tsx?$/.test(context.filename);
  let store = pendingOf.get(context.sourceCode);
  if (!store || store.checked) pendingOf.set(context.sourceCode, (store = { all: [], checked: false }));
  const pending = store;
  const check: Listener = (node) => {
    const tsNode = services.esTreeNodeToTSNodeMap.get(node) as ts.CallExpression | ts.NewExpression;
    const candidates = candidateRules(tsNode, rules(), checker, program);
    for (const rule of candidates) {
      const t = rule.js!;
      const j = judgeCall(tsNode, t, checker);
      if (!j) continue;
      const classes = errorClasses(t, program);
      if (isHandled(tsNode, t, classes, checker)) continue;
      // `// raiselint: ignore[<rule id>]`, as `raiselint check` reads it.
      if (flags.suppress && suppressedBy(fileDirectives(context), rule.id, rule.recordId, node.loc.start.line)) continue;
      // Throws always, or the call's literal arguments lead through every test before the throw (./resolve.ts).
      let certain = j.exact && (t.always || (!!t.testsDecide && testsVerdict(t, tsNode, checker) === 'holds'));
      let why = j.why ?? (t.always ? '' : 'depending on its arguments or data');
      // A pure export called with literal arguments only: running it decides (./literal.ts).
      const ran = !certain && j.exact ? runLiteralCall(tsNode, t, context.filename) : undefined;
      if (ran && (!ran.throws || !isRecordedThrow(ran, t.errorClass, rule.record.messagePattern))) continue;
      if (ran) [certain, why] = [true, ''];
      const suggestions = [guardSuggestion(tsNode, t), trySuggestion(tsNode, t, classes.slice(1), checker, isTs)].filter((x): x is SuggestionText => !!x);
      pending.fileName = tsNode.getSourceFile().fileName;
      pending.all.push({
        context,
        node,
        messageId: certain ? 'certain' : 'possible',
        data: {
          callee: shownCallee(tsNode),
          error: t.errorClass,
          message: rule.record.errorMessage,
          why: why ? ` ${why}` : '',
          rule: prefix ? `${rule.id}: ` : '',
        },
        suggestions,
      });
    }
  };
  return { check, exit: () => flush(context, program, flags.verify) };
}

const MESSAGES: Record<MessageIds, string> = {
  certain: '{{rule}}{{callee}} throws {{error}}: {{message}}',
  possible: '{{rule}}{{callee}} may throw {{error}}{{why}}: {{message}}',
  wrapTryCatch: 'Wrap in try/catch for {{errorClass}}',
  addGuard: 'Call it only when {{guard}}() allows',
};

function ruleModule(create: ReturnType<typeof ESLintUtils.RuleCreator>, name: string, description: string, rules: () => Rule[], flags: ListenerFlags) {
  return create<[], MessageIds>({
    name,
    meta: { type: 'problem', docs: { description }, hasSuggestions: true, messages: MESSAGES, schema: [] },
    defaultOptions: [],
    create(context) {
      const { check, exit } = listener(context, rules, false, flags);
      return { CallExpression: check, NewExpression: check, 'Program:exit': exit };
    },
  });
}

const settingsCache = new Map<string, Rule[]>();

/** Rules of `settings.raiselint.records` (paths, relative to ESLint's working directory), compiled once per list. */
function settingsRules(settings: Record<string, unknown>, cwd: string): Rule[] {
  const paths = ((settings.raiselint as { records?: unknown } | undefined)?.records ?? []) as unknown;
  if (!Array.isArray(paths) || !paths.length) return [];
  const abs = paths.map((p) => resolve(cwd, String(p)));
  const key = JSON.stringify(abs);
  let rules = settingsCache.get(key);
  // Control-flow rules are off by default, as in `raiselint check` (a config turns each on by its id).
  if (!rules) settingsCache.set(key, (rules = jsRulesOf(abs).filter((r) => !r.controlFlow)));
  return rules;
}

export function createPlugin(opts: PluginOptions = {}) {
  const rules = opts.rules ?? jsRulesOf([...(opts.bundled === false ? [] : [join(ROOT, 'rules', 'records')]), ...(opts.records ?? [])]);
  const docs = new Map(rules.map((r) => [r.id, r.docsUrl ?? readmeUrl('javascript-and-typescript', 'docs/js-ts.md')]));
  const create = ESLintUtils.RuleCreator((name) => docs.get(name) ?? readmeUrl('eslint-plugin-raiselinteslint', 'docs/js-ts.md'));
  const modules: Record<string, TSESLint.RuleModule<MessageIds, []>> = {};
  const flags: ListenerFlags = { suppress: opts.suppress !== false, verify: opts.verify !== false };
  for (const r of rules) {
    // One list per rule, kept: the rules' index by name is made once per list (./candidates.ts).
    const own = [r];
    modules[r.id] = ruleModule(create, r.id, `${r.raiser.qualname}() throws ${r.errorClass}: ${r.record.errorMessage}`, () => own, flags);
  }
  const recordsRule = create<[], MessageIds>({
    name: 'records',
    meta: {
      type: 'problem',
      docs: { description: 'Calls that throw a recorded error (records from settings.raiselint.records)' },
      hasSuggestions: true,
      messages: MESSAGES,
      schema: [],
    },
    defaultOptions: [],
    create(context) {
      const list = settingsRules(context.settings, context.cwd);
      if (!list.length) return {};
      const { check, exit } = listener(context, () => list, true, flags);
      return { CallExpression: check, NewExpression: check, 'Program:exit': exit };
    },
  });
  modules.records = recordsRule;
  const plugin = {
    meta: { name: 'raiselint', version: PACKAGE.version },
    rules: modules,
    processors: { confidence: CONFIDENCE },
    configs: {} as Record<string, unknown>,
  };
  const levels = Object.fromEntries([
    ...rules.map((r) => [`raiselint/${r.id}`, r.controlFlow ? 'off' : r.defaultSeverity === 'error' ? 'error' : 'warn']),
    ['raiselint/records', 'error'],
  ]);
  // As `raiselint check` reports them: certain findings at the rule's level, possible ones as warnings.
  plugin.configs.recommended = { name: 'raiselint/recommended', plugins: { raiselint: plugin }, processor: 'raiselint/confidence', rules: levels };
  // Every finding at its rule's level (possible ones too).
  plugin.configs.strict = { name: 'raiselint/strict', plugins: { raiselint: plugin }, rules: levels };
  return plugin;
}

/**
 * The plugin from the compiled-rules snapshot (`.raiselint_cache` or `cacheDir`, shared with
 * `raiselint check`): the records are compiled once, not at every ESLint start.
 */
export async function loadPlugin(opts: Omit<PluginOptions, 'rules'> & { cacheDir?: string } = {}): Promise<ReturnType<typeof createPlugin>> {
  const prepared = await prepareRules({ records: opts.records, bundled: opts.bundled, python: false }, resolve(opts.cacheDir ?? '.raiselint_cache'));
  return createPlugin({ rules: prepared.snapshot.jsRules() });
}

/**
 * `raiselint/confidence`: ESLint gives a rule one severity; this processor lowers raiselint's
 * possible findings (`messageId: 'possible'`) to warnings, so that ESLint reports what the CLI
 * reports, and keeps one finding per call and error (src/diagnostics/group.ts): the records of one
 * function that throw one class under different conditions (`new SemVer(v)`: six records) give
 * one message, the most certain, then the first by rule id; the others are named after it. It sees
 * the messages after `eslint-disable` comments, so each rule is still disabled by its own id. The
 * text is linted as it is (one block, the file itself), and fixes still apply.
 */
type Message = TSESLint.Linter.LintMessage;

/** The error class a raiselint message names (`... throws TypeError: ...`, `... may throw TypeError ...`). */
const errorOf = (m: Message) => / (?:throws|may throw) ([\w$.]+)/.exec(m.message)?.[1];

function onePer(messages: Message[]): Message[] {
  const groups = new Map<string, Message[]>();
  const out: (Message | string)[] = [];
  for (const m of messages) {
    const err = m.ruleId?.startsWith('raiselint/') ? errorOf(m) : undefined;
    if (!err) {
      out.push(m);
      continue;
    }
    const key = `${m.line}\0${m.column}\0${m.endLine}\0${m.endColumn}\0${err}`;
    const g = groups.get(key);
    if (g) g.push(m);
    else {
      groups.set(key, [m]);
      out.push(key);
    }
  }
  const rank = (m: Message) => (m.messageId === 'certain' ? 0 : 1) + (m.severity === 2 ? 0 : 2);
  return out.map((k) => {
    if (typeof k !== 'string') return k;
    const g = [...groups.get(k)!].sort((a, b) => rank(a) - rank(b) || (a.ruleId! < b.ruleId! ? -1 : a.ruleId! > b.ruleId! ? 1 : 0));
    if (g.length === 1) return g[0]!;
    return {
      ...g[0]!,
      message: `${g[0]!.message} (also: ${g
        .slice(1)
        .map((m) => m.ruleId!.replace(/^raiselint\//, ''))
        .join(', ')})`,
    };
  });
}

const CONFIDENCE = {
  meta: { name: 'raiselint/confidence', version: PACKAGE.version },
  preprocess: (text: string) => [text],
  postprocess: (lists: Message[][]) =>
    onePer(
      lists.flat().map((m) => (m.ruleId?.startsWith('raiselint/') && m.messageId === 'possible' && m.severity === 2 ? { ...m, severity: 1 as const } : m)),
    ),
  supportsAutofix: true,
};
