/**
 * One upstream-format record (schemaVersion 2) of a raise site (./sites.ts): the 37-line window
 * centred on the raise, the message and its pattern, a stable id, and the code and prose fields
 * as a dataset author writes them (`import m` / `m.f(...)`; `from m import C`, `obj = C(...)`,
 * `obj.meth(...)`; `isinstance(obj, C)`).
 */
import { createHash } from 'node:crypto';
import type { Site } from './sites.js';

const HALF = 18;
const KEYWORDS = new Set(
  'and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield None True False self cls type object id len str int list dict set file input open print format'.split(
    ' ',
  ),
);

/** Where the records come from: the repository, version and link of each file. */
export interface Origin {
  repo: string;
  version: string;
  /** The record's filePath of a module file (`Lib/json/decoder.py`). */
  filePath(rel: string): string;
  /** A link to lines [start, end] of a module file. */
  url(rel: string, start: number, end: number): string;
  /** Extra tags (`cpython`, `stdlib`; a distribution's `dist:<name>`). */
  tags: string[];
}

/** `s` as a regular expression that matches it literally. */
export const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const snake = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

function messageOf(s: Site): { message: string; pattern: string | null } {
  // An empty message (`raise ValueError('')`) says nothing: the record names the raise instead.
  if ((s.messageKind === 'literal' || s.messageKind === 'format') && !s.message.trim())
    return { message: `${s.errorClass} raised by ${s.className ? `${s.className}.` : ''}${s.func}()`, pattern: null };
  if (s.messageKind === 'literal') return { message: s.message, pattern: regexEscape(s.message) };
  if (s.messageKind === 'format') {
    const holes = /\{[^{}]*\}|%[-#0 +]*\d*(?:\.\d+)?[sdrifxXeEgGc%]/g;
    return { message: s.message, pattern: s.message.split(holes).map(regexEscape).join('.*?') };
  }
  if (s.messageKind === 'expr' && s.message) return { message: s.message, pattern: '.*' };
  return { message: `${s.errorClass} raised by ${s.className ? `${s.className}.` : ''}${s.func}()`, pattern: null };
}

function slugOf(s: Site, message: string): string {
  const words = `${s.func} ${message}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .slice(0, 9);
  return words.join('-').slice(0, 72).replace(/-+$/, '') || 'raise';
}

function receiverVar(cls: string, module: string): string {
  const v = snake(cls).replace(/^_+/, '') || 'obj';
  return KEYWORDS.has(v) || v === cls || v === module.split('.')[0] ? `${v}_obj` : v;
}

interface CallShape {
  style: 'from' | 'module';
  imports: string[];
  call: string;
  setup: string[];
  assign?: string;
  receiver?: string;
  statement?: boolean;
}

function callOf(s: Site, id: string): CallShape {
  const args = s.params.join(', ');
  const aw = s.isAsync ? 'await ' : '';
  if (s.kind === 'function') {
    // Most function records `import m`, some `from m import f` (by the id: deterministic).
    if (parseInt(id.slice(0, 2), 16) % 3 === 0)
      return { style: 'from', imports: [`from ${s.module} import ${s.func}`], call: `${aw}${s.func}(${args})`, setup: [] };
    return { style: 'module', imports: [`import ${s.module}`], call: `${aw}${s.module}.${s.func}(${args})`, setup: [] };
  }
  const C = s.className!;
  const imports = [`from ${s.module} import ${C}`];
  if (s.kind === 'constructor') return { style: 'from', imports, call: `${C}(${args})`, setup: [], assign: receiverVar(C, s.module) };
  if (s.kind === 'classmethod' || s.kind === 'staticmethod') return { style: 'from', imports, call: `${aw}${C}.${s.func}(${args})`, setup: [] };
  const v = receiverVar(C, s.module);
  const setup = [`${v} = ${C}(${(s.classParams ?? []).join(', ')})`];
  if (s.kind === 'property') {
    const setter = s.decorators.some((d) => d.endsWith('.setter'));
    return { style: 'from', imports, call: setter ? `${v}.${s.func} = value` : `${v}.${s.func}`, setup, receiver: v, statement: setter };
  }
  return { style: 'from', imports, call: `${aw}${v}.${s.func}(${args})`, setup, receiver: v };
}

function errorRef(s: Site, style: CallShape['style']): { name: string; importName?: string; imports: string[] } {
  const e = s.errorClass;
  const q = s.errorQualified;
  if (s.errorBuiltin) return { name: e, imports: [] };
  const local = q === `${s.module}.${e}`;
  if (local && style === 'module') return { name: q, imports: [] };
  if (local) return { name: e, importName: e, imports: [] };
  if (q) {
    const mod = q.split('.').slice(0, -1).join('.');
    return { name: q, imports: mod && mod !== s.module ? [`import ${mod}`] : [] };
  }
  // Not importable by a public name (a private module's class): the dataset names its base.
  return { name: 'Exception', imports: [] };
}

function codeFields(s: Site, id: string) {
  const c = callOf(s, id);
  const err = errorRef(s, c.style);
  const imports = [...c.imports];
  if (err.importName) imports[0] = `${imports[0]}, ${err.importName}`;
  const head = [...imports, ...err.imports].join('\n');
  const setup = c.setup.length ? `${c.setup.join('\n')}\n` : '';
  const stmt = c.statement ? c.call : `${c.assign ?? 'result'} = ${c.call}`;
  const fallback = c.statement ? 'pass' : `${c.assign ?? 'result'} = None`;
  let validationCode: string;
  let typeGuard: string | null = null;
  if (c.receiver) {
    validationCode = `${head}\n\n${setup}if isinstance(${c.receiver}, ${s.className}):\n    ${stmt}`;
    typeGuard = `def is_${snake(s.className!)}(obj: object) -> bool:\n    return isinstance(obj, ${s.className})`;
  } else {
    const checks = s.params.filter((p) => !p.includes('=')).map((p) => `${p} is not None`);
    validationCode = `${head}\n\nif ${checks.length ? checks.join(' and ') : 'True'}:\n    ${stmt}`;
  }
  return {
    call: c.call,
    validationCode,
    typeGuard,
    tryCatchPattern: `${head}\n\n${setup}try:\n    ${stmt}\nexcept ${err.name} as exc:\n    ${fallback}  # ${s.errorClass}: handle or report exc`,
    exampleFix: `# before\n${setup}${stmt}  # ${s.errorClass}\n\n# after\ntry:\n    ${stmt}\nexcept ${err.name}:\n    ${fallback}`,
    handlingStrategy: c.receiver ? 'type-guard' : s.params.length ? 'validation' : 'try-catch',
  };
}

