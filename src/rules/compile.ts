/**
 * Stage 2: compile records into rules, automatically. Everything comes from the record's own
 * fields, with no code per record or per library:
 *
 * - the raising `def` (from `sourceCode` at `lineNumber`), its class, decorators and other names
 *   (`getstate = setstate = _notimplemented`), and the classes and imports `sourceCode` shows;
 * - its module (from `filePath`, anchored on what the record's snippets import);
 * - the entry points users call: the calls the record's snippets protect (`try` bodies, the
 *   `# before` part of `exampleFix`, code spans of `triggerScenarios`), resolved through the
 *   snippets' imports. A qualified call into the raising library (`json.loads`, `pkg.Klass(...)`,
 *   `Klass.from_string`, `pkg.OldName.create`) is a call target; a method called on a receiver
 *   whose class the snippets name (`isinstance`, `v = Klass(...)`, `v: Klass`, `Klass(...).m()`)
 *   is a method target. The raising `def` itself is the fallback when the snippets show nothing;
 * - the error class, qualified through the snippets' imports and `except` clauses, or defined by
 *   `sourceCode` (its bases join the exception hierarchy);
 * - guard functions (`typeGuard`) and version constraints (text and tags).
 *
 * A record that yields nothing precise (a bare method name with no class or module) is skipped
 * with a reason rather than turned into a rule that would flag every `.save()`.
 */
import type { LoadedRecord } from '../records/types.js';
import { withTree, type Node } from '../parse/parser.js';
import { dottedName, field, namedChildren } from '../parse/syntax.js';
import { ClassRegistry, newClassInfo } from './classes.js';
import { ExceptionHierarchy } from './exceptions.js';
import { moduleFromFilePath, splitQualified, symbolMatches } from './names.js';
import { afterPart, beforePart, codeSpans, emptyFacts, looksLikeClass, readSnippet, resolveAll, type SnippetCall, type SnippetFacts } from './snippets.js';
import type { GuardSpec, Rule, RuleTarget, Severity, SymbolRef, VersionNote } from './types.js';
import { entryFields, inferDef, raiserKind, protectedCalls, qualifiedCallee, receiverClasses, splitImport } from './entry.js';
import { readWindow } from './window.js';
import { compileCondition, unknownCondition } from './condition/compile.js';
import type { RaiseCondition } from './condition/types.js';
import { describeCondition } from './condition/words.js';
import { and } from './condition/simplify.js';

export interface CompileOutcome {
  rule?: Rule;
  /** Why the record did not become a rule (one line), when it did not. */
  skipped?: string;
  /** What was derived, for `raiselint records check`. */
  derived: {
    language?: string;
    module?: string;
    raiser?: string;
    kind?: string;
    entryPoints: string[];
    receiverClasses: string[];
    guards: string[];
    errorClass?: string;
    /** Bases of the error class, nearest first (`ValueError`, `Exception`, ...). */
    errorBases?: string[];
    versions?: string[];
    /** Where the entry points came from (`snippets` or `raising def`). */
    entrySource?: string;
    /** The record fields each part of the rule was derived from (`raiser`, `module`, `class`, `entry points`, `condition`). */
    fields?: Record<string, string>;
    /** What the raising def is: function, method, classmethod, staticmethod, constructor or property. */
    raiserKind?: string;
    /** `unknown` when the raise's condition is not known (the window shows no `def`): findings are possible. */
    condition?: 'unknown';
    /** The raise condition in words. */
    when?: string;
  };
}

interface SourceClass {
  name: string;
  bases: string[];
  /** Names bound to a method in the class body by assignment (`getstate = setstate = _notimplemented`). */
  aliases: Map<string, string[]>;
  /** Methods whose body calls `self.<m>(...)`: m → callers. */
  callers: Map<string, string[]>;
}

interface RaisingDef {
  name: string;
  /** Class whose body holds the def, when sourceCode shows the `class` line. */
  className?: string;
  /** The def is a method (inside a class, or a `self`/`cls` first parameter) even if the class is not shown. */
  inClass: boolean;
  decorators: string[];
  classBases: string[];
  /** Other names the def is reachable under in its class (aliases and public wrappers). */
  otherNames: string[];
  /** When the statement at lineNumber runs, over the def's parameters. */
  condition?: RaiseCondition;
}

