/**
 * The rules stage: the record's fix patterns, read with tree-sitter into plain data on the rule
 * (the trees are freed).
 *
 * A pattern is a protected statement (the call the record protects, as the record writes it:
 * `state = await runtime.agent_save_state(agent_id)`) and an alternative (the `except` body of
 * `tryCatchPattern`, the isinstance branch of `validationCode`, the "after" part of `exampleFix`).
 * The protected statement names the placeholders (receiver, arguments, assignment target) that
 * the fix stage (src/fix/plan.ts) binds to the user's code. Nothing here is specific to a record.
 */
import type { Node } from '../../parse/parser.js';
import { parseOnce } from './trees.js';
import { descendantsOfType, dottedName, field, namedChildren } from '../../parse/syntax.js';
import { caughtNames, exceptAlias, exceptClauses, handlerBody } from '../../python/excepts.js';
import { isinstanceArgs, unwrapNot } from '../../python/guards.js';
import { importedNames, importLine, importTarget } from '../../python/imports.js';
import type { Pattern, Protected, Rule, RulePatterns, SinkKind, SnippetImport } from '../../rules/types.js';
import { alternative } from './alternative.js';
import { afterPart, beforePart } from './snippets.js';

/** A rule's fix patterns: those it carries, or read from its record now (and kept on it). */
export function fixPatterns(rule: Rule): RulePatterns {
  return (rule.patterns ??= readPatterns(rule));
}

export function readPatterns(rule: Rule): RulePatterns {
  const r = rule.record;
  const names = [...new Set(rule.targets.map((t) => (t.kind === 'method' ? t.method : t.symbol.path)))];
  const out: RulePatterns = { names, isAsync: rule.raiser.isAsync ?? false, params: rule.raiser.params, imports: [], missing: {} };
  for (const code of [r.validationCode, r.tryCatchPattern, r.exampleFix, r.typeGuard]) if (code) readImports(code, out.imports);
  const hs = (r.handlingStrategy ?? '').toLowerCase();
  if (/try|catch|except/.test(hs)) out.handling = 'try-except';
  else if (/guard|valid|check|isinstance/.test(hs)) out.handling = 'type-guard';

  if (r.tryCatchPattern) {
    const p = tryPattern(r.tryCatchPattern, names, rule.errorClass);
    if (typeof p === 'string') out.missing.tryExcept = p;
    else out.tryExcept = p;
  } else out.missing.tryExcept = 'the record has no tryCatchPattern';
  if (r.validationCode) {
    const p = guardPattern(r.validationCode, names);
    if (typeof p === 'string') out.missing.guard = p;
    else out.guard = p;
  } else out.missing.guard = 'the record has no validationCode';
  if (!out.guard && out.tryExcept && !r.validationCode) {
    // Without validationCode, the guard takes its alternative from the try/except pattern.
    out.guard = out.tryExcept;
    delete out.missing.guard;
  }
  if (r.exampleFix && /#\s*after\b/i.test(r.exampleFix)) {
    const p = replacePattern(beforePart(r.exampleFix), afterPart(r.exampleFix), names, out.tryExcept?.prot);
    if (typeof p === 'string') out.missing.replace = p;
    // An "after" written for another statement than the one it shows no call in: the validation alternative fits better.
    else if (!p.ownStatement && out.guard && out.guard !== out.tryExcept) out.replace = out.guard;
    else out.replace = p.pattern;
  } else out.missing.replace = 'the record has no exampleFix with an "after" part';
  if (!out.replace && out.guard && out.guard !== out.tryExcept) {
    out.replace = out.guard;
    delete out.missing.replace;
  }
  if (out.isAsync === false && [out.tryExcept, out.guard, out.replace].some((p) => p?.prot.awaited)) out.isAsync = true;
  return out;
}

// ------------------------------------------------------------------ imports of the snippets

/** The imports of the snippet's top-level statements (a text without the word `import` has none: it is not parsed). */
function readImports(code: string, into: SnippetImport[]): void {
  if (!code.includes('import')) return;
  parseOnce(code, (tree) => {
    for (const s of namedChildren(tree.rootNode)) {
      for (const i of importedNames(s)) {
        if (i.relative || into.some((x) => x.local === i.local)) continue;
        into.push({ local: i.local, q: importTarget(i), stmt: importLine(i), top: i.module.split('.')[0]! });
      }
    }
  });
}

// ------------------------------------------------------------------ the three patterns

function tryPattern(code: string, names: string[], errorClass: string): Pattern | string {
  return parseOnce(code, (tree) => {
    if (tree.rootNode.hasError) return 'the tryCatchPattern does not parse';
    const tryStmt = tree.rootNode.descendantsOfType('try_statement')[0];
    if (!tryStmt) return 'the tryCatchPattern has no try statement';
    const body = field(tryStmt, 'body');
    const call = body ? protectedCall(body, names) : undefined;
    if (!call) return `the tryCatchPattern's try body does not call ${names.join('/')}`;
    const prot = protectedOf(call);
    if (typeof prot === 'string') return prot;
    const clauses = exceptClauses(tryStmt).filter((c) => c.type === 'except_clause');
    const last = errorClass.split('.').pop()!;
    const named = clauses.find((c) => caughtNames(c).some((n) => n === errorClass || n.split('.').pop() === last));
    const clause =
      named ?? clauses.find((c) => caughtNames(c).some((n) => n === 'Exception' || n === 'BaseException')) ?? clauses.find((c) => caughtNames(c).length === 0);
    if (!clause) return `the tryCatchPattern has no handler for ${errorClass}`;
    const blk = handlerBody(clause);
    const stmts = blk ? namedChildren(blk) : [];
    if (!stmts.length) return 'the tryCatchPattern handler is empty';
    if (stmts.length === 1 && stmts[0]!.type === 'raise_statement') return 'the tryCatchPattern handler only re-raises';
    const asName = exceptAlias(clause);
    const alt = alternative(code, stmts, prot);
    const exceptName = named ? caughtNames(named).find((n) => n === errorClass || n.split('.').pop() === last) : undefined;
    const again = stmts.map((st) => protectedCall(st, names)).find((c) => !!c);
    return {
      prot,
      alt,
      exceptAs: asName && alt.ids.some((i) => i.name === asName) ? asName : undefined,
      exceptName,
      callsRaiser: again ? (field(again, 'function')?.text ?? again.text) : undefined,
    };
  });
}

