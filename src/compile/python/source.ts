/**
 * A record's `sourceCode` → facts: the raising `def` (its class, decorators, parameters, other
 * names it is reachable under) and the classes the code shows (bases resolved through its
 * imports; exception classes join the hierarchy). The code is parsed once.
 */
import type { Node } from '../../parse/parser.js';
import { raiseMessage } from './message.js';
import { parseSource } from './trees.js';
import { dottedName, field, namedChildren } from '../../parse/syntax.js';
import { decoratorNames, definitionOf, enclosingDef, enclosingScopeDef, isAsyncDef } from '../../python/defs.js';
import { importedNames } from '../../python/imports.js';
import { callableParameterNames, firstParameterName } from '../../python/params.js';
import type { ExceptionView } from './state.js';
import { compileCondition, type InstalledFacts } from '../condition/compile.js';
import type { RaiseCondition } from '../../rules/condition/types.js';

export interface SourceClass {
  name: string;
  bases: string[];
  /** Names bound to a method in the class body by assignment (`getstate = setstate = _notimplemented`). */
  aliases: Map<string, string[]>;
  /** The methods the class body defines (an override stops the inheritance of a base's raising method). */
  defs: string[];
}

export interface RaisingDef {
  name: string;
  /** Class whose body holds the def, when sourceCode shows the `class` line. */
  className?: string;
  /** The def is a method (inside a class, or a `self`/`cls` first parameter) even if the class is not shown. */
  inClass: boolean;
  decorators: string[];
  classBases: string[];
  /** Other names the def is reachable under in its class (aliases and public wrappers). */
  otherNames: string[];
  /** `async def` (not known for a def inferred from the code fields: ./entry.ts). */
  isAsync?: boolean;
  /** Parameter names a caller passes (after self/cls; no `*args`/`**kwargs`), when sourceCode shows the def. */
  params?: string[];
  /** When the statement at lineNumber runs, over the def's parameters (src/rules/condition/). */
  condition?: RaiseCondition;
  /** The return annotation as written (`NoReturn`, `typing.Never`), when the def has one. */
  returns?: string;
  /** The raise's message when a local string makes it (`msg.format(name)`): the expression and its template (./message.ts). */
  message?: { expr: string; template: string };
}

export interface SourceFacts {
  def?: RaisingDef;
  classes: Map<string, SourceClass>;
  /** The code parsed without errors and the raise's line is code, not string: parsing a piece of it again finds nothing new (./window.ts). */
  settled?: boolean;
}

/** Resolves a name written in sourceCode through its imports (relative ones against the module). */
function sourceResolver(importNodes: Node[], module: string, isPackage: boolean): (name: string) => string {
  const imports = new Map<string, string>();
  const pkgParts = isPackage ? module.split('.') : module.split('.').slice(0, -1);
  const absolute = (mod: string): string => {
    const m = /^(\.+)(.*)$/.exec(mod);
    if (!m) return mod;
    const base = pkgParts.slice(0, Math.max(0, pkgParts.length - (m[1]!.length - 1)));
    return [...base, ...(m[2] ? [m[2]] : [])].join('.');
  };
  for (const n of importNodes) {
    for (const i of importedNames(n)) {
      if (i.kind === 'module') imports.set(i.local, i.aliased ? i.module : i.local);
      else imports.set(i.local, `${absolute(i.module)}.${i.name}`);
    }
  }
  return (name: string) => {
    const [head, ...rest] = name.split('.');
    const base = imports.get(head!);
    return base ? [base, ...rest].join('.') : name;
  };
}

const BUILTIN_BASES = new Set(['object', 'type', 'int', 'str', 'bytes', 'float', 'tuple', 'list', 'dict', 'set', 'frozenset']);

/** `a = b = f` in a class body: the chained targets bound to `f`. */
function readAliases(st: Node, info: SourceClass): void {
  const a = st.type === 'expression_statement' ? namedChildren(st)[0] : undefined;
  if (a?.type !== 'assignment') return;
  const names: string[] = [];
  let cur: Node | null = a;
  while (cur?.type === 'assignment') {
    const l = field(cur, 'left');
    if (l?.type === 'identifier') names.push(l.text);
    cur = field(cur, 'right');
  }
  if (cur?.type === 'identifier') for (const n of names) info.aliases.set(cur.text, [...(info.aliases.get(cur.text) ?? []), n]);
}

/** The methods of a class whose body calls `self.<method>(...)`, in body order (read only for the raising def's class). */
function selfCallers(cls: Node, method: string): string[] {
  const out: string[] = [];
  const body = field(cls, 'body');
  for (const st of body ? namedChildren(body) : []) {
    const def = definitionOf(st);
    if (def?.type !== 'function_definition') continue;
    const caller = field(def, 'name')?.text;
    if (!caller || !def.text.includes(method)) continue;
    for (const call of def.descendantsOfType('call')) {
      const fn = call ? field(call, 'function') : null;
      if (fn?.type === 'attribute' && field(fn, 'object')?.text === 'self' && field(fn, 'attribute')?.text === method) out.push(caller);
    }
  }
  return out;
}