interface SourceFacts {
  def?: RaisingDef;
  classes: Map<string, SourceClass>;
}

/** A candidate entry point from the snippets. */
interface QualifiedEntry {
  q: string;
  modulePart: string;
  path: string;
  named: boolean;
  chained: boolean;
  /** Shown by `triggerScenarios` (the scenario itself), not only sitting in a `try` body or a `# before` part. */
  strong: boolean;
}
interface MethodEntry {
  classes: string[];
  method: string;
  named: boolean;
  receiverCall?: string;
}

export function compileRecord(lr: LoadedRecord, classes: ClassRegistry, exceptions: ExceptionHierarchy): CompileOutcome {
  const r = lr.record;
  const derived: CompileOutcome['derived'] = { entryPoints: [], receiverClasses: [], guards: [] };
  const tags = (r.tags ?? []).map((t) => t.toLowerCase());
  const isPython = tags.includes('python') || /\.pyi?$/.test(r.filePath);
  if (!isPython) return { skipped: `not a Python record (tags: ${tags.join(', ') || 'none'}; filePath ${r.filePath})`, derived };
  derived.language = 'python';

  // Facts from the record's code fields.
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

  const module = moduleFromFilePath(r.filePath, [...facts.imports.values()]);
  derived.module = module;
  const isPackage = /(^|\/)__init__\.pyi?$/.test(r.filePath.replace(/\\/g, '/'));
  const lib = module.split('.')[0]!;
  const win = readWindow(r.sourceCode, r.lineNumber - r.sourceCodeStart, (code, row) => readSource(code, row, module, isPackage, exceptions, r.errorClass));
  const src = win.facts;
  const fromWindow = src.def ? `sourceCode (${win.offset ? `re-parsed from line ${r.sourceCodeStart + win.offset}` : 'the enclosing def'})` : undefined;
  const inferred = src.def ? undefined : inferDef(facts, lib, module, { validationCode: r.validationCode, typeGuard: r.typeGuard, tryCatchPattern: r.tryCatchPattern, exampleFix: r.exampleFix, triggerScenarios: r.triggerScenarios });
  if (inferred && 'reason' in inferred) return { skipped: inferred.reason, derived };
  const def = src.def ?? (inferred as Exclude<typeof inferred, { reason: string } | undefined>).def;
  derived.fields = entryFields(r.filePath, facts, fromWindow, inferred);
  if (inferred) derived.condition = 'unknown';
  // The raiser for messages; `records check` marks a method of a class sourceCode does not show.
  let raiserName = def.className ? `${def.className}.${def.name}` : def.name;
  derived.raiser = def.inClass && !def.className ? `<class>.${def.name}` : raiserName;

  const isStatic = def.decorators.some((d) => /(^|\.)(classmethod|staticmethod)$/.test(d));
  const isProperty = def.decorators.some((d) => /(^|\.)(property|cached_property|setter|getter|deleter)$/.test(d));
  const isCtor = def.inClass && (def.name === '__init__' || def.name === '__new__');
  derived.raiserKind = raiserKind(def.inClass, def.decorators, isCtor);
  const defNames = new Set([def.name, ...def.otherNames]);
  const publicNames = [...defNames].filter((n) => !n.startsWith('_'));

  const targets: RuleTarget[] = [];
  const shown: string[] = [];
  const kinds: string[] = [];
  const triggers = new Set<string>();
  const addTarget = (t: RuleTarget, kind: string, display?: string) => {
    const key = describeTarget(t);
    if (targets.some((x) => describeTarget(x) === key && x.kind === t.kind)) return;
    targets.push(t);
    shown.push(display ?? key);
    if (!kinds.includes(kind)) kinds.push(kind);
    if (t.kind === 'method') {
      triggers.add(t.method);
      triggers.add(splitQualified(t.classKey).name);
    } else triggers.add(t.symbol.path.split('.').pop()!);
  };
  const registerClass = (key: string, aliases: string[] = []) => {
    const { name } = splitQualified(key);
    const shown = key.startsWith(`${module}.`) ? src.classes.get(name) : undefined;
    classes.add(newClassInfo(key, { aliases, bases: shown ? shown.bases : [] }));
    // Its bases as sourceCode names them, so `isinstance(x, Base)` and `x: Base` know the relation.
    for (const b of shown?.bases ?? []) if (b.includes('.') && !classes.get(b)) classes.add(newClassInfo(b, {}));
  };
  /** A class named by the snippets → its canonical key (the defining module when it is a re-export of it). */
  const canonicalClass = (q: string): { key: string; aliases: string[] } => {
    const { name } = splitQualified(q);
    const local = `${module}.${name}`;
    if (!q.includes('.')) return { key: local, aliases: [] };
    if (symbolMatches({ module, path: name, aliases: [] }, q)) return { key: local, aliases: [] };
    if (def.className === name) return { key: local, aliases: [q] };
    return { key: q, aliases: [] };
  };
  const related = (m: string) => module === m || module.startsWith(`${m}.`);

  // ------------------------------------------------------------ entry points from the snippets
  const qualified: QualifiedEntry[] = [];
  const methods: MethodEntry[] = [];
  // A property is reached by reading it (`obj.prop`), which the snippets show as a read, not a call.
  for (const c of [...protectedCalls(facts), ...(isProperty ? protectedCalls({ ...facts, calls: facts.reads }) : [])]) {
    const q = qualifiedCallee(c, lib);
    if (q && q.split('.')[0] === lib && q.includes('.')) {
      const { modulePart, path } = splitImport(q, facts.modules);
      const last = path.split('.').pop()!;
      const named = defNames.has(last) || (isCtor && last === (def.className ?? last) && looksLikeClass(last));
      const strong = c.from === 'triggerScenarios';
      const prev = qualified.find((e) => e.q === q);
      if (prev) prev.strong ||= strong;
      else qualified.push({ q, modulePart, path, named, chained: c.chained, strong });
      continue;
    }
    if (!c.method || (!c.receiver && !c.receiverCall)) continue;
    const named = defNames.has(c.method);
    const cls = receiverClasses(c, facts, named);
    if (cls.length) methods.push({ classes: cls, method: c.method, named, receiverCall: c.receiverCall });
  }
  // When the snippets call the raising def itself, the other calls of a `try` body are setup
  // (`client = pkg.Client(); client.run()`); calls a trigger scenario shows are kept regardless.
  // Method calls not named after the raising def count only when nothing else reaches the library.
  const namedMethods = methods.filter((m) => m.named);
  const anyNamed = namedMethods.length > 0 || qualified.some((e) => e.named);
  // A def inferred from the snippets (sourceCode shows none) is reached only by the calls that name it.
  const useMethods = qualified.length || namedMethods.length || inferred ? namedMethods : methods;
  const useQualified = qualified.filter((e) => (e.named || ((e.strong || !anyNamed) && !inferred)) && !(e.chained && namedMethods.some((m) => m.receiverCall === e.q)));
  const constructorPaths = new Set(useQualified.filter((e) => !e.path.includes('.') && looksLikeClass(e.path)).map((e) => `${e.modulePart}.${e.path}`));

  for (const e of useQualified) {
    const segs = e.path.split('.');
    const last = segs[segs.length - 1]!;
    if (isCtor && e.named) {
      // `Klass(...)` raising in `Klass.__init__` / `__new__`.
      const key = def.className && related(e.modulePart) && segs.length === 1 ? `${module}.${def.className}` : `${e.modulePart}.${e.path}`;
      registerClass(key);
      const k = splitQualified(key);
      addTarget({ kind: 'call', symbol: sym(k.module, k.name), what: 'constructor' }, 'constructor', written(e, k.module));
    } else if (isStatic && last === def.name && segs.length >= 2) {
      // `Klass.from_string(...)` on the class object (and on instances: a classmethod is reachable from both).
      const clsPath = segs.slice(0, -1).join('.');
      const key = def.className === segs[segs.length - 2] && related(e.modulePart) ? `${module}.${def.className}` : `${e.modulePart}.${clsPath}`;
      registerClass(key);
      const k = splitQualified(key);
      addTarget({ kind: 'call', symbol: sym(k.module, `${k.name}.${last}`), what: 'classmethod' }, 'classmethod', written(e, k.module));
      addTarget({ kind: 'method', classKey: key, method: last }, 'classmethod', `<${k.name} instance>.${last}()`);
    } else if (!def.inClass && segs.length === 1 && last === def.name && related(e.modulePart)) {
      // The raising module function, imported from its module or any ancestor package (a re-export).
      addTarget({ kind: 'call', symbol: sym(module, last), what: 'function' }, 'function', written(e, module));
    } else if (segs.length === 1) {
      const ctor = looksLikeClass(last);
      if (ctor) registerClass(`${e.modulePart}.${last}`);
      addTarget({ kind: 'call', symbol: sym(e.modulePart, last), what: ctor ? 'constructor' : 'function' }, ctor ? 'constructor' : 'function', written(e, e.modulePart));
    } else {
      // `pkg.Klass.method(...)` or an attribute chain through a module-level object (`pkg.OldName.create(...)`).
      const head = `${e.modulePart}.${segs.slice(0, -1).join('.')}`;
      const isClass = constructorPaths.has(head) || (related(e.modulePart) && src.classes.has(segs[0]!) && segs.length === 2);
      addTarget({ kind: 'call', symbol: sym(e.modulePart, e.path), what: isClass ? 'classmethod' : 'attribute' }, isClass ? 'classmethod' : 'attribute', written(e, e.modulePart));
    }
  }
  const receiverKeys: string[] = [];
  for (const m of useMethods) {
    const names = m.named ? [...new Set([m.method, ...publicNames])] : [m.method];
    for (const q of m.classes) {
      const { key, aliases } = canonicalClass(q);
      registerClass(key, aliases);
      if (!receiverKeys.includes(key)) receiverKeys.push(key);
      for (const n of names) addTarget({ kind: 'method', classKey: key, method: n, ...(isProperty ? { property: true as const } : {}) }, isProperty ? 'property' : 'method');
    }
  }
  derived.entrySource = targets.length ? 'snippets' : undefined;

  // ------------------------------------------------------------ fallback: the raising def itself
  if (!targets.length) {
    const reason = fallbackTargets(def, module, { isCtor, isStatic, isProperty, publicNames, guardClasses: facts.guards.flatMap((g) => g.classes) }, registerClass, canonicalClass, addTarget, receiverKeys);
    if (!targets.length) return { skipped: reason, derived };
    derived.entrySource = 'raising def';
  }
  if (!def.className && receiverKeys.length === 1) raiserName = `${splitQualified(receiverKeys[0]!).name}.${def.name}`;
  else if (!def.className && def.inClass) {
    const owner = targets.find((t) => t.kind === 'call' && (t.what === 'classmethod' || (isCtor && t.what === 'constructor')));
    if (owner && owner.kind === 'call') raiserName = `${owner.symbol.path.split('.').slice(owner.what === 'constructor' ? -1 : -2)[0]}.${def.name}`;
  }
  if (raiserName.includes('.')) derived.raiser = raiserName;

  const guards: GuardSpec[] = facts.guards.map((g) => ({
    name: g.name,
    param: g.param,
    excludesWhenTrue: g.negated ? g.classes.map((c) => canonicalClass(c).key) : [],
    includesWhenTrue: g.negated ? [] : g.classes.map((c) => canonicalClass(c).key),
  }));
  for (const g of guards) triggers.add(g.name);

  const errorClass = qualifyError(r.errorClass, facts, exceptions, module, src);
  const repoShort = (r.repo.split('/').pop() ?? r.repo).toLowerCase();
  const versions = versionNotes(versionSubjects(r.repo, module, facts, tags), r.documentation ?? '', r.triggerScenarios ?? '', r.commonSituations ?? '', r.tags ?? []);
  const rule: Rule = {
    id: `${repoShort}/${r.slug}`,
    recordId: r.id,
    record: r,
    source: lr.source,
    errorClass,
    raiser: { module, qualname: raiserName, line: r.lineNumber, url: r.githubUrl ? lineUrl(r.githubUrl, r.lineNumber) : undefined },
    targets,
    triggers: [...triggers],
    guards,
    defaultSeverity: severityOf(r.severity),
    tips: r.preventionTips ?? [],
    docsUrl: r.githubUrl ?? undefined,
    versions,
    condition: condition(def, inferred !== undefined, r.sourceCode, r.lineNumber - r.sourceCodeStart),
  };
  derived.when = describeCondition(rule.condition);
  derived.kind = kinds.join('+');
  derived.entryPoints = targets.map((t, i) => ({ t, s: shown[i]! })).sort((a, b) => (a.t.kind === b.t.kind ? 0 : a.t.kind === 'call' ? -1 : 1)).map((x) => x.s);
  derived.receiverClasses = [...new Set(targets.filter((t) => t.kind === 'method').map((t) => (t as { classKey: string }).classKey))];
  derived.guards = guards.map((g) => `${g.name}(arg ${g.param})`);
  derived.errorClass = errorClass;
  derived.errorBases = exceptions.mro(errorClass).slice(1);
  if (![errorClass, ...derived.errorBases].includes('BaseException')) derived.errorBases.push('Exception (assumed: the rest of the hierarchy is not known)');
  derived.versions = versions.map((v) => `${v.subject} ${v.constraint}`);
  return { rule, derived };
}

