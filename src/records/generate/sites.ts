/**
 * The raise sites of Python source, for `raiselint records generate` (./index.ts), read with
 * tree-sitter (no Python needed): every `raise Name(...)` / `raise mod.Name(...)` whose innermost
 * enclosing function is a public module-level function, a public method (instance, class, static,
 * property) of a public module-level class, or `__init__` of a public class, in a public module
 * (no path part starting with `_` except `__init__.py`; no test, idlelib or site-packages folders).
 */
import type { Node } from '../../parse/parser.js';
import { dottedName, field, namedChildren, stringValue, unescapePython } from '../../parse/syntax.js';
import { isBuiltinExceptionClass } from '../../python/builtins.js';
import { importedNames, importTarget } from '../../python/imports.js';

export type SiteKind = 'function' | 'method' | 'classmethod' | 'staticmethod' | 'property' | 'constructor';

export interface Site {
  /** The module's file, relative to the import root, with `/`. */
  file: string;
  module: string;
  /** 1-based line and 0-based column of the `raise`. */
  line: number;
  col: number;
  className: string | null;
  func: string;
  kind: SiteKind;
  decorators: string[];
  isAsync: boolean;
  /** Required parameters as a caller writes them (`x`, keyword-only `key=key`). */
  params: string[];
  /** The class's constructor parameters, for the receiver in the code fields. */
  classParams: string[] | null;
  errorClass: string;
  errorBuiltin: boolean;
  /** The raised class as user code names it in `except` (null: no public name). */
  errorQualified: string | null;
  messageKind: 'literal' | 'format' | 'expr' | 'none';
  message: string;
}

const SCOPES = new Set(['function_definition', 'class_definition', 'lambda']);

/** `m.py` -> `m`, `p/__init__.py` -> `p`, `p/q.py` -> `p.q`. */
export function moduleName(rel: string): string {
  const parts = rel.replace(/\.py$/, '').split('/');
  if (parts[parts.length - 1] === '__init__') parts.pop();
  return parts.join('.');
}

/** The definition a `decorated_definition` wraps, or the node itself. */
function unwrap(n: Node): { def: Node; decorators: string[] } {
  if (n.type !== 'decorated_definition') return { def: n, decorators: [] };
  const def = field(n, 'definition') ?? n;
  const decorators = namedChildren(n)
    .filter((c) => c.type === 'decorator')
    .map((d) => {
      const e = namedChildren(d)[0];
      return (e && dottedName(e.type === 'call' ? field(e, 'function') : e)) ?? '';
    });
  return { def, decorators };
}

/** Definitions of a module or class body, through top-level if/try/else blocks. */
function scopeDefs(body: Node): { def: Node; decorators: string[] }[] {
  const out: { def: Node; decorators: string[] }[] = [];
  const visit = (block: Node) => {
    for (const n of namedChildren(block)) {
      if (n.type === 'function_definition' || n.type === 'class_definition' || n.type === 'decorated_definition') out.push(unwrap(n));
      else if (n.type === 'if_statement' || n.type === 'try_statement') {
        for (const c of namedChildren(n)) {
          if (c.type === 'block') visit(c);
          else if (['elif_clause', 'else_clause', 'except_clause', 'finally_clause'].includes(c.type))
            for (const b of namedChildren(c)) if (b.type === 'block') visit(b);
        }
      }
    }
  };
  visit(body);
  return out;
}

/** Names bound at module level (classes, functions, imports, assignments), through top-level if/try blocks. */
function moduleNames(root: Node): Set<string> {
  const names = new Set<string>();
  const visit = (block: Node) => {
    for (const n of namedChildren(block)) {
      const { def } = unwrap(n);
      if (def.type === 'function_definition' || def.type === 'class_definition') {
        const name = field(def, 'name')?.text;
        if (name) names.add(name);
      } else if (n.type === 'import_statement' || n.type === 'import_from_statement') {
        for (const i of importedNames(n)) names.add(i.local);
      } else if (n.type === 'expression_statement') {
        const a = namedChildren(n)[0];
        if (a?.type === 'assignment') {
          const left = field(a, 'left');
          if (left?.type === 'identifier') names.add(left.text);
          else if (left) for (const id of left.descendantsOfType('identifier')) if (id) names.add(id.text);
        }
      } else if (n.type === 'if_statement' || n.type === 'try_statement') {
        for (const c of namedChildren(n)) {
          if (c.type === 'block') visit(c);
          else for (const b of namedChildren(c)) if (b.type === 'block') visit(b);
        }
      }
    }
  };
  visit(root);
  return names;
}

