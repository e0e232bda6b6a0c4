/** Fix planning, shared parts: the site of a finding (the statement to change), edits, and why a fix is refused. */
import type { Node } from '../parse/parser.js';
import { field, parentOf } from '../parse/syntax.js';
import { withItems } from '../python/withitems.js';
import type { Finding } from '../match/match.js';
import type { Fix } from '../diagnostics/types.js';
import { fixPatterns } from '../compile/index.js';
import type { Pattern, RulePatterns } from '../rules/types.js';
import type { Scopes } from '../semantic/scopes.js';
import type { UserFile } from './scope.js';

export type StrategyOption = 'auto' | 'try-except' | 'type-guard';

export interface FixOptions {
  strategy?: StrategyOption;
  /** The file's scopes from its semantic model (made here when not given). */
  scopes?: Scopes;
}

export type Action = 'try' | 'guard' | 'replace';

export interface FixSite {
  finding: Finding;
  pats: RulePatterns;
  call: Node;
  awaitNode?: Node;
  /** The call, its `await` and enclosing parentheses. */
  top: Node;
  /** The simple statement to wrap, or the compound statement before which the value is hoisted. */
  stmt: Node;
  hoist?: 'if' | 'for' | 'with';
  /** Why the hoisted temporary makes the fix unsafe: it is the header's whole value, which the statement uses as it stands. */
  hoistUnsafe?: string;
  /** Why the statement cannot be wrapped around this call. */
  noWrap?: string;
  /** An `await` (or an event-loop runner) encloses the call inside the statement. */
  awaitedHere: boolean;
  action?: Action;
  pattern?: Pattern;
}

/** A fix is refused, with the reason. */
export class NoFix extends Error {}

export const SIMPLE = new Set(['expression_statement', 'return_statement', 'assert_statement', 'raise_statement', 'delete_statement']);
export const RUNNERS = new Set(['run', 'run_until_complete']);
export const TIGHT = new Set([
  'attribute',
  'subscript',
  'call',
  'await',
  'binary_operator',
  'unary_operator',
  'comparison_operator',
  'not_operator',
  'boolean_operator',
  'conditional_expression',
]);

export function none(reason: string): Fix {
  return { applicability: 'display-only', strategy: 'none', reason: `no automatic fix: ${reason}`, edits: [] };
}

export function unparenUp(n: Node): Node {
  let cur = n;
  for (let p = parentOf(cur); p?.type === 'parenthesized_expression'; p = parentOf(cur)) cur = p;
  return cur;
}

export function isStatement(n: Node): boolean {
  const type = n.type;
  return type.endsWith('_statement') || type === 'function_definition' || type === 'class_definition' || type === 'decorated_definition';
}

