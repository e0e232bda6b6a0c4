/** What a JS/TS record compiles to: plain data, read by the ESLint plugin (src/eslint/). */

export type JsKind = 'function' | 'method' | 'static' | 'constructor';

/** A guard the record shows before the call (`if (URL.canParse(input))`): when it returned true for the call's argument, the call does not throw. */
export interface JsGuard {
  /** The guard's callee as written (`URL.canParse`, `isValid`). */
  callee: string;
  /** Which argument of the guard is the call's argument (0-based). */
  guardArg: number;
  /** Which argument of the throwing call it is (0-based). */
  callArg: number;
  /** A true result protects the call (`URL.canParse`); false for a guard that says the input is bad (`isInvalid(x)`). */
  safeWhenTrue: boolean;
}

export interface JsTarget {
  language: 'typescript' | 'javascript';
  /** npm package (`yaml`, `@scope/pkg`) or Node core module (`node:url`). */
  package: string;
  kind: JsKind;
  /** Declaring class (methods, statics, constructors). */
  className?: string;
  /** Function, method or static name; the class name for a constructor. */
  name: string;
  /** Rejects (an async function or `Promise.reject`) rather than throwing synchronously. */
  async: boolean;
  /** Throws whenever it is called (not under a condition on its arguments or data). */
  always: boolean;
  errorClass: string;
  /** Bases of the error class the record shows (nearest first); the plugin adds those the program declares. */
  errorBases: string[];
  /** Argument counts of the record's own example calls: only overloads that accept one of them throw (empty: every overload). */
  arities: number[];
  guards: JsGuard[];
  /** Arguments (0-based) the throw needs given and truthy (`if (buf) { ... throw }`): a call that leaves one out, or passes `undefined`, `null`, `false`, `0` or `''`, does not throw. */
  needs?: number[];
  /**
   * The throw is in a clause of a switch on argument `arg` (0-based) whose cases are literals: in
   * `default:` (`only` false), a call that passes one of `values` does not throw; in `case` clauses
   * (`only` true), a call that passes a literal not among `values` does not.
   */
  switchOn?: { arg: number; values: string[]; only: boolean };
  /** The names the throw's tests read the call's arguments by, in argument order ('' for one they cannot: a default, a reassigned parameter). */
  params?: string[];
  /** Names an object pattern of the parameters binds: name → [argument index, property, the pattern defaults to `{}`]. */
  fields?: Record<string, [number, string, boolean]>;
  /**
   * The tests of the `if`s around the throw (JavaScript source) with the result that leads to it:
   * a call whose literal arguments (or the ones it leaves out) make one of them go the other way
   * does not throw (`v.inc('patch')` and `if (release.startsWith('pre'))`).
   */
  tests?: { expr: string; want: boolean }[];
  /** The tests are all that stands before the throw: a call whose arguments make each go the way that leads to it throws (certain). */
  testsDecide?: boolean;
  /**
   * Fields of `this` the tests read, as the class's constructor leaves them (JavaScript source of a
   * literal: `{ errors: '[]' }`): the tests are read with them for a receiver the caller has just
   * constructed (`new Document(v).toString()`), not for any other.
   */
  thisInit?: Record<string, string>;
  /** Names a file must mention to be able to match (prefilter). */
  names: string[];
}
