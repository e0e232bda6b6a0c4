/**
 * The raise condition of a record, compiled from the raising `def` in its `sourceCode`: over the
 * entry point's parameters, when the statement at `lineNumber` runs (see ./types.ts).
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { ExprReader } from './expr.js';
import { ModuleDefs } from './helpers.js';
import { moduleClasses, moduleConstants, moduleDictKeys, globalNames, plainValue } from '../../rules/condition/literal.js';
import type { PlainValue } from '../../records/types.js';
import { readParams } from './params.js';
import { PathReader, statementAt } from './path.js';
import { argumentsOnly } from './pure.js';
import { and } from '../../rules/condition/simplify.js';
import type { Cond, PyVal, RaiseCondition } from '../../rules/condition/types.js';
import { isAsyncDef, ownYield } from '../../python/defs.js';

export interface ConditionOptions {
  /** A method's `self` or a class method's `cls` is not passed by the caller. */
  dropFirst: boolean;
  /** The names that call this def directly (its name, aliases, its class for a constructor). */
  entries: string[];
  /** The record's error class: when `lineNumber` is not a statement of the def (its header), the one `raise` of that class is. */
  errorClass?: string;
  /** What the installed module says, when the code is its grounded window (src/records/ground.ts). */
  installed?: InstalledFacts;
}

/** Read off the installed module at grounding (src/records/ground.ts): its plain classes, its platform names' values. */
export interface InstalledFacts {
  plainClasses?: readonly string[];
  /** `_mswindows`, `os.sep`: used only for names the module binds once (or the platform attributes it imports). */
  values?: Readonly<Record<string, PlainValue>>;
  /** The str keys a module-level dict holds once the module is imported (`_ARCHIVE_FORMATS`: tar, gztar, zip, ...). */
  keys?: Readonly<Record<string, readonly string[]>>;
}

/** The def's only `raise` of `errorClass` (by its simple name), when the record's line is not one of its statements. */
function onlyRaiseOf(def: Node, errorClass: string | undefined): Node | undefined {
  if (!errorClass) return undefined;
  const simple = errorClass.split('.').pop()!;
  const raises = def.descendantsOfType('raise_statement').filter((r): r is Node => !!r && new RegExp(`\\b${simple}\\b`).test(r.text));
  return raises.length === 1 ? raises[0] : undefined;
}

/** When the statement at `row` of `def` (a node of the tree rooted at `root`) runs. */
export function compileCondition(def: Node, row: number, root: Node, o: ConditionOptions): RaiseCondition {
  // Read when a name is looked up (many conditions name no module constant).
  let consts: Map<string, PyVal> | undefined;
  // The library's module constants: UPPER_CASE names assigned once from a literal (a lowercase module
  // variable, `_state` or `raiseExceptions`, is state its functions or its users change).
  let rebound: Set<string> | undefined;
  const installed = o.installed?.values;
  // What this Python binds the module's platform names to when it imports it (`_mswindows`, `os.sep`): a private
  // or UPPER_CASE name no function of the module rebinds. A public lowercase one (`logging.raiseExceptions`) is
  // a setting its users change.
  const value = (n: string) => {
    const v = installed && Object.hasOwn(installed, n) ? installed[n] : undefined;
    if (v === undefined) return undefined;
    if (!n.includes('.') && (!/^_|^[A-Z][A-Z0-9_]*$/.test(n) || (rebound ??= globalNames(root)).has(n))) return undefined;
    return plainValue(v);
  };
  const constant = (n: string) => (/^_*[A-Z][A-Z0-9_]*$/.test(n) ? (consts ??= moduleConstants(root)).get(n) : undefined) ?? value(n);
  const params = readParams(def, constant, o.dropFirst);
  const base = { params, entries: o.entries };
  for (let p = def.parent; p; p = p.parent) {
    if (p.type === 'function_definition')
      return { ...base, when: { k: 'data', text: 'nested function' }, unknown: 'the raise is in a function nested in another one' };
  }
  const stmt = statementAt(def, row) ?? onlyRaiseOf(def, o.errorClass);
  if (!stmt) return { ...base, when: { k: 'data', text: 'no statement' }, unknown: `no statement at line ${row + 1} of the def` };
  let dictKeys: Map<string, PyVal> | undefined;
  const keys = (n: string) => (/^_*[A-Z][A-Z0-9_]*$/.test(n) ? (dictKeys ??= moduleDictKeys(root)).get(n) : undefined);
  let classes: Map<string, PyVal> | undefined;
  const classOf = (n: string) => (classes ??= moduleClasses(root)).get(n);
  const expr = new ExprReader(def, new Map(params.map((p) => [p.name, p])), constant, keys, classOf, new ModuleDefs(root, o.installed?.plainClasses));
  // A dict the module fills once (a literal), or a registry as the import leaves it (./lookup.ts).
  const registry = o.installed?.keys;
  const path = new PathReader(expr, (n) => {
    const fixed = keys(n);
    if (fixed) return { keys: fixed, grows: false };
    const ks = registry && Object.hasOwn(registry, n) ? registry[n] : undefined;
    return ks && /^_/.test(n) ? { keys: { t: 'set', items: ks.map((v) => ({ t: 'str', v })) }, grows: true } : undefined;
  });
  const when = path.reach(def, stmt);
  const exists = definedWhen(def);
  const pure = !exists && argumentsOnly(def, stmt, o.entries.includes('<constructor>'), root);
  return {
    ...base,
    when: exists ? and([exists, when]) : when,
    ...(pure ? { argumentsOnly: true as const } : {}),
    ...(ownYield(def) ? { onIteration: true as const } : isAsyncDef(def) ? { onAwait: true as const } : {}),
    ...(path.exhausted ? { exhausted: path.exhausted } : {}),
    ...internalCheck(stmt, new Set(params.map((p) => p.name))),
  };
}

