/**
 * Stand-ins for the classes a file defines, for the literal-call runner (src/analysis/probe.ts):
 * `inspect.getattr_static(thing, 'x')` with `class Thing: x = object()` and `thing = Thing()` above
 * it raises on every run or on none, and which depends on the names the class binds, not on what its
 * methods do. The runner builds a class with the same name, bases, metaclass and attribute names
 * (`class:{...}`), and an instance of it holding the attributes `__init__` sets (`new:{...}`):
 *
 * - a method is a function of the same name and parameters whose body, when called, marks the run
 *   as unknown (it stands for code the runner does not run), wrapped in the same decorators among
 *   `property` (and its `.setter` / `.getter` / `.deleter`), `staticmethod`, `classmethod`,
 *   `types.DynamicClassAttribute`, `functools.cached_property` and `abc.abstractmethod`;
 * - a class attribute bound to a literal holds that literal, one bound to `object()` a new object,
 *   one bound to an instance of such a class of the file (a descriptor) that instance's stand-in;
 * - an attribute `__init__` sets (`self.x = <anything>`) holds a value whose every use marks the run
 *   as unknown.
 *
 * Anything else in the class (another statement, a decorator, a class keyword other than
 * `metaclass=`, a base that is neither `object`, an imported class nor such a class of the file) and
 * the class has no stand-in. An instance needs a class whose bases are its own such classes (or
 * `object`), no `__new__`, and an `__init__` made of `self.<name> = ...` statements only (or none,
 * with one base). The file must not set or delete the class's attributes (`Thing.x = 1`,
 * `setattr(Thing, ...)`), and a local bound to an instance must not be read between its binding and
 * the call (nor on an earlier pass of a loop around the call): code that may change the object.
 */
import type { Node } from '../parse/parser.js';
import type { Scopes } from '../semantic/scopes.js';
import { contains, field, namedChildren } from '../parse/syntax.js';
import { parameters } from '../python/params.js';
import { literalOf } from '../rules/condition/literal.js';
import { builtinClassReference, moduleReference } from './refs.js';
import { namesOf, reachingValue } from './locals.js';

/** A parameter: its name, its kind (`p` positional-only, `n` normal, `a` *args, `k` keyword-only, `w` **kwargs), and whether it has a default. */
type Param = [string, 'p' | 'n' | 'a' | 'k' | 'w', 0 | 1];
/** A name the class body binds: a method, a value (a literal, or a stand-in instance: the runner's forms), or `object()`. */
type Entry = [string, 'def', Param[], string[]] | [string, 'val', string] | [string, 'obj'];

interface ClassSpec {
  n: string;
  b: string[];
  mc?: string;
  ns: Entry[];
}

const MAX_DEPTH = 4;
const MAX_ENTRIES = 200;
/** Decorators a stand-in keeps, by the name the runner knows them by. */
const DECORATORS: Record<string, string> = {
  'builtins:property': 'property',
  'builtins:staticmethod': 'staticmethod',
  'builtins:classmethod': 'classmethod',
  'types:DynamicClassAttribute': 'DynamicClassAttribute',
  'functools:cached_property': 'cached_property',
  'abc:abstractmethod': 'abstractmethod',
};
const ACCESSORS = new Set(['setter', 'getter', 'deleter']);
const LOOPS = new Set(['for_statement', 'while_statement']);

/** `class:{...}` for an identifier naming a class of the file where it is read; else undefined. */
export function classStandIn(n: Node, scopes: Scopes): string | undefined {
  const spec = n.type === 'identifier' ? classSpec(scopes.definitionAt(n.text, n), scopes, 0) : undefined;
  return spec && `class:${JSON.stringify(spec)}`;
}

/**
 * `new:{...}` for `call` (`Thing(3)`) making an instance of a class of the file; `held`: `local` is
 * bound to it above `at`, which must then be the local's first read since.
 */
export function instanceStandIn(call: Node, scopes: Scopes, held?: { local: Node; at: Node }, depth = 0): string | undefined {
  const fn = field(call, 'function');
  const cls = fn?.type === 'identifier' ? scopes.definitionAt(fn.text, call) : undefined;
  if (!cls || (held && !untouched(held.local, held.at, scopes))) return undefined;
  const spec = classSpec(cls, scopes, depth);
  const attrs = spec && instanceAttrs(cls, scopes, depth);
  return attrs && `new:${JSON.stringify({ c: spec, i: attrs })}`;
}

/** The local `n` holds, at `at`, the instance a call made: its binding's value (./locals.ts reachingValue). */
export function heldInstance(n: Node, at: Node, scopes: Scopes): string | undefined {
  const right = reachingValue(n, at, scopes);
  return right?.type === 'call' ? instanceStandIn(right, scopes, { local: n, at }) : undefined;
}

