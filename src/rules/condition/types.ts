/**
 * The raise condition of a rule, as plain JSON data (the compiled-rules snapshot stores it as is):
 * over which parameters of the entry point, and for which of their values, the statement at the
 * record's `lineNumber` is reached. Compiled from the raising `def` in `sourceCode`
 * (../../compile/condition/compile.ts), evaluated against a call's arguments at match time (src/match/bind.ts).
 */

/** A Python literal value (what a call's argument or a parameter's default can be known as). */
export type PyVal =
  | { t: 'none' }
  | { t: 'bool'; v: boolean }
  | { t: 'int'; v: number }
  | { t: 'float'; v: number }
  | { t: 'str'; v: string }
  | { t: 'bytes'; v: string }
  | { t: 'tuple' | 'list' | 'set'; items: PyVal[] }
  | { t: 'dict'; entries: [PyVal, PyVal][] }
  /** A built-in class passed as a value (`DeprecationWarning`, `int`): known to `isinstance(x, type)` and `issubclass`. */
  | { t: 'class'; name: string };

/** `has` / `has not`: the parameter holds the value (`'b' in mode`, read with the parameter on the left). */
export type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in' | 'has' | 'has not' | 'is' | 'is not';

/** A condition over the entry point's parameters. `data`: something a call's arguments cannot decide (state, data, a helper's result). */
export type Cond =
  | { k: 'true' }
  | { k: 'false' }
  /**
   * `loop`: the text tests whether an asyncio event loop is running in the caller's thread (true when one is).
   * `lookup`: a handler of the `KeyError` of a lookup keyed by this parameter runs (`except KeyError:` around
   * `self._sections[section]`): a call site that shows the key is there rules it out (src/match/membership.ts).
   * `held`: the text tests whether the receiver's lock is held (`self.locked()`, `self._is_owned()`, `self._locked`, in a
   * class with `acquire`): true in a `with` of the receiver, or after its `acquire()` (src/match/callcontext.ts).
   */
  | { k: 'data'; text: string; state?: StateFact; loop?: true; lookup?: string; held?: true; /** Reads an object the library made in place of a parameter left out (compile/condition/libdefault.ts). */ lib?: true }
  | { k: 'not'; e: Cond }
  | { k: 'and'; es: Cond[] }
  | { k: 'or'; es: Cond[] }
  /** `param <op> value` (also `value <op> param`, normalised to the parameter on the left). */
  | {
      k: 'cmp';
      param: string;
      op: CmpOp;
      value: PyVal;
      /** The test reads the parameter through `int()` / `float()` / `operator.index()` (`istep != 1`): decided only for a number. */
      numeric?: true;
    }
  /** `len(param) <op> value` (an int, or a collection of ints for `in`). */
  | { k: 'len'; param: string; op: CmpOp; value: PyVal }
  /** `bool(param)`: `if param:`, `if not param:`. */
  | { k: 'truthy'; param: string }
  /** `isinstance(param, T)`, T written as in the raising module (builtins bare). */
  | {
      k: 'isinstance';
      param: string;
      types: string[];
      /** `issubclass(param, T)`. */
      subclass?: true;
      /** `type(param) in (T, ...)`: the exact class, not a subclass. */
      exact?: true;
      /** Those of `types` that are plain classes of the raising module (../../compile/condition/helpers.ts): no built-in value, class object or function is one. */
      plain?: string[];
      /** Some item of the parameter is one (`any(iscoroutine(f) for f in fs)`). */
      items?: true;
    }
  /** The argument was passed: `'name' in kwargs`, or a parameter compared with its sentinel default (`x is not _MISSING`). */
  /** `others`: a keyword other than these was passed to the `**` parameter (`if kwargs:` after the def popped them). */
  | { k: 'given'; param: string; key?: string; others?: string[] }
  /** `conv(param)` raises one of `caught` (an except clause's classes; absent: a bare `except:`), in a `try` whose handler holds the raise (./convert.ts). */
  | { k: 'fails'; param: string; conv: 'int' | 'float' | 'index'; caught?: string[] };

/**
 * A test of the receiver's own attribute (`not self.fp`) as it is on an object fresh from its
 * constructor (../../compile/condition/state.ts): `fresh` is the test's value then, until one of
 * `changedBy` (methods of the class that may change the attribute) is called on it.
 */
export interface StateFact {
  attr: string;
  fresh: boolean;
  changedBy: string[];
  /**
   * An identity test of the receiver against the context running the caller (`self is
   * current_thread()`; `attr` is the getter's call): an object the caller has just constructed is
   * never the thread, task or process running it, whatever is called on it since.
   */
  context?: true;
  /**
   * `__init__` stores one of its parameters there (`self.allow_none = allow_none`) and nothing
   * else: the fact holds the `test` of what the constructor call passed (or the default), and
   * `fresh` says whether it is that test (true) or its negation (false).
   */
  arg?: CtorArg;
  /** The test's value after each of `changedBy` that leaves it known on every way it returns (`close()`: `self.fp = None`). */
  after?: Record<string, boolean>;
}

