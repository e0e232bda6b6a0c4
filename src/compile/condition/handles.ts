/**
 * A flag an object holds while a handle it gave out is open: ZipFile's `_writing`, set by
 * `_open_to_write` (`self._writing = True; return _ZipWriteFile(self, zinfo, zip64)`) and cleared
 * by the handle's `close()` (`self._zipfile._writing = False`), which a `with` runs on the way out
 * (the `__exit__` of io's classes closes). ./state.ts reads a method that opens such a handle in a
 * `with` and leaves it (ZipFile.writestr: `with self.open(zinfo, mode='w') as dest:`) as leaving the
 * flag as the handle's `close()` does; and a truth test of a flag whose every value is a literal
 * (`if self._writing: raise ...`) as ruling out the values it rejects on the way past it.
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { handedEffect, methodsOf, moduleClass, storeOf } from './handed.js';
import { selfAttr } from './initflow.js';

export interface HandleFlag {
  /** The value key (`lit:false`) a handle's `close()` leaves in the flag. */
  closed: string;
  /** The methods that set the flag and return such a handle (`_open_to_write`). */
  openers: Set<string>;
  /** Every value key the flag can hold: what its class's methods and the handles assign, all literals. */
  domain: Set<string>;
}

/** io's classes, whose `__exit__` calls `close()`. */
const IO_BASE = /^io\.(?:IOBase|RawIOBase|BufferedIOBase|TextIOBase|BufferedWriter|BufferedReader|BufferedRandom)$/;

/** The method of the class named `name`. */
const methodOf = (cls: Node, name: string) => methodsOf(cls).find((m) => field(m, 'name')?.text === name);

/** `self` passed to a call of a class of the module (`_ZipWriteFile(self, ...)`): the argument node and the class. */
function handedTo(call: Node): { arg: Node; cls: Node } | undefined {
  const fn = field(call, 'function');
  const cls = fn?.type === 'identifier' ? moduleClass(call, fn.text) : undefined;
  const arg = namedChildren(field(call, 'arguments') ?? call).find((a) => a.type === 'identifier' && a.text === 'self');
  return cls && arg ? { arg, cls } : undefined;
}

/**
 * What a handle class's `close()` leaves in the flag of the object handed to it: an assignment
 * `self.<stored>.<attr> = <literal>` among its statements or in the `finally` of one of its `try`s;
 * undefined unless `with` closes it (io's `__exit__`, or an `__exit__` of its own that calls `self.close()`).
 */
function closesTo(cls: Node, attr: string, literal: (n: Node | null) => string): string | undefined {
  const exit = methodOf(cls, '__exit__');
  const bases = field(cls, 'superclasses');
  const closesOnExit = exit
    ? namedChildren(field(exit, 'body') ?? exit).some((s) => s.type === 'expression_statement' && s.text.replace(/\s/g, '') === 'self.close()')
    : !!bases && namedChildren(bases).some((b) => IO_BASE.test(b.text));
  const close = methodOf(cls, 'close');
  if (!closesOnExit || !close) return undefined;
  const top = namedChildren(field(close, 'body') ?? close);
  const finals = top.filter((s) => s.type === 'try_statement').flatMap((t) => namedChildren(t).filter((c) => c.type === 'finally_clause'));
  const stmts = [...top, ...finals.flatMap((f) => namedChildren(namedChildren(f).find((c) => c.type === 'block') ?? f))];
  for (const s of stmts) {
    const a = s.type === 'expression_statement' ? namedChildren(s)[0] : undefined;
    const left = a?.type === 'assignment' ? field(a, 'left') : null;
    if (left?.type !== 'attribute' || field(left, 'attribute')?.text !== attr || !selfAttr(field(left, 'object'))) continue;
    const v = literal(field(a!, 'right'));
    return v.startsWith('lit:') ? v : undefined;
  }
  return undefined;
}

/** The flag, when every method that sets it returns a handle whose `close()` clears it, and every handle given `self` that changes it does so. */
export function handleFlag(methods: Map<string, Node>, attr: string, literal: (n: Node | null) => string): HandleFlag | undefined {
  const openers = new Set<string>();
  const domain = new Set<string>();
  let closed: string | undefined;
  const agree = (v: string | undefined) => v !== undefined && (closed ??= v) === v;
  for (const [name, def] of methods) {
    // Every store of the flag is of a literal: its domain.
    const sets = def.descendantsOfType('attribute').filter((n): n is Node => !!n && selfAttr(n) === attr && !!storeOf(n));
    for (const n of sets) {
      const v = n.parent?.type === 'assignment' && field(n.parent, 'left')?.id === n.id ? literal(field(n.parent, 'right')) : 'unknown';
      if (!v.startsWith('lit:')) return undefined;
      domain.add(v);
    }
    if (name === '__init__') continue;
    // Handles given `self` that change the flag: `with` must close them to a known value.
    for (const call of def.descendantsOfType('call')) {
      const h = call && handedTo(call);
      if (h && handedEffect(h.arg, attr)?.changes !== false && !agree(closesTo(h.cls, attr, literal))) return undefined;
    }
    if (!sets.length) continue;
    // `self._writing = True` then `return _ZipWriteFile(self, zinfo, zip64)`.
    const handle = def
      .descendantsOfType('return_statement')
      .map((r) => namedChildren(r!)[0])
      .map((v) => (v?.type === 'call' ? handedTo(v) : undefined))
      .find((h) => !!h);
    if (!handle || !agree(closesTo(handle.cls, attr, literal))) return undefined;
    openers.add(name);
  }
  return openers.size && closed ? { closed, openers, domain: domain.add(closed) } : undefined;
}

/**
 * `with self.<m>(...)`: the flag's value keys once the `with` is left, when `m` changes it only by
 * returning an opener's handle (`return self._open_to_write(zinfo)`), or by opening none.
 */
export function closedAfter(item: Node, methods: Map<string, Node>, changers: Set<string>, flag: HandleFlag): string | undefined {
  const fn = item.type === 'call' ? field(item, 'function') : null;
  const name = fn ? selfAttr(fn) : undefined;
  const def = name ? methods.get(name) : undefined;
  if (!def || !changers.has(name!)) return undefined;
  if (flag.openers.has(name!)) return flag.closed;
  for (const n of def.descendantsOfType(['attribute', 'identifier'])) {
    if (!n) continue;
    if (n.type === 'identifier') {
      if (n.text === 'self' && n.parent?.type !== 'attribute' && n.parent?.type !== 'parameters') return undefined;
      continue;
    }
    const m = selfAttr(n);
    if (!m || !changers.has(m)) continue;
    const call = n.parent;
    const ok = call?.type === 'call' && field(call, 'function')?.id === n.id && call.parent?.type === 'return_statement' && flag.openers.has(m);
    if (!ok) return undefined;
  }
  return flag.closed;
}
