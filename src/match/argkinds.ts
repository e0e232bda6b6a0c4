/**
 * What the semantic model knows of an argument (its type where the call is: narrowed by
 * `isinstance`, `is not None`, an early return; a literal or an operator's result bound to it), as
 * the kind a raise condition reads (src/rules/condition/eval.ts): a built-in class's instance
 * (`isinstance(x, str)` above the call), or `object` for any value known not to be None.
 */
import type { CallSite } from '../semantic/model.js';
import { neverNone, type Type } from '../semantic/types.js';
import type { Kind } from '../rules/condition/eval.js';
import type { Node } from '../parse/parser.js';

/** Instances of these built-in classes, as the model names them (semantic/narrowing.ts), are values of that kind. */
const BUILTIN_KINDS: Record<string, Kind> = {
  'builtins.str': 'str',
  'builtins.bytes': 'bytes',
  'builtins.list': 'list',
  'builtins.dict': 'dict',
  'builtins.tuple': 'tuple',
  'builtins.set': 'set',
};

export function kindOfType(t: Type | undefined): Kind | undefined {
  if (!t || !neverNone(t)) return undefined;
  const first = t[0]!;
  const builtin = first.kind === 'inst' ? BUILTIN_KINDS[first.key] : undefined;
  if (builtin && t.every((a) => a.kind === 'inst' && BUILTIN_KINDS[a.key] === builtin)) return builtin;
  return 'object';
}

/** The kind of each argument of the site's call, by the argument's node. */
export function argumentKinds(site: CallSite): ((n: Node) => Kind | undefined) | undefined {
  const args = site.args;
  return args ? (n) => kindOfType(args.get(n.id)) : undefined;
}
