// The code and prose fields of a generated standard-library record (scripts/gen-stdlib-records.mjs),
// written as a dataset author writes them: the public import, the public call, the receiver class.

const KEYWORDS = new Set(
  'and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield None True False self cls type object id len str int list dict set file input open print format'.split(
    ' ',
  ),
);

const snake = (name) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

/** A variable for an instance of `cls` that shadows neither a keyword, a builtin nor the module. */
function receiverVar(cls, module) {
  const v = snake(cls).replace(/^_+/, '') || 'obj';
  return KEYWORDS.has(v) || v === cls || v === module.split('.')[0] ? `${v}_obj` : v;
}

/** Style from the record id (deterministic): most function records `import m`, some `from m import f`. */
const fromImport = (id) => parseInt(id.slice(0, 2), 16) % 3 === 0;

/** How the snippets name the raised class in `except`: a builtin, imported with the entry point, or qualified. */
function errorRef(s, style) {
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

function callOf(s, id) {
  const args = s.params.join(', ');
  const aw = s.isAsync ? 'await ' : '';
  if (s.kind === 'function') {
    if (fromImport(id)) return { style: 'from', imports: [`from ${s.module} import ${s.func}`], call: `${aw}${s.func}(${args})`, setup: [] };
    return { style: 'module', imports: [`import ${s.module}`], call: `${aw}${s.module}.${s.func}(${args})`, setup: [] };
  }
  const C = s.className;
  const imports = [`from ${s.module} import ${C}`];
  const ctorArgs = (s.classParams ?? []).join(', ');
  if (s.kind === 'constructor') return { style: 'from', imports, call: `${C}(${args})`, setup: [], assign: receiverVar(C, s.module) };
  if (s.kind === 'classmethod' || s.kind === 'staticmethod') return { style: 'from', imports, call: `${aw}${C}.${s.func}(${args})`, setup: [] };
  const v = receiverVar(C, s.module);
  const setup = [`${v} = ${C}(${ctorArgs})`];
  if (s.kind === 'property') {
    const setter = s.decorators.some((d) => d.endsWith('.setter'));
    return { style: 'from', imports, call: setter ? `${v}.${s.func} = value` : `${v}.${s.func}`, setup, receiver: v, statement: setter };
  }
  return { style: 'from', imports, call: `${aw}${v}.${s.func}(${args})`, setup, receiver: v };
}

const stmt = (c, lhs = 'result') => (c.statement ? c.call : `${c.assign ?? lhs} = ${c.call}`);

/** validationCode, tryCatchPattern, exampleFix, typeGuard and handlingStrategy of site `s`. */
export function codeFields(s, id) {
  const c = callOf(s, id);
  const err = errorRef(s, c.style);
  const imports = [...c.imports];
  if (err.importName) imports[0] = `${imports[0]}, ${err.importName}`;
  const head = [...imports, ...err.imports].join('\n');
  const setup = c.setup.length ? `${c.setup.join('\n')}\n` : '';
  const fallback = c.statement ? 'pass' : `${c.assign ?? 'result'} = None`;
  const tryCatchPattern = `${head}\n\n${setup}try:\n    ${stmt(c)}\nexcept ${err.name} as exc:\n    ${fallback}  # ${s.errorClass}: handle or report exc`;
  const exampleFix = `# before\n${setup}${stmt(c)}  # ${s.errorClass}\n\n# after\ntry:\n    ${stmt(c)}\nexcept ${err.name}:\n    ${fallback}`;
  const C = s.className;
  let validationCode;
  let typeGuard = null;
  if (c.receiver) {
    validationCode = `${head}\n\n${setup}if isinstance(${c.receiver}, ${C}):\n    ${stmt(c)}`;
    typeGuard = `def is_${snake(C)}(obj: object) -> bool:\n    return isinstance(obj, ${C})`;
  } else {
    const checks = s.params.filter((p) => !p.includes('=')).map((p) => `${p} is not None`);
    validationCode = `${head}\n\nif ${checks.length ? checks.join(' and ') : 'True'}:\n    ${stmt(c)}`;
  }
  const handlingStrategy = c.receiver ? 'type-guard' : s.params.length ? 'validation' : 'try-catch';
  return { validationCode, tryCatchPattern, exampleFix, typeGuard, handlingStrategy, call: c.call, imports: head };
}

/** documentation, triggerScenarios, commonSituations, solutions, preventionTips. */
export function proseFields(s, message, code) {
  const qual = `${s.module}.${s.className ? `${s.className}.` : ''}${s.func}`;
  const what = { function: 'function', method: 'method', classmethod: 'class method', staticmethod: 'static method', property: 'property', constructor: 'constructor' }[s.kind];
  const call = code.call.replace(/^await /, '');
  return {
    documentation: `The ${what} ${qual}${s.kind === 'property' ? '' : '()'} raises ${s.errorClass} ("${message}") when its arguments or the object's state do not allow the operation (Lib/${s.file}, line ${s.line}).`,
    triggerScenarios: `Calling \`${call}\` with a value or in a state that ${qual} rejects.`,
    commonSituations: `Passing user input straight to ${s.module}; code written against another Python version.`,
    solutions: [`Check the arguments before calling ${qual}`, `Catch ${s.errorClass} around the call and handle it`],
    preventionTips: [`Read the documentation of ${qual} for the values it accepts`, `Test the error path that raises ${s.errorClass}`],
  };
}