function condition(def: RaisingDef, inferred: boolean, sourceCode: string, row: number): RaiseCondition {
  if (inferred || !def.condition) return unknownCondition('sourceCode shows no def around the raise');
  // A module function indented in the excerpt sits in a block the excerpt does not show (`except ImportError:`, `if sys.platform ...:`).
  const lines = sourceCode.split('\n').slice(0, row + 1).reverse();
  const header = lines.find((l) => new RegExp(`^\\s*(async\\s+)?def\\s+${def.name}\\b`).test(l));
  if (!def.inClass && header && /^\s/.test(header) && !def.condition.unknown) {
    return { ...def.condition, when: and([{ k: 'data', text: 'the def is defined (in a block the excerpt does not show)' }, def.condition.when]) };
  }
  return def.condition;
}

/** An entry as the snippets write it, and where it is defined when that differs (a re-export). */
function written(e: QualifiedEntry, definedIn: string): string {
  return `${e.q}()${definedIn !== e.modulePart && definedIn.startsWith(`${e.modulePart}.`) ? ` [defined in ${definedIn}]` : ''}`;
}

function sym(module: string, path: string): SymbolRef {
  return { module, path, aliases: [] };
}

function fallbackTargets(
  def: RaisingDef,
  module: string,
  o: { isCtor: boolean; isStatic: boolean; isProperty: boolean; publicNames: string[]; guardClasses: string[] },
  registerClass: (key: string, aliases?: string[]) => void,
  canonicalClass: (q: string) => { key: string; aliases: string[] },
  addTarget: (t: RuleTarget, kind: string) => void,
  receiverKeys: string[],
): string {
  if (!def.inClass) {
    if (def.name.startsWith('_')) return `'${def.name}' is a private helper and the record shows no public call that reaches it`;
    addTarget({ kind: 'call', symbol: sym(module, def.name), what: 'function' }, 'function');
    return '';
  }
  const classKeys: { key: string; aliases: string[] }[] = def.className ? [{ key: `${module}.${def.className}`, aliases: [] }] : o.guardClasses.map(canonicalClass);
  if (!classKeys.length) {
    return `too imprecise: '${def.name}' is a method of a class the record never names (sourceCode does not show the class line; no isinstance check, guard or qualified call in the snippets): a rule would flag every .${def.name}()`;
  }
  for (const { key, aliases } of classKeys) {
    registerClass(key, aliases);
    const name = splitQualified(key).name;
    if (o.isCtor) {
      addTarget({ kind: 'call', symbol: sym(splitQualified(key).module, name), what: 'constructor' }, 'constructor');
      continue;
    }
    if (!o.publicNames.length) return `'${def.name}' is a private method of ${name} and the record shows no public call that reaches it`;
    if (!receiverKeys.includes(key)) receiverKeys.push(key);
    for (const n of o.publicNames) {
      if (o.isStatic) addTarget({ kind: 'call', symbol: sym(splitQualified(key).module, `${name}.${n}`), what: 'classmethod' }, 'classmethod');
      addTarget({ kind: 'method', classKey: key, method: n, ...(o.isProperty && !o.isStatic ? { property: true as const } : {}) }, o.isStatic ? 'classmethod' : o.isProperty ? 'property' : 'method');
    }
  }
  return '';
}

