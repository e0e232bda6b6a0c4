/**
 * Whether a def leaves its object's attribute as its caller found it up to a test (./state.ts
 * reads the test then as the state a fresh object has).
 */
import type { Node } from '../../parse/parser.js';
import { contains, field, namedChildren } from '../../parse/syntax.js';
import type { StateFact } from '../../rules/condition/types.js';
import { selfAttr } from './initflow.js';

const LOOPS = new Set(['for_statement', 'while_statement']);

/**
 * The def changes nothing of the attribute before `test` (nor after it in a loop around it): no
 * assignment to it, no call of a method that may change it, `self` not handed on.
 */
export function unchangedBefore(def: Node, test: Node, fact: StateFact): boolean {
  const before = (x: Node) => {
    if (x.startIndex < test.startIndex) return true;
    for (let p = x.parent; p && p.id !== def.id; p = p.parent)
      if (LOOPS.has(p.type) && p.startIndex <= test.startIndex && test.endIndex <= p.endIndex) return true;
    return false;
  };
  const changed = new Set(fact.changedBy);
  for (const x of field(def, 'body')?.descendantsOfType(['attribute', 'identifier', 'await', 'yield']) ?? []) {
    if (!x || !before(x) || leaves(x, def, test)) continue;
    // Other tasks (or the generator's consumer) run while the def waits: the state may change.
    if (x.type === 'await' || x.type === 'yield') return false;
    if (x.type === 'identifier') {
      const up = x.parent?.type;
      if (x.text === 'self' && up !== 'attribute' && up !== 'return_statement') return false;
      continue;
    }
    const a = selfAttr(x);
    if (a && changed.has(a)) return false;
    if (a === fact.attr) {
      const up = x.parent;
      const written = (up?.type === 'assignment' || up?.type === 'augmented_assignment') && field(up, 'left')?.id === x.id;
      if (written || up?.type === 'pattern_list' || up?.type === 'tuple_pattern' || up?.type === 'delete_statement') return false;
    }
  }
  return true;
}

/**
 * `x` is in a block that ends by leaving the def (`if mode == 'w': return self._open_to_write(...)`)
 * and does not hold `test`: no pass through `x` reaches the test (no `try` around it that could
 * resume, no `break` / `continue` in the block that could skip its end).
 */
function leaves(x: Node, def: Node, test: Node): boolean {
  let block: Node | undefined;
  for (let p = x.parent; p && p.id !== def.id; p = p.parent) {
    if (p.type === 'try_statement' || p.type === 'with_statement') return false;
    if (!block && p.type === 'block' && !contains(p, test)) {
      const last = namedChildren(p).at(-1);
      if ((last?.type === 'return_statement' || last?.type === 'raise_statement') && !p.descendantsOfType(['break_statement', 'continue_statement']).length)
        block = p;
    }
  }
  return !!block;
}