const WHAT: Record<Site['kind'], string> = {
  function: 'function',
  method: 'method',
  classmethod: 'class method',
  staticmethod: 'static method',
  property: 'property',
  constructor: 'constructor',
};

/** The record of site `s` of a file whose lines are `lines`; `slugs` keeps slugs unique. */
export function recordOf(s: Site, lines: readonly string[], origin: Origin, slugs: Set<string>, stamp: string): Record<string, unknown> {
  const filePath = origin.filePath(s.file);
  const start = Math.max(1, s.line - HALF);
  const end = Math.min(lines.length, start + 2 * HALF);
  const { message, pattern } = messageOf(s);
  let slug = slugOf(s, message);
  for (let n = 2; slugs.has(slug); n++) slug = `${slugOf(s, message)}-${n}`;
  slugs.add(slug);
  const id = createHash('sha256').update(`${origin.repo} ${origin.version} ${filePath}:${s.line}:${s.col} ${s.errorClass}`).digest('hex').slice(0, 16);
  const code = codeFields(s, id);
  const qual = `${s.module}.${s.className ? `${s.className}.` : ''}${s.func}`;
  const call = code.call.replace(/^await /, '');
  return {
    id,
    repo: origin.repo,
    slug,
    errorCode: null,
    errorMessage: message,
    messagePattern: pattern,
    errorType: 'exception',
    errorClass: s.errorClass.split('.').pop(),
    httpStatus: null,
    severity: 'error',
    filePath,
    lineNumber: s.line,
    sourceCode: lines.slice(start - 1, end).join('\n'),
    sourceCodeStart: start,
    sourceCodeEnd: end,
    githubUrl: origin.url(s.file, start, end),
    documentation: `The ${WHAT[s.kind]} ${qual}${s.kind === 'property' ? '' : '()'} raises ${s.errorClass} ("${message}") when its arguments or the object's state do not allow the operation (${filePath}, line ${s.line}).`,
    triggerScenarios: `Calling \`${call}\` with a value or in a state that ${qual} rejects.`,
    commonSituations: `Passing user input straight to ${s.module}; code written against another ${origin.repo === 'python/cpython' ? 'Python version' : `version of ${origin.repo.split('/').pop()}`}.`,
    solutions: [`Check the arguments before calling ${qual}`, `Catch ${s.errorClass} around the call and handle it`],
    exampleFix: code.exampleFix,
    handlingStrategy: code.handlingStrategy,
    validationCode: code.validationCode,
    typeGuard: code.typeGuard,
    tryCatchPattern: code.tryCatchPattern,
    preventionTips: [`Read the documentation of ${qual} for the values it accepts`, `Test the error path that raises ${s.errorClass}`],
    tags: ['python', ...origin.tags, s.module.split('.')[0], s.kind],
    backgroundTag: null,
    analyzedSha: null,
    analyzedAt: stamp,
    schemaVersion: 2,
  };
}
