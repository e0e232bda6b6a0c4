/**
 * The record of an npm package's throw site (./npm.ts): the window, the message and its pattern,
 * a stable id, and code fields that show the public call as a user writes it, in ES module syntax
 * (`import { SemVer } from 'semver'`, `const semVer = new SemVer(version)`, `semVer.inc(release)`).
 */
import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as TS from 'typescript';
import { typescript } from '../../parse/typescript.js';
import { thrownClass, type NpmPackage, type NpmSite } from './npm.js';
import { regexEscape } from './fields.js';

const HALF = 18;
const SPAN = 2 * HALF + 1;
/** The window starts at the raising function's first line when it is at most this far above the throw. */
const MAX_LIFT = 30;
const BUILTIN_ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError']);
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static enum await implements package protected interface private public arguments eval'.split(
    ' ',
  ),
);

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function messageOf(node: TS.ThrowStatement, sf: TS.SourceFile, fallback: string): { message: string; pattern: string | null } {
  const ts = typescript();
  const arg = (node.expression as TS.NewExpression | TS.CallExpression).arguments?.[0];
  if (arg && ts.isStringLiteralLike(arg) && arg.text.trim()) return { message: arg.text, pattern: regexEscape(arg.text) };
  if (arg && ts.isTemplateExpression(arg)) {
    const parts = [arg.head.text, ...arg.templateSpans.map((s) => s.literal.text)];
    // The template's words, its holes as `…` (a message never shows an unfilled placeholder).
    const message = parts.join('…');
    return { message, pattern: parts.map(regexEscape).join('.*?') };
  }
  if (arg && ts.isBinaryExpression(arg) && arg.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    // 'list ' + String(list) + ' is not an array': the strings' words, the rest as `…`.
    const parts: (string | null)[] = [];
    const leaves = (e: TS.Expression): void => {
      if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
        leaves(e.left);
        leaves(e.right);
      } else parts.push(ts.isStringLiteralLike(e) ? e.text : null);
    };
    leaves(arg);
    if (parts.some((p) => p?.trim()))
      return { message: parts.map((p) => p ?? '…').join(''), pattern: parts.map((p) => (p === null ? '.*?' : regexEscape(p))).join('') };
  }
  return { message: fallback, pattern: null };
}

/** `if (validate(uuid)) { const result = parse(uuid); }` with the guard imported beside the call. */
function guardCode(s: NpmSite, imports: string[], c: Call): string {
  const name = s.guard!.name;
  const head = imports.map((i) =>
    i.replace(/^import \{ ([^}]+) \} from/, (all, names: string) => (names.split(', ').includes(name) ? all : `import { ${names}, ${name} } from`)),
  );
  return `${head.join('\n')}\n\n${c.setup}if (${name}(${s.guard!.param})) {\n  const result = ${c.call};\n}`;
}

/** A parameter list as arguments of an example call: the required ones, by name. */
function argsOf(fn: TS.FunctionLikeDeclaration | undefined): string {
  const ts = typescript();
  if (!fn) return '';
  const out: string[] = [];
  for (const p of fn.parameters) {
    if (p.initializer || p.questionToken || p.dotDotDotToken) break;
    const n = ts.isIdentifier(p.name) ? p.name.text.replace(/^_+/, '') : 'options';
    out.push(!n || RESERVED.has(n) ? `arg${out.length}` : n);
  }
  return out.join(', ');
}

function slugOf(name: string, message: string): string {
  const words = `${name} ${message}`
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .slice(0, 9);
  return words.join('-').slice(0, 72).replace(/-+$/, '') || 'throw';
}

interface Call {
  /** The example call's arguments: the required parameters' names. */
  args: string[];
  imports: string[];
  setup: string;
  call: string;
  what: string;
}

function callOf(s: NpmSite, pkg: NpmPackage): Call {
  const ts = typescript();
  const entry = s.via ?? s.fn;
  const args = argsOf(entry);
  const argList = args ? args.split(', ') : [];
  const aw = entry.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) ? 'await ' : '';
  if (s.kind === 'function') {
    const local =
      s.exportName === 'default'
        ? entry.name && ts.isIdentifier(entry.name)
          ? entry.name.text
          : lowerFirst(
              pkg.name
                .split('/')
                .pop()!
                .replace(/\W+(\w)/g, (_, c: string) => c.toUpperCase()),
            )
        : s.exportName;
    const imp = s.exportName === 'default' ? `import ${local} from '${s.spec}';` : `import { ${local} } from '${s.spec}';`;
    return { args: argList, imports: [imp], setup: '', call: `${aw}${local}(${args})`, what: `${local}()` };
  }
  const C = s.className!;
  const imports = [`import { ${C} } from '${s.spec}';`];
  if (s.kind === 'constructor') return { args: argList, imports, setup: '', call: `new ${C}(${args})`, what: `new ${C}()` };
  if (s.kind === 'static') return { args: argList, imports, setup: '', call: `${aw}${C}.${s.method}(${args})`, what: `${C}.${s.method}()` };
  const ctor = (entry.parent as TS.ClassLikeDeclaration).members.find(ts.isConstructorDeclaration);
  let v = lowerFirst(C);
  if (v === C || RESERVED.has(v)) v = `${v}Obj`;
  return { args: argList, imports, setup: `const ${v} = new ${C}(${argsOf(ctor)});\n`, call: `${aw}${v}.${s.method}(${args})`, what: `${C}.${s.method}()` };
}