export function describeTarget(t: RuleTarget): string {
  if (t.kind === 'method') return `${t.classKey}.${t.method}()`;
  return `${t.symbol.module}.${t.symbol.path}${t.what === 'attribute' ? '' : '()'}`;
}

// ---------------------------------------------------------------- sourceCode

/** Resolves a name written in sourceCode through its imports (relative ones against the module). */
function sourceResolver(root: Node, module: string, isPackage: boolean): (name: string) => string {
  const imports = new Map<string, string>();
  const pkgParts = isPackage ? module.split('.') : module.split('.').slice(0, -1);
  const absolute = (mod: string): string => {
    const m = /^(\.+)(.*)$/.exec(mod);
    if (!m) return mod;
    const base = pkgParts.slice(0, Math.max(0, pkgParts.length - (m[1]!.length - 1)));
    return [...base, ...(m[2] ? [m[2]] : [])].join('.');
  };
  for (const n of root.descendantsOfType(['import_statement', 'import_from_statement'])) {
    if (!n) continue;
    if (n.type === 'import_statement') {
      for (const c of namedChildren(n)) {
        if (c.type === 'dotted_name') imports.set(c.text.split('.')[0]!, c.text.split('.')[0]!);
        else if (c.type === 'aliased_import') {
          const nm = field(c, 'name');
          const a = field(c, 'alias');
          if (nm && a) imports.set(a.text, nm.text);
        }
      }
    } else {
      const mod = absolute(field(n, 'module_name')?.text ?? '');
      for (const c of n.childrenForFieldName('name')) {
        if (!c) continue;
        if (c.type === 'dotted_name') imports.set(c.text, `${mod}.${c.text}`);
        else if (c.type === 'aliased_import') {
          const nm = field(c, 'name');
          const a = field(c, 'alias');
          if (nm && a) imports.set(a.text, `${mod}.${nm.text}`);
        }
      }
    }
  }
  return (name: string) => {
    const [head, ...rest] = name.split('.');
    const base = imports.get(head!);
    return base ? [base, ...rest].join('.') : name;
  };
}

