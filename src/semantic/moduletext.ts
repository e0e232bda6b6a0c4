/**
 * What a Python module's text says, read without a parse for the cross-file facts
 * (./projectfacts.ts): its import statements, the names it hands on to other modules, its plain
 * functions, and its functions that pass their parameters on to a rule's method.
 */
import { ROLE_METHOD } from '../rules/types.js';

const TOP_DEF = /^(?:async[ \t]+)?def[ \t]+(\w+)/gm;
const DECORATED_DEF = /^@[^\n]*\n(?:[@ \t][^\n]*\n|\n)*?(?:async[ \t]+)?def[ \t]+(\w+)/gm;
// A module-level assignment (`rmtree = shutil.rmtree`, `open: Opener = bz2.open`).
const TOP_ASSIGN = /^([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=)/gm;
// Matched at the start of a line that holds `import` (sticky: a multiline `^` tries every position of a large text).
const FROM_IMPORT = /[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]*(\([^)]*\)|[^\n]*)/y;
const PLAIN_IMPORT = /[ \t]*import[ \t]+([\w. \t,]+)/y;

/**
 * A copy of a name read from a module's text that does not hold the text: V8 keeps a slice of 13
 * or more characters as a view of its whole parent string, and these names outlive the text.
 */
const detached = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

/** The import statements of a text: each line that starts one, matched once. */
function* importLines(text: string): Generator<RegExpExecArray & { plain: boolean }> {
  let last = -1;
  for (let at = text.indexOf('import'); at >= 0; at = text.indexOf('import', at + 6)) {
    const line = text.lastIndexOf('\n', at) + 1;
    if (line === last) continue;
    last = line;
    for (const [re, plain] of [
      [FROM_IMPORT, false],
      [PLAIN_IMPORT, true],
    ] as const) {
      re.lastIndex = line;
      const m = re.exec(text);
      if (m) {
        yield Object.assign(m, { plain });
        break;
      }
    }
  }
}

/**
 * One import statement of a text, at `at`: its module (`dots` leading dots for a relative one) and
 * what it binds: for `import a.b as c`, `[{ name: 'a.b', bound: 'c' }]` (`a` without `as`); for
 * `from m import x as y, *`, `[{ name: 'x', bound: 'y' }, { name: '*', bound: '*' }]`.
 */
export interface ImportStatement {
  at: number;
  plain: boolean;
  dots: number;
  /** The `from` module (empty for a plain import: each binding names its module). */
  module: string;
  bindings: { name: string; bound: string }[];
}

/** The import statements of a text (./importLines), each with what it binds. */
export function* importStatements(text: string): Generator<ImportStatement> {
  for (const m of importLines(text)) {
    const bindings: ImportStatement['bindings'] = [];
    if (m.plain) {
      for (const part of m[1]!.split(',')) {
        const [dotted, , alias] = part.trim().split(/\s+/);
        if (dotted) bindings.push({ name: dotted, bound: alias ?? dotted.split('.')[0]! });
      }
    } else {
      for (const part of m[3]!.replace(/[()\\]/g, ' ').split(',')) {
        const [name, , alias] = part.trim().split(/\s+/);
        if (name) bindings.push({ name, bound: alias ?? name });
      }
    }
    yield { at: m.index, plain: m.plain, dots: m.plain ? 0 : m[1]!.length, module: m.plain ? '' : m[2]!, bindings };
  }
}

/**
 * The functions of a module that call a rule's method on a parameter (`def f(rt): rt.save_state()`),
 * or pass a parameter on to one that does (here, or in `known`: the modules it imports), each with
 * those methods: as ./effects.ts reads them, from the text (every `def`, its parameter names, then
 * every `name.method(` and `g(... name ...)` up to the next `def`): a superset of what the summary finds.
 */
