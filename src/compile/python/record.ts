/**
 * The rules stage: compile records into rules, automatically. Everything comes from the record's own
 * fields, with no code per record or per library:
 *
 * - the raising `def` (from `sourceCode` at `lineNumber`, ./source.ts), its class, decorators and
 *   other names (`getstate = setstate = _notimplemented`), and the classes and imports `sourceCode` shows;
 * - its module (from `filePath`, anchored on what the record's snippets import);
 * - the entry points users call (./targets.ts): the calls the record's snippets protect (`try`
 *   bodies, the `# before` part of `exampleFix`, code spans of `triggerScenarios`, read by
 *   ./snippets.ts), resolved through the snippets' imports. A qualified call into the raising
 *   library (`json.loads`, `pkg.Klass(...)`, `Klass.from_string`, `pkg.OldName.create`) is a call
 *   target; a method called on a receiver whose class the snippets name (`isinstance`,
 *   `v = Klass(...)`, `v: Klass`, `Klass(...).m()`) is a method target. The raising `def` itself
 *   is the fallback when the snippets show nothing;
 * - the error class, qualified through the snippets' imports and `except` clauses, or defined by
 *   `sourceCode` (its bases join the exception hierarchy), and the rest of the metadata (./meta.ts);
 * - guard functions (`typeGuard`) and version constraints (text and tags);
 * - the fix patterns (./patterns.ts), read by buildRuleSet for rule sets up to a size.
 *
 * A record that yields nothing precise (a bare method name with no class or module) is skipped
 * with a reason rather than turned into a rule that would flag every `.save()`.
 */
import { compileJsRecord, isJsRecord } from '../js/compile.js';
import type { ErrorRecord, LoadedRecord } from '../../records/types.js';
import type { InstalledFacts } from '../condition/compile.js';
import type { ClassSink, ExceptionView } from './state.js';
import { moduleFromFilePath, splitQualified } from '../../rules/names.js';
import type { CompileOutcome, GuardSpec, Rule } from '../../rules/types.js';
import type { RaiseCondition } from '../../rules/condition/types.js';
import { lineUrl, prefilterNames, qualifyError, ruleId, severityOf, versionNotes, versionSubjects } from './meta.js';
import { afterPart, beforePart, codeSpans, emptyFacts, readSnippet, resolveAll, type SnippetFacts } from './snippets.js';
import { entryFields, fieldsNaming, inferDef, raiserKind, type Inferred } from './entry.js';
import { readSource, type RaisingDef, type SourceFacts } from './source.js';
import { readWindow } from './window.js';
import { ruleCondition } from './condition.js';
import { describeCondition } from '../../rules/condition/words.js';
import { TargetBuilder } from './targets.js';
import { controlFlowOfDef } from '../../rules/controlflow.js';

type Derived = CompileOutcome['derived'];

/** Facts from the record's code fields and the code spans of its prose. */
function snippetFacts(r: ErrorRecord): SnippetFacts {
  const facts = emptyFacts();
  const snippets: [string, string | null | undefined][] = [
    ['validationCode', r.validationCode],
    ['typeGuard', r.typeGuard],
    ['tryCatchPattern', r.tryCatchPattern],
    ['exampleFix', r.exampleFix ? beforePart(r.exampleFix) : undefined],
    ['exampleFix.after', r.exampleFix ? afterPart(r.exampleFix) : undefined],
  ];
  for (const [from, code] of snippets) if (code) readSnippet(code, from, facts);
  for (const span of codeSpans(`${r.triggerScenarios ?? ''}\n${r.commonSituations ?? ''}`)) {
    // A bare dotted name in prose (`json.loads`) names a call as much as `json.loads(...)` does.
    readSnippet(/^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)+$/.test(span) ? `${span}()` : span, 'triggerScenarios', facts);
  }
  resolveAll(facts);
  return facts;
}

/** The raiser's name for messages: its class when the class line is not shown but the targets name it. */
function raiserName(def: RaisingDef, b: TargetBuilder): string {
  if (def.className) return `${def.className}.${def.name}`;
  if (b.receiverKeys.length === 1) return `${splitQualified(b.receiverKeys[0]!).name}.${def.name}`;
  if (def.inClass) {
    const isCtor = def.name === '__init__' || def.name === '__new__';
    const owner = b.targets.find((t) => t.kind === 'call' && (t.what === 'classmethod' || (isCtor && t.what === 'constructor')));
    if (owner && owner.kind === 'call') return `${owner.symbol.path.split('.').slice(owner.what === 'constructor' ? -1 : -2)[0]}.${def.name}`;
  }
  return def.name;
}

