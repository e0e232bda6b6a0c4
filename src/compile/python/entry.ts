/**
 * The raising entry point when `sourceCode` shows no `def` around the raise (the window starts
 * after the `def` line, or inside its docstring): it comes from what else the record has. The
 * calls its code fields protect (`try` bodies, the `# before` part of `exampleFix`, code spans of
 * `triggerScenarios`) name it, the snippets' imports and `filePath` give its module, and
 * `isinstance` checks, `typeGuard` and assignments (`obj = C(...)`) give the class of a method's
 * receiver. The raise's condition is not known then: such a rule reports `possible` findings.
 */
import { looksLikeClass, type SnippetCall, type SnippetFacts } from './snippets.js';
import type { RaisingDef } from './source.js';

/** The raising def as the record's fields describe it: what ./source.ts reads from sourceCode, but its `async` and parameters. */
export type InferredDef = Omit<RaisingDef, 'isAsync' | 'params'>;

export type Inferred = { def: InferredDef; fields: string[]; classFields: string[] } | { reason: string };

/** The calls a record's snippets protect: they are what raises. */
export const protectedCalls = (facts: SnippetFacts): SnippetCall[] =>
  facts.calls.filter((c) => c.inTryBody || c.from === 'exampleFix' || c.from === 'triggerScenarios');

/** The callee of a snippet call as a qualified name: through the snippets' imports, or spelled from the library's top package. */
export function qualifiedCallee(c: SnippetCall, lib: string): string | undefined {
  if (c.text.startsWith('<call>')) return undefined;
  if (c.qname) return c.qname;
  return c.text.split('.')[0] === lib ? c.text : undefined;
}

/** Splits `pkg.sub.Klass.method` into the module part the snippets import (`pkg.sub`) and the path in it. */
export function splitImport(q: string, modules: Set<string>): { modulePart: string; path: string } {
  const parts = q.split('.');
  for (let i = parts.length - 1; i >= 1; i--) {
    const m = parts.slice(0, i).join('.');
    if (modules.has(m)) return { modulePart: m, path: parts.slice(i).join('.') };
  }
  return { modulePart: parts[0]!, path: parts.slice(1).join('.') };
}

/** Classes the snippets give a call's receiver: isinstance checks win over assignments and annotations. */
export function receiverClasses(c: SnippetCall, facts: SnippetFacts, named: boolean): string[] {
  if (c.receiverCall) return looksLikeClass(c.receiverCall) ? [c.receiverCall] : [];
  const v = c.receiver!;
  const inst = facts.isinstance.get(v);
  if (inst?.length) return [...new Set(inst)];
  const vc = facts.varClasses.get(v);
  if (vc?.length) return [...new Set(vc)];
  // A guard function of the record (`def is_x(obj): return isinstance(obj, C)`) names the classes of the raising method.
  if (named) return [...new Set(facts.guards.flatMap((g) => g.classes))];
  return [];
}

interface Candidate {
  key: string;
  def: InferredDef;
  fields: Set<string>;
  /** In a `try` body (the strongest sign of the call that raises). */
  tried: boolean;
  last: number;
}

const base = (from: string) => from.split('.')[0]!;

/** What one protected call says the raising def is, or why it says nothing. */
function candidateOf(c: SnippetCall, facts: SnippetFacts, lib: string, module: string): Omit<Candidate, 'fields' | 'tried' | 'last'> | string {
  const q = qualifiedCallee(c, lib);
  const plain = { decorators: [], classBases: [], otherNames: [] };
  if (q && q.split('.')[0] === lib && q.includes('.')) {
    const { modulePart, path } = splitImport(q, facts.modules);
    const segs = path.split('.');
    const last = segs[segs.length - 1]!;
    if (segs.length === 1 && looksLikeClass(last)) return { key: `${q}()`, def: { ...plain, name: '__init__', className: last, inClass: true } };
    if (segs.length === 1) return { key: q, def: { ...plain, name: last, inClass: false } };
    const owner = segs[segs.length - 2]!;
    // `from datetime import datetime; datetime.fromisoformat(...)`: a name imported from the raising module itself.
    const defined = segs.length === 2 && modulePart === module && facts.imports.get(owner) === `${module}.${owner}`;
    if (looksLikeClass(owner) || defined) return { key: q, def: { ...plain, name: last, className: owner, inClass: true, decorators: ['classmethod'] } };
    return `'${q}' is an attribute chain, not a function, class or class method`;
  }
  const shown = `'${c.text}${c.read ? '' : '()'}'`;
  if (!c.method || (!c.receiver && !c.receiverCall)) return `${shown} is not a call into ${lib}`;
  const classes = receiverClasses(c, facts, true);
  if (!classes.length) return `the record names no class for the receiver of ${shown} (no isinstance check, typeGuard or 'x = Class(...)' in the code fields)`;
  const cls = classes[0]!.split('.').pop()!;
  const decorators = c.read ? ['property'] : [];
  return { key: `${cls}.${c.method}`, def: { ...plain, name: c.method, className: cls, inClass: true, decorators } };
}

