/**
 * The analysis stage: code that never runs. A call in the body of `if TYPE_CHECKING:` (only a type
 * checker reads it), of `if False:` / `if 0:`, or in the `else` of `if not TYPE_CHECKING:` is
 * never made: it raises nothing, whatever the rule says of it. So is one in a branch of a
 * `sys.version_info` test that the Python the rules were grounded in (its library is what they
 * describe) does not take: `if sys.version_info >= (3, 12): shutil.rmtree(p, onexc=f)` on 3.11.
 */
import type { Node } from '../parse/parser.js';
import { contains, field, parentOf } from '../parse/syntax.js';
import { isTypeChecking } from '../python/imports.js';
import type { Finding } from '../match/match.js';

/** `sys.version_info`, whole or `[:n]` / `[0]`, compared with a tuple of ints (or an int for `[0]`). */
const VERSION_TEST = /^sys\.version_info(?:\[:(\d)\]|\[(0)\])?\s*(>=|<=|==|!=|>|<)\s*(?:\(\s*(\d+(?:\s*,\s*\d+)*)\s*,?\s*\)|(\d+))$/;

/** Python's order of two tuples of ints: by item, then the longer one is greater. */
function compareTuples(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** A `sys.version_info` test decided for `version` (`3.11.7`); undefined: not such a test. */
function versionTest(text: string, version: number[] | undefined): boolean | undefined {
  const m = version && VERSION_TEST.exec(text);
  if (!m) return undefined;
  const [, slice, first, op, tuple, int] = m;
  // version_info is (major, minor, micro, releaselevel, serial): items past micro are not compared here.
  const right = tuple ? tuple.split(',').map((x) => Number(x.trim())) : [Number(int)];
  if (first !== undefined ? !int : !tuple || right.length > 3) return undefined;
  const left = first !== undefined ? [version[0]!] : slice ? version.slice(0, Number(slice)) : [...version, 0, 0];
  const c = first !== undefined ? left[0]! - right[0]! : compareTuples(left, right);
  return { '>=': c >= 0, '<=': c <= 0, '==': c === 0, '!=': c !== 0, '>': c > 0, '<': c < 0 }[op!];
}

/** A condition that is false whenever the program runs (TYPE_CHECKING is false at run time). */
function neverTrue(cond: Node | null, version: number[] | undefined): boolean {
  if (!cond) return false;
  if (isTypeChecking(cond)) return true;
  if (cond.type === 'not_operator') return alwaysTrue(field(cond, 'argument'), version);
  const t = cond.text;
  return t === 'False' || t === '0' || t === 'None' || versionTest(t, version) === false;
}

/** A condition that is true whenever the program runs (`not TYPE_CHECKING`, `True`, `1`). */
function alwaysTrue(cond: Node | null, version: number[] | undefined): boolean {
  if (!cond) return false;
  if (cond.type === 'not_operator') return neverTrue(field(cond, 'argument'), version);
  const t = cond.text;
  return t === 'True' || t === '1' || versionTest(t, version) === true;
}

/**
 * Whether `node` sits in a branch that never runs (a def or class defined there is never defined:
 * its body never runs either). `version`: the Python the rules describe, for `sys.version_info` tests.
 */
export function neverRuns(node: Node, version?: number[]): boolean {
  let child = node;
  for (let cur = parentOf(node); cur; child = cur, cur = parentOf(cur)) {
    const type = cur.type;
    if (type !== 'if_statement' && type !== 'elif_clause') continue;
    const cond = field(cur, 'condition');
    if (!cond || contains(cond, child)) continue;
    const consequence = field(cur, 'consequence');
    const inBody = !!consequence && contains(consequence, child);
    // An elif's own body: its test; the branches after it are the if statement's.
    if (type === 'elif_clause' ? inBody && neverTrue(cond, version) : inBody ? neverTrue(cond, version) : alwaysTrue(cond, version)) return true;
  }
  return false;
}

/** The findings whose calls can run (`version`: the Python the rules were grounded in, `3.11.7`). */
export function filterNeverRun(findings: Finding[], version?: string): Finding[] {
  const v = version && /^\d+(\.\d+)*$/.test(version) ? version.split('.').map(Number) : undefined;
  return findings.filter((f) => !neverRuns(f.site.node, v));
}
