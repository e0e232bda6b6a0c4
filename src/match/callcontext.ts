/**
 * What runs a call, as its place in the file shows it: whether an asyncio event loop is running in
 * its thread there. In the body of an `async def` (not in a nested `def` or `lambda`), the
 * coroutine runs in a loop: one is running (unless the file names another event-loop library,
 * trio, curio or anyio, which may run it instead). In the `if __name__ == "__main__":` block of a
 * module, nothing has started one yet. Anywhere else, who calls it decides.
 */
import type { Node } from '../parse/parser.js';
import { field } from '../parse/syntax.js';
import type { Scopes } from '../semantic/scopes.js';

const OTHER_LOOPS = ['trio', 'curio', 'anyio'];
const MAIN_GUARD = /^__name__\s*==\s*(['"])__main__\1$|^(['"])__main__\2\s*==\s*__name__$/;

export function runningLoop(call: Node, scopes: Scopes): boolean | undefined {
  const scope = scopes.scopesOf(call)[0];
  if (!scope) return undefined;
  if (scope.type === 'module') return mainGuarded(call) ? false : undefined;
  if (scope.type !== 'function_definition' || scope.firstChild?.type !== 'async' || OTHER_LOOPS.some((m) => scopes.mentions(m))) return undefined;
  for (let p = call.parent; p && p.id !== scope.id; p = p.parent) if (p.type === 'lambda') return undefined;
  return true;
}

/** The call is in the body of a module-level `if __name__ == "__main__":` (not its `else`). */
function mainGuarded(call: Node): boolean {
  for (let p = call.parent; p; p = p.parent) {
    if (p.type !== 'if_statement' || p.parent?.type !== 'module') continue;
    const body = field(p, 'consequence');
    return MAIN_GUARD.test(field(p, 'condition')?.text ?? '') && !!body && body.startIndex <= call.startIndex && call.endIndex <= body.endIndex;
  }
  return false;
}
