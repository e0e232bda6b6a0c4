/** Python literals read from syntax (`'r'`, `-1`, `(1, 2)`, `{'a': None}`), and how they are written back. */
import type { Node } from '../../parse/parser.js';
import { descendantsIn, field, namedChildren, unescapePython } from '../../parse/syntax.js';
import type { PyVal } from './types.js';
import type { PlainValue } from '../../records/types.js';
import { foldBinary, foldInvert } from './fold.js';
import { isBuiltinExceptionClass } from '../../python/builtins.js';

/** Found in the one walk of a file's tree that the model's flows share (src/parse/syntax.ts). */
const GLOBALS = new Set(['global_statement']);

function stringLit(n: Node): PyVal | undefined {
  const start = namedChildren(n).find((c) => c.type === 'string_start')?.text ?? n.text.slice(0, 1);
  const prefix = start.replace(/['"]+$/, '').toLowerCase();
  if (prefix.includes('f') || prefix.includes('t')) return undefined;
  let s = '';
  for (const c of namedChildren(n)) {
    if (c.type === 'interpolation') return undefined;
    if (c.type === 'string_content' || c.type === 'escape_sequence') s += c.text;
  }
  const v = prefix.includes('r') ? s : unescapePython(s);
  return prefix.includes('b') ? { t: 'bytes', v } : { t: 'str', v };
}

function intLit(text: string): number | undefined {
  const t = text.replace(/_/g, '').toLowerCase().replace(/l$/, '');
  const v = /^0[xob]/.test(t) ? Number(t) : /^\d+$/.test(t) ? Number(t) : NaN;
  return Number.isFinite(v) ? v : undefined;
}

/** Builtin types whose constructor call returns exactly that type. */
const CONSTRUCTORS = new Set<PyVal['t']>(['dict', 'list', 'set', 'tuple', 'str', 'bytes', 'int', 'float', 'bool']);

/**
 * The builtin type of an expression whose value is not known, when its syntax says it: a
 * comprehension, a display with computed items, an f-string, a call of a builtin constructor
 * (`dict(f=x)`, `str(n)`). `isinstance` and `is None` over it are decided (./eval.ts). A file that
 * rebinds the constructor's name (`def dict(...)`) is not told apart: such code is rare, and the
 * answer only leaves a finding out.
 */
export function typeOfExpr(n: Node | null | undefined, depth = 0): PyVal['t'] | undefined {
  if (!n || depth > 8) return undefined;
  switch (n.type) {
    case 'list_comprehension':
    case 'list':
      return 'list';
    case 'dictionary_comprehension':
    case 'dictionary':
      return 'dict';
    case 'set_comprehension':
    case 'set':
      return 'set';
    case 'tuple':
      return 'tuple';
    case 'string':
      return /^[a-zA-Z]*[bB]/.test(n.text) ? 'bytes' : 'str';
    case 'concatenated_string':
      return typeOfExpr(namedChildren(n)[0] ?? null, depth + 1);
    case 'parenthesized_expression':
      return typeOfExpr(namedChildren(n)[0] ?? null, depth + 1);
    case 'call': {
      const fn = field(n, 'function');
      return fn?.type === 'identifier' && CONSTRUCTORS.has(fn.text as PyVal['t']) ? (fn.text as PyVal['t']) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The text a str-valued expression surely starts with when it is no literal (`'gi.repository.' +
 * name`, `f"gi.{x}"`, `"~/%s.cfg" % dot`, `"x-{}".format(y)`): what a test of its first characters
 * (`name.startswith(".")`, `path[0] == "/"`) or its truth reads. Undefined when nothing is known.
 */
export function strPrefix(n: Node | null | undefined, depth = 0): string | undefined {
  if (!n || depth > 8) return undefined;
  const plain = (x: Node) => {
    const v = x.type === 'string' && !/^[a-zA-Z]*[fF]/.test(x.text) ? literalOf(x) : undefined;
    return v?.t === 'str' ? v.v : undefined;
  };
  const some = (t: string) => (t ? t : undefined);
  switch (n.type) {
    case 'parenthesized_expression':
      return strPrefix(namedChildren(n)[0], depth + 1);
    case 'string': {
      if (/^[a-zA-Z]*[bB]/.test(n.text)) return undefined;
      const whole = plain(n);
      if (whole !== undefined) return some(whole);
      // An f-string: its text before the first replacement field, up to an escape.
      let out = '';
      for (const c of namedChildren(n)) {
        if (c.type === 'string_start') continue;
        if (c.type !== 'string_content') break;
        const cut = c.text.search(/[\\{}]/);
        out += cut < 0 ? c.text : c.text.slice(0, cut);
        if (cut >= 0) break;
      }
      return some(out);
    }
    case 'concatenated_string': {
      let out = '';
      for (const c of namedChildren(n)) {
        const whole = plain(c);
        if (whole === undefined) return some(out + (strPrefix(c, depth + 1) ?? ''));
        out += whole;
      }
      return some(out);
    }
    case 'binary_operator': {
      const op = n.children.find((c) => c && !c.isNamed)?.type;
      const left = field(n, 'left');
      const whole = left ? plain(left) : undefined;
      // `'%s' % x` formats, `'a' + x` concatenates (x a str, or the caller raises before the call).
      if (op === '%') return whole === undefined ? undefined : some(whole.slice(0, whole.includes('%') ? whole.indexOf('%') : whole.length));
      if (op !== '+') return undefined;
      if (whole !== undefined) return some(whole + (strPrefix(field(n, 'right'), depth + 1) ?? ''));
      return strPrefix(left, depth + 1);
    }
    case 'call': {
      const fn = field(n, 'function');
      const obj = fn?.type === 'attribute' && field(fn, 'attribute')?.text === 'format' ? field(fn, 'object') : null;
      const template = obj ? plain(obj) : undefined;
      return template === undefined ? undefined : some(template.slice(0, template.search(/[{}]|$/)));
    }
    default:
      return undefined;
  }
}

/** The literal value of an expression, or undefined. `constant` resolves a bare name (a module constant). */
export function literalOf(n: Node | null | undefined, constant?: (name: string) => PyVal | undefined, depth = 0): PyVal | undefined {
  if (!n || depth > 8) return undefined;
  const sub = (c: Node | null) => literalOf(c, constant, depth + 1);
  switch (n.type) {
    case 'string':
      return stringLit(n);
    case 'concatenated_string': {
      const parts = namedChildren(n).map(sub);
      if (parts.some((p) => !p || (p.t !== 'str' && p.t !== 'bytes'))) return undefined;
      const first = parts[0] as { t: 'str' | 'bytes'; v: string };
      return { t: first.t, v: parts.map((p) => (p as { v: string }).v).join('') };
    }
    case 'integer': {
      const v = intLit(n.text);
      return v === undefined ? undefined : { t: 'int', v };
    }
    case 'float': {
      if (/j$/i.test(n.text)) return undefined;
      const v = Number(n.text.replace(/_/g, ''));
      return Number.isFinite(v) ? { t: 'float', v } : undefined;
    }
    case 'true':
      return { t: 'bool', v: true };
    case 'false':
      return { t: 'bool', v: false };
    case 'none':
      return { t: 'none' };
    case 'parenthesized_expression':
      return sub(namedChildren(n)[0] ?? null);
    case 'unary_operator': {
      const op = field(n, 'operator')?.text;
      const v = sub(field(n, 'argument'));
      if (v && op === '~') return foldInvert(v);
      if (!v || (v.t !== 'int' && v.t !== 'float')) return undefined;
      return op === '-' ? { t: v.t, v: -v.v } : op === '+' ? v : undefined;
    }
    case 'binary_operator': {
      // `2 ** 32`, `1 << 16`, `'a' + 'b'`, `[0.25] * 4` (./fold.ts).
      const a = sub(field(n, 'left'));
      const b = a && sub(field(n, 'right'));
      const op = field(n, 'operator')?.text;
      return a && b && op ? foldBinary(op, a, b) : undefined;
    }
    case 'tuple':
    case 'list':
    case 'set': {
      const items = namedChildren(n).map(sub);
      if (items.some((i) => !i)) return undefined;
      return { t: n.type, items: items as PyVal[] };
    }
    case 'dictionary': {
      const entries: [PyVal, PyVal][] = [];
      for (const p of namedChildren(n)) {
        const k = p.type === 'pair' ? sub(field(p, 'key')) : undefined;
        const v = p.type === 'pair' ? sub(field(p, 'value')) : undefined;
        if (!k || !v) return undefined;
        entries.push([k, v]);
      }
      return { t: 'dict', entries };
    }
    case 'identifier':
      // A built-in exception or warning class passed as a value (`warn(msg, DeprecationWarning)`).
      return constant?.(n.text) ?? (isBuiltinExceptionClass(n.text) ? { t: 'class', name: n.text } : undefined);
    case 'attribute':
      // A platform attribute the caller knows (`os.sep` as the grounding interpreter has it: src/compile/condition/compile.ts).
      return /^[A-Za-z_]\w*\.[A-Za-z_]\w*$/.test(n.text) ? constant?.(n.text) : undefined;
    default:
      return undefined;
  }
}

/** The value as Python writes it (`'r'`, `None`, `('a', 'b')`). */
export function pyRepr(v: PyVal): string {
  switch (v.t) {
    case 'none':
      return 'None';
    case 'bool':
      return v.v ? 'True' : 'False';
    case 'int':
      return String(v.v);
    case 'float':
      return Number.isInteger(v.v) ? `${v.v}.0` : String(v.v);
    case 'str':
      return `'${v.v.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
    case 'bytes':
      return `b'${v.v.replace(/'/g, "\\'")}'`;
    case 'tuple':
      return `(${v.items.map(pyRepr).join(', ')}${v.items.length === 1 ? ',' : ''})`;
    case 'list':
      return `[${v.items.map(pyRepr).join(', ')}]`;
    case 'set':
      return v.items.length ? `{${v.items.map(pyRepr).join(', ')}}` : 'set()';
    case 'dict':
      return `{${v.entries.map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
    case 'class':
      return v.name;
  }
}

/** Module-level names assigned exactly once, from a literal (`MODES = ('r', 'w')`), anywhere outside functions and classes. */
export function moduleConstants(root: Node, lib?: (name: string) => PyVal | undefined): Map<string, PyVal> {
  // An expression's names: another library's constants only (`string.ascii_letters + string.digits`), when `lib` reads them.
  return moduleValues(root, (rhs) => literalOf(rhs, rhs?.type === 'binary_operator' ? lib : undefined));
}

/** The names a function of the module rebinds (`global X; X = ...`): their import-time value may change. */
export function globalNames(root: Node): Set<string> {
  const out = new Set<string>();
  for (const g of descendantsIn(root, GLOBALS)) for (const id of namedChildren(g)) out.add(id.text);
  return out;
}

/**
 * The module's classes bound once (`class _empty:`, a marker): what `x is _empty` compares with. No
 * literal argument is a class object, so `'spam' is _empty` is false (rules/condition/eval.ts).
 */
export function moduleClasses(root: Node): Map<string, PyVal> {
  return moduleValues(root, () => undefined, 'class');
}

/** The module's names bound once, by an undecorated `def` or `class` statement outside any def or class: name → that statement. */
export function moduleDefinitions(root: Node): Map<string, Node> {
  const once = moduleValues(root, () => undefined, 'def');
  const out = new Map<string, Node>();
  for (const d of root.descendantsOfType(['function_definition', 'class_definition'])) {
    const name = d && field(d, 'name')?.text;
    if (d && name && once.has(name) && d.parent?.type !== 'decorated_definition' && !insideDef(d, root)) out.set(name, d);
  }
  return out;
}

/** Methods that change a dict's keys in place. */
const KEY_MUTATORS = new Set(['update', 'pop', 'popitem', 'setdefault', 'clear', '__setitem__', '__delitem__']);

/**
 * The keys of module-level dicts assigned once from a display whose keys are literals and whose
 * values are computed (`_STYLES = {'%': (PercentStyle, ...), '{': ...}`), as a set: what `x in
 * _STYLES` reads. A dict whose keys a call may change (`_STYLES.update(...)`) is left out.
 */
export function moduleDictKeys(root: Node): Map<string, PyVal> {
  const out = moduleValues(root, (rhs) => {
    if (rhs?.type !== 'dictionary') return undefined;
    const items = namedChildren(rhs);
    if (!items.length || items.some((x) => x.type !== 'pair')) return undefined;
    const keys = items.map((x) => literalOf(field(x, 'key')));
    return keys.every((k): k is PyVal => !!k) ? { t: 'set', items: keys } : undefined;
  });
  if (!out.size) return out;
  for (const a of root.descendantsOfType('attribute')) {
    const obj = a && field(a, 'object');
    if (obj?.type === 'identifier' && out.has(obj.text) && KEY_MUTATORS.has(field(a, 'attribute')?.text ?? '')) out.delete(obj.text);
  }
  // `D[k] = v`, `D[k] += v`, `del D[k]` anywhere (a function needs no `global` for them) may add or remove a key.
  for (const sub of root.descendantsOfType('subscript')) {
    const obj = sub && field(sub, 'value');
    if (obj?.type !== 'identifier' || !out.has(obj.text)) continue;
    const p = sub.parent;
    const target = (p?.type === 'assignment' || p?.type === 'augmented_assignment') && field(p, 'left')?.id === sub.id;
    if (target || p?.type === 'delete_statement' || (p?.type === 'expression_list' && p.parent?.type === 'delete_statement')) out.delete(obj.text);
  }
  return out;
}

/** `defs`: also the names a `class` statement (`'class'`) or an undecorated `def` or `class` statement (`'def'`) binds once. */
function moduleValues(root: Node, read: (rhs: Node | null) => PyVal | undefined, defs?: 'class' | 'def'): Map<string, PyVal> {
  const count = new Map<string, number>();
  const value = new Map<string, PyVal>();
  const bump = (name: string) => count.set(name, (count.get(name) ?? 0) + 1);
  const walk = (block: Node) => {
    for (const st of namedChildren(block)) {
      const a = st.type === 'expression_statement' ? namedChildren(st)[0] : undefined;
      if (a?.type === 'assignment' || a?.type === 'augmented_assignment') {
        const l = field(a, 'left');
        if (l?.type === 'identifier') {
          bump(l.text);
          const v = a.type === 'assignment' ? read(field(a, 'right')) : undefined;
          if (v) value.set(l.text, v);
        } else for (const id of l ? l.descendantsOfType('identifier') : []) if (id) bump(id.text);
      } else if (st.type === 'function_definition' || st.type === 'class_definition' || st.type === 'decorated_definition') {
        const d = st.type === 'decorated_definition' ? field(st, 'definition') : st;
        const name = d ? (field(d, 'name')?.text ?? '') : '';
        bump(name);
        // A class statement (no decorator: it could return anything) binds a class object.
        if ((defs && st.type === 'class_definition') || (defs === 'def' && st.type === 'function_definition')) value.set(name, { t: 'class', name });
      } else if (st.type === 'import_statement' || st.type === 'import_from_statement') {
        for (const id of st.descendantsOfType('identifier')) if (id) bump(id.text);
      } else if (st.type !== 'expression_statement') {
        if (st.type === 'for_statement') for (const id of field(st, 'left')?.descendantsOfType('identifier') ?? []) if (id) bump(id.text);
        for (const c of st.descendantsOfType('block')) if (c && c.parent && !insideDef(c, st)) walkOnce(c);
      }
    }
  };
  const seen = new Set<number>();
  const walkOnce = (b: Node) => {
    if (seen.has(b.id)) return;
    seen.add(b.id);
    walk(b);
  };
  walk(root);
  // Rebinding inside functions (`global X; X = ...`) also disqualifies a name.
  for (const g of descendantsIn(root, GLOBALS)) for (const id of namedChildren(g)) bump(id.text);
  const out = new Map<string, PyVal>();
  for (const [k, v] of value) if (count.get(k) === 1) out.set(k, v);
  return out;
}

/** `b` lies inside a function or class definition below `top`. */
function insideDef(b: Node, top: Node): boolean {
  for (let p: Node | null = b.parent; p && p.id !== top.id; p = p.parent) if (p.type === 'function_definition' || p.type === 'class_definition') return true;
  return false;
}

/** A plain JSON value (a bool, int, str or None an interpreter gave: records/values.ts) as a Python value. */
export function plainValue(v: PlainValue): PyVal {
  if (v === null) return { t: 'none' };
  if (typeof v === 'boolean') return { t: 'bool', v };
  return typeof v === 'number' ? { t: 'int', v } : { t: 'str', v };
}
