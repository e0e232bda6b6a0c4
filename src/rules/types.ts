/** Compiled rules: what the checker matches. Built from records (+ curated data), never by hand. */
import type { ErrorRecord } from '../records/types.js';
import type { JsTarget } from './js/types.js';
import type { RaiseCondition } from './condition/types.js';

export type Confidence = 'certain' | 'possible';
export type Severity = 'error' | 'warning';

/**
 * A symbol defined in a module: `module` is where it is defined, `path` the dotted path inside
 * the module (`loads`, `Klass`, `Klass.from_string`). Every ancestor package of `module`
 * counts as a possible re-export, and `aliases` lists other full names (legacy modules).
 */
export interface SymbolRef {
  module: string;
  path: string;
  aliases: string[];
}

export type RuleTarget =
  /** `<receiver>.method(...)` where the receiver is an instance of `classKey` or of a subclass. */
  | { kind: 'method'; classKey: string; method: string; /** A property: reading `<receiver>.method` raises. */ property?: true }
  /** A call whose callee resolves to the symbol: a module function, a class (constructor), a class/static method, an attribute chain. */
  | { kind: 'call'; symbol: SymbolRef; what: 'function' | 'constructor' | 'classmethod' | 'attribute' };

/** A function that narrows: when `returns` is true for a call `name(arg_i)`, arg_i is (or is not) an instance of the classes. */
export interface GuardSpec {
  name: string;
  param: number;
  /** Classes the argument is NOT an instance of when the guard returns true (`not isinstance(x, C)`). */
  excludesWhenTrue: string[];
  /** Classes the argument IS an instance of when the guard returns true (`isinstance(x, C)`). */
  includesWhenTrue: string[];
}

/** The roles of a name the prefilter looks for on a rule's behalf (`Rule.prefilter`; ./prefilter.ts reads them). */
export const ROLE_CALL = 1;
export const ROLE_METHOD = 2;
export const ROLE_CLASS = 4;
/** Any other trigger (guard functions, receiver class names): matched so the rules they index get loaded. */
export const ROLE_OTHER = 8;
/** `raiselint` (as in `# raiselint: ignore[...]`): suppression comments are read from the tree, so such a file is parsed. */
export const ROLE_DIRECTIVE = 16;
/** A name a call or method name needs beside it (src/prefilter/needs.ts): a class's name, a guard. */
export const ROLE_CONTEXT = 32;

export interface Rule {
  /** Stable readable id: `<repo short name>/<slug>`. */
  id: string;
  recordId: string;
  record: ErrorRecord;
  source: { file: string; line: number };
  /** Qualified error class: builtins are bare (`NotImplementedError`), others dotted. */
  errorClass: string;
  /** The message's template when the record stored the expression that builds it (`msg.format(name)`): read from the library's def (src/compile/python/message.ts). */
  message?: string;
  /** What raises, for messages: `GrpcWorkerAgentRuntime.agent_save_state`. */
  raiser: {
    module: string;
    qualname: string;
    line: number;
    url?: string;
    /** The raising def is `async def`. */
    isAsync?: boolean;
    /** Its parameter names a caller passes (after self/cls), as sourceCode shows them. */
    params?: string[];
  };
  targets: RuleTarget[];
  /** Names whose presence in a file makes the rule able to match there (prefilter and index keys). */
  triggers: string[];
  /** The names the prefilter looks for on the rule's behalf, with their role bits (src/prefilter/index.ts). */
  prefilter: [name: string, roles: number][];
  guards: GuardSpec[];
  defaultSeverity: Severity;
  tips: string[];
  docsUrl?: string;
  /** Version constraints the record states (library or Python), kept for later selection. */
  versions: VersionNote[];
  /** A JS/TS record's target, checked by the ESLint plugin (src/eslint/), not by the Python matcher. */
  js?: JsTarget;
  /** When the call raises (src/rules/condition/): over the entry point's parameters, or not known (no `def` in sourceCode: findings are possible). */
  condition: RaiseCondition;
  /**
   * Why the raise is control flow, not a bug (`SkipTest`, `SystemExit`, a `NoReturn` function, a
   * function whose purpose is to raise, a branch the library marks unreachable): such a rule is
   * off unless a `select` names it or `control-flow` (src/config/resolve.ts ruleEnabled).
   */
  controlFlow?: string;
  /**
   * The fix patterns read from the record's snippets (src/compile/python/patterns.ts): read with the
   * rule set up to a size, otherwise on first use (`fixPatterns`).
   */
  patterns?: RulePatterns;
}

export interface VersionNote {
  subject: string;
  constraint: string;
  from: string;
}

export interface InitParam {
  name: string;
  position: number | null;
  /** Class of the value when the argument is absent (qualified), or null. */
  default?: string | null;
}

export interface MethodSummary {
  property?: boolean;
  calls: { on: string; method: string }[];
}

export interface ClassInfo {
  /** Canonical key: the defining qualified name (`pkg._mod.Klass`), or `<local>...` for classes found in user code. */
  key: string;
  name: string;
  module: string;
  aliases: string[];
  bases: string[];
  protocol: boolean;
  implementations: string[];
  init: InitParam[];
  attributes: Record<string, string>;
  methods: Record<string, MethodSummary>;
  /** Methods the class defines itself (user classes): an override stops inheritance of a raising method. */
  ownMethods?: Set<string>;
  source?: string;
}

