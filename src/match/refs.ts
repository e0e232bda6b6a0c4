/**
 * An argument that names a value of an imported module (`inspect.Parameter.POSITIONAL_ONLY`,
 * `asyncio.FIRST_EXCEPTION`, `P.POSITIONAL_ONLY` after `P = inspect.Parameter`): the module and the
 * attribute path, read through the file's module-level imports or an import of the function
 * around the call. The pure-call runner (src/analysis/probe.ts) looks it up in the interpreter the
 * rules are grounded in, as a constant of the standard library; the binder (./bind.ts) reads an
 * UPPER_CASE one from the constants that interpreter gave at compile time (`namedValue`), and a
 * built-in class named as a value.
 */
import type { Node } from '../parse/parser.js';
import type { ImportBinding, Scopes } from '../semantic/scopes.js';
import { importedNames } from '../python/imports.js';
import { BUILTIN_CLASSES } from '../python/builtins.js';
import { plainValue } from '../rules/condition/literal.js';
import type { PyVal } from '../rules/condition/types.js';
import type { PlainValue } from '../records/types.js';
import { field } from '../parse/syntax.js';
import { localAlias } from './locals.js';

const DOTTED = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/;

/** `module:path` for the dotted name `n` read at `call`, when its first name is a module-level import the call's scopes do not rebind. */
export function moduleReference(n: Node, call: Node, scopes: Scopes): string | undefined {
  let text = n.text;
  if (n.type === 'identifier' || n.type === 'attribute') {
    const root = n.type === 'identifier' ? n : rootOf(n);
    const alias = root && localAlias(root, call, scopes);
    if (alias) text = alias.text + text.slice(root!.text.length);
  } else return undefined;
  if (!DOTTED.test(text)) return undefined;
  const first = text.split('.')[0];
  // The first name must be the module's, or a function's own import above the call (`import locale` in the def).
  let own: ImportBinding | undefined;
  for (const s of scopes.scopesOf(call)) {
    if (s.type === 'module' || !scopes.boundIn(s).has(first!)) continue;
    // The innermost scope that binds it decides.
    own = s.type === 'function_definition' ? functionImport(s, first!, call) : undefined;
    if (!own) return undefined;
    break;
  }
  return importRef(text, own ?? scopes.imports.get(first!), scopes.imports);
}

/** `module:path` of a dotted name whose first name `bound` binds (else an `import a.b.c` of the module's imports). */
function importRef(text: string, bound: ImportBinding | undefined, imports: Scopes['imports']): string | undefined {
  const [first, ...rest] = text.split('.');
  if (bound?.kind === 'from') return `${bound.module}:${[bound.name, ...rest].join('.')}`;
  if (bound?.kind === 'module') return rest.length ? `${bound.module}:${rest.join('.')}` : undefined;
  // `import a.b.c` binds `a`: the longest imported module the text starts with.
  let best: string | undefined;
  for (const [key, b] of imports) {
    if (b.kind !== 'module' || !key.startsWith(`${first}\0`)) continue;
    if (text.startsWith(`${b.module}.`) && (!best || b.module.length > best.length)) best = b.module;
  }
  return best ? `${best}:${text.slice(best.length + 1)}` : undefined;
}

/** `builtins:<name>` for a built-in class named at `call` that no scope around it rebinds. */
export function builtinClassReference(n: Node, call: Node, scopes: Scopes): string | undefined {
  if (n.type !== 'identifier' || !BUILTIN_CLASSES.has(n.text)) return undefined;
  return scopes.bindsAround(n.text, call) ? undefined : `builtins:${n.text}`;
}

/** Binding occurrences of a name other than an import (`x = ...`, `for x in`, `with ... as x`, a parameter). */
const OTHER_BINDERS = new Set([
  'assignment',
  'augmented_assignment',
  'for_statement',
  'for_in_clause',
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
  'as_pattern_target',
  'named_expression',
  'global_statement',
  'nonlocal_statement',
  'function_definition',
  'class_definition',
  'parameters',
  'default_parameter',
  'typed_parameter',
  'typed_default_parameter',
]);

