/**
 * When the statement at a line of a `def` runs: the `if`/`elif`/`else` branches around it, the
 * early `return`/`raise` before it, and what is not decidable from the call (loops, `try`
 * handlers, state), as a `Cond` over the def's parameters (./expr.ts reads the tests).
 */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { escapes, raisedClass } from './caught.js';
import { type ExprReader } from './expr.js';
import { conversionFails } from './converts.js';
import { branches } from './helpers.js';
import { lookupKey, missingAttribute, missingKey, type DictKeys } from './lookup.js';
import { keywordsIterated } from './locals.js';
import { and, not, or } from '../../rules/condition/simplify.js';
import type { Cond } from '../../rules/condition/types.js';

const SCOPES = new Set(['function_definition', 'lambda', 'class_definition']);
const EXITS = new Set(['return_statement', 'raise_statement']);

/** The statement that holds line `row` of `def`: a `raise` there first, else the innermost statement starting on it. */
export function statementAt(def: Node, row: number): Node | undefined {
  const raise = def.descendantsOfType('raise_statement').find((r) => r && r.startPosition.row === row);
  if (raise) return raise;
  const body = field(def, 'body');
  if (!body) return undefined;
  let found: Node | undefined;
  const visit = (block: Node) => {
    for (const st of namedChildren(block)) {
      if (st.startPosition.row > row || st.endPosition.row < row) continue;
      if (st.startPosition.row === row) found = st;
      for (const b of namedChildren(st).flatMap((c) => (c.type === 'block' ? [c] : namedChildren(c).filter((d) => d.type === 'block')))) visit(b);
    }
  };
  visit(body);
  return found;
}

/** Statements that leave the function (or the loop) somewhere inside `n`, not counting nested defs. */
function hasExit(n: Node): boolean {
  if (EXITS.has(n.type) || n.type === 'continue_statement' || n.type === 'break_statement') return true;
  if (SCOPES.has(n.type)) return false;
  return namedChildren(n).some(hasExit);
}

/** The block always ends by leaving (its last statement returns, raises, continues or breaks). */
function alwaysExits(block: Node | null): boolean {
  const last = block ? namedChildren(block).pop() : undefined;
  if (!last) return false;
  if (EXITS.has(last.type) || last.type === 'continue_statement' || last.type === 'break_statement') return true;
  if (last.type === 'if_statement') {
    const bs = branches(last);
    return bs.some((b) => b.test === null) && bs.every((b) => alwaysExits(b.block));
  }
  return false;
}

/** Statements of `n` of the given type, not counting nested defs (nor nested loops, for `break`). */
function own(n: Node, type: string): boolean {
  for (const c of namedChildren(n)) {
    if (c.type === type) return true;
    if (SCOPES.has(c.type) || (type === 'break_statement' && (c.type === 'for_statement' || c.type === 'while_statement'))) continue;
    if (own(c, type)) return true;
  }
  return false;
}

/**
 * A retry loop (`for seq in range(TMP_MAX):` whose counter the body never reads): it returns on
 * success and has no `break`, so the code after it runs only when every attempt failed.
 */
export function retryLoop(n: Node): boolean {
  if (n.type !== 'for_statement' || n.childrenForFieldName('alternative').some((c) => !!c)) return false;
  const left = field(n, 'left');
  const right = field(n, 'right');
  const body = field(n, 'body');
  const count = right?.type === 'call' && field(right, 'function')?.text === 'range' ? namedChildren(field(right, 'arguments') ?? right) : [];
  const bound = count.length === 1 && (/^_*[A-Z][A-Z0-9_]*$/.test(count[0]!.text.split('.').pop()!) || /^\d+$/.test(count[0]!.text));
  if (!bound || left?.type !== 'identifier' || !body) return false;
  const read = body.descendantsOfType('identifier').some((i) => i?.text === left.text);
  return !read && own(body, 'return_statement') && !own(body, 'break_statement');
}

export class PathReader {
  /** The retry loop the path passes, whose exhaustion the raise needs (see `retryLoop`). */
  exhausted?: string;

  /** The class the path's raise raises, and its def: which handlers of a surrounding `try` catch it (./caught.ts). */
  private raised: string | undefined;
  private def: Node | undefined;

  constructor(
    private readonly expr: ExprReader,
    private readonly dictKeys: DictKeys = () => undefined,
  ) {}

  /** The condition under which `stmt` (inside `def`) runs, from the def's first statement. */
  reach(def: Node, stmt: Node): Cond {
    this.raised = raisedClass(stmt);
    this.def = def;
    const conj: Cond[] = [];
    let node = stmt;
    for (let guard = 0; guard < 64; guard++) {
      const block = node.parent;
      if (!block) return { k: 'data', text: 'the statement is not inside the def' };
      for (const sib of namedChildren(block)) {
        if (sib.id === node.id || sib.startIndex >= node.startIndex) break;
        conj.push(this.passes(sib));
      }
      const owner = block.type === 'block' ? block.parent : null;
      if (!owner) return { k: 'data', text: 'the statement is not inside the def' };
      if (owner.id === def.id) return and(conj);
      const step = this.enters(owner, block);
      conj.push(step.cond);
      node = step.stmt;
    }
    return { k: 'data', text: 'nested too deeply' };
  }

