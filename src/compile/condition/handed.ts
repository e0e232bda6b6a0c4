/**
 * What a class of the same module does with a `self` handed to its constructor
 * (`return _ZipWriteFile(self, zinfo, zip64)`): ./state.ts asks whether that object may change an
 * attribute of the one handed to it. The constructor must store the parameter in attributes of its
 * own (`self._zipfile = zf`) and only read through it; the class's methods must use those
 * attributes only to read or set other attributes (`self._zipfile._writing = False`) or to call
 * methods, which the caller then counts as called. Anything else (the object passed on, aliased,
 * returned; `setattr`, `vars`, `__dict__`) is taken as a change.
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { selfAttr } from './initflow.js';

/** A method's reading of one attribute: it changes it, or it may call these methods of its object. */
export interface Effect {
  changes: boolean;
  calls: Set<string>;
}

const CHANGES: Effect = { changes: true, calls: new Set() };
const DYNAMIC = new Set(['setattr', 'delattr', 'vars', 'getattr']);

/** The top-level class of the module holding `n`, by name. */
export function moduleClass(n: Node, name: string): Node | undefined {
  let root: Node | null = n;
  while (root?.parent) root = root.parent;
  for (const st of root ? namedChildren(root) : []) {
    const def = st.type === 'decorated_definition' ? field(st, 'definition') : st;
    if (def?.type === 'class_definition' && field(def, 'name')?.text === name) return def;
  }
  return undefined;
}

/** The class body's methods. */
export function methodsOf(cls: Node): Node[] {
  const out: Node[] = [];
  for (const st of namedChildren(field(cls, 'body') ?? cls)) {
    const def = st.type === 'decorated_definition' ? field(st, 'definition') : st;
    if (def?.type === 'function_definition') out.push(def);
  }
  return out;
}

/** The name of the constructor's parameter that receives the argument `arg` (positional, after `self`, or by keyword). */
function receivingParam(init: Node, arg: Node): string | undefined {
  const params = namedChildren(field(init, 'parameters') ?? init).slice(1);
  const name = (p: Node) =>
    p.type === 'identifier' ? p.text : p.type === 'default_parameter' || p.type === 'typed_parameter' ? field(p, 'name')?.text : undefined;
  if (arg.parent?.type === 'keyword_argument') {
    const key = field(arg.parent, 'name')?.text;
    return params.some((p) => name(p) === key) ? key : undefined;
  }
  const args = namedChildren(arg.parent!);
  const i = args.findIndex((a) => a.id === arg.id);
  if (args.slice(0, i).some((a) => a.type === 'list_splat' || a.type === 'dictionary_splat')) return undefined;
  if (params.slice(0, i + 1).some((p) => p.type === 'list_splat_pattern' || p.type === 'keyword_separator')) return undefined;
  const p = params[i];
  return p && name(p);
}

/** `ref.X` read or written: a write of `attr` changes it; anything else on it may call `X`. False when `ref` is not used as `ref.X`. */
function throughRef(ref: Node, attr: string, out: Effect): boolean {
  const up = ref.parent;
  if (up?.type !== 'attribute' || field(up, 'object')?.id !== ref.id) return false;
  const x = field(up, 'attribute')?.text ?? '';
  const store = storeOf(up);
  if (x === attr && store) out.changes = true;
  else if (store !== 'assigned') out.calls.add(x);
  return true;
}

/**
 * How an attribute node `n` is written, if it is: the left side of an assignment (`a.x = v`,
 * `a.x += v`), or a target among others (`a.x, b = v`, `del a.x`, `del a.x, b`).
 */
export function storeOf(n: Node): 'assigned' | 'target' | undefined {
  const up = n.parent;
  if ((up?.type === 'assignment' || up?.type === 'augmented_assignment') && field(up, 'left')?.id === n.id) return 'assigned';
  const t = up?.type;
  const deleted = t === 'delete_statement' || (t === 'expression_list' && up?.parent?.type === 'delete_statement');
  return t === 'pattern_list' || t === 'tuple_pattern' || deleted ? 'target' : undefined;
}

/**
 * The effect on `attr` of handing `self` (the node `arg`, an argument of a call) on; undefined when
 * the call is not a same-module class's constructor this reader can follow (the caller counts a change).
 */
export function handedEffect(arg: Node, attr: string): Effect | undefined {
  const call = arg.parent?.type === 'keyword_argument' ? arg.parent.parent?.parent : arg.parent?.parent;
  const fn = call?.type === 'call' ? field(call, 'function') : null;
  const cls = fn?.type === 'identifier' ? moduleClass(arg, fn.text) : undefined;
  if (!cls) return undefined;
  const methods = methodsOf(cls);
  const init = methods.find((m) => field(m, 'name')?.text === '__init__');
  if (!init || methods.some((m) => ['__new__', '__getattr__', '__getattribute__', '__setattr__'].includes(field(m, 'name')?.text ?? ''))) return undefined;
  const param = receivingParam(init, arg);
  if (!param) return undefined;
  const out: Effect = { changes: false, calls: new Set() };
  // The constructor: the parameter stored whole in attributes of the new object, or read through.
  const stores = new Set<string>();
  for (const n of field(init, 'body')?.descendantsOfType('identifier') ?? []) {
    if (!n || n.text !== param || throughRef(n, attr, out)) continue;
    const a = n.parent;
    const stored = a?.type === 'assignment' && field(a, 'right')?.id === n.id ? selfAttr(field(a, 'left')) : undefined;
    if (!stored || a!.parent?.type !== 'expression_statement') return CHANGES;
    stores.add(stored);
  }
  // Every method: the stored attributes used only as `self.<stored>.X`; no dynamic access to the object.
  for (const m of methods) {
    for (const n of m.descendantsOfType(['attribute', 'call'])) {
      if (!n) continue;
      if (n.type === 'call') {
        if (DYNAMIC.has(field(n, 'function')?.text ?? '')) return CHANGES;
        continue;
      }
      const s = selfAttr(n);
      if (s === '__dict__') return CHANGES;
      if (!s || !stores.has(s)) continue;
      const up = n.parent;
      const reassigned = up?.type === 'assignment' && field(up, 'left')?.id === n.id;
      if (!reassigned && !throughRef(n, attr, out)) return CHANGES;
    }
  }
  return out;
}