interface FunctionImports {
  /** The function's own import statements (not a nested function's), in order, with what each binds. */
  imports: { at: number; names: ReturnType<typeof importedNames> }[];
  /** Names something other than an import binds in the function (a parameter, an assignment, a loop). */
  otherwise: Set<string>;
}

const importsByTree = new WeakMap<object, Map<number, FunctionImports>>();

/** A function's own imports and other bindings, read once per function (every argument of every call asks). */
function functionImports(fn: Node): FunctionImports | undefined {
  let m = importsByTree.get(fn.tree);
  if (!m) importsByTree.set(fn.tree, (m = new Map()));
  const known = m.get(fn.id);
  if (known) return known;
  const body = field(fn, 'body');
  if (!body) return undefined;
  const out: FunctionImports = { imports: [], otherwise: new Set() };
  for (const s of body.descendantsOfType(['import_statement', 'import_from_statement'])) {
    if (!s) continue;
    let up = s.parent;
    while (up && up.type !== 'function_definition') up = up.parent;
    if (up?.id === fn.id) out.imports.push({ at: s.startIndex, names: importedNames(s) });
  }
  for (const id of [...body.descendantsOfType('identifier'), ...(field(fn, 'parameters')?.descendantsOfType('identifier') ?? [])])
    if (id?.parent && OTHER_BINDERS.has(id.parent.type)) out.otherwise.add(id.text);
  m.set(fn.id, out);
  return out;
}

/** What `name` is in function `fn` at `call` when only an import statement of the function itself, above the call, binds it. */
function functionImport(fn: Node, name: string, call: Node): ImportBinding | undefined {
  const facts = functionImports(fn);
  if (!facts || facts.otherwise.has(name)) return undefined;
  let found: ImportBinding | undefined;
  for (const { at, names } of facts.imports) {
    if (at > call.startIndex) continue;
    for (const i of names) {
      if (i.local !== name || i.relative) continue;
      // `import a.b` binds `a` and reaches `a.b`: only a plain `import a` or an alias is read here.
      if (found || (i.kind === 'module' && !i.aliased && i.module !== i.local)) return undefined;
      found = i.kind === 'from' ? { kind: 'from', module: i.module, name: i.name! } : { kind: 'module', module: i.module };
    }
  }
  return found;
}

function rootOf(n: Node): Node | undefined {
  let cur: Node | null = n;
  while (cur?.type === 'attribute') cur = field(cur, 'object');
  return cur?.type === 'identifier' ? cur : undefined;
}

export type Constants = Readonly<Record<string, PlainValue>>;

/**
 * The value an argument names: a built-in class (`int`, `list`: a class object, as `create_autospec(int)`
 * passes it), or an UPPER_CASE constant of an imported library module (`asyncio.FIRST_EXCEPTION`, `LC_ALL`
 * imported from locale) in `constants` (records/values.ts).
 */
export function namedValue(n: Node, call: Node, scopes: Scopes, constants: Constants | undefined): PyVal | undefined {
  const builtin = builtinClassReference(n, call, scopes);
  if (builtin) return { t: 'class', name: builtin.slice('builtins:'.length) };
  if (!constants || (n.type !== 'attribute' && n.type !== 'identifier')) return undefined;
  const ref = moduleReference(n, call, scopes);
  return ref && Object.hasOwn(constants, ref) ? plainValue(constants[ref]!) : undefined;
}

/**
 * The library constant a dotted name or a from-imported name of the module's imports names
 * (`string.digits`, `ascii_letters` of `from string import ascii_letters`), by its text: for a
 * constant expression (`string.ascii_letters + string.digits`). A name the module binds itself is not one.
 */
export function importedConstant(text: string, scopes: Scopes, constants: Constants): PyVal | undefined {
  const ref = DOTTED.test(text) ? importRef(text, scopes.imports.get(text.split('.')[0]!), scopes.imports) : undefined;
  return ref && Object.hasOwn(constants, ref) ? plainValue(constants[ref]!) : undefined;
}