/** The record of site `s`; `publicNames`: what the site's entry point exports (an error class it exports is imported and caught by name). */
export function npmRecordOf(s: NpmSite, pkg: NpmPackage, publicNames: Set<string>, slugs: Set<string>, stamp: string): Record<string, unknown> {
  const text = s.sf.text;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const line = s.sf.getLineAndCharacterOfPosition(s.throwNode.getStart(s.sf)).line + 1;
  const fnLine = s.sf.getLineAndCharacterOfPosition(s.fn.getStart(s.sf)).line + 1;
  let start = Math.max(1, line - HALF);
  if (line - fnLine <= MAX_LIFT) start = Math.min(start, fnLine);
  const end = Math.min(lines.length, start + SPAN - 1);
  const errorClass = thrownClass(s.throwNode)!;
  const c = callOf(s, pkg);
  const { message, pattern } = messageOf(s.throwNode, s.sf, `${errorClass} thrown by ${c.what}`);
  const filePath = relative(pkg.dir, s.file).split('\\').join('/');
  const base = s.method ?? (s.kind === 'constructor' ? s.className! : s.exportName === 'default' ? c.what.replace(/\(\)$/, '') : s.exportName);
  let slug = slugOf(base, message);
  for (let n = 2; slugs.has(slug); n++) slug = `${slugOf(base, message)}-${n}`;
  slugs.add(slug);
  // A helper's throw reached from several public calls is one record per call.
  const via = s.via ? ` via ${c.what}` : '';
  const id = createHash('sha256').update(`npm ${pkg.name} ${pkg.version} ${filePath}:${line} ${errorClass}${via}`).digest('hex').slice(0, 16);
  const caught = BUILTIN_ERRORS.has(errorClass) || publicNames.has(errorClass) ? errorClass : 'Error';
  const imports = [...c.imports];
  if (caught === errorClass && !BUILTIN_ERRORS.has(errorClass) && !imports[0]!.includes(`{ ${errorClass} }`))
    imports.push(`import { ${errorClass} } from '${s.spec}';`);
  const stmt = s.kind === 'constructor' ? `const ${lowerFirst(s.className!)} = ${c.call};` : `const result = ${c.call};`;
  const handler = `try {\n  ${stmt}\n} catch (err) {\n  if (!(err instanceof ${caught})) throw err;\n  // ${errorClass}: handle or report err\n}`;
  const hash = `sha256:${createHash('sha256').update(text).digest('hex')}`;
  const isAsync = /^await /.test(c.call);
  const helper = s.helper ? `in ${s.helper}, which it calls: ` : '';
  return {
    id,
    repo: pkg.name,
    slug,
    errorCode: null,
    errorMessage: message,
    messagePattern: pattern,
    errorType: 'exception',
    errorClass,
    httpStatus: null,
    severity: 'error',
    filePath,
    lineNumber: line,
    sourceCode: lines.slice(start - 1, end).join('\n'),
    sourceCodeStart: start,
    sourceCodeEnd: end,
    githubUrl: `${pathToFileURL(s.file).href}#L${start}-L${end}`,
    documentation: `${c.what} of ${pkg.name} ${pkg.version} ${isAsync ? 'rejects with' : 'throws'} ${errorClass} ("${message}") when its arguments or the object's state do not allow the operation (${helper}${filePath}, line ${line}).`,
    triggerScenarios: `Calling \`${c.call.replace(/^await /, '')}\` with a value or in a state that ${c.what} rejects.`,
    commonSituations: `Passing user input straight to ${pkg.name}; code written against another version of ${pkg.name}.`,
    solutions: [`Check the arguments before calling ${c.what}`, `Catch ${errorClass} around the call and handle it`],
    exampleFix: `// before\n${c.setup}${stmt} // ${errorClass}\n\n// after\n${c.setup}${handler}`,
    handlingStrategy: 'try-catch',
    validationCode: s.guard && c.args.includes(s.guard.param) ? guardCode(s, imports, c) : null,
    typeGuard: null,
    tryCatchPattern: `${imports.join('\n')}\n\n${c.setup}${handler}`,
    preventionTips: [`Read the documentation of ${c.what} for the values it accepts`, `Test the error path that throws ${errorClass}`],
    tags: ['javascript', 'npm', `dist:${pkg.name}`, `version:${pkg.version}`, s.kind],
    backgroundTag: null,
    analyzedSha: hash,
    analyzedAt: stamp,
    schemaVersion: 2,
  };
}