function guardSpecs(facts: SnippetFacts, b: TargetBuilder): GuardSpec[] {
  return facts.guards.map((g) => ({
    name: g.name,
    param: g.param,
    excludesWhenTrue: g.negated ? g.classes.map((c) => b.canonicalClass(c).key) : [],
    includesWhenTrue: g.negated ? [] : g.classes.map((c) => b.canonicalClass(c).key),
  }));
}

/** Bases of the rule's error class, nearest first, as `records check` shows them. */
export function errorBasesOf(rule: Rule, exceptions: Pick<ExceptionView, 'mro'>): string[] {
  const bases = exceptions.mro(rule.errorClass).slice(1);
  if (![rule.errorClass, ...bases].includes('BaseException')) bases.push('Exception (assumed: the rest of the hierarchy is not known)');
  return bases;
}

function describe(derived: Derived, rule: Rule, b: TargetBuilder, exceptions: ExceptionView): void {
  derived.kind = b.kinds.join('+');
  derived.entryPoints = b.entryPoints();
  derived.receiverClasses = [...new Set(rule.targets.flatMap((t) => (t.kind === 'method' ? [t.classKey] : [])))];
  derived.guards = rule.guards.map((g) => `${g.name}(arg ${g.param})`);
  derived.errorClass = rule.errorClass;
  derived.errorBases = errorBasesOf(rule, exceptions);
  derived.versions = rule.versions.map((v) => `${v.subject} ${v.constraint}`);
}

type FoundDef = { def: RaisingDef; src: SourceFacts; inferred?: Inferred; fromWindow?: string } | { skipped: string };

/** The code the raising def is read from: the installed file when the record is grounded (src/records/ground.ts), else its `sourceCode`. */
interface Window {
  sourceCode: string;
  sourceCodeStart: number;
  file?: string;
  /** What the installed module says (src/records/ground.ts). */
  installed?: InstalledFacts;
}

/** The code fields by name (the class a record names is looked up in them). */
const codeText = (r: ErrorRecord) => ({
  validationCode: r.validationCode,
  typeGuard: r.typeGuard,
  tryCatchPattern: r.tryCatchPattern,
  exampleFix: r.exampleFix,
  triggerScenarios: r.triggerScenarios,
});

/**
 * The raising def: from sourceCode (re-parsed from a statement start when the window begins inside a
 * string or mid-block, ./window.ts), else as the record's code fields describe it (./entry.ts), with
 * the raise's condition unknown.
 */
function findDef(r: ErrorRecord, w: Window, facts: SnippetFacts, module: string, isPackage: boolean, exceptions: ExceptionView): FoundDef {
  const win = readWindow(w.sourceCode, r.lineNumber - w.sourceCodeStart, (code, row) =>
    readSource(code, row, module, isPackage, exceptions, r.errorClass, w.installed),
  );
  const src = win.facts;
  if (src.def)
    return {
      def: src.def,
      src,
      fromWindow: w.file ? `the installed ${w.file}` : win.offset ? `sourceCode re-parsed from line ${w.sourceCodeStart + win.offset}` : 'sourceCode',
    };
  const inferred = inferDef(facts, module.split('.')[0]!, module, codeText(r));
  if ('reason' in inferred) return { skipped: inferred.reason };
  const def: RaisingDef = { ...inferred.def, isAsync: false, params: [] };
  return { def, src, inferred };
}

/** The call itself raises on every path (not a generator's iterator later). */
function raisesAtCall(rc: RaiseCondition): boolean {
  return rc.when.k === 'true' && !rc.unknown && !rc.onIteration;
}

/** The installed file's window when the record is grounded, else the record's own. */
function windowOf(lr: LoadedRecord): Window {
  const g = lr.grounded;
  if (g?.sourceCode === undefined) return { sourceCode: lr.record.sourceCode, sourceCodeStart: lr.record.sourceCodeStart };
  return {
    sourceCode: g.sourceCode,
    sourceCodeStart: g.sourceCodeStart!,
    file: g.file,
    installed: { plainClasses: g.plainClasses, values: g.values, keys: g.keys },
  };
}

