/**
 * Arguments that are functions though no `def` of theirs is named: a `lambda`, or a method read
 * from an instance whose class the file defines (`self.handler` in the class with `def handler`,
 * `src.openhook` with `src = LineReader()` above), which `callable(...)` tests find callable.
 */
import type { Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';
import type { Scopes } from '../semantic/scopes.js';
import { reachingValue } from './locals.js';

/** The class whose method `self` is in: the class around the function around `n`. */
function classOfSelf(n: Node): Node | undefined {
  let p = n.parent;
  while (p && p.type !== 'function_definition') p = p.parent;
  const owner = p?.parent?.type === 'decorated_definition' ? p.parent.parent : p?.parent;
  return owner?.type === 'block' && owner.parent?.type === 'class_definition' ? owner.parent : undefined;
}

/** The class body holds one undecorated `def name` (not a property), and nothing in the class stores over it. */
function definesMethod(cls: Node, name: string): boolean {
  const body = namedChildren(field(cls, 'body') ?? cls);
  if (body.filter((s) => s.type === 'function_definition' && field(s, 'name')?.text === name).length !== 1) return false;
  const stored = (s: Node) => s.type === 'expression_statement' && s.firstNamedChild?.type === 'assignment' && field(s.firstNamedChild, 'left')?.text === name;
  return !body.some(stored) && !new RegExp(`\\bself\\s*\\.\\s*${name}\\s*(?:=(?!=)|[-+*/|&]=)`).test(cls.text);
}

/** `n` (an argument) is a function: a lambda, or a bound method of an instance of a class of the file. */
export function isFunctionValue(n: Node, scopes: Scopes): boolean {
  if (n.type === 'lambda') return true;
  const obj = n.type === 'attribute' ? field(n, 'object') : null;
  const attr = n.type === 'attribute' ? field(n, 'attribute')?.text : undefined;
  if (obj?.type !== 'identifier' || !attr) return false;
  let cls: Node | undefined;
  if (obj.text === 'self') cls = classOfSelf(n);
  else {
    const made = reachingValue(obj, n, scopes);
    const fn = made?.type === 'call' ? field(made, 'function') : null;
    const def = fn?.type === 'identifier' ? scopes.definitionAt(fn.text, fn) : undefined;
    cls = def?.type === 'class_definition' ? def : undefined;
  }
  return !!cls && definesMethod(cls, attr);
}
