/**
 * Compiles a JS/TS record into a rule whose target is plain data (`rule.js`, see types.ts), read by
 * the ESLint plugin (src/eslint/). No code per record: everything comes from the record's fields.
 *
 * - the throwing function, method, static method or constructor, its class, async or not, and
 *   whether it always throws: from `sourceCode` around `lineNumber` (source.ts);
 * - the package: what the code fields import, matched with the repository name and the path's
 *   package folder (`packages/<name>/`); Node core (`nodejs/node`, `lib/...`) is `node:<module>`;
 * - the error class and the bases the window shows; guards and example calls from the code fields.
 */
import type { LoadedRecord } from '../../records/types.js';
import type { Rule, Severity } from '../../rules/types.js';
import { readJsSource, type RaisingFunction } from './source.js';
import { calledIn, classFromSnippets, entryFromSnippets } from './entry.js';
import { jsBeforePart, readJsSnippets } from './snippets.js';
import type { JsTarget } from '../../rules/js/types.js';
import { unknownCondition } from '../condition/compile.js';
import { controlFlowOfDef } from '../../rules/controlflow.js';

const JS_EXTENSIONS = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const JS_TAGS = new Set(['javascript', 'typescript', 'js', 'ts', 'node', 'nodejs', 'deno', 'bun']);

export interface JsCompileOutcome {
  rule?: Rule;
  skipped?: string;
  derived: {
    language?: string;
    module?: string;
    raiser?: string;
    kind?: string;
    entryPoints: string[];
    receiverClasses: string[];
    guards: string[];
    errorClass?: string;
    errorBases?: string[];
    entrySource?: string;
  };
}

/** A record for JavaScript or TypeScript code (tags or file extension). */
export function isJsRecord(tags: string[], filePath: string): boolean {
  return JS_EXTENSIONS.test(filePath) || tags.some((t) => JS_TAGS.has(t));
}

/** The builtin error hierarchy of JavaScript (every error class is an Error). */
const BUILTIN_ERRORS = new Set(['TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError']);

