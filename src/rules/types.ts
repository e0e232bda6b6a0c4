/** Compiled rules: what the checker matches. Built from records (+ curated data), never by hand. */
import type { ErrorRecord } from '../records/types.js';
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

export interface Rule {
  /** Stable readable id: `<repo short name>/<slug>`. */
  id: string;
  recordId: string;
  record: ErrorRecord;
  source: { file: string; line: number };
  /** Qualified error class: builtins are bare (`NotImplementedError`), others dotted. */
  errorClass: string;
  /** What raises, for messages: `GrpcWorkerAgentRuntime.agent_save_state`. */
  raiser: { module: string; qualname: string; line: number; url?: string };
  targets: RuleTarget[];
  /** Names whose presence in a file makes the rule able to match there (prefilter and index keys). */
  triggers: string[];
  guards: GuardSpec[];
  defaultSeverity: Severity;
  tips: string[];
  docsUrl?: string;
  /** Version constraints the record states (library or Python), kept for later selection. */
  versions: VersionNote[];
  /** When the call raises (src/rules/condition/): over the entry point's parameters, or not known (no `def` in sourceCode: findings are possible). */
  condition: RaiseCondition;
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
