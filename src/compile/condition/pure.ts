/**
 * Whether the path to a raise reads the entry point's arguments and nothing else the program can
 * change (RaiseCondition.argumentsOnly). Read from the raising def's code before the raise: every
 * call is a builtin without side effects or a method of str, bytes or a container; every free name
 * is a parameter, a local of the def, a builtin or an UPPER_CASE constant; the receiver is read
 * only by a constructor (its `self` is being made from the arguments); no `await`, `with`,
 * `global`, `nonlocal`, no `try` (its handlers run on what the body met) and no nested scope.
 *
 * With every argument a literal, such a raise happens on every run of the call or on none, whatever
 * the program's data or history: its first run shows it, so it is no "possible" finding
 * (src/match/bind.ts). `mailbox.Mailbox.update(arg)` sets `bad_key` in an `except` around
 * `self[key] = ...`: not arguments only. `namedtuple(typename, field_names)` calls `_sys.intern`:
 * not known to be pure, so not arguments only either.
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { BUILTINS } from '../../python/builtins.js';
import { importedNames, importTarget } from '../../python/imports.js';

const PURE_CALLS = new Set([
  'isinstance',
  'issubclass',
  'len',
  'type',
  'str',
  'int',
  'float',
  'bool',
  'bytes',
  'bytearray',
  'tuple',
  'list',
  'set',
  'frozenset',
  'dict',
  'callable',
  'hasattr',
  'getattr',
  'repr',
  'ord',
  'chr',
  'min',
  'max',
  'sum',
  'any',
  'all',
  'sorted',
  'reversed',
  'abs',
  'range',
  'enumerate',
  'zip',
  'map',
  'filter',
  'divmod',
  'round',
  'hex',
  'oct',
  'bin',
  'format',
  'slice',
]);
const PURE_METHODS = new Set([
  'startswith',
  'endswith',
  'isidentifier',
  'isdigit',
  'isdecimal',
  'isnumeric',
  'isalpha',
  'isalnum',
  'isascii',
  'isspace',
  'islower',
  'isupper',
  'istitle',
  'lower',
  'upper',
  'title',
  'capitalize',
  'strip',
  'lstrip',
  'rstrip',
  'split',
  'rsplit',
  'partition',
  'rpartition',
  'replace',
  'find',
  'rfind',
  'index',
  'rindex',
  'count',
  'join',
  'encode',
  'decode',
  'format',
  'keys',
  'values',
  'items',
  'get',
  'copy',
  'casefold',
  'splitlines',
  'zfill',
  'ljust',
  'rjust',
  'center',
  'expandtabs',
  'removeprefix',
  'removesuffix',
  'translate',
  'add',
  'append',
  'extend',
  'insert',
  'pop',
  'setdefault',
  'discard',
  'remove',
  'union',
  'intersection',
  'difference',
  'issubset',
  'issuperset',
  'to_bytes',
  'bit_length',
]);
/**
 * Functions of the standard library that read only their arguments, by the name their module binds
 * them to (`import sys as _sys` makes `_sys.intern` one): what namedtuple, ipaddress, string
 * handling call on the way to their raises.
 */
const PURE_LIBRARY = new Set([
  'sys.intern',
  'keyword.iskeyword',
  'keyword.issoftkeyword',
  'operator.index',
  'math.isfinite',
  'math.isnan',
  'math.isinf',
  'math.floor',
  'math.ceil',
  'math.trunc',
  'math.log',
  'math.sqrt',
  'math.fabs',
  'math.isqrt',
  'unicodedata.category',
  'unicodedata.normalize',
  're.escape',
  'itertools.chain',
  'itertools.repeat',
  'itertools.islice',
  'functools.reduce',
  'os.fspath',
]);

/** Module-level imports of the file (absolute ones): the local name to the module or `module.name` it binds. */
function importsOf(root: Node): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of namedChildren(root)) for (const i of importedNames(n)) if (!i.relative) out.set(i.local, importTarget(i));
  return out;
}

/** A callee's library name through the module's imports (`_iskeyword` of `from keyword import iskeyword as _iskeyword`: `keyword.iskeyword`). */
function libraryName(fn: Node, imports: Map<string, string>): string | undefined {
  const dotted =
    fn.type === 'identifier'
      ? fn.text
      : fn.type === 'attribute' && field(fn, 'object')?.type === 'identifier'
        ? `${field(fn, 'object')!.text}.${field(fn, 'attribute')?.text ?? ''}`
        : undefined;
  if (!dotted) return undefined;
  const [head, ...rest] = dotted.split('.');
  const bound = imports.get(head!);
  return bound ? [bound, ...rest].join('.') : undefined;
}

