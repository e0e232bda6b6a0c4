/**
 * The values a call's arguments name without running anything: literals, the module's constants,
 * and expressions of those and of the libraries' constants the module imports.
 */
import type { Node } from '../parse/parser.js';
import type { Scopes } from '../semantic/scopes.js';
import { literalOf, moduleConstants } from '../rules/condition/literal.js';
import type { PyVal } from '../rules/condition/types.js';
import { importedConstant, type Constants } from './refs.js';

const constantsByTree = new WeakMap<object, Map<string, PyVal>>();
const libConstantsByTree = new WeakMap<object, Map<string, PyVal>>();

/**
 * What an argument's value is when it is a literal, a module constant, or an expression of those and
 * of a library constant named through the module's imports (`string.ascii_letters + string.digits`).
 */
export function valueReader(call: Node, scopes?: () => Scopes, constants?: Constants): { consts: Map<string, PyVal>; value: (n: Node) => PyVal | undefined } {
  const lib = constants && scopes && Object.keys(constants).length ? (name: string) => importedConstant(name, scopes(), constants) : undefined;
  const consts = constantsOf(call, lib);
  return { consts, value: (n) => literalOf(n, (name) => consts.get(name) ?? (n.type === 'binary_operator' ? lib?.(name) : undefined)) };
}

/**
 * The module's UPPER_CASE constants bound once to a literal, or to an expression of literals and the
 * libraries' constants it imports (`ALPHABET = string.ascii_letters + string.digits`) when `lib` reads them.
 */
export function constantsOf(node: Node, lib?: (name: string) => PyVal | undefined): Map<string, PyVal> {
  const memo = lib ? libConstantsByTree : constantsByTree;
  let m = memo.get(node.tree);
  if (!m) memo.set(node.tree, (m = moduleConstants(node.tree.rootNode, lib)));
  return m;
}
