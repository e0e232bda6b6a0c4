/**
 * Raises that are control flow, not bugs: `TestCase.skipTest` raising `SkipTest`, `sys.exit`-like
 * functions raising `SystemExit`, functions annotated `NoReturn`, functions whose purpose is to
 * raise (`fail`, `skip`, `raise_for_status`), raises in a branch the library marks unreachable
 * ("cannot happen", or `raise AssertionError` ending an `elif` chain over a local), and raises after a retry loop's last failed attempt (`tempfile.mkdtemp` after
 * TMP_MAX names taken: the environment's failure, not the call's). Such rules are their own category, off by default: a `select` that names the
 * rule, or `control-flow`, turns them on (src/config/resolve.ts ruleEnabled).
 *
 * The compiler decides what the record's own window shows (`rule.controlFlow`: the raiser's name,
 * annotation and message, ./compile/record.ts); the error class's bases are read here, from the
 * finished hierarchy, since another record may define them.
 */
import type { ExceptionHierarchy } from './exceptions.js';
import type { Rule } from './types.js';

/** Exception classes raised to steer a program or a test run, by simple name. */
const CONTROL_CLASSES = new Set(['SystemExit', 'KeyboardInterrupt', 'GeneratorExit', 'StopIteration', 'StopAsyncIteration', 'SkipTest', 'Skipped', 'SkipException', 'BdbQuit', '_ShouldStop', 'Exit', 'Abort']);

/**
 * A raiser named for raising (`raise_for_status`, `reraise`) or for checking (`check_call`,
 * `check_returncode`, `validate_email`, `assertEqual`): its caller asks for the error, whatever
 * its condition.
 */
const RAISE_NAMES = /(^|_)(re)?raise(_|$)|^throw$|^(check|validate|assert)(_|[A-Z]|$)/;
/** A raiser named for a test or program outcome (`fail`, `skipTest`, `exit`, `abort`): control flow when it always raises. */
const OUTCOME_NAMES = /^(fail|skip|abort|exit)([_A-Z]\w*)?$/;

/** A message by which the library says the raise cannot happen. */
const UNREACHABLE = /\b(can ?not|can't|cannot|should ?n[o']?t|should never|must never|never) (happen|be reached|get here|occur)\b|\bunreachable\b|\bnot reached\b|\binternal error\b|\bthis is a bug\b|\bbug in\b/i;

/** What the record's window shows that makes the raise control flow (compile time). */
export function controlFlowOfDef(
  raiser: string,
  returns: string | undefined,
  message: string,
  always: boolean,
  exhausted?: string,
  internalCheck?: string,
): string | undefined {
  if (returns && /\b(NoReturn|Never)\b/.test(returns)) return `${raiser}() is annotated \`-> ${returns}\`: it exists to raise`;
  if (RAISE_NAMES.test(raiser) || (always && OUTCOME_NAMES.test(raiser))) return `${raiser}() exists to raise`;
  if (UNREACHABLE.test(message)) return `the library marks this raise unreachable ("${message.length > 60 ? `${message.slice(0, 57)}...` : message}")`;
  if (internalCheck) {
    const tests = internalCheck.length > 60 ? `${internalCheck.slice(0, 57)}...` : internalCheck;
    return `the library asserts this raise cannot happen (\`raise AssertionError\` ending the \`elif\` chain \`${tests}\`, which tests no argument)`;
  }
  if (exhausted) return `${raiser}() raises this only after every attempt of its retry loop failed (\`${exhausted}\`)`;
  return undefined;
}

/** Why the rule's raise is control flow, or undefined for a rule that finds bugs. */
export function controlFlowOf(rule: Rule, exceptions: Pick<ExceptionHierarchy, 'mro' | 'canonical'>): string | undefined {
  if (rule.controlFlow) return rule.controlFlow;
  for (const c of exceptions.mro(exceptions.canonical(rule.errorClass))) {
    const simple = c.split('.').pop()!;
    if (CONTROL_CLASSES.has(simple)) return `${rule.errorClass.split('.').pop()} is raised to steer the program (${simple}), not as an error`;
  }
  return undefined;
}