/** Module-level imported name -> the qualified name it binds (relative imports resolved against `module`). */
function importMap(root: Node, module: string, isPackage: boolean): Map<string, string> {
  const pkg = isPackage ? module.split('.') : module.split('.').slice(0, -1);
  const out = new Map<string, string>();
  for (const n of [...root.descendantsOfType('import_statement'), ...root.descendantsOfType('import_from_statement')]) {
    if (!n) continue;
    for (const i of importedNames(n)) {
      if (i.kind === 'module') {
        out.set(i.local, importTarget(i));
        continue;
      }
      let base = i.module;
      const dots = /^\.+/.exec(base)?.[0].length ?? 0;
      if (dots) {
        const up = dots > 1 ? pkg.slice(0, Math.max(0, pkg.length - (dots - 1))) : pkg;
        base = [...up, ...(base.slice(dots) ? [base.slice(dots)] : [])].join('.');
      }
      out.set(i.local, base ? `${base}.${i.name}` : i.name!);
    }
  }
  return out;
}

/** A string literal's value, implicit concatenation included (`"a" "b"`); undefined for an f-string or another expression. */
function constString(n: Node): string | undefined {
  while (n.type === 'parenthesized_expression' && namedChildren(n).length === 1) n = namedChildren(n)[0]!;
  if (n.type === 'string') return namedChildren(n).some((c) => c.type === 'interpolation') ? undefined : stringText(n);
  if (n.type === 'concatenated_string') {
    const parts = namedChildren(n)
      .filter((c) => c.type === 'string')
      .map(constString);
    return parts.every((p) => p !== undefined) ? parts.join('') : undefined;
  }
  return undefined;
}

/** An f-string's `{expr}` hole as the template shows it (`{k=}` is `k={k}`, as CPython expands it). */
function hole(interp: Node): string {
  const expr = namedChildren(interp)[0]?.text ?? '';
  return /^\{[^]*=\s*(?:![rsa])?(?::[^]*)?\}$/.test(interp.text) && !/[=!<>]=\s*\}$/.test(interp.text) ? `${expr}={${expr}}` : `{${expr}}`;
}

/** A string's pieces as its value reads (escapes decoded unless the string is raw); holes for an f-string's interpolations. */
function pieces(s: Node, holeOf: (c: Node) => string): string {
  const raw = /r/i.test(namedChildren(s).find((c) => c.type === 'string_start')?.text ?? '');
  const decode = (t: string) => (raw ? t : unescapePython(t));
  return namedChildren(s)
    .filter((c) => c.type === 'string_content' || c.type === 'interpolation' || c.type === 'escape_sequence')
    .map((c) => (c.type === 'interpolation' ? holeOf(c) : decode(c.text)))
    .join('');
}

/** A plain string literal's value. */
function stringText(s: Node): string | undefined {
  return stringValue(s) === undefined ? undefined : pieces(s, () => '');
}

/** An f-string (or a concatenation with one) as a template with `{expr}` holes. */
function template(n: Node): string {
  const strings = n.type === 'concatenated_string' ? namedChildren(n).filter((c) => c.type === 'string') : [n];
  return strings.map((s) => pieces(s, hole)).join('');
}

/** (kind, template) of the raised call's first argument. */
function messageOf(call: Node): { kind: Site['messageKind']; text: string } {
  const args = field(call, 'arguments');
  let a = args && namedChildren(args).find((c) => c.type !== 'comment');
  if (!a || a.type === 'keyword_argument' || a.type === 'dictionary_splat') return { kind: 'none', text: '' };
  while (a.type === 'parenthesized_expression' && namedChildren(a).length === 1) a = namedChildren(a)[0]!;
  if (a.type === 'string' || a.type === 'concatenated_string') {
    const v = constString(a);
    if (v !== undefined) return { kind: 'literal', text: v };
    return { kind: 'format', text: template(a) };
  }
  if (a.type === 'binary_operator') {
    const op = a.children.find((c) => c && !c.isNamed)?.text;
    const left = field(a, 'left');
    const lv = left ? constString(left) : undefined;
    if (op === '%' && lv !== undefined) return { kind: 'format', text: lv };
    if (op === '+') {
      const pieces: string[] = [];
      const stack: Node[] = [a];
      while (stack.length) {
        const n = stack.pop()!;
        const nop = n.type === 'binary_operator' ? n.children.find((c) => c && !c.isNamed)?.text : undefined;
        if (nop === '+') stack.push(field(n, 'right')!, field(n, 'left')!);
        else if (constString(n) !== undefined) pieces.push(constString(n)!);
        else pieces.push(`{${n.text}}`);
      }
      if (pieces.some((p) => !p.startsWith('{'))) return { kind: 'format', text: pieces.join('') };
    }
  }
  if (a.type === 'call') {
    const fn = field(a, 'function');
    const obj = fn?.type === 'attribute' ? field(fn, 'object') : null;
    const ov = obj ? constString(obj) : undefined;
    if (fn?.type === 'attribute' && field(fn, 'attribute')?.text === 'format' && ov !== undefined) return { kind: 'format', text: ov };
  }
  return { kind: 'expr', text: a.text };
}

