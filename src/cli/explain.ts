/**
 * `raiselint explain <rule-id | error message | traceback file>`: prints the record's documentation,
 * triggers, solutions, tips and source link. A message is matched to records by `messagePattern`;
 * a traceback file (or `-` for stdin) by its last exception line `Module.ErrorClass: message`.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { formatBuiltinExplainJson, formatBuiltinExplainText, formatExplainJson, formatExplainText } from '../report/explain.js';
import { BUILTIN_RULES, builtinRule } from '../suppress/builtin.js';
import { editDistance, findRuleById, matchRuntimeError, parseErrorText, parseTraceback, similarIds, type RuntimeError } from '../rules/lookup.js';
import { UsageError, type IO } from './io.js';
import { addRulePrintOptions, ruleCatalog, type RulePrintFlags } from './rule-options.js';

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function readTraceback(path: string): RuntimeError {
  let text: string;
  try {
    text = path === '-' ? readFileSync(0, 'utf8') : readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`${path === '-' ? 'stdin' : path}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const err = parseTraceback(text);
  if (!err) throw new UsageError(`${path === '-' ? 'stdin' : path}: no exception line (\`ErrorClass: message\`) found`);
  return err;
}

export function registerExplain(program: Command, { stdout, stderr }: IO, setCode: (code: number) => void): void {
  const cmd = program
    .command('explain')
    .description("explain a rule, a runtime error message, or a traceback file ('-' reads stdin)")
    .argument('<query...>', 'a rule id, an error message (`NotImplementedError: ...`), or a traceback file');
  addRulePrintOptions(cmd).action(async (words: string[], flags: RulePrintFlags) => {
    const query = words.join(' ');
    if (!query.trim()) throw new UsageError('explain: empty query');
    const builtin = words.length === 1 ? builtinRule(query) : undefined;
    if (builtin) {
      stdout(flags.format === 'json' ? formatBuiltinExplainJson(builtin) : formatBuiltinExplainText(builtin));
      setCode(0);
      return;
    }
    const set = await ruleCatalog(flags, stderr);
    const render = flags.format === 'json' ? formatExplainJson : formatExplainText;

    const byId = words.length === 1 ? findRuleById(set.rules, query) : undefined;
    if (byId) {
      stdout(render([byId]));
      setCode(0);
      return;
    }
    const traceback = words.length === 1 && (query === '-' || isFile(query));
    let err = traceback ? readTraceback(query) : parseErrorText(query);
    let matches = matchRuntimeError(set.rules, err);
    if (!matches.length && !traceback && err.errorClass) {
      // `Word: text` may be a message that merely contains a colon.
      err = { message: query.trim(), frames: [] };
      matches = matchRuntimeError(set.rules, err);
    }
    // A message match outranks a class-only one: show those alone when there are any.
    if (matches.some((m) => m.byMessage)) matches = matches.filter((m) => m.byMessage);
    if (!matches.length) {
      if (/^[\w.-]+\/[\w.-]+$/.test(query) && !traceback) {
        const near = query.startsWith('raiselint/')
          ? BUILTIN_RULES.map((b) => b.id).filter((id) => editDistance(query, id) <= 4)
          : similarIds(set.rules, query);
        throw new UsageError(`unknown rule '${query}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}`);
      }
      stderr(
        `raiselint: no record matches ${traceback ? `the exception in ${query === '-' ? 'stdin' : query}` : `'${query}'`}${err.errorClass ? ` (error class ${err.errorClass})` : ''}\n`,
      );
      setCode(1);
      return;
    }
    stdout(
      render(
        matches.map((m) => m.rule),
        matches,
        err,
      ),
    );
    setCode(0);
  });
}