export function compileJsRecord(lr: LoadedRecord): JsCompileOutcome {
  const r = lr.record;
  const derived: JsCompileOutcome['derived'] = { entryPoints: [], receiverClasses: [], guards: [] };
  const language = /\.[cm]?tsx?$/.test(r.filePath) || (r.tags ?? []).some((t) => /^(typescript|ts)$/i.test(t)) ? 'typescript' : 'javascript';
  derived.language = language;
  // The installed file when the package is in the project's node_modules (src/records/groundjs.ts), else the window.
  const g = lr.grounded?.sourceCode !== undefined ? lr.grounded : undefined;
  const src = readJsSource(g?.sourceCode ?? r.sourceCode, r.lineNumber - (g?.sourceCodeStart ?? r.sourceCodeStart), /\.[jt]sx$/.test(r.filePath), !!g);
  const codes = [
    r.validationCode,
    r.typeGuard,
    r.tryCatchPattern,
    r.exampleFix ? jsBeforePart(r.exampleFix) : undefined,
    ...codeSpans(`${r.triggerScenarios ?? ''}\n${r.commonSituations ?? ''}`),
  ].filter((c): c is string => !!c);
  const { fn, viaHelper } = entryOf(src.fn, r, codes);
  if (!fn)
    return {
      skipped: `no enclosing function, method or constructor around line ${r.lineNumber} in sourceCode, and no call in tryCatchPattern or exampleFix`,
      derived,
    };
  if (fn.kind !== 'function' && !fn.className) fn.className = classFromSnippets(fn, codes, r.filePath);
  if (fn.kind === 'constructor' && !fn.name && fn.className) fn.name = fn.className;
  const facts = readJsSnippets(codes, fn.name);
  const pkg = packageOf(r.repo, r.filePath, facts.imports);
  derived.module = pkg;
  const raiser = fn.className && fn.kind !== 'constructor' ? `${fn.className}.${fn.name}` : fn.name;
  derived.raiser = raiser;
  derived.kind = fn.kind;
  if (fn.kind !== 'function' && !fn.className)
    return { skipped: `method '${fn.name}' of a class the sourceCode does not show (too imprecise to check)`, derived };
  const errorBases: string[] = [];
  for (let c = src.classes.get(r.errorClass)?.[0]; c && !errorBases.includes(c); c = src.classes.get(c)?.[0]) errorBases.push(c);
  if ((BUILTIN_ERRORS.has(r.errorClass) || errorBases.length) && !errorBases.includes('Error') && r.errorClass !== 'Error') errorBases.push('Error');
  const shown = fn.kind === 'constructor' ? `new ${fn.name}()` : `${raiser}()`;
  const names = [fn.kind === 'constructor' ? fn.className! : fn.name];
  const js: JsTarget = {
    language,
    package: pkg,
    kind: fn.kind,
    className: fn.className,
    name: fn.name,
    async: fn.async,
    always: fn.always,
    errorClass: r.errorClass,
    errorBases,
    arities: facts.arities,
    guards: facts.guards,
    // A helper's parameter is found among the public call's arguments by name (`v4(options, buf, offset)`).
    needs: (fn.needs ?? []).map((p) => fn.params?.indexOf(p) ?? -1).filter((i) => i >= 0),
    params: fn.tests?.length ? fn.params?.map((p) => (/^[A-Za-z_$][\w$]*$/.test(p) ? p : '')) : undefined,
    fields: fn.tests?.length ? fn.fields : undefined,
    tests: fn.tests?.length ? fn.tests : undefined,
    testsDecide: fn.tests?.length && fn.testsDecide ? true : undefined,
    thisInit: fn.tests?.length ? fn.thisInit : undefined,
    switchOn:
      fn.switchOn && fn.params?.includes(fn.switchOn.param)
        ? { arg: fn.params.indexOf(fn.switchOn.param), values: fn.switchOn.values, only: fn.switchOn.only }
        : undefined,
    names,
  };
  derived.entryPoints = [shown];
  derived.entrySource = viaHelper ? `snippets: the raise is in ${src.fn!.name}(), which ${shown} runs` : src.fn ? 'raising function' : 'snippets';
  derived.receiverClasses = fn.className ? [fn.className] : [];
  derived.guards = facts.guards.map((g) => `${g.callee}(arg ${g.guardArg})`);
  derived.errorClass = r.errorClass;
  derived.errorBases = errorBases;
  return { rule: jsRule(lr, js, pkg, raiser, fn.name), derived };
}