export function compileRecord(lr: LoadedRecord, classes: ClassSink, exceptions: ExceptionView): CompileOutcome {
  const r = lr.record;
  const derived: Derived = { entryPoints: [], receiverClasses: [], guards: [] };
  const tags = (r.tags ?? []).map((t) => t.toLowerCase());
  const isPython = tags.includes('python') || /\.pyi?$/.test(r.filePath);
  if (!isPython && isJsRecord(tags, r.filePath)) return compileJsRecord(lr);
  if (!isPython) return { skipped: `not a Python record (tags: ${tags.join(', ') || 'none'}; filePath ${r.filePath})`, derived };
  derived.language = 'python';
  if (lr.grounded?.skip) return { skipped: lr.grounded.skip, derived };
  const w = windowOf(lr);
  const facts = snippetFacts(r);
  const module = moduleFromFilePath(r.filePath, [...facts.imports.values()]);
  derived.module = module;
  const isPackage = /(^|\/)__init__\.pyi?$/.test(r.filePath.replace(/\\/g, '/'));
  const found = findDef(r, w, facts, module, isPackage, exceptions);
  if ('skipped' in found) return { skipped: found.skipped, derived };
  const { def, src } = found;
  const inferred = !!found.inferred;
  if (inferred) derived.condition = 'unknown';
  // `records check` marks a method of a class sourceCode does not show.
  derived.raiser = def.inClass && !def.className ? `<class>.${def.name}` : def.className ? `${def.className}.${def.name}` : def.name;
  derived.raiserKind = raiserKind(def.inClass, def.decorators, def.inClass && (def.name === '__init__' || def.name === '__new__'));

  const b = new TargetBuilder(def, module, src, classes);
  b.fromSnippets(facts, inferred);
  derived.entrySource = b.targets.length ? 'snippets' : undefined;
  if (!b.targets.length) {
    const reason = b.fromDef(facts.guards.flatMap((g) => g.classes));
    if (!b.targets.length) return { skipped: reason, derived };
    derived.entrySource = 'raising def';
  }
  b.fromBoundMethods(lr.grounded?.boundMethods);
  b.fromSubclasses(lr.grounded?.classes);
  const qualname = raiserName(def, b);
  if (qualname.includes('.')) derived.raiser = qualname;
  const guards = guardSpecs(facts, b);
  for (const g of guards) b.triggers.add(g.name);
  const triggers = [...b.triggers];
  const rule: Rule = {
    id: ruleId(r.repo, r.slug),
    recordId: r.id,
    record: r,
    source: lr.source,
    errorClass: qualifyError(r.errorClass, facts, exceptions, module, src),
    raiser: {
      module,
      qualname,
      line: r.lineNumber,
      url: r.githubUrl ? lineUrl(r.githubUrl, r.lineNumber) : undefined,
      isAsync: def.isAsync,
      params: def.params,
    },
    targets: b.targets,
    triggers,
    prefilter: prefilterNames(b.targets, triggers),
    guards,
    defaultSeverity: severityOf(r.severity),
    tips: r.preventionTips ?? [],
    docsUrl: r.githubUrl ?? undefined,
    versions: versionNotes(
      versionSubjects(r.repo, module, facts, tags),
      r.documentation ?? '',
      r.triggerScenarios ?? '',
      r.commonSituations ?? '',
      r.tags ?? [],
    ),
    condition: ruleCondition(def, inferred, w.sourceCode, r.lineNumber - w.sourceCodeStart),
  };
  // The record stored the expression the raise passes (`msg.format(name)`): the library's text is the message.
  if (def.message && def.message.expr.trim() === (r.errorMessage ?? '').trim()) rule.message = def.message.template;
  const { exhausted, internalCheck } = rule.condition ?? {};
  const controlFlow = controlFlowOfDef(def.name, def.returns, r.errorMessage ?? '', raisesAtCall(rule.condition), exhausted, internalCheck);
  if (controlFlow) rule.controlFlow = controlFlow;
  describe(derived, rule, b, exceptions);
  // A method whose class line sourceCode does not show: its class comes from the code fields.
  const classFields = def.inClass && !def.className && b.receiverKeys.length ? fieldsNaming(codeText(r), splitQualified(b.receiverKeys[0]!).name) : undefined;
  derived.fields = entryFields(facts, found.fromWindow, found.inferred, b.triggers, classFields);
  derived.when = describeCondition(rule.condition);
  return { rule, derived };
}
