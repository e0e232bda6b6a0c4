/**
 * Stage 2: compile records into rules, automatically. Everything comes from the record's own
 * fields: the raising `def` (from `sourceCode` at `lineNumber`), its module (from `filePath`,
 * anchored on what the record's snippets import), the receiver classes (`isinstance` checks in
 * `validationCode` / `typeGuard`), the entry points users call (calls in the snippets) and the
 * guard functions (`typeGuard`).
 */
import type { LoadedRecord } from '../records/types.js';
import { withTree, type Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';
import { ClassRegistry, newClassInfo } from './classes.js';
import { ExceptionHierarchy } from './exceptions.js';
import { moduleFromFilePath, splitQualified, symbolMatches } from './names.js';
import { afterPart, beforePart, codeSpans, emptyFacts, readSnippet, resolveAll, type SnippetFacts } from './snippets.js';
import type { GuardSpec, Rule, RuleTarget, Severity, VersionNote } from './types.js';

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
  };
}

interface RaisingDef {
  name: string;
  className?: string;
  classBases: string[];
  decorators: string[];
  row: number;
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
  for (const span of codeSpans(`${r.triggerScenarios ?? ''}\n${r.commonSituations ?? ''}`)) readSnippet(span, 'triggerScenarios', facts);
  resolveAll(facts);

  const module = moduleFromFilePath(r.filePath, [...facts.imports.values()]);
  derived.module = module;
  const def = findRaisingDef(r.sourceCode, r.lineNumber - r.sourceCodeStart, exceptions, module);
  if (!def) return { skipped: `no enclosing 'def' around line ${r.lineNumber} in sourceCode`, derived };
  derived.raiser = def.className ? `${def.className}.${def.name}` : def.name;

  const targets: RuleTarget[] = [];
  const triggers = new Set<string>();
  const receiverClasses: string[] = [];
  const isStatic = def.decorators.some((d) => /(^|\.)(classmethod|staticmethod)$/.test(d));
  const isProperty = def.decorators.some((d) => /(^|\.)(property|cached_property)$/.test(d));

  // Classes named by the record's isinstance checks, on the receiver of a call to the raising method.
  const receiverVars = new Set(facts.calls.filter((c) => c.method === def.name && c.receiver).map((c) => c.receiver!));
  for (const v of receiverVars) for (const c of facts.isinstance.get(v) ?? []) receiverClasses.push(c);
  for (const g of facts.guards) receiverClasses.push(...g.classes);

  if (def.className && def.name === '__init__') {
    const sym = { module, path: def.className, aliases: [] as string[] };
    targets.push({ kind: 'call', symbol: sym, what: 'constructor' });
    triggers.add(def.className);
    derived.kind = 'constructor';
  } else if (def.className && isStatic) {
    targets.push({ kind: 'call', symbol: { module, path: `${def.className}.${def.name}`, aliases: [] }, what: 'classmethod' });
    triggers.add(def.name);
    derived.kind = 'classmethod';
  } else if (def.className || receiverClasses.length) {
    // Instance method: the raising classes are the isinstance-checked ones, else the defining class.
    const keys = new Set<string>();
    const named = uniq(receiverClasses);
    for (const q of named) {
      const { name } = splitQualified(q);
      // The defining module when the imported name is a re-export of it.
      const sym = { module, path: name, aliases: [] };
      const key = symbolMatches(sym, q) || !q.includes('.') ? `${module}.${name}` : q;
      keys.add(key);
      classes.add(newClassInfo(key, { aliases: q !== key && q.includes('.') ? [q] : [] }));
    }
    if (!keys.size && def.className) {
      const key = `${module}.${def.className}`;
      keys.add(key);
      classes.add(newClassInfo(key, {}));
    }
    for (const key of keys) targets.push({ kind: 'method', classKey: key, method: def.name });
    if (!def.className) derived.raiser = `${splitQualified([...keys][0]!).name}.${def.name}`;
    triggers.add(def.name);
    for (const k of keys) triggers.add(splitQualified(k).name);
    derived.kind = isProperty ? 'property' : 'method';
  } else {
    // Module-level function: the entry points are the calls the record protects, resolved through its imports.
    const top = module.split('.')[0];
    const entry = uniq(
      facts.calls
        .filter((c) => c.qname && c.qname.split('.')[0] === top && (c.inTryBody || c.from === 'exampleFix' || c.from === 'triggerScenarios'))
        .map((c) => c.qname!),
    );
    if (!entry.length && !def.name.startsWith('_')) entry.push(`${module}.${def.name}`);
    for (const q of entry) {
      const { module: m, name } = splitQualified(q);
      targets.push({ kind: 'call', symbol: { module: m === module || module.startsWith(`${m}.`) ? module : m, path: name, aliases: [] }, what: 'function' });
      triggers.add(name);
    }
    derived.kind = 'function';
  }
  if (!targets.length) {
    return { skipped: `'${def.name}' is a private helper and the record shows no public call that reaches it`, derived };
  }

  const guards: GuardSpec[] = facts.guards.map((g) => ({
    name: g.name,
    param: g.param,
    excludesWhenTrue: g.negated ? g.classes.map((c) => canonicalClass(c, module)) : [],
    includesWhenTrue: g.negated ? [] : g.classes.map((c) => canonicalClass(c, module)),
  }));
  for (const g of guards) triggers.add(g.name);