/** A parameter of the class's `__init__` (after `self`) whose argument a fresh object's state holds. */
export interface CtorArg {
  name: string;
  /** Its position among the positional parameters after `self`; -1 for a keyword-only one. */
  index: number;
  /** Its literal default, when it has one. */
  default?: PyVal;
  test: 'truthy' | 'none';
  /** Stored as `float(param)`: tested after the conversion (known for a number or a bool only). */
  float?: true;
  /** `if host: self.connect(host)`: the fact's value by the argument's truth, where `__init__` leaves it known (`test` is then `truthy`). */
  cases?: { truthy?: boolean; falsy?: boolean };
}

export type ParamKind = 'positional-only' | 'normal' | 'keyword-only' | 'var-positional' | 'var-keyword';

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  /** The default: a literal, `expr` (not a literal: unknown when not passed), or absent (required). */
  default?: PyVal | 'expr';
  /** Text of a non-literal default (a sentinel such as `_MISSING`). */
  defaultText?: string;
  /** `if p is None: p = <literal>` before the test: a None argument stands for this value. */
  noneMeans?: PyVal;
}

export interface RaiseCondition {
  /** Public methods of the raising def's class that call it (`read` for `ZipFile.open`): entry points through code the record does not show. */
  callers?: string[];
  /** The entry point's parameters as the caller passes them (`self` / `cls` dropped). */
  params: ParamSpec[];
  /** The raise happens when this holds. `true`: on every path (a stub, a removed API). */
  when: Cond;
  /**
   * The path to the raise reads the arguments and nothing else the program can change (../../compile/condition/pure.ts):
   * with every argument a literal, the call raises on every run or on none.
   */
  argumentsOnly?: true;
  /**
   * The raising def is a generator: the call returns an iterator, and the raise happens when it is
   * iterated (the arguments are the call's): the call site is reported, as possible at most.
   */
  onIteration?: true;
  /** The raising def is an `async def`: the raise happens when the coroutine the call returns runs (certain only where it is awaited or run). */
  onAwait?: true;
  /**
   * The raise follows a retry loop (`for seq in range(TMP_MAX):`, its header) that returns on success:
   * it happens only when every attempt failed (../controlflow.ts: not a finding by default).
   */
  exhausted?: string;
  /**
   * The raise is an explicit `raise AssertionError` in the `else:` of an `if` / `elif` dispatch that
   * tests neither the call's parameters nor the object (`if encoding == 'q': ... elif encoding == 'b':`):
   * the library asserts it cannot happen (the tests, as written). ../controlflow.ts: not a finding by default.
   */
  internalCheck?: string;
  /** Why the call's arguments cannot decide it at all (a generator, the window shows no def...), if so. */
  unknown?: string;
  /** The names this condition is written for (the raising def, its aliases, its class for a constructor): another entry point reaches the raise through code the record does not show. */
  entries: string[];
}

export type Tri = boolean | undefined;

/**
 * What a value is known to be when its value is not: a builtin literal's type, a function a `def`
 * binds, an `instance` of a class the checked file defines over `object` alone (src/match/bind.ts),
 * a `coroutine` (what calling the file's `async def` gives), or an `object`: any value but None.
 */
export type Kind = PyVal['t'] | 'function' | 'instance' | 'object' | 'coroutine';

/** What a call gives one parameter. */
export interface Bound {
  /** The value when known (a literal argument, a literal default, a module constant). */
  value?: PyVal;
  /** Its builtin type when the value is not known but the syntax says it (`dict(f=x)`, `[y for y in z]`, an f-string). */
  type?: Kind;
  /** A str whose first characters are known (`'gi.repository.' + name`: ./literal.ts strPrefix), never empty. */
  prefix?: string;
  /** Whether the caller passed it: `undefined` when a `*args` / `**kwargs` may have. */
  given: Tri;
  /** The argument as written, for messages. */
  text?: string;
  /** `*args` filled by positional arguments that are not all literals: how many (its length and truthiness are known). */
  length?: number;
  /** A list or tuple written out: what each item is known to be (`[main(), t]`: a coroutine, not known). */
  items?: (Kind | undefined)[];
}

/** The arguments of the constructor call a fresh receiver came from: literal values where they are literals. */
export interface CtorArgs {
  positional: (PyVal | undefined)[];
  keywords: Map<string, PyVal | undefined>;
  /** A `*args` or `**kwargs` in the call: what it fills is not known. */
  splat: boolean;
}

export interface Binding {
  params: Map<string, Bound>;
  /** Keywords passed explicitly (for `'key' in kwargs`). */
  keywords: Set<string>;
  /** The call has `**mapping`: any keyword may be passed. */
  kwSplat: boolean;
  /** The receiver is fresh from the raising class's constructor, with these methods called on it since (src/semantic/fresh.ts). */
  fresh?: { called: ReadonlySet<string>; subclass?: true; args?: CtorArgs; seq?: readonly { name: string; dominates: boolean }[] };
  /** An asyncio event loop is running where the call is (in an `async def`), or none is (a `__main__` block). */
  loop?: boolean;
  /** The receiver's lock is held where the call is (in its `with`, after its `acquire()`). */
  held?: boolean;
  /** Parameters that only the calling function's own caller can fill (through its `**kw` / `*args`), at their defaults (match/splats.ts). */
  caller?: Map<string, Bound>;
}