const importsMemo = new WeakMap<object, Map<string, string>>();

/** `libraryName` of a callee, through the imports at the top of its own tree (read once per tree). */
export function calleeLibraryName(fn: Node): string | undefined {
  let m = importsMemo.get(fn.tree);
  if (!m) importsMemo.set(fn.tree, (m = importsOf(fn.tree.rootNode)));
  return libraryName(fn, m);
}

/** A call of a known-pure library function, through the module's imports (`_sys.intern`, `_iskeyword`). */
function pureLibraryCall(fn: Node, imports: Map<string, string>): boolean {
  const name = libraryName(fn, imports);
  return !!name && PURE_LIBRARY.has(name);
}

/** Statements whose presence on the path means more than the arguments are read. */
const IMPURE = new Set([
  'try_statement',
  'with_statement',
  'global_statement',
  'nonlocal_statement',
  'await',
  'yield',
  'function_definition',
  'class_definition',
  'lambda',
  'delete_statement',
  'import_statement',
  'import_from_statement',
  'exec_statement',
  'print_statement',
]);
const TARGETS = new Set(['assignment', 'augmented_assignment', 'for_statement', 'for_in_clause', 'named_expression']);

/** Names bound in the def: parameters and every assignment, loop or comprehension target, walrus. */
function localsOf(def: Node): Set<string> {
  const out = new Set<string>();
  const params = field(def, 'parameters');
  if (params) for (const id of params.descendantsOfType('identifier')) if (id) out.add(id.text);
  for (const t of TARGETS) {
    for (const n of def.descendantsOfType(t)) {
      const left = n && (field(n, 'left') ?? field(n, 'name'));
      if (!left) continue;
      if (left.type === 'identifier') out.add(left.text);
      else
        for (const id of left.descendantsOfType('identifier')) if (id && id.parent?.type !== 'attribute' && id.parent?.type !== 'subscript') out.add(id.text);
    }
  }
  return out;
}

/** The nodes the path to `stmt` reads: every statement of the def's body before it (in order), and the headers of the blocks holding it. */
function pathNodes(def: Node, stmt: Node): Node[] {
  const body = field(def, 'body');
  if (!body) return [];
  const out: Node[] = [];
  for (const s of namedChildren(body)) {
    if (s.startIndex >= stmt.endIndex) break;
    out.push(s);
  }
  return out;
}

export function argumentsOnly(def: Node, stmt: Node, constructor: boolean, root?: Node): boolean {
  const locals = localsOf(def);
  const imports = root ? importsOf(root) : new Map<string, string>();
  for (const top of pathNodes(def, stmt)) {
    const stack: Node[] = [top];
    while (stack.length) {
      const n = stack.pop()!;
      if (IMPURE.has(n.type)) return false;
      // A raise ends the path: what it constructs does not decide whether it is reached.
      if (n.type === 'raise_statement') continue;
      if (n.type === 'call') {
        const fn = field(n, 'function');
        if (!fn) return false;
        if (pureLibraryCall(fn, imports) && !locals.has(fn.type === 'identifier' ? fn.text : (field(fn, 'object')?.text ?? ''))) {
          const args = field(n, 'arguments');
          if (args) stack.push(args);
          continue;
        }
        if (
          fn.type === 'identifier'
            ? !PURE_CALLS.has(fn.text) || locals.has(fn.text)
            : fn.type !== 'attribute' || !PURE_METHODS.has(field(fn, 'attribute')?.text ?? '')
        )
          return false;
        // A pure method of what? Its object is checked as any expression below (a module's function is a free name).
        if (fn.type === 'identifier') {
          for (const c of namedChildren(n)) if (c.id !== fn.id) stack.push(c);
          continue;
        }
      }
      if (n.type === 'identifier') {
        const p = n.parent;
        // An attribute's name and a keyword argument's name are not reads of a variable.
        if (p?.type === 'attribute' && field(p, 'attribute')?.id === n.id) continue;
        if (p?.type === 'keyword_argument' && field(p, 'name')?.id === n.id) continue;
        const name = n.text;
        if (name === 'self' || name === 'cls') {
          if (!constructor) return false;
          continue;
        }
        // Capitalised names are the library's constants and classes (`_STYLES` is not: a private module value may change).
        if (locals.has(name) || BUILTINS.has(name) || /^_*[A-Z]/.test(name)) continue;
        return false;
      }
      for (const c of namedChildren(n)) stack.push(c);
    }
  }
  return true;
}