/** No read of the local between its last binding above `at` and `at`, nor in a loop around `at` that the binding is outside of. */
function untouched(local: Node, at: Node, scopes: Scopes): boolean {
  const scope = scopes.scopesOf(local)[0];
  const body = scope?.type === 'function_definition' ? field(scope, 'body') : undefined;
  const u = body && namesOf(scope!).get(local.text);
  if (!u) return false;
  const binding = u.bindings.filter((b) => b.endIndex <= at.startIndex).sort((a, b) => b.startIndex - a.startIndex)[0];
  if (!binding) return false;
  for (let p = at.parent; p && p.id !== body!.id; p = p.parent) if (LOOPS.has(p.type) && !contains(p, binding)) return false;
  return u.reads.every((r) => r.id === local.id || r.startIndex < binding.startIndex || r.startIndex >= at.endIndex);
}

function classSpec(cls: Node | undefined, scopes: Scopes, depth: number): ClassSpec | undefined {
  if (cls?.type !== 'class_definition' || depth > MAX_DEPTH || changedElsewhere(cls)) return undefined;
  const name = field(cls, 'name')?.text;
  const body = field(cls, 'body');
  if (!name || !body) return undefined;
  const spec: ClassSpec = { n: name, b: [], ns: [] };
  const sup = field(cls, 'superclasses');
  for (const b of sup ? namedChildren(sup) : []) {
    if (b.type === 'comment') continue;
    if (b.type === 'keyword_argument') {
      if (field(b, 'name')?.text !== 'metaclass' || spec.mc) return undefined;
      const mc = baseText(field(b, 'value'), cls, scopes, depth);
      if (!mc) return undefined;
      spec.mc = mc;
      continue;
    }
    const t = baseText(b, cls, scopes, depth);
    if (!t) return undefined;
    spec.b.push(t);
  }
  for (const s of namedChildren(body)) {
    if (s.type === 'comment' || s.type === 'pass_statement') continue;
    const e = entryOf(s, scopes, spec.ns, depth);
    if (e === undefined) return undefined;
    if (e && spec.ns.push(e) > MAX_ENTRIES) return undefined;
  }
  return spec;
}

/** A base (or metaclass) in the runner's forms: `builtins:object`, an imported class (`ref:...`), or a class of the file. */
function baseText(b: Node | null, cls: Node, scopes: Scopes, depth: number): string | undefined {
  if (!b) return undefined;
  const builtin = builtinClassReference(b, cls, scopes);
  if (builtin) return builtin;
  const ref = moduleReference(b, cls, scopes);
  if (ref) return `ref:${ref}`;
  const own = b.type === 'identifier' ? classSpec(scopes.definitionAt(b.text, cls), scopes, depth + 1) : undefined;
  return own && `class:${JSON.stringify(own)}`;
}

/** A class-body statement as an entry; null: nothing to bind (a docstring); undefined: no stand-in. */
function entryOf(s: Node, scopes: Scopes, earlier: Entry[], depth: number): Entry | null | undefined {
  if (s.type === 'expression_statement') {
    const only = namedChildren(s);
    const e = only.length === 1 ? only[0]! : undefined;
    if (e?.type === 'string') return null;
    if (e?.type !== 'assignment') return undefined;
    const left = field(e, 'left');
    const right = field(e, 'right');
    if (left?.type !== 'identifier' || !right || field(e, 'type')) return undefined;
    if (right.type === 'call' && right.text.replace(/\s/g, '') === 'object()' && !scopes.bindsAround('object', s)) return [left.text, 'obj'];
    // An instance of a class of the file (a descriptor: `d = descriptor()`) is its stand-in.
    const inst = right.type === 'call' ? instanceStandIn(right, scopes, undefined, depth + 1) : undefined;
    if (inst) return [left.text, 'val', inst];
    const v = literalOf(right);
    return v && v.t !== 'class' ? [left.text, 'val', right.text] : undefined;
  }
  const def = s.type === 'decorated_definition' ? field(s, 'definition') : s;
  if (def?.type !== 'function_definition') return undefined;
  const name = field(def, 'name')?.text;
  if (!name) return undefined;
  const decorators: string[] = [];
  for (const d of s.type === 'decorated_definition' ? namedChildren(s).filter((x) => x.type === 'decorator') : []) {
    const x = namedChildren(d).find((c) => c.type !== 'comment');
    const accessor = x?.type === 'attribute' ? field(x, 'attribute')?.text : undefined;
    // `@x.setter` on a property `x` the class defined above.
    if (accessor && ACCESSORS.has(accessor) && field(x!, 'object')?.text === name && earlier.some((e) => e[0] === name && e[1] === 'def')) {
      decorators.push(accessor);
      continue;
    }
    const key = !x ? undefined : x.type === 'identifier' && !scopes.bindsAround(x.text, s) ? `builtins:${x.text}` : moduleReference(x, s, scopes);
    const known = key && DECORATORS[key];
    if (!known) return undefined;
    decorators.push(known);
  }
  const sig: Param[] = parameters(def).map((p) => [
    p.name,
    p.kind === 'star' ? 'a' : p.kind === 'kw' ? 'w' : p.only === 'positional' ? 'p' : p.only === 'keyword' ? 'k' : 'n',
    p.value ? 1 : 0,
  ]);
  return sig.every((p) => p[0]) ? [name, 'def', sig, decorators] : undefined;
}