const BUILTIN_BASES = new Set(['object', 'type', 'int', 'str', 'bytes', 'float', 'tuple', 'list', 'dict', 'set', 'frozenset']);

function readSource(source: string, row: number, module: string, isPackage: boolean, exceptions: ExceptionHierarchy, errorClass?: string): SourceFacts {
  return withTree(source, (tree) => {
    const resolveName = sourceResolver(tree.rootNode, module, isPackage);
    const classes = new Map<string, SourceClass>();
    const defined = new Set<string>();
    for (const cls of tree.rootNode.descendantsOfType('class_definition')) if (cls) defined.add(field(cls, 'name')?.text ?? '');
    const qualify = (b: string): string | undefined => {
      if (BUILTIN_BASES.has(b)) return undefined;
      if (exceptions.isKnown(b) && !b.includes('.')) return b;
      const r = resolveName(b);
      if (r !== b) return r;
      return b.includes('.') ? b : `${module}.${b}`;
    };
    for (const cls of tree.rootNode.descendantsOfType('class_definition')) {
      if (!cls) continue;
      const name = field(cls, 'name')?.text;
      if (!name) continue;
      const sup = field(cls, 'superclasses');
      const written = sup ? namedChildren(sup).filter((b) => b.type !== 'keyword_argument').map((b) => dottedName(b)).filter((b): b is string => !!b) : [];
      const bases = written.map(qualify).filter((b): b is string => !!b);
      const info: SourceClass = { name, bases, aliases: new Map(), callers: new Map() };
      classes.set(name, info);
      // Exception classes the snippet defines join the hierarchy (their bases resolved through its imports).
      const looksExc = (b: string) => exceptions.isKnown(b) || /(Error|Exception|Warning)$/.test(b.split('.').pop() ?? '');
      if (bases.some(looksExc) || (/(Error|Exception)$/.test(name) && bases.length)) exceptions.define(`${module}.${name}`, bases);
      const body = field(cls, 'body');
      for (const st of body ? namedChildren(body) : []) {
        const a = st.type === 'expression_statement' ? namedChildren(st)[0] : undefined;
        if (a?.type === 'assignment') {
          // `a = b = f`: chained assignment targets bound to a def of the class.
          const names: string[] = [];
          let cur: Node | null = a;
          while (cur?.type === 'assignment') {
            const l = field(cur, 'left');
            if (l?.type === 'identifier') names.push(l.text);
            cur = field(cur, 'right');
          }
          if (cur?.type === 'identifier') for (const n of names) info.aliases.set(cur.text, [...(info.aliases.get(cur.text) ?? []), n]);
        }
        const def = st.type === 'decorated_definition' ? field(st, 'definition') : st;
        if (def?.type === 'function_definition') {
          const caller = field(def, 'name')?.text;
          for (const call of def.descendantsOfType('call')) {
            const fn = call ? field(call, 'function') : null;
            const callee = fn?.type === 'attribute' && field(fn, 'object')?.text === 'self' ? field(fn, 'attribute')?.text : undefined;
            if (callee && caller) info.callers.set(callee, [...(info.callers.get(callee) ?? []), caller]);
          }
        }
      }
    }
    const def = findRaisingDef(tree.rootNode, source, row, classes, errorClass);
    return { def, classes };
  });
}