export function passersOf(text: string, roles: Map<string, number>, known: ReadonlyMap<string, ReadonlySet<string>>): Map<string, Set<string>> {
  const defs: { name: string; start: number; params: Set<string> }[] = [];
  for (const m of text.matchAll(/\bdef\s+(\w+)\s*\(/g)) {
    // The parameter list up to its closing parenthesis (defaults may hold parentheses).
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    for (; i < text.length && depth > 0; i++) {
      const c = text[i];
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
    }
    const params = new Set<string>();
    for (const p of text.slice(start, i - 1).matchAll(/(?:^|[,(*])\s*([A-Za-z_]\w*)\s*(?=[,=)]|$)/g)) if (p[1] !== 'self' && p[1] !== 'cls') params.add(p[1]!);
    defs.push({ name: detached(m[1]!), start: m.index, params });
  }
  const out = new Map<string, Set<string>>();
  if (!defs.length) return out;
  const ownerAt = (at: number) => {
    let lo = 0;
    let hi = defs.length - 1;
    if (defs[0]!.start > at) return undefined;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (defs[mid]!.start <= at) lo = mid;
      else hi = mid - 1;
    }
    return defs[lo];
  };
  const add = (name: string, methods: Iterable<string>) => {
    let set = out.get(name);
    for (const m of methods) (set ??= out.set(name, new Set()).get(name)!).add(m);
  };
  for (const m of text.matchAll(/\b([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)\s*\(/g)) {
    const d = ownerAt(m.index);
    if (d?.params.has(m[1]!) && ((roles.get(m[2]!) ?? 0) & ROLE_METHOD) !== 0) add(d.name, [detached(m[2]!)]);
  }
  // Passed on, a few calls deep: `g(... param ...)` where g is a passer (this module's or an imported one's).
  const calls = [...text.matchAll(/\b([A-Za-z_]\w*)\s*\(([^()]*)/g)];
  for (let round = 0; round < 3; round++) {
    let grew = false;
    for (const c of calls) {
      const methods = out.get(c[1]!) ?? known.get(c[1]!);
      const d = methods && ownerAt(c.index);
      if (!d || d.name === c[1] || ![...d.params].some((p) => new RegExp(`\\b${p}\\b`).test(c[2]!))) continue;
      const had = out.get(d.name)?.size ?? 0;
      add(d.name, methods);
      if ((out.get(d.name)?.size ?? 0) > had) grew = true;
    }
    if (!grew) break;
  }
  return out;
}

/**
 * The names a module's text binds from other modules (`from shutil import rmtree as rm`: `rm` from
 * `shutil`; `import json`: `json` from `json`; `from bz2 import *`: `*` from `bz2`) or by a
 * module-level assignment (from `*`: any).
 * What another module can get from it as a library's function: a name it defines itself (`def
 * rmtree`), or only mentions (`'{}'.format(x)`), is its own.
 */
export function handedOn(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (name: string, root: string) => {
    let set = out.get(name);
    if (!set) out.set((name = detached(name)), (set = new Set()));
    set.add(detached(root));
  };
  for (const st of importStatements(text)) {
    // `import json`, `import os.path`, `import json as complexjson`: the module (its root) under a name.
    if (st.plain) for (const b of st.bindings) add(b.bound, b.name.split('.')[0]!);
    else if (!st.dots) for (const b of st.bindings) add(b.bound, st.module.split('.')[0]!);
  }
  for (const m of text.matchAll(TOP_ASSIGN)) add(m[1]!, '*');
  return out;
}

/** The names only a plain top-level `def` binds in a module's text (a decorator may make anything of a def; a name also bound otherwise may be anything). */
export function plainDefs(text: string, handed: Map<string, Set<string>>): Set<string> {
  const out = new Set<string>();
  const twice = new Set<string>();
  for (const m of text.matchAll(TOP_DEF)) (out.has(m[1]!) ? twice : out).add(detached(m[1]!));
  for (const n of twice) out.delete(n);
  for (const m of text.matchAll(DECORATED_DEF)) out.delete(m[1]!);
  for (const n of handed.keys()) out.delete(n);
  return out;
}
