/**
 * The fix stage, verifying a result: a fix, safe or unsafe, must not leave a name undefined
 * (pyflakes' level: every name the fixed code reads is a builtin, or bound in a scope that the
 * reading statement sees). Asked with the scope queries of the semantic model (semantic/scopes.ts),
 * for the names the fix writes only, before and after: a name that was already undefined before
 * (a star import, a name from another module's `exec`) is not the fix's doing.
 */
import type { Node } from '../parse/parser.js';
import { descendantsOfType, field, namedChildren } from '../parse/syntax.js';
import { targetNames } from '../python/bindings.js';
import { Scopes } from '../semantic/scopes.js';

/** Parents under which an identifier is a name written, not a name read. */
const NOT_READ = new Set([
  'import_statement',
  'import_from_statement',
  'aliased_import',
  'dotted_name',
  'global_statement',
  'nonlocal_statement',
  'parameters',
  'lambda_parameters',
  'default_parameter',
  'typed_parameter',
  'typed_default_parameter',
  'list_splat_pattern',
  'dictionary_splat_pattern',
  'keyword_pattern',
]);

/** Names bound by comprehensions, lambdas, `except ... as`, `with ... as` and `case` patterns anywhere in the file (read as bound wherever they are used). */
function localBindings(root: Node): Set<string> {
  const out = new Set<string>();
  for (const n of descendantsOfType(root, ['for_in_clause', 'lambda_parameters', 'except_clause', 'as_pattern', 'case_pattern', 'keyword_pattern'])) {
    if (n.type === 'for_in_clause') {
      const left = field(n, 'left');
      if (left) targetNames(left, out);
    } else if (n.type === 'except_clause' || n.type === 'as_pattern') {
      const alias = field(n, 'alias');
      if (alias) targetNames(namedChildren(alias)[0] ?? alias, out);
      // tree-sitter-python: `except E as e` keeps `e` after the `as` keyword.
      const kids = n.children;
      for (let i = 0; i + 1 < kids.length; i++) if (kids[i]!.type === 'as' && kids[i + 1]!.type === 'identifier') out.add(kids[i + 1]!.text);
    } else {
      for (const id of descendantsOfType(n, 'identifier')) out.add(id.text);
    }
  }
  return out;
}

/**
 * The names among `names` that some identifier of the file reads while no scope it sees binds
 * them. A file with `from m import *` at its top level reads nothing as undefined (as pyflakes).
 */
export function undefinedNames(root: Node, names: Set<string>): Set<string> {
  const out = new Set<string>();
  if (!names.size) return out;
  if (namedChildren(root).some((s) => s.type === 'import_from_statement' && s.descendantsOfType('wildcard_import').some((w) => !!w))) return out;
  const scopes = new Scopes(root);
  let local: Set<string> | undefined;
  for (const id of descendantsOfType(root, 'identifier')) {
    const name = id.text;
    if (!names.has(name) || out.has(name) || /^__\w+__$/.test(name)) continue;
    const p = id.parent;
    if (!p || NOT_READ.has(p.type)) continue;
    if (p.type === 'attribute' && field(p, 'attribute')?.id === id.id) continue;
    if (p.type === 'keyword_argument' && field(p, 'name')?.id === id.id) continue;
    if ((p.type === 'function_definition' || p.type === 'class_definition') && field(p, 'name')?.id === id.id) continue;
    if (scopes.defines(name, scopes.scopesOf(id))) continue;
    if ((local ??= localBindings(root)).has(name)) continue;
    out.add(name);
  }
  return out;
}

/** The identifiers a fix's edits write (the names to verify). */
export function namesWritten(texts: string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) out.add(m[0]);
  return out;
}