function findRaisingDef(root: Node, source: string, row: number, classes: Map<string, SourceClass>, errorClass?: string): RaisingDef | undefined {
  const line = source.split('\n')[row] ?? '';
  const col = Math.max(0, line.length - line.trimStart().length);
  let n: Node | null = root.descendantForPosition({ row, column: col });
  let fn: Node | null = null;
  while (n) {
    if (n.type === 'function_definition') {
      fn = n;
      break;
    }
    n = n.parent;
  }
  if (!fn) return undefined;
  const name = field(fn, 'name')?.text;
  if (!name) return undefined;
  const decorators: string[] = [];
  const dec = fn.parent?.type === 'decorated_definition' ? fn.parent : null;
  if (dec) for (const d of namedChildren(dec)) if (d.type === 'decorator') decorators.push(d.text.replace(/^@/, '').split('(')[0]!.trim());
  let c: Node | null = (dec ?? fn).parent;
  while (c && c.type !== 'class_definition' && c.type !== 'function_definition') c = c.parent;
  let className: string | undefined;
  let classBases: string[] = [];
  let inClass = false;
  if (c?.type === 'class_definition') {
    className = field(c, 'name')?.text;
    classBases = className ? (classes.get(className)?.bases ?? []) : [];
    inClass = true;
  } else if (!c) {
    // The snippet may start inside a class body: an indented `def` with a `self`/`cls` first parameter
    // (or a method decorator) is a method of a class the snippet does not show.
    const params = field(fn, 'parameters');
    const first = params ? namedChildren(params)[0] : undefined;
    const p = first?.type === 'identifier' ? first.text : first ? (field(first, 'name') ?? first.namedChild(0))?.text : undefined;
    const indented = (dec ?? fn).startPosition.column > 0;
    if (p === 'self' || p === 'cls' || (indented && decorators.some((d) => /(^|\.)(classmethod|staticmethod|property)$/.test(d)))) inClass = true;
  }
  const otherNames: string[] = [];
  const info = className ? classes.get(className) : undefined;
  for (const a of info?.aliases.get(name) ?? []) otherNames.push(a);
  for (const w of info?.callers.get(name) ?? []) if (!w.startsWith('_') && w !== name) otherNames.push(w);
  const isStatic = decorators.some((d) => /(^|\.)staticmethod$/.test(d));
  // Aliases call the def itself; public callers (`def fileno(self): self._unsupported()`) reach it through code whose path is not read.
  const ctor = name === '__init__' || name === '__new__';
  // An always-raising special method (`__load__`, `__getattr__`) runs on any use of its object: an attribute chain through it reaches it.
  const entries = [name, ...(info?.aliases.get(name) ?? []), ...(className && ctor ? [className] : []), ...(ctor ? ['<constructor>'] : []), ...(!ctor && /^__\w+__$/.test(name) ? ['<attribute>'] : [])];
  const condition = compileCondition(fn, row, root, { dropFirst: inClass && !isStatic, entries: [...new Set(entries)], errorClass });
  return { name, className, inClass, decorators, classBases, otherNames: [...new Set(otherNames)], condition };
}