function guardPattern(code: string, names: string[]): Pattern | string {
  return parseOnce(code, (tree) => {
    if (tree.rootNode.hasError) return 'the validationCode does not parse';
    for (const ifs of tree.rootNode.descendantsOfType('if_statement')) {
      if (!ifs) continue;
      const { expr: cond, negated } = unwrapNot(field(ifs, 'condition'));
      if (!isinstanceArgs(cond)) {
        const whole = field(ifs, 'condition');
        if (whole?.descendantsOfType('call').some((c) => !!c && field(c, 'function')?.text === 'isinstance'))
          return `the validationCode's condition is more than an isinstance check (\`${whole.text}\`)`;
        continue;
      }
      const cons = field(ifs, 'consequence');
      const elseClause = ifs.childrenForFieldName('alternative').find((a) => a?.type === 'else_clause');
      const elseBody = elseClause ? (field(elseClause, 'body') ?? namedChildren(elseClause).find((c) => c.type === 'block') ?? null) : null;
      // The branch taken for the raising class holds the alternative; the other one the original call.
      const [altBlock, origBlock] = negated ? [elseBody, cons] : [cons, elseBody];
      const call = origBlock ? protectedCall(origBlock, names) : undefined;
      if (!call || !altBlock) continue;
      if (protectedCall(altBlock, names)) continue;
      const prot = protectedOf(call);
      if (typeof prot === 'string') return prot;
      return { prot, alt: alternative(code, namedChildren(altBlock), prot) };
    }
    return 'the validationCode has no `if isinstance(...)` with the alternative in one branch and the call in the other';
  });
}

function replacePattern(before: string, after: string, names: string[], fallback: Protected | undefined): { pattern: Pattern; ownStatement: boolean } | string {
  let prot: Protected | string | undefined = before.trim()
    ? parseOnce(before, (tree) => {
        const call = protectedCall(tree.rootNode, names);
        return call ? protectedOf(call) : undefined;
      })
    : undefined;
  const ownStatement = typeof prot === 'object';
  if (typeof prot === 'string' || !prot) prot = fallback;
  if (!prot) return 'the exampleFix "before" part does not show the call';
  const p = prot;
  return parseOnce(after, (tree) => {
    if (tree.rootNode.hasError) return 'the exampleFix "after" part does not parse';
    const stmts = namedChildren(tree.rootNode);
    if (!stmts.length) return 'the exampleFix "after" part is empty';
    if (protectedCall(tree.rootNode, names)) return 'the exampleFix "after" part still calls the raising function';
    return { pattern: { prot: p, alt: alternative(after, stmts, p) }, ownStatement };
  });
}

/**
 * The first call of one of `names` at or under `root`, in document order (the calls come from one
 * walk inside the parser, `root` first when it is a call).
 */
function protectedCall(root: Node, names: string[]): Node | undefined {
  for (const n of descendantsOfType(root, 'call')) {
    const fn = field(n, 'function');
    const text = dottedName(fn) ?? (fn?.type === 'attribute' ? `?.${field(fn, 'attribute')?.text}` : undefined);
    if (text && names.some((p) => text === p || text.endsWith(`.${p}`))) return n;
  }
  return undefined;
}

function protectedOf(call: Node): Protected | string {
  const up = unparenUp(call);
  const awaitNode = up.parent?.type === 'await' ? up.parent : undefined;
  const top = unparenUp(awaitNode ?? call);
  const parent = top.parent;
  let sink: SinkKind | undefined;
  let target: string | undefined;
  if (parent?.type === 'expression_statement') sink = 'expr';
  else if (parent?.type === 'return_statement') sink = 'return';
  else if (parent?.type === 'assignment' && field(parent, 'right')?.id === top.id && parent.parent?.type === 'expression_statement') {
    sink = 'assign';
    target = field(parent, 'left')?.text;
  }
  if (!sink) return 'the protected call is part of a larger expression in the record';
  const fn = field(call, 'function');
  const receiver = fn?.type === 'attribute' ? field(fn, 'object')?.text : undefined;
  const args: Protected['args'] = [];
  const argList = field(call, 'arguments');
  let index = 0;
  for (const a of argList ? namedChildren(argList) : []) {
    if (a.type === 'keyword_argument') {
      const v = field(a, 'value');
      const k = field(a, 'name')?.text;
      if (v?.type === 'identifier' && k) args.push({ name: v.text, keyword: k });
    } else if (a.type === 'list_splat' || a.type === 'dictionary_splat') {
      index++;
    } else {
      if (a.type === 'identifier') args.push({ name: a.text, index });
      index++;
    }
  }
  return { sink, target, receiver, awaited: !!awaitNode, args };
}

function unparenUp(n: Node): Node {
  let cur = n;
  while (cur.parent?.type === 'parenthesized_expression') cur = cur.parent;
  return cur;
}