/** Finds the statement around a finding and what stands between them. */
export function locate(f: Finding, _user: UserFile): FixSite | string {
  const n = f.site.node;
  if (f.via.length) {
    return `the error is raised inside \`${f.via[0]}\` (via ${f.via.slice(1).join(' -> ')}), not by a call the record's patterns protect`;
  }
  if (n.type !== 'call') return 'the record protects a call; this is an attribute read';
  const pats = fixPatterns(f.rule);
  const up = unparenUp(n);
  const upParent = parentOf(up);
  const awaitNode = upParent?.type === 'await' ? upParent : undefined;
  const top = awaitNode ? unparenUp(awaitNode) : up;
  let noWrap: string | undefined;
  let awaitedHere = !!awaitNode;
  let child: Node = n;
  let cur: Node | null = parentOf(n);
  while (cur && !isStatement(cur)) {
    if (cur.type === 'lambda' && field(cur, 'body')?.id === child.id) noWrap ??= 'the call is in a lambda: it runs when the lambda is called, not here';
    else if (cur.type === 'generator_expression' && parentOf(cur)?.type !== 'list_splat')
      noWrap ??= 'the call is in a generator expression: it runs when the generator is consumed, not here';
    else if (cur.type === 'decorator') noWrap ??= 'the call is in a decorator';
    else if (cur.type === 'default_parameter' || cur.type === 'typed_default_parameter') noWrap ??= 'the call is in a default argument';
    else if (cur.type === 'elif_clause') noWrap ??= 'the call is in an `elif` condition';
    else if (cur.type === 'case_clause') noWrap ??= 'the call is in a `case` guard';
    else if (cur.type === 'await' && child.id !== n.id) awaitedHere = true;
    else if (cur.type === 'call' && cur.id !== n.id) {
      const fn = field(cur, 'function');
      const name = fn?.type === 'attribute' ? field(fn, 'attribute')?.text : fn?.text;
      if (name && RUNNERS.has(name)) awaitedHere = true;
    }
    child = cur;
    cur = parentOf(cur);
  }
  if (!cur) return 'the call is not inside a statement';
  const stmt = cur;
  let hoist: FixSite['hoist'];
  let hoistUnsafe: string | undefined;
  if (!SIMPLE.has(stmt.type)) {
    const header = HEADERS[stmt.type];
    const cond = header?.part(stmt);
    if (stmt.type === 'while_statement') noWrap ??= 'the call is in a `while` condition, evaluated on every iteration';
    else if (stmt.type === 'function_definition' || stmt.type === 'decorated_definition' || stmt.type === 'class_definition')
      noWrap ??= `the call is in the header of a ${stmt.type === 'class_definition' ? 'class' : 'function'} definition`;
    else if (header && cond && cond.startIndex <= top.startIndex && top.endIndex <= cond.endIndex) {
      const why = hoistable(top, cond);
      if (why) noWrap ??= `the call is in ${header.where} and ${why}`;
      hoist = header.hoist;
      if (header.whole && cond.id === top.id) hoistUnsafe = header.whole;
    } else
      noWrap ??= `the call is in the header of a \`${stmt.type.replace(/_statement$/, '')}\` statement${stmt.type === 'with_statement' ? ', after its first context manager is entered' : ''}`;
  }
  return { finding: f, pats, call: n, awaitNode, top, stmt, hoist, hoistUnsafe, noWrap, awaitedHere };
}

/**
 * The headers whose value can move into a temporary before the statement, and the part that may
 * hold the call: it is evaluated first, once, whenever the statement runs. For `with`, only the
 * first item's context expression: a later one is evaluated after the first manager is entered.
 */
const HEADERS: Record<string, { hoist: NonNullable<FixSite['hoist']>; where: string; part: (stmt: Node) => Node | null | undefined; whole?: string }> = {
  if_statement: { hoist: 'if', where: 'an `if` condition', part: (stmt) => field(stmt, 'condition') },
  for_statement: {
    hoist: 'for',
    where: 'a `for` header',
    part: (stmt) => field(stmt, 'right'),
    whole: "the `for` statement iterates over the alternative's value",
  },
  with_statement: {
    hoist: 'with',
    where: 'a `with` header',
    part: (stmt) => withItems(stmt)[0]?.value,
    whole: "the `with` statement enters the alternative's value as a context manager",
  },
};

/** Why the value cannot move before the header (undefined when it can: it runs first and always). */
export function hoistable(top: Node, cond: Node): string | undefined {
  let child = top;
  let cur = parentOf(top);
  while (cur && child.id !== cond.id) {
    if (cur.type === 'boolean_operator' && field(cur, 'left')?.id !== child.id) return 'does not always run (it follows `and`/`or`)';
    if (cur.type === 'conditional_expression') return 'does not always run (conditional expression)';
    if (/comprehension|generator_expression|lambda/.test(cur.type)) return 'is inside a comprehension';
    child = cur;
    cur = parentOf(cur);
  }
  // Everything evaluated before it must be free of effects.
  for (const d of cond.descendantsOfType(['call', 'await', 'named_expression'])) {
    if (d && d.isNamed && d.endIndex <= top.startIndex) return `\`${d.text}\` runs before it`;
  }
  return undefined;
}

export function classKeyOf(s: FixSite): string {
  const t = s.finding.rule.targets.find((x) => x.kind === 'method');
  return t && t.kind === 'method' ? t.classKey : s.finding.rule.raiser.qualname.split('.')[0]!;
}

export function abbrev(t: string): string {
  const one = t.replace(/\s+/g, ' ');
  return one.length > 50 ? `${one.slice(0, 47)}...` : one;
}