// ---------------------------------------------------------------- error class, severity, versions

function qualifyError(name: string, facts: SnippetFacts, exceptions: ExceptionHierarchy, module: string, src: SourceFacts): string {
  const simple = name.split('.').pop()!;
  const local = `${module}.${simple}`;
  const prefer = (q: string): string => {
    // A re-export of the class sourceCode defines: keep the defining name.
    const c = exceptions.canonical(q);
    if (src.classes.has(simple) && exceptions.isKnown(local) && splitQualified(c).name === simple && module.startsWith(`${splitQualified(c).module}.`)) return local;
    return c;
  };
  if (name.includes('.')) {
    const imported = facts.imports.get(name.split('.')[0]!);
    return prefer(imported ? [imported, ...name.split('.').slice(1)].join('.') : name);
  }
  if (exceptions.isKnown(name)) return exceptions.canonical(name);
  if (src.classes.has(name) && exceptions.isKnown(local)) return local;
  const imported = facts.imports.get(name);
  if (imported) return prefer(imported);
  const seen = facts.excepts.find((e) => e === name || e.endsWith(`.${name}`));
  if (seen && seen.includes('.')) return prefer(seen);
  if (exceptions.isKnown(local)) return local;
  return name;
}

function severityOf(s: string | null | undefined): Severity {
  return s && /warn|info|low/i.test(s) ? 'warning' : 'error';
}