/**
 * The raising def the record's code fields point to: the entry most of the protected calls name
 * (in `try` bodies first, then the later one), with the fields that show it and those naming its class.
 */
export function inferDef(facts: SnippetFacts, lib: string, module: string, fieldText: Record<string, string | null | undefined>): Inferred {
  // Attribute reads (`obj.prop`) count as entries too: a property raises when it is read.
  const calls = [...protectedCalls(facts), ...protectedCalls({ ...facts, calls: facts.reads })];
  const found = new Map<string, Candidate>();
  const reasons: string[] = [];
  calls.forEach((c, i) => {
    const cand = candidateOf(c, facts, lib, module);
    if (typeof cand === 'string') {
      // A read that names nothing (`exc.args`, `sys.argv`) is no reason worth saying.
      if (!c.read && !reasons.includes(cand)) reasons.push(cand);
      return;
    }
    const prev = found.get(cand.key) ?? { ...cand, fields: new Set<string>(), tried: false, last: i };
    prev.fields.add(base(c.from));
    prev.tried ||= c.inTryBody;
    prev.last = i;
    found.set(cand.key, prev);
  });
  const best = [...found.values()].sort((a, b) => b.fields.size - a.fields.size || Number(b.tried) - Number(a.tried) || b.last - a.last)[0];
  if (!best) {
    const why = reasons.length
      ? reasons.slice(0, 3).join('; ') + (reasons.length > 3 ? `; and ${reasons.length - 3} more` : '')
      : 'no call in a try body, the "# before" part of exampleFix or a code span of triggerScenarios';
    return { reason: `no enclosing 'def' in sourceCode and no entry point in any code field: ${why}` };
  }
  const classFields = best.def.className ? fieldsNaming(fieldText, best.def.className) : [];
  return { def: best.def, fields: [...best.fields].sort(), classFields };
}

/** The fields whose text names `name` (a class, as a whole word). */
export function fieldsNaming(fieldText: Record<string, string | null | undefined>, name: string): string[] {
  const re = new RegExp(`\\b${name.replace(/[^\w]/g, '')}\\b`);
  return Object.entries(fieldText)
    .filter(([, t]) => t && re.test(t))
    .map(([f]) => f);
}

/**
 * Which record fields each part of a rule comes from, for `raiselint records check`: the raiser
 * (sourceCode, or the code fields when it shows no def), the module, the class when the code fields
 * name it, and the entry points (the fields whose protected calls name one of `names`).
 */
export function entryFields(
  facts: SnippetFacts,
  fromWindow: string | undefined,
  inferred: Inferred | undefined,
  names: Set<string>,
  classFields?: string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  const inf = inferred && 'def' in inferred ? inferred : undefined;
  out.raiser = fromWindow ?? `${inf?.fields.join(', ') ?? 'code fields'} (no def in sourceCode)`;
  out.module = facts.modules.size ? 'filePath + imports' : 'filePath';
  const cls = inf?.def.className ? inf.classFields : classFields;
  if (cls) out.class = cls.join(', ') || 'code fields';
  const named = (c: SnippetCall) => names.has(c.method ?? c.text.split('.').pop()!) || (!!c.receiverCall && names.has(c.receiverCall.split('.').pop()!));
  const entry = [...new Set([...protectedCalls(facts), ...protectedCalls({ ...facts, calls: facts.reads })].filter(named).map((c) => base(c.from)))].sort();
  out['entry points'] = entry.length ? entry.join(', ') : 'sourceCode';
  return out;
}

/** The kind of a raising def, for `records check --summary`. */
export function raiserKind(inClass: boolean, decorators: string[], isCtor: boolean): string {
  if (!inClass) return 'function';
  if (isCtor) return 'constructor';
  for (const d of decorators) {
    const m = /(^|\.)(classmethod|staticmethod)$/.exec(d);
    if (m) return m[2]!;
    if (/(^|\.)(property|cached_property|setter|getter|deleter)$/.test(d)) return 'property';
  }
  return 'method';
}