  /** Entering `block`, the body of `owner`: the condition, and the statement to continue upwards from. */
  private enters(owner: Node, block: Node): { cond: Cond; stmt: Node } {
    const stmtOf = (n: Node) =>
      ['elif_clause', 'else_clause', 'except_clause', 'except_group_clause', 'finally_clause'].includes(n.type) && n.parent ? n.parent : n;
    if (owner.type === 'case_clause') {
      let m: Node = owner;
      while (m.parent && m.type !== 'match_statement') m = m.parent;
      return { cond: { k: 'data', text: 'a case of a match statement matches' }, stmt: m };
    }
    const stmt = stmtOf(owner);
    if (owner.type === 'if_statement' || owner.type === 'elif_clause' || (owner.type === 'else_clause' && stmt.type === 'if_statement')) {
      const bs = branches(stmt);
      const i = bs.findIndex((b) => b.block?.id === block.id);
      if (i < 0) return { cond: { k: 'data', text: stmt.text.split('\n')[0]! }, stmt };
      const before = bs.slice(0, i).map((b) => not(this.expr.cond(b.test!)));
      const test = bs[i]!.test;
      return { cond: and([...before, ...(test ? [this.expr.cond(test)] : [])]), stmt };
    }
    if (owner.type === 'with_statement' || owner.type === 'finally_clause') return { cond: { k: 'true' }, stmt };
    if (owner.type === 'try_statement') {
      const catches = namedChildren(owner).some((c) => c.type === 'except_clause' || c.type === 'except_group_clause');
      const known = catches && this.def && block.id === field(owner, 'body')?.id ? escapes(owner, this.raised, this.def, this.expr) : undefined;
      return { cond: !catches ? { k: 'true' } : (known ?? { k: 'data', text: 'no handler of the surrounding try catches it' }), stmt };
    }
    if (owner.type === 'while_statement' && field(owner, 'condition')?.type === 'true') return { cond: { k: 'true' }, stmt };
    if (owner.type === 'except_clause' || owner.type === 'except_group_clause')
      return {
        cond: missingKey(owner, this.expr, this.dictKeys) ??
          conversionFails(owner, (n) => {
            const s = this.expr.side(n);
            return s && 'param' in s ? s : undefined;
          }) ??
          missingAttribute(owner, this.expr) ?? {
            k: 'data',
            text: `${
              namedChildren(owner)
                .find((c) => c.type !== 'block')
                ?.text.replace(/\s+as\s+\w+$/, '') ?? 'an exception'
            } was raised and caught`,
            ...lookupKey(owner, this.def),
          },
        stmt,
      };
    // `for opt in options:` over a `**options` the def has not changed: the body runs when the call passes a keyword to it.
    const kw = owner.type === 'for_statement' ? keywordsIterated(owner, undefined, this.expr.params, this.expr.def, this.expr.constant) : undefined;
    if (kw) return { cond: { k: 'given', param: kw, others: [] }, stmt };
    if (owner.type === 'for_statement' || owner.type === 'while_statement')
      return { cond: { k: 'data', text: `a loop body runs (${owner.text.split('\n')[0]!.trim()})` }, stmt };
    return { cond: { k: 'data', text: `the block runs (${owner.text.split('\n')[0]!.trim()})` }, stmt };
  }

  /** What it takes to run through `block` to its end: to get past each of its statements (a few levels deep). */
  private blockPasses(block: Node, depth: number): Cond {
    if (depth >= 3) return { k: 'data', text: 'an earlier branch did not return' };
    return and(
      namedChildren(block)
        .filter((s) => s.type !== 'comment')
        .map((s) => this.passes(s, depth + 1)),
    );
  }

  /** What it takes to get past an earlier statement `sib` of the same block. */
  private passes(sib: Node, depth = 0): Cond {
    if (EXITS.has(sib.type)) return { k: 'false' };
    if (sib.type === 'assert_statement') {
      const test = namedChildren(sib)[0];
      return test ? this.expr.cond(test) : { k: 'true' };
    }
    if (!hasExit(sib)) return { k: 'true' };
    if (sib.type === 'if_statement') {
      const out: Cond[] = [];
      const prior: Cond[] = [];
      for (const b of branches(sib)) {
        const taken = and([...prior, ...(b.test ? [this.expr.cond(b.test)] : [])]);
        if (b.block && alwaysExits(b.block)) out.push(not(taken));
        // A branch that leaves on some of its paths: not taken, or run through (`if cum_weights is None: if weights is None: return ...`).
        else if (b.block && hasExit(b.block)) out.push(or([not(taken), this.blockPasses(b.block, depth)]));
        if (b.test) prior.push(not(this.expr.cond(b.test)));
      }
      return and(out);
    }
    const header = sib.text.split('\n')[0]!.trim();
    if (retryLoop(sib)) this.exhausted = header;
    return { k: 'data', text: `an earlier statement did not return (${header})` };
  }
}
