/**
 * Whether a raise inside a `try` leaves it: the first handler that surely catches the raised class
 * decides. A bare `raise` re-raises; a handler with no call and no raise swallows; a handler that
 * calls a callback chosen by the def's own branches (shutil.rmtree: `if ignore_errors: def
 * onerror(*args): pass` / `elif onerror is None: def onerror(*args): raise`, then `except OSError:
 * onerror(os.path.islink, path, sys.exc_info())`) re-raises when the branch that binds a raising
 * callback is taken. Anything else is not known here (undefined: the caller keeps it as data).
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { and, not, or } from '../../rules/condition/simplify.js';
import type { Cond } from '../../rules/condition/types.js';
import { branches } from './helpers.js';
import { isDocstring } from '../../python/guards.js';
import { rebinds } from './stored.js';

/** Handler names that catch every class a library raises (not SystemExit / KeyboardInterrupt / GeneratorExit, never raised as errors here). */
const ANY = new Set(['Exception', 'BaseException']);
const CONTROL = new Set(['SystemExit', 'KeyboardInterrupt', 'GeneratorExit', 'StopIteration', 'StopAsyncIteration']);

/** The class a `raise` statement raises, by its last name (`OSError` of `raise OSError(...)`, `errors.Bad` gives `Bad`). */
export function raisedClass(stmt: Node): string | undefined {
  if (stmt.type !== 'raise_statement') return undefined;
  const e = namedChildren(stmt)[0];
  const cls = e?.type === 'call' ? field(e, 'function') : e;
  if (cls?.type !== 'identifier' && cls?.type !== 'attribute') return undefined;
  return cls.text.split('.').pop();
}

/** The class names a handler lists; [] for a bare `except:`; undefined when not plain names. */
function caughtNames(h: Node): string[] | undefined {
  const head = namedChildren(h).find((c) => c.type !== 'block' && c.type !== 'comment');
  if (!head) return [];
  const what = head.type === 'as_pattern' ? namedChildren(head)[0] : head;
  const items = what?.type === 'tuple' || what?.type === 'parenthesized_expression' ? namedChildren(what) : what ? [what] : [];
  const names = items.map((i) => (i.type === 'identifier' || i.type === 'attribute' ? i.text.split('.').pop()! : ''));
  return names.every(Boolean) ? names : undefined;
}

/** The statements of a block, without comments and a leading docstring. */
function statements(block: Node | null): Node[] {
  const out = block ? namedChildren(block).filter((s) => s.type !== 'comment') : [];
  if (out[0] && isDocstring(out[0])) out.shift();
  return out;
}

/** What a def's body does with the exception being handled when called from a handler: re-raise (`raise`), nothing (`pass`), or not known. */
function callbackRaises(def: Node): boolean | undefined {
  const body = statements(field(def, 'body'));
  if (body.length === 1 && body[0]!.type === 'raise_statement' && !namedChildren(body[0]!).length) return true;
  if (body.every((s) => s.type === 'pass_statement')) return false;
  return undefined;
}

export interface Reader {
  /** The condition of a branch test (./expr.ts). */
  cond(n: Node): Cond;
}

/**
 * When the callback named `name`, called by a handler, re-raises: the defs of it in one `if`/`elif`
 * chain of the def's body above the try decide their branches; no branch taken leaves the
 * parameter of that name (the caller's callback: data), or nothing known.
 */
function callbackEscapes(name: string, def: Node, tryStmt: Node, reader: Reader): Cond | undefined {
  const body = field(def, 'body');
  const ifs = body ? namedChildren(body).filter((s) => s.type === 'if_statement' && s.startIndex < tryStmt.startIndex) : [];
  const chain = ifs.filter((s) => s.descendantsOfType('function_definition').some((d) => field(d!, 'name')?.text === name));
  if (chain.length !== 1) return undefined;
  const bs = branches(chain[0]!);
  const blocks = new Set(bs.map((b) => b.block?.id));
  // Every def of the name sits right in one of the chain's branches; nothing else assigns it.
  const defs = def.descendantsOfType('function_definition').filter((d): d is Node => !!d && d.id !== def.id && field(d, 'name')?.text === name);
  if (defs.some((d) => !blocks.has(d.parent?.id))) return undefined;
  if (rebinds(def, name)) return undefined;
  const passed: Cond = { k: 'data', text: `the ${name} passed re-raises` };
  const parts: Cond[] = [];
  const prior: Cond[] = [];
  for (const b of bs) {
    const taken = and([...prior, ...(b.test ? [reader.cond(b.test)] : [])]);
    const own = statements(b.block).filter((s) => s.type === 'function_definition' && field(s, 'name')?.text === name);
    if (own.length > 1) return undefined;
    const r = own.length ? callbackRaises(own[0]!) : undefined;
    parts.push(and([taken, !own.length ? passed : r === undefined ? { k: 'data', text: `${name}(...) re-raises` } : { k: r ? 'true' : 'false' }]));
    if (b.test) prior.push(not(reader.cond(b.test)));
  }
  if (bs.every((b) => b.test)) parts.push(and([...prior, passed]));
  return or(parts);
}

/** When an exception of class `raised`, raised in the body of `tryStmt` (inside `def`), leaves it; undefined when not known. */
export function escapes(tryStmt: Node, raised: string | undefined, def: Node, reader: Reader): Cond | undefined {
  if (!raised || CONTROL.has(raised)) return undefined;
  for (const h of namedChildren(tryStmt).filter((c) => c.type === 'except_clause' || c.type === 'except_group_clause')) {
    const names = caughtNames(h);
    // A handler of another class may still be a base of the raised one: not known.
    if (!names || h.type === 'except_group_clause' || !(names.length === 0 || names.some((n) => n === raised || ANY.has(n)))) return undefined;
    const body = statements(namedChildren(h).find((c) => c.type === 'block') ?? null);
    const first = body[0];
    if (first?.type === 'raise_statement' && !namedChildren(first).length) return { k: 'true' };
    if (!body.some((s) => s.descendantsOfType(['call', 'raise_statement', 'await']).length || s.type === 'raise_statement')) return { k: 'false' };
    const call = first?.type === 'expression_statement' ? namedChildren(first)[0] : undefined;
    const fn = call?.type === 'call' ? field(call, 'function') : null;
    const rest = body.slice(1).every((s) => s.type === 'pass_statement' || (s.type === 'return_statement' && !s.descendantsOfType('call').length));
    if (fn?.type !== 'identifier' || !rest) return undefined;
    return callbackEscapes(fn.text, def, tryStmt, reader);
  }
  return undefined;
}