// ---------------------------------------------------------------- fix patterns (plain data)

export interface Span {
  start: number;
  end: number;
}

export type SinkKind = 'expr' | 'assign' | 'return';

/** The statement around the protected call, in a snippet. */
export interface Protected {
  sink: SinkKind;
  /** The assignment target as written (`state`), for `assign`. */
  target?: string;
  /** The receiver expression as written (`runtime`), for method calls. */
  receiver?: string;
  awaited: boolean;
  /** Placeholder arguments: identifiers passed for a parameter (by position or keyword). */
  args: { name: string; index?: number; keyword?: string }[];
}

export interface Ident extends Span {
  name: string;
  /** Bound by a comprehension or lambda of the alternative itself (never a placeholder). */
  scoped: boolean;
  /** Written as an attribute chain head, call target, subscript value...: needs parentheses around a complex substitution. */
  tight: boolean;
}

/** The alternative code: statements of a snippet, kept as text with the facts rendering needs. */
export interface Alternative {
  text: string;
  /** From the first statement to the end of the last statement's line (its trailing comment included). */
  region: Span;
  /** End of the last statement node (without a trailing comment). */
  stmtEnd: number;
  baseIndent: string;
  unit: string;
  statements: (Span & { type: string })[];
  /** When the alternative is one statement of the protected statement's form: where its value is. */
  sink?: {
    kind: SinkKind;
    target?: string;
    stmt: Span;
    value: Span;
    awaited: boolean;
    /** The value without its `await`. */
    core: Span;
    /** The value has a call or await (worth keeping as an expression statement). */
    effectful: boolean;
    atomic: boolean;
    coreAtomic: boolean;
  };
  ids: Ident[];
  /** Names the alternative binds in the enclosing scope (loop variables, assignment targets). */
  leaking: string[];
  /** Names bound by comprehensions and lambdas inside the alternative. */
  scopedNames: string[];
  /** Offsets of line starts that lie inside a string (never re-indented). */
  inString: number[];
  /** `return` statements nested below the top level of the alternative. */
  nestedReturn: boolean;
  /**
   * What in the alternative can run arbitrary code or reach the system (`__import__()`,
   * `eval()`, `os.system()`, `open()`, `getattr()` with a computed name, ...): record code is
   * third-party data, so a fix that writes one of these is shown only (fix/plan.ts), unless the
   * user's statement already does the same.
   */
  risky: string[];
}

export interface Pattern {
  prot: Protected;
  alt: Alternative;
  /** `except E as e:` alias, when the alternative uses it. */
  exceptAs?: string;
  /** The alternative calls the raising function again (a re-check would report it too). */
  callsRaiser?: string;
  /** The handler's class as the pattern writes it (`TOMLDecodeError`, `ipaddress.AddressValueError`), when it names the record's class. */
  exceptName?: string;
}

export interface SnippetImport {
  /** The name the snippet binds. */
  local: string;
  /** Qualified name the local name stands for. */
  q: string;
  /** The import statement that binds it, as the record writes it. */
  stmt: string;
  /** Top-level package. */
  top: string;
}

export interface RulePatterns {
  /** How the protected call is written: a method name, or a dotted path the callee ends with (`loads`, `ChatCompletion.create`). */
  names: string[];
  isAsync: boolean;
  /** Parameter names of the raising function (after self/cls), when the record's source shows them. */
  params?: string[];
  tryExcept?: Pattern;
  guard?: Pattern;
  replace?: Pattern;
  /** Names the record's snippets import, with how (the first import of each local name). */
  imports: SnippetImport[];
  handling?: 'try-except' | 'type-guard';
  /** Why a strategy is unavailable. */
  missing: { tryExcept?: string; guard?: string; replace?: string };
}

/** What compiling one record gave: its rule, or why it gave none, and what was derived (`raiselint records check`). */
export interface CompileOutcome {
  rule?: Rule;
  /** Why the record did not become a rule (one line), when it did not. */
  skipped?: string;
  /** What was derived, for `raiselint records check`. */
  derived: {
    language?: string;
    module?: string;
    raiser?: string;
    kind?: string;
    entryPoints: string[];
    receiverClasses: string[];
    guards: string[];
    errorClass?: string;
    /** Bases of the error class, nearest first (`ValueError`, `Exception`, ...). */
    errorBases?: string[];
    versions?: string[];
    /** Where the entry points came from (`snippets` or `raising def`). */
    entrySource?: string;
    /** The record fields each part of the rule was derived from (`raiser`, `module`, `class`, `entry points`, `condition`). */
    fields?: Record<string, string>;
    /** What the raising def is: function, method, classmethod, staticmethod, constructor or property. */
    raiserKind?: string;
    /** `unknown` when the raise's condition is not known (the window shows no `def`): findings are possible. */
    condition?: 'unknown';
    /** The raise condition in words. */
    when?: string;
  };
}
