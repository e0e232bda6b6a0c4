/** Rules raiselint itself reports (not from records): about suppression comments, unreadable files, code too deep to analyse. */
import { rulePageUrl } from '../diagnostics/docpage.js';
import type { Diagnostic } from '../diagnostics/types.js';
import type { Severity } from '../rules/types.js';

export interface BuiltinRule {
  id: string;
  defaultSeverity: Severity;
  summary: string;
  help: string;
  /** Ruff-style documentation for `raiselint rules` and `raiselint explain`. */
  why: string;
  example: string;
  /** What `--fix` does about it, if anything. */
  fix?: string;
}

export const BLANKET_IGNORE = 'raiselint/blanket-ignore';
export const UNUSED_IGNORE = 'raiselint/unused-ignore';
export const INVALID_IGNORE = 'raiselint/invalid-ignore';
export const IO_ERROR = 'raiselint/io-error';
export const TOO_DEEP = 'raiselint/too-deep';
export const TOO_LARGE = 'raiselint/too-large';

export const BUILTIN_RULES: BuiltinRule[] = [
  {
    id: BLANKET_IGNORE,
    defaultSeverity: 'warning',
    summary: 'A suppression comment without rule ids suppresses nothing',
    help: 'Name the rules it is meant for: `# raiselint: ignore[rule-id]` (add a reason after ` -- `).',
    why: 'A bare `# raiselint: ignore` would hide every present and future finding on its line, including ones nobody reviewed; raiselint does not honour it and reports it instead.',
    example:
      'await runtime.agent_save_state(agent_id)  # raiselint: ignore\n# use instead:\nawait runtime.agent_save_state(agent_id)  # raiselint: ignore[autogen/agent-save-state-is-not-yet-implemented] -- guarded by the caller',
  },
  {
    id: UNUSED_IGNORE,
    defaultSeverity: 'warning',
    summary: 'A suppression comment names a rule that reports nothing there',
    help: 'Remove the rule id (or the whole comment); `raiselint check --fix` does it.',
    why: 'A suppression that suppresses nothing (the call was fixed or moved, the rule was renamed) would silently hide a finding that appears there later.',
    example: 'x = json.loads(text)  # raiselint: ignore[autogen/agent-save-state-is-not-yet-implemented]\n# use instead:\nx = json.loads(text)',
    fix: 'Safe: `--fix` removes the unused rule ids, the whole directive when none is left, and the comment line when it stood alone.',
  },
  {
    id: INVALID_IGNORE,
    defaultSeverity: 'warning',
    summary: 'A `# raiselint:` comment that is not a valid directive',
    help: 'Write `# raiselint: ignore[rule-id]` or `# raiselint: ignore-file[rule-id]`, optionally followed by ` -- reason`.',
    why: 'A misspelt directive (`# raiselint: ingore[...]`, a missing bracket) suppresses nothing, though its author meant it to.',
    example:
      '# raiselint: ignore(autogen/agent-save-state-is-not-yet-implemented)\n# use instead:\n# raiselint: ignore[autogen/agent-save-state-is-not-yet-implemented]',
  },
  {
    id: IO_ERROR,
    defaultSeverity: 'error',
    summary: "A file to check could not be read or decoded (as Ruff's E902)",
    help: 'Make the file readable and valid in its encoding (UTF-8, or the one its coding cookie names), or exclude it.',
    why: 'A file that cannot be read is a file that was not checked: the run says so as a finding (exit 1) instead of passing silently or failing the whole run.',
    example:
      '# bad.py holds bytes that are not UTF-8 and has no coding cookie\n# use instead: add `# -*- coding: latin-1 -*-` as its first line, or re-encode it as UTF-8',
  },
  {
    id: TOO_DEEP,
    defaultSeverity: 'warning',
    summary: 'Code nested too deeply to analyse (it is skipped, the rest of the file is checked)',
    help: 'Split the expression (name the inner parts), or accept that raiselint does not look inside it.',
    why: 'Thousands of nested calls or a sum of thousands of terms would overflow the analysis; rather than lose the whole file, raiselint leaves that expression out and says so.',
    example: 'x = f(f(f(f(...))))  # 5,000 levels\n# use instead:\ninner = f(f(...))\nx = f(f(inner))',
  },
  {
    id: TOO_LARGE,
    defaultSeverity: 'error',
    summary: 'A file too large to check: over `--max-file-size` (10 MiB by default) or the memory bound per file',
    help: 'Exclude generated data files (`extend-exclude`), or raise `--max-file-size` (and the heap, `NODE_OPTIONS=--max-old-space-size=MB`) to check it.',
    why: 'Analysing a file takes about 40 bytes of heap per byte of source. A file whose analysis would not fit in the heap left is not read, and says so, instead of crashing the whole run out of memory; a file over `--max-file-size` is generated data more often than code. Either way it was not checked, so the run does not pass silently.',
    example: '# data/huge_table.py: 12 MiB of generated literals\n# use instead: extend-exclude = ["data/huge_table.py"] in raiselint.toml',
  },
];

/** Each built-in rule's documentation page (docs/rules/raiselint/). */
const PAGES = new Map(BUILTIN_RULES.map((r) => [r.id, rulePageUrl(r.id)]));

export function builtinRule(id: string): BuiltinRule | undefined {
  return BUILTIN_RULES.find((r) => r.id === id);
}

export function isBuiltinRule(id: string): boolean {
  return id.startsWith('raiselint/');
}

export function builtinDiagnostic(ruleId: string, file: string, line: number, column: number, endColumn: number, message: string): Diagnostic {
  const rule = BUILTIN_RULES.find((r) => r.id === ruleId)!;
  return {
    ruleId,
    recordId: '',
    file,
    line,
    column,
    endLine: line,
    endColumn,
    severity: rule.defaultSeverity,
    confidence: 'certain',
    errorClass: '',
    message,
    tips: [rule.help],
    ...(PAGES.get(ruleId) ? { helpUri: PAGES.get(ruleId) } : {}),
    via: [],
  };
}