/** The attributes an instance's `__init__` sets, when it only sets them (through the own bases when the class has none); else undefined. */
function instanceAttrs(cls: Node, scopes: Scopes, depth: number): string[] | undefined {
  const body = field(cls, 'body');
  if (!body || depth > MAX_DEPTH) return undefined;
  const defs = namedChildren(body).map((s) => (s.type === 'decorated_definition' ? field(s, 'definition') : s));
  const named = (n: string) => defs.find((d) => d?.type === 'function_definition' && field(d, 'name')?.text === n);
  if (named('__new__')) return undefined;
  const sup = field(cls, 'superclasses');
  const bases = sup ? namedChildren(sup).filter((b) => b.type !== 'comment') : [];
  // `object`, or a class of the file (a keyword, a library base: no stand-in instance).
  const own = bases.map((b) => (b.type !== 'identifier' ? undefined : b.text === 'object' ? null : scopes.definitionAt(b.text, cls)));
  if (own.some((b) => b === undefined || (b !== null && b.type !== 'class_definition'))) return undefined;
  const init = named('__init__');
  if (!init) {
    const parents = own.filter((b): b is Node => !!b);
    if (parents.length > 1) return undefined;
    return parents.length ? instanceAttrs(parents[0]!, scopes, depth + 1) : [];
  }
  // Every own base must itself be instantiable (no `__new__` of its own), whatever `__init__` runs.
  for (const b of own) if (b && !instanceAttrs(b, scopes, depth + 1)) return undefined;
  const self = parameters(init)[0]?.name;
  const attrs: string[] = [];
  for (const s of namedChildren(field(init, 'body') ?? init)) {
    if (s.type === 'comment' || s.type === 'pass_statement') continue;
    const e = s.type === 'expression_statement' && namedChildren(s).length === 1 ? namedChildren(s)[0]! : undefined;
    if (e?.type === 'string') continue;
    const left = e?.type === 'assignment' ? field(e, 'left') : null;
    const obj = left?.type === 'attribute' ? field(left, 'object') : null;
    const attr = left ? field(left, 'attribute')?.text : undefined;
    if (!self || obj?.type !== 'identifier' || obj.text !== self || !attr || field(e!, 'right')?.type === 'assignment') return undefined;
    if (!attrs.includes(attr)) attrs.push(attr);
  }
  return attrs;
}

const changedMemo = new WeakMap<object, Map<number, boolean>>();

/** The file sets or deletes an attribute of the class by its name (`Thing.x = 1`, `del Thing.x`, `setattr(Thing, ...)`). */
function changedElsewhere(cls: Node): boolean {
  let m = changedMemo.get(cls.tree);
  if (!m) changedMemo.set(cls.tree, (m = new Map()));
  const known = m.get(cls.id);
  if (known !== undefined) return known;
  const name = field(cls, 'name')?.text;
  let changed = !name;
  for (const id of name ? cls.tree.rootNode.descendantsOfType('identifier') : []) {
    if (changed) break;
    if (id?.text !== name) continue;
    const up = id.parent;
    if (up?.type === 'attribute' && field(up, 'object')?.id === id.id) {
      const host = up.parent;
      changed =
        host?.type === 'delete_statement' ||
        ((host?.type === 'assignment' || host?.type === 'augmented_assignment') && field(host, 'left')?.id === up.id) ||
        host?.type === 'pattern_list' ||
        host?.type === 'tuple_pattern';
    } else if (up?.type === 'argument_list' && namedChildren(up)[0]?.id === id.id) {
      const f = up.parent ? field(up.parent, 'function')?.text : undefined;
      changed = f === 'setattr' || f === 'delattr';
    }
  }
  m.set(cls.id, changed);
  return changed;
}
