/**
 * A handler of `except KeyError:` (or `LookupError`) around one lookup in a module-level dict,
 * `format_info = _ARCHIVE_FORMATS[format]` in shutil.make_archive: the handler runs when the key is
 * not in the dict. Its keys are those a dict written out with literal keys holds (it never changes),
 * or, for a dict the module's functions add to (a registry: `register_archive_format`), those the
 * grounding interpreter finds there once the module is imported (src/records/values.ts): a key
 * among them is there at every call (unless the program unregisters it); another one may have been
 * registered since, which the call site does not show.
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { and } from '../../rules/condition/simplify.js';
import type { Cond, PyVal } from '../../rules/condition/types.js';
import type { ExprReader } from './expr.js';

/** A module dict's keys: fixed (a literal dict nothing changes) or those it holds after the import (a registry). */
export type DictKeys = (name: string) => { keys: PyVal; grows: boolean } | undefined;

const CAUGHT = /^\(?\s*(KeyError|LookupError)\s*\)?(\s+as\s+\w+)?$/;

/** The one statement (an expression or a `return`) of the `try` body an except clause that catches `caught` handles. */
function soleStatement(clause: Node, caught: RegExp): Node | undefined {
  const head = namedChildren(clause).find((c) => c.type !== 'block' && c.type !== 'comment');
  const body = clause.parent?.type === 'try_statement' ? field(clause.parent, 'body') : null;
  if (!head || !caught.test(head.text) || !body) return undefined;
  const stmts = namedChildren(body).filter((s) => s.type !== 'comment');
  const stmt = stmts.length === 1 ? stmts[0]! : undefined;
  return stmt?.type === 'expression_statement' || stmt?.type === 'return_statement' ? stmt : undefined;
}

/** The condition under which `clause` (an except clause) runs, when it is such a handler; else undefined. */
export function missingKey(clause: Node, expr: ExprReader, dictKeys: DictKeys): Cond | undefined {
  const stmt = soleStatement(clause, CAUGHT);
  if (!stmt) return undefined;
  // One subscript and no call: nothing else in the body raises KeyError.
  const subs = stmt.descendantsOfType('subscript');
  if (subs.length !== 1 || stmt.descendantsOfType('call').length) return undefined;
  const sub = subs[0]!;
  const dict = field(sub, 'value');
  const key = field(sub, 'subscript');
  const left = stmt.type === 'expression_statement' ? namedChildren(stmt)[0] : undefined;
  // `D[k] = v` stores: only a read looks the key up.
  if (left?.type === 'assignment' && field(left, 'left')?.id === sub.id) return undefined;
  const known = dict?.type === 'identifier' ? dictKeys(dict.text) : undefined;
  const side = key && known ? expr.side(key) : undefined;
  if (!known || !side || !('param' in side) || side.len) return undefined;
  const missing: Cond = { k: 'cmp', param: side.param, op: 'not in', value: known.keys };
  return known.grows ? and([missing, { k: 'data', text: `no registration added ${key!.text} to ${dict!.text} since the import` }]) : missing;
}

/** Methods the body may call beside the lookup that raise no `KeyError` of their own on a dict (`self._sections[section].copy()`). */
const SAFE_CALLS = new Set(['update', 'get', 'copy', 'keys', 'values', 'items']);

/**
 * The parameter a `KeyError` handler's lookup is keyed by: the try body reads one subscript, whose
 * key is a name of the def's parameters (`self._sections[section]`; also once rebound from itself,
 * `option = self.optionxform(option)`), and calls nothing else that could raise it.
 */
export function lookupKey(clause: Node, def: Node | undefined): { lookup: string } | undefined {
  const caught = namedChildren(clause).find((c) => c.type !== 'block' && c.type !== 'comment');
  const body = clause.parent?.type === 'try_statement' ? field(clause.parent, 'body') : null;
  if (!def || !caught || !CAUGHT.test(caught.text) || !body) return undefined;
  const reads = body.descendantsOfType('subscript').filter((x) => {
    const up = x?.parent;
    return !!x && !((up?.type === 'assignment' || up?.type === 'augmented_assignment') && field(up, 'left')?.id === x.id);
  });
  const calls = body.descendantsOfType('call').filter((c) => !!c && !reads.some((r) => r!.startIndex <= c.startIndex && c.endIndex <= r!.endIndex));
  const key = reads.length === 1 ? field(reads[0]!, 'subscript') : null;
  if (key?.type !== 'identifier' || calls.some((c) => !SAFE_CALLS.has(field(field(c!, 'function')!, 'attribute')?.text ?? ''))) return undefined;
  const params = field(def, 'parameters')?.descendantsOfType('identifier') ?? [];
  return params.some((p) => p?.text === key.text) ? { lookup: key.text } : undefined;
}

/**
 * A handler of `except AttributeError:` around one `getattr(p, NAME)` of a parameter (dataclasses.fields:
 * `fields = getattr(class_or_instance, _FIELDS)`), with no other call or attribute read beside it:
 * the handler runs when `not hasattr(p, NAME)`, a test of the argument's kind (rules/condition/simplify.ts).
 */
export function missingAttribute(clause: Node, expr: ExprReader): Cond | undefined {
  const stmt = soleStatement(clause, /^AttributeError(\s+as\s+\w+)?$/);
  if (!stmt || stmt.descendantsOfType('attribute').length) return undefined;
  const calls = stmt.descendantsOfType('call');
  const call = calls.length === 1 ? calls[0]! : undefined;
  const args = call && field(call, 'function')?.text === 'getattr' ? namedChildren(field(call, 'arguments') ?? call) : [];
  const [obj, name] = args;
  if (args.length !== 2 || obj?.type !== 'identifier' || !name || !(name.type === 'string' || /^_*[A-Z][A-Z0-9_]*$/.test(name.text))) return undefined;
  const side = expr.side(obj);
  return side && 'param' in side && !side.len && side.param === obj.text ? { k: 'data', text: `not hasattr(${obj.text}, ${name.text})` } : undefined;
}
