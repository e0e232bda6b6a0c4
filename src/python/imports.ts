/** Import statements → the names they bind. The one reader of `import` / `from ... import` nodes. */
import type { Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';

export interface ImportedName {
  /** The name bound in the scope: `a` for `import a.b`, the alias, or the imported name. */
  local: string;
  /** `import a.b [as c]` (a module) or `from m import x [as y]`. */
  kind: 'module' | 'from';
  /** The module as written: `a.b` for `import a.b`; `m`, `.m` or `..` for a from-import. */
  module: string;
  /** The imported name of a from-import (`x`); undefined for `import`. */
  name?: string;
  /** `from .m import x`: the module is relative. */
  relative: boolean;
  /** Written with `as`. */
  aliased: boolean;
  /** Where the bound name is written (`a` of `import a.b`, the alias, the imported name): [start, end). */
  localAt: [number, number];
  /** Where the name imported is written (`a.b` of `import a.b [as c]`, `x` of `from m import x [as y]`). */
  sourceAt: [number, number];
}

function aliasPair(c: Node): { name: string; alias: string; at: [number, number]; from: [number, number] } | undefined {
  const n = field(c, 'name');
  const a = field(c, 'alias');
  return n?.text && a?.text ? { name: n.text, alias: a.text, at: [a.startIndex, a.endIndex], from: [n.startIndex, n.endIndex] } : undefined;
}

const at = (n: Node): [number, number] => [n.startIndex, n.endIndex];

/** What each import statement node binds, read once (the model, the scopes and the fix stage ask of the same nodes). */
const READ = new WeakMap<Node, readonly ImportedName[]>();
const NONE: readonly ImportedName[] = [];

/** The names an import statement binds, in order (nothing for other nodes, `__future__` and `*` imports). */
export function importedNames(stmt: Node): readonly ImportedName[] {
  const type = stmt.type;
  if (type !== 'import_statement' && type !== 'import_from_statement') return NONE;
  let out = READ.get(stmt);
  if (!out) READ.set(stmt, (out = readImport(stmt)));
  return out;
}

function readImport(stmt: Node): ImportedName[] {
  const out: ImportedName[] = [];
  if (stmt.type === 'import_statement') {
    for (const c of namedChildren(stmt)) {
      if (c.type === 'dotted_name')
        out.push({
          local: c.text.split('.')[0]!,
          kind: 'module',
          module: c.text,
          relative: false,
          aliased: false,
          localAt: at(namedChildren(c)[0] ?? c),
          sourceAt: at(c),
        });
      else if (c.type === 'aliased_import') {
        const p = aliasPair(c);
        if (p) out.push({ local: p.alias, kind: 'module', module: p.name, relative: false, aliased: true, localAt: p.at, sourceAt: p.from });
      }
    }
  } else if (stmt.type === 'import_from_statement') {
    const modNode = field(stmt, 'module_name');
    const module = modNode?.text ?? '';
    const relative = modNode?.type === 'relative_import';
    for (const c of stmt.childrenForFieldName('name')) {
      if (!c) continue;
      if (c.type === 'dotted_name') out.push({ local: c.text, kind: 'from', module, name: c.text, relative, aliased: false, localAt: at(c), sourceAt: at(c) });
      else if (c.type === 'aliased_import') {
        const p = aliasPair(c);
        if (p) out.push({ local: p.alias, kind: 'from', module, name: p.name, relative, aliased: true, localAt: p.at, sourceAt: p.from });
      }
    }
  }
  return out;
}

/** What the bound name stands for: the head package for `import a.b`, else the module (and name). */
export function importTarget(i: ImportedName): string {
  if (i.kind === 'module') return i.aliased ? i.module : i.local;
  return `${i.module}.${i.name}`;
}

/** The statement as an import line would write it (`from m import x as y`, `import a.b`). */
export function importLine(i: ImportedName): string {
  if (i.kind === 'module') return i.aliased ? `import ${i.module} as ${i.local}` : `import ${i.module}`;
  return `from ${i.module} import ${i.name}${i.local !== i.name ? ` as ${i.local}` : ''}`;
}

/** An `if` condition that is `TYPE_CHECKING` (or `typing.TYPE_CHECKING`): its imports do not run. */
export function isTypeChecking(cond: Node | null): boolean {
  if (!cond) return false;
  const t = cond.text;
  return t === 'TYPE_CHECKING' || /^[A-Za-z_][\w.]*\.TYPE_CHECKING$/.test(t);
}