/** The rule of a JS/TS record: checked by the ESLint plugin (`js`), never by the Python matcher. */
function jsRule(lr: LoadedRecord, js: JsTarget, pkg: string, raiser: string, entry: string): Rule {
  const r = lr.record;
  return {
    id: `${(r.repo.split('/').pop() ?? r.repo).toLowerCase()}/${r.slug}`,
    recordId: r.id,
    record: r,
    source: lr.source,
    errorClass: r.errorClass,
    raiser: {
      module: pkg,
      qualname: raiser,
      line: r.lineNumber,
      url: r.githubUrl ? r.githubUrl.replace(/#L\d+(-L\d+)?$/, '') + `#L${r.lineNumber}` : undefined,
    },
    targets: [],
    triggers: [],
    // The Python prefilter never needs a JS/TS rule (the JS/TS prefilter reads `js.names`).
    prefilter: [],
    guards: [],
    defaultSeverity: severityOf(r.severity),
    tips: r.preventionTips ?? [],
    docsUrl: r.githubUrl ?? undefined,
    versions: [],
    // Checked by the ESLint plugin, which reads `js.always`; the Python matcher never sees this rule.
    condition: js.always
      ? { params: [], when: { k: 'true' }, entries: [entry] }
      : unknownCondition('JS/TS: the throw depends on data (the ESLint rule reports such calls as possible)'),
    js,
    // Control flow, as for Python (../../rules/controlflow.ts): a function named for throwing, a throw the library marks unreachable.
    ...withControlFlow(controlFlowOfDef(entry, undefined, r.errorMessage ?? '', !!js.always)),
  };
}

const withControlFlow = (why: string | undefined): { controlFlow?: string } => (why ? { controlFlow: why } : {});

function severityOf(s: string | null | undefined): Severity {
  return s && /warn|info|low/i.test(s) ? 'warning' : 'error';
}

/**
 * The function the rule aims at: the window's; else, when the window starts inside the function's
 * body, the call the record protects; also that call when the window's function is a helper it runs
 * (`v4()` runs `_v4`; a method helper of the same class, as `new Comparator()` runs `this.parse(comp)`).
 */
function entryOf(shown: RaisingFunction | undefined, r: LoadedRecord['record'], codes: string[]): { fn?: RaisingFunction; viaHelper: boolean } {
  const protectedCodes = [r.tryCatchPattern, r.exampleFix ? jsBeforePart(r.exampleFix) : undefined].filter((c): c is string => !!c);
  const called = entryFromSnippets(protectedCodes, codes, r.filePath);
  const helperKind = shown?.kind === 'function' || (shown?.kind === 'method' && !!called?.className && shown.className === called.className);
  if (!shown || !called || !helperKind || !isHelperOf(shown, called, codes)) return { fn: shown ?? called, viaHelper: false };
  // The helper's parameters are matched with the call's arguments by name; one whose value the call does not give (a default, reassigned) by none.
  const fn: RaisingFunction = {
    ...called,
    always: false,
    params: called.params?.map((a) => (shown.params?.includes(a) ? a : '')),
    needs: shown.needs,
    switchOn: shown.switchOn,
    tests: shown.tests,
    // The helper's `this` is not the fresh object: the public call ran code on it first.
    thisInit: undefined,
    // What the public call does before it runs the helper is not read.
    testsDecide: false,
  };
  return { fn, viaHelper: true };
}

/**
 * Whether the window's function is an internal helper of the call the code fields protect: the
 * code fields import that call's name from a package and never call the window's function
 * themselves (a function `normalize` that the method `PackageJson.normalize()` runs is a helper).
 */
function isHelperOf(shown: RaisingFunction, called: RaisingFunction, codes: string[]): boolean {
  const bound = called.kind === 'function' ? called.name : called.className;
  const kind = shown.kind === 'function' ? 'function' : 'member';
  if (!bound || (called.name === shown.name && (called.kind === 'function') === (kind === 'function')) || calledIn(codes, shown.name, kind)) return false;
  const b = bound.replace(/\$/g, '\\$');
  // A named import (`import { v4 } from 'uuid'`); a function may be the default one (`import v4 from`). A class
  // must be named: `YAML.parse()` of `import YAML from 'yaml'` is a namespace's function, not a static method.
  const named = new RegExp(`^\\s*import\\b[^;\\n]*\\{[^}]*\\b${b}\\b[^}]*\\}[^;\\n]*\\bfrom\\s*['"]`, 'm');
  const asDefault = new RegExp(`^\\s*import\\s+${b}\\s+from\\s*['"]`, 'm');
  return codes.some((c) => named.test(c) || (called.kind === 'function' && asDefault.test(c)));
}

/** `code spans` of prose fields (`new URL(input)`). */
function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

/** The npm package (or `node:<module>`) the raising file belongs to. */
export function packageOf(repo: string, filePath: string, imports: string[]): string {
  const path = filePath.replace(/\\/g, '/');
  const repoName = (repo.split('/').pop() ?? repo).toLowerCase();
  const folder = /(?:^|\/)packages\/([^/]+)\//.exec(path)?.[1]?.toLowerCase();
  const bare = (p: string) =>
    p
      .replace(/^node:/, '')
      .split('/')
      .pop()!
      .toLowerCase();
  const external = imports.filter((i) => !i.startsWith('node:') || repoName === 'node');
  if (repoName === 'node') {
    const core = imports.find((i) => i.startsWith('node:')) ?? imports.find((i) => !i.includes('/'));
    const mod = /^lib\/(?:internal\/)?([^/.]+)/.exec(path)?.[1];
    return core ? (core.startsWith('node:') ? core : `node:${core}`) : `node:${mod ?? 'unknown'}`;
  }
  for (const want of [folder, repoName]) {
    const hit = want && external.find((i) => bare(i) === want || bare(i) === want.replace(/^node-/, '').replace(/\.js$/, ''));
    if (hit) return hit;
  }
  return folder ?? repoName;
}
