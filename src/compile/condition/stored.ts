/**
 * How `__init__` stores its parameters, and what a set of value keys says of a test (./state.ts).
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { truthy } from '../../rules/condition/simplify.js';
import type { PyVal } from '../../rules/condition/types.js';

/** The test's value for every literal in `keys`, when they agree (none unknown). */
export function testOf(keys: Set<string>, test: 'truthy' | 'none'): boolean | undefined {
  let out: boolean | undefined;
  for (const k of keys) {
    if (!k.startsWith('lit:')) return undefined;
    const v = JSON.parse(k.slice(4)) as PyVal;
    const b = test === 'truthy' ? truthy(v) : v.t === 'none';
    if (out !== undefined && out !== b) return undefined;
    out = b;
  }
  return out;
}

/** A parameter stored as it is (`self.allow_none = allow_none`) or as a float (`self._sigma = float(sigma)`). */
export function storedParam(right: Node): { name: string; float?: true } | undefined {
  if (right.type === 'identifier') return { name: right.text };
  const args = right.type === 'call' && field(right, 'function')?.text === 'float' ? namedChildren(field(right, 'arguments') ?? right) : [];
  return args.length === 1 && args[0]!.type === 'identifier' ? { name: args[0]!.text, float: true } : undefined;
}

const BINDS = new Set([
  'assignment',
  'augmented_assignment',
  'for_statement',
  'named_expression',
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
  'as_pattern',
]);

/** The def binds `name` again somewhere in its body (`timeout = timeout or 10`, `for x in ...`, `del x`). */
export function rebinds(def: Node, name: string): boolean {
  for (const id of field(def, 'body')?.descendantsOfType('identifier') ?? []) {
    if (id?.text !== name) continue;
    const up = id.parent;
    if (!up) continue;
    if (up.type === 'delete_statement' || up.type === 'global_statement' || up.type === 'nonlocal_statement') return true;
    if (!BINDS.has(up.type)) continue;
    const target = field(up, 'left') ?? field(up, 'name');
    if (!target || target.id === id.id || up.type === 'pattern_list' || up.type === 'tuple_pattern' || up.type === 'list_pattern' || up.type === 'as_pattern')
      return true;
  }
  return false;
}