function lineUrl(url: string, line: number): string {
  return url.replace(/#L\d+(-L\d+)?$/, '') + `#L${line}`;
}

/** Names a version constraint may be about: Python itself, the library (repo, top module, imports, tags). */
function versionSubjects(repo: string, module: string, facts: SnippetFacts, tags: string[]): Set<string> {
  const out = new Set(['python', 'cpython', 'py']);
  const add = (s: string) => {
    const n = s.toLowerCase().replace(/_/g, '-');
    if (n) out.add(n);
  };
  for (const part of repo.split('/')) add(part);
  add(repo.split('/').pop()!.replace(/-python$/, ''));
  add(module.split('.')[0]!);
  for (const m of facts.modules) add(m.split('.')[0]!);
  for (const t of tags) add(t.split(/[<>=!~ ]/)[0]!);
  return out;
}

/**
 * Version constraints stated in a record's text or tags (`Python >= 3.12`, `numpy<2`, `autogen-core <= 0.4.0.dev8`,
 * `removed in Python 3.13`). With `subjects`, only constraints about those names are kept (not `retcode != 0`).
 */
export function versionNotes(subjects: Set<string> | undefined, ...texts: (string | string[])[]): VersionNote[] {
  const out: VersionNote[] = [];
  const all = texts.flatMap((t) => (Array.isArray(t) ? t : [t]));
  const keep = (subject: string, constraint: string, from: string) => {
    const s = subject.toLowerCase();
    if (subjects && !subjects.has(s.replace(/_/g, '-'))) return;
    if (out.some((v) => v.subject === s && v.constraint === constraint)) return;
    out.push({ subject: s, constraint, from });
  };
  const re = /\b([A-Za-z][A-Za-z0-9_.-]*)\s*(>=|<=|==|!=|~=|<|>)\s*(\d+(?:\.\d+)*(?:[a-z]+\d*)?(?:\.dev\d+)?)/g;
  const since = /\b(since|from|new in|added in|removed in|deprecated in|before|until|prior to)\s+(Python|[A-Za-z][\w.-]*)\s+v?(\d+\.\d+(?:\.\d+)?)/gi;
  for (const text of all) {
    for (let m = re.exec(text); m; m = re.exec(text)) keep(m[1]!, `${m[2]}${m[3]}`, m[0]);
    re.lastIndex = 0;
    for (let m = since.exec(text); m; m = since.exec(text)) {
      // `deprecated since 3.11` says nothing about where the error exists.
      if (/deprecated\s*$/i.test(text.slice(0, m.index))) continue;
      const word = m[1]!.toLowerCase();
      const op = word === 'before' || word === 'until' || word === 'removed in' || word === 'prior to' ? '<' : '>=';
      keep(m[2]!, `${op}${m[3]}`, m[0]);
    }
    since.lastIndex = 0;
  }
  return out;
}