function readClass(cls: Node, module: string, qualify: (b: string) => string | undefined, exceptions: ExceptionView): SourceClass | undefined {
  const name = field(cls, 'name')?.text;
  if (!name) return undefined;
  const sup = field(cls, 'superclasses');
  const written = sup
    ? namedChildren(sup)
        .filter((b) => b.type !== 'keyword_argument')
        .map((b) => dottedName(b))
        .filter((b): b is string => !!b)
    : [];
  const bases = written.map(qualify).filter((b): b is string => !!b);
  const info: SourceClass = { name, bases, aliases: new Map(), defs: [] };
  // Exception classes the snippet defines join the hierarchy (their bases resolved through its imports).
  const looksExc = (b: string) => exceptions.isKnown(b) || /(Error|Exception|Warning)$/.test(b.split('.').pop() ?? '');
  if (bases.some(looksExc) || (/(Error|Exception)$/.test(name) && bases.length)) exceptions.define(`${module}.${name}`, bases);
  const body = field(cls, 'body');
  for (const st of body ? namedChildren(body) : []) {
    readAliases(st, info);
    const def = st.type === 'decorated_definition' ? field(st, 'definition') : st;
    const defName = def?.type === 'function_definition' ? field(def, 'name')?.text : undefined;
    if (defName) info.defs.push(defName);
  }
  return info;
}

export function readSource(
  source: string,
  row: number,
  module: string,
  isPackage: boolean,
  exceptions: ExceptionView,
  errorClass?: string,
  installed?: InstalledFacts,
): SourceFacts {
  return parseSource(source, (tree) => {
    // One search of the tree for the imports and the classes (each in document order).
    const found = tree.rootNode.descendantsOfType(['import_statement', 'import_from_statement', 'class_definition']).filter((n): n is Node => !!n);
    const resolveName = sourceResolver(
      found.filter((n) => n.type !== 'class_definition'),
      module,
      isPackage,
    );
    const classes = new Map<string, SourceClass>();
    const nodes = new Map<SourceClass, Node>();
    const qualify = (b: string): string | undefined => {
      if (BUILTIN_BASES.has(b)) return undefined;
      if (exceptions.isKnown(b) && !b.includes('.')) return b;
      const r = resolveName(b);
      if (r !== b) return r;
      return b.includes('.') ? b : `${module}.${b}`;
    };
    for (const cls of found) {
      const info = cls.type === 'class_definition' ? readClass(cls, module, qualify, exceptions) : undefined;
      if (info) {
        classes.set(info.name, info);
        nodes.set(info, cls);
      }
    }
    const callers = (info: SourceClass, method: string) => selfCallers(nodes.get(info)!, method);
    return {
      def: raisingDef(tree.rootNode, source, row, classes, callers, errorClass, installed),
      classes,
      settled: !tree.rootNode.hasError && !inString(tree.rootNode, source, row),
    };
  });
}

/** The first non-blank character of line `row` is inside a string (the excerpt may start inside one). */
function inString(root: Node, source: string, row: number): boolean {
  const line = source.split('\n')[row];
  if (line === undefined) return false;
  const column = line.length - line.trimStart().length;
  for (let n: Node | null = root.descendantForPosition({ row, column }); n; n = n.parent) if (n.type === 'string') return true;
  return false;
}

function raisingDef(
  root: Node,
  source: string,
  row: number,
  classes: Map<string, SourceClass>,
  callers: (info: SourceClass, method: string) => string[],
  errorClass?: string,
  installed?: InstalledFacts,
): RaisingDef | undefined {
  const fn = enclosingDef(root, source, row);
  const name = fn ? field(fn, 'name')?.text : undefined;
  if (!fn || !name) return undefined;
  const decorators = decoratorNames(fn);
  const c = enclosingScopeDef(fn);
  let className: string | undefined;
  let classBases: string[] = [];
  let inClass = false;
  if (c?.type === 'class_definition') {
    className = field(c, 'name')?.text;
    classBases = className ? (classes.get(className)?.bases ?? []) : [];
    inClass = true;
  } else if (!c) {
    // The snippet may start inside a class body: an indented `def` with a `self`/`cls` first parameter
    // (or a method decorator) is a method of a class the snippet does not show.
    const p = firstParameterName(fn);
    const indented = (fn.parent?.type === 'decorated_definition' ? fn.parent : fn).startPosition.column > 0;
    if (p === 'self' || p === 'cls' || (indented && decorators.some((d) => /(^|\.)(classmethod|staticmethod|property)$/.test(d)))) inClass = true;
  }
  const otherNames: string[] = [];
  const info = className ? classes.get(className) : undefined;
  for (const a of info?.aliases.get(name) ?? []) otherNames.push(a);
  const publicCallers: string[] = [];
  for (const w of info ? callers(info, name) : []) if (!w.startsWith('_') && w !== name) publicCallers.push(w);
  otherNames.push(...publicCallers);
  const isStatic = decorators.some((d) => /(^|\.)staticmethod$/.test(d));
  const ctor = name === '__init__' || name === '__new__';
  // Aliases call the def itself; public callers (`def fileno(self): self._unsupported()`) reach it through code whose path is not read.
  // An always-raising special method (`__load__`, `__getattr__`) runs on any use of its object: an attribute chain through it reaches it.
  const entries = [
    name,
    ...(info?.aliases.get(name) ?? []),
    ...(className && ctor ? [className] : []),
    ...(ctor ? ['<constructor>'] : []),
    ...(!ctor && /^__\w+__$/.test(name) ? ['<attribute>'] : []),
  ];
  const condition = compileCondition(fn, row, root, { dropFirst: inClass && !isStatic, entries: [...new Set(entries)], errorClass, installed });
  // Methods of the class that call the raising one (`ZipFile.read` calls `self.open`): its condition is over what they pass.
  if (condition && publicCallers.length) condition.callers = [...new Set(publicCallers)];
  return {
    name,
    className,
    inClass,
    decorators,
    classBases,
    otherNames: [...new Set(otherNames)],
    isAsync: isAsyncDef(fn),
    params: callableParameterNames(fn),
    condition,
    returns: field(fn, 'return_type')?.text,
    message: raiseMessage(fn, row),
  };
}
