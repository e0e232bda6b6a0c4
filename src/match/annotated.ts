/**
 * The builtin type a parameter's annotation says exactly (`secret: str`), for an identifier
 * argument that names the parameter of its function, when nothing in the function rebinds it.
 */
import type { Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';
import type { PyVal } from '../rules/condition/types.js';

/** Annotations that say the value's class exactly (`float` takes an int, `bytes` a bytearray, `int` a bool: not these). */
const EXACT_ANNOTATIONS: Record<string, PyVal['t']> = { str: 'str', list: 'list', dict: 'dict', tuple: 'tuple', set: 'set' };
const REBINDS = new Set([
  'assignment',
  'augmented_assignment',
  'for_statement',
  'for_in_clause',
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
  'as_pattern_target',
  'named_expression',
  'delete_statement',
  'global_statement',
  'nonlocal_statement',
]);

export function annotatedType(n: Node): PyVal['t'] | undefined {
  let def: Node | null = n.parent;
  while (def && def.type !== 'function_definition' && def.type !== 'lambda' && def.type !== 'class_definition') def = def.parent;
  if (def?.type !== 'function_definition') return undefined;
  const param = namedChildren(field(def, 'parameters') ?? def).find(
    (p) => (p.type === 'typed_parameter' || p.type === 'typed_default_parameter') && (field(p, 'name') ?? namedChildren(p)[0])?.text === n.text,
  );
  // `kw: dict = None`: None when not passed (an implicit Optional).
  if (param?.type === 'typed_default_parameter' && field(param, 'value')?.type === 'none') return undefined;
  const t = param && field(param, 'type')?.text.replace(/\[.*$/s, '');
  if (!t || !Object.hasOwn(EXACT_ANNOTATIONS, t)) return undefined;
  const rebinds = (x: Node | null): boolean => {
    const up = x?.parent;
    if (!x || x.text !== n.text || !up || !REBINDS.has(up.type)) return false;
    if (up.type === 'named_expression') return field(up, 'name')?.id === x.id;
    if (up.type === 'assignment' || up.type === 'augmented_assignment' || up.type === 'for_statement' || up.type === 'for_in_clause')
      return field(up, 'left')?.id === x.id;
    return true;
  };
  const rebound = field(def, 'body')?.descendantsOfType('identifier').some(rebinds);
  return rebound ? undefined : EXACT_ANNOTATIONS[t];
}