  const errorClass = qualifyError(r.errorClass, facts, exceptions, module);
  const repoShort = (r.repo.split('/').pop() ?? r.repo).toLowerCase();
  const rule: Rule = {
    id: `${repoShort}/${r.slug}`,
    recordId: r.id,
    record: r,
    source: lr.source,
    errorClass,
    raiser: { module, qualname: derived.raiser, line: r.lineNumber, url: r.githubUrl ? lineUrl(r.githubUrl, r.lineNumber) : undefined },
    targets,
    triggers: [...triggers],
    guards,
    defaultSeverity: severityOf(r.severity),
    tips: r.preventionTips ?? [],
    docsUrl: r.githubUrl ?? undefined,
    versions: versionNotes(r.documentation ?? '', r.triggerScenarios ?? '', r.commonSituations ?? '', r.tags ?? []),
  };
  derived.entryPoints = targets.map(describeTarget);
  derived.receiverClasses = targets.filter((t) => t.kind === 'method').map((t) => (t as { classKey: string }).classKey);
  derived.guards = guards.map((g) => `${g.name}(arg ${g.param})`);
  return { rule, derived };
}

export function describeTarget(t: RuleTarget): string {
  if (t.kind === 'method') return `${t.classKey}.${t.method}()`;
  return `${t.symbol.module}.${t.symbol.path}${t.what === 'attribute' ? '' : '()'}`;
}

function canonicalClass(q: string, module: string): string {
  const { name } = splitQualified(q);
  return symbolMatches({ module, path: name, aliases: [] }, q) || !q.includes('.') ? `${module}.${name}` : q;
}

function findRaisingDef(source: string, row: number, exceptions: ExceptionHierarchy, module: string): RaisingDef | undefined {
  return withTree(source, (tree) => {
    // Exception classes the snippet defines join the hierarchy.
    for (const cls of tree.rootNode.descendantsOfType('class_definition')) {
      if (!cls) continue;
      const name = field(cls, 'name')?.text;
      const sup = field(cls, 'superclasses');
      const bases = sup ? namedChildren(sup).map((b) => b.text) : [];
      if (name && bases.some((b) => exceptions.isKnown(b) || /Error$|Exception$/.test(b))) {
        exceptions.define(`${module}.${name}`, bases.map((b) => (exceptions.isKnown(b) ? b : `${module}.${b}`)), [name]);
      }
    }
    const line = source.split('\n')[row] ?? '';
    const col = Math.max(0, line.length - line.trimStart().length);
    let n: Node | null = tree.rootNode.descendantForPosition({ row, column: col });
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
    if (c?.type === 'class_definition') {
      className = field(c, 'name')?.text;
      const sup = field(c, 'superclasses');
      classBases = sup ? namedChildren(sup).map((b) => b.text) : [];
    } else if (!c) {
      // The snippet may start inside a class body: a `def` with a `self` first parameter is a method.
      const params = field(fn, 'parameters');
      const first = params ? namedChildren(params)[0] : undefined;
      const p = first?.type === 'identifier' ? first.text : first ? (field(first, 'name') ?? first.namedChild(0))?.text : undefined;
      if (p === 'self' || p === 'cls') className = '';
    }
    return { name, className: className || undefined, classBases, decorators, row };
  });
}

function qualifyError(name: string, facts: SnippetFacts, exceptions: ExceptionHierarchy, module: string): string {
  if (exceptions.isKnown(name)) return exceptions.canonical(name);
  const imported = facts.imports.get(name.split('.')[0]!);
  if (imported) return exceptions.canonical([imported, ...name.split('.').slice(1)].join('.'));
  const seen = facts.excepts.find((e) => e === name || e.endsWith(`.${name}`));
  if (seen && seen.includes('.')) return exceptions.canonical(seen);
  const local = `${module}.${name}`;
  if (exceptions.isKnown(local)) return exceptions.canonical(local);
  return name;
}

function severityOf(s: string | null | undefined): Severity {
  return s && /warn|info|low/i.test(s) ? 'warning' : 'error';
}

function lineUrl(url: string, line: number): string {
  return url.replace(/#L\d+(-L\d+)?$/, '') + `#L${line}`;
}

/** Version constraints stated in a record's text or tags (`Python >= 3.12`, `numpy<2`, `autogen-core <= 0.4.0.dev8`). */
export function versionNotes(...texts: (string | string[])[]): VersionNote[] {
  const out: VersionNote[] = [];
  const all = texts.flatMap((t) => (Array.isArray(t) ? t : [t]));
  const re = /\b([A-Za-z][A-Za-z0-9_.-]*)\s*(>=|<=|==|!=|~=|<|>)\s*(\d+(?:\.\d+)*(?:[a-z]+\d*)?(?:\.dev\d+)?)/g;
  for (const text of all) {
    for (let m = re.exec(text); m; m = re.exec(text)) {
      out.push({ subject: m[1]!.toLowerCase(), constraint: `${m[2]}${m[3]}`, from: m[0] });
    }
    re.lastIndex = 0;
    const since = /\b(?:since|from|in|added in|removed in|before|until)\s+(Python|[A-Za-z][\w.-]*)\s+v?(\d+\.\d+(?:\.\d+)?)/gi;
    for (let m = since.exec(text); m; m = since.exec(text)) {
      const word = m[0].split(/\s+/)[0]!.toLowerCase();
      const op = word === 'before' || word === 'until' || word === 'removed' ? '<' : '>=';
      out.push({ subject: m[1]!.toLowerCase(), constraint: `${op}${m[2]}`, from: m[0] });
    }
  }
  return out;
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