/**
 * `raise AssertionError(...)` as the `else:` of an `if` / `elif` dispatch over a local value (`if
 * encoding == 'q': ... elif encoding == 'b': ... else: raise AssertionError(...)`): the library's
 * own check that no other value gets there. A chain that tests a parameter or the object (`self`)
 * checks what a caller gives or did before (`write() before start_response()`): not this.
 */
function internalCheck(stmt: Node, params: Set<string>): { internalCheck: string } | undefined {
  const raised = stmt.type === 'raise_statement' ? namedChildren(stmt)[0] : undefined;
  if ((raised?.type === 'call' ? field(raised, 'function') : raised)?.text !== 'AssertionError') return undefined;
  const clause = stmt.parent?.type === 'block' ? stmt.parent.parent : undefined;
  const chain = clause?.type === 'else_clause' ? clause.parent : undefined;
  if (chain?.type !== 'if_statement') return undefined;
  const tests = [chain, ...namedChildren(chain).filter((c) => c.type === 'elif_clause')].map((c) => field(c, 'condition')).filter((t): t is Node => !!t);
  const readsCaller = (t: Node) =>
    t
      .descendantsOfType('identifier')
      .some((i) => !!i && (params.has(i.text) || i.text === 'self') && !(i.parent?.type === 'attribute' && field(i.parent, 'attribute')?.id === i.id));
  if (tests.length < 2 || tests.some(readsCaller)) return undefined;
  return { internalCheck: tests.map((t) => t.text.replace(/\s+/g, ' ')).join(' / ') };
}

/** A def (or its class) defined inside a module-level `if` / `except` / `else` block exists only then (`try: from _locale import * except ImportError: def setlocale(...)`). */
function definedWhen(def: Node): Cond | undefined {
  for (let p = def.parent; p; p = p.parent) {
    const header = (n: Node) => n.text.split('\n')[0]!.trim().replace(/:$/, '');
    if (
      p.type === 'if_statement' ||
      p.type === 'elif_clause' ||
      p.type === 'else_clause' ||
      p.type === 'except_clause' ||
      p.type === 'except_group_clause' ||
      p.type === 'case_clause'
    ) {
      const where = p.type === 'else_clause' || p.type === 'elif_clause' ? `${header(p.parent ?? p)} ... ${header(p)}` : header(p);
      return { k: 'data', text: `the def is defined (only under \`${where}\`)` };
    }
  }
  return undefined;
}

/** The condition of a rule whose window shows no def: nothing about it is known. */
export function unknownCondition(why: string): RaiseCondition {
  return { params: [], entries: [], when: { k: 'data', text: 'unknown' }, unknown: why };
}