function paramsOf(fn: Node, dropFirst: boolean): string[] {
  const ps = field(fn, 'parameters');
  if (!ps) return [];
  const out: string[] = [];
  let keywordOnly = false;
  let first = true;
  for (const p of namedChildren(ps)) {
    if (p.type === 'keyword_separator' || p.type === 'list_splat_pattern') {
      keywordOnly = true;
      continue;
    }
    if (p.type === 'positional_separator' || p.type === 'dictionary_splat_pattern' || p.type === 'comment') continue;
    const hasDefault = p.type === 'default_parameter' || p.type === 'typed_default_parameter';
    const name = p.type === 'identifier' ? p.text : (field(p, 'name')?.text ?? namedChildren(p).find((c) => c.type === 'identifier')?.text);
    if (first && dropFirst && !keywordOnly) {
      first = false;
      continue;
    }
    first = false;
    if (!name || hasDefault) continue;
    out.push(keywordOnly ? `${name}=${name}` : name);
  }
  return out;
}

function kindOf(def: Node, decorators: string[], inClass: boolean): SiteKind {
  if (!inClass) return 'function';
  if (field(def, 'name')?.text === '__init__') return 'constructor';
  for (const d of decorators) {
    const last = d.split('.').pop()!;
    if (last === 'classmethod' || last === 'staticmethod') return last;
    if (['property', 'cached_property', 'setter', 'deleter', 'getter'].includes(last)) return 'property';
  }
  return 'method';
}

/** Raise statements directly in `fn` (not in nested defs, lambdas or classes), last first (the order the records have always had). */
function raisesIn(fn: Node): Node[] {
  return fn
    .descendantsOfType('raise_statement')
    .filter((r): r is Node => {
      if (!r) return false;
      for (let p = r.parent; p && p.id !== fn.id; p = p.parent) if (SCOPES.has(p.type)) return false;
      return true;
    })
    .reverse();
}

/** The raise sites of one module's tree. */
export function sitesOf(rel: string, root: Node): Site[] {
  const module = moduleName(rel);
  const known = moduleNames(root);
  const imports = importMap(root, module, rel.endsWith('__init__.py'));
  const qualified = (name: string): string | null => {
    const [head, ...rest] = name.split('.');
    if (!rest.length && isBuiltinExceptionClass(name)) return name;
    const bound = imports.get(head!);
    if (bound) {
      const q = [bound, ...rest].join('.');
      return q.split('.')[0]!.startsWith('_') ? null : q;
    }
    return known.has(head!) ? `${module}.${name}` : null;
  };
  const out: Site[] = [];
  const visit = (def: Node, decorators: string[], cls: Node | null, classParams: string[] | null) => {
    const kind = kindOf(def, decorators, !!cls);
    for (const r of raisesIn(def)) {
      const exc = namedChildren(r)[0];
      if (exc?.type !== 'call') continue;
      const name = dottedName(field(exc, 'function'));
      if (!name) continue;
      const head = name.split('.')[0]!;
      const builtin = !name.includes('.') && isBuiltinExceptionClass(name);
      if (!builtin && (!known.has(head) || head === 'self' || head === 'cls')) continue;
      const m = messageOf(exc);
      out.push({
        file: rel,
        module,
        line: r.startPosition.row + 1,
        col: r.startPosition.column,
        className: cls ? (field(cls, 'name')?.text ?? null) : null,
        func: field(def, 'name')?.text ?? '',
        kind,
        decorators,
        isAsync: def.text.startsWith('async'),
        params: paramsOf(def, !!cls && kind !== 'staticmethod'),
        classParams,
        errorClass: name,
        errorBuiltin: builtin,
        errorQualified: qualified(name),
        messageKind: m.kind,
        message: m.text,
      });
    }
  };
  for (const { def, decorators } of scopeDefs(root)) {
    const name = field(def, 'name')?.text ?? '_';
    if (name.startsWith('_')) continue;
    if (def.type === 'class_definition') {
      const body = field(def, 'body');
      if (!body) continue;
      const members = scopeDefs(body);
      const init = members.find((m) => m.def.type === 'function_definition' && field(m.def, 'name')?.text === '__init__');
      const ctor = init ? paramsOf(init.def, true) : [];
      for (const m of members) {
        const mname = field(m.def, 'name')?.text ?? '_';
        if (m.def.type === 'class_definition' || (mname.startsWith('_') && mname !== '__init__')) continue;
        visit(m.def, m.decorators, def, ctor);
      }
    } else visit(def, decorators, null, null);
  }
  return out;
}
