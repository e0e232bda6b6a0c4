/**
 * The analysis stage: code that never runs. A call in the body of `if TYPE_CHECKING:` (only a type
 * checker reads it), of `if False:` / `if 0:`, or in the `else` of `if not TYPE_CHECKING:` is
 * never made: it raises nothing, whatever the rule says of it.
 */
import type { Node } from '../parse/parser.js';
import { contains, field, parentOf } from '../parse/syntax.js';
import { isTypeChecking } from '../python/imports.js';
import type { Finding } from '../match/match.js';

/** A condition that is false whenever the program runs (TYPE_CHECKING is false at run time). */
function neverTrue(cond: Node | null): boolean {
  if (!cond) return false;
  if (isTypeChecking(cond)) return true;
  const t = cond.text;
  return t === 'False' || t === '0' || t === 'None';
}

/** A condition that is true whenever the program runs (`not TYPE_CHECKING`, `True`, `1`). */
function alwaysTrue(cond: Node | null): boolean {
  if (!cond) return false;
  if (cond.type === 'not_operator') return neverTrue(field(cond, 'argument'));
  const t = cond.text;
  return t === 'True' || t === '1';
}

/** Whether `node` sits in a branch that never runs (a def or class defined there is never defined: its body never runs either). */
export function neverRuns(node: Node): boolean {
  let child = node;
  for (let cur = parentOf(node); cur; child = cur, cur = parentOf(cur)) {
    if (cur.type !== 'if_statement') continue;
    const cond = field(cur, 'condition');
    if (!cond || contains(cond, child)) continue;
    const consequence = field(cur, 'consequence');
    if (consequence && contains(consequence, child) ? neverTrue(cond) : alwaysTrue(cond)) return true;
  }
  return false;
}

/** The findings whose calls can run. */
export function filterNeverRun(findings: Finding[]): Finding[] {
  return findings.filter((f) => !neverRuns(f.site.node));
}
