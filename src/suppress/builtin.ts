/** Rules raiselint itself reports about suppression comments (not from records). */
import type { Diagnostic } from '../diagnostics/types.js';
import type { Severity } from '../rules/types.js';

export interface BuiltinRule {
  id: string;
  defaultSeverity: Severity;
  summary: string;
  help: string;
}

export const BLANKET_IGNORE = 'raiselint/blanket-ignore';
export const UNUSED_IGNORE = 'raiselint/unused-ignore';
export const INVALID_IGNORE = 'raiselint/invalid-ignore';

export const BUILTIN_RULES: BuiltinRule[] = [
  {
    id: BLANKET_IGNORE,
    defaultSeverity: 'warning',
    summary: 'A suppression comment without rule ids suppresses nothing',
    help: 'Name the rules it is meant for: `# raiselint: ignore[rule-id]` (add a reason after ` -- `).',
  },
  {
    id: UNUSED_IGNORE,
    defaultSeverity: 'warning',
    summary: 'A suppression comment names a rule that reports nothing there',
    help: 'Remove the rule id (or the whole comment); `raiselint check --fix` does it.',
  },
  {
    id: INVALID_IGNORE,
    defaultSeverity: 'warning',
    summary: 'A `# raiselint:` comment that is not a valid directive',
    help: 'Write `# raiselint: ignore[rule-id]` or `# raiselint: ignore-file[rule-id]`, optionally followed by ` -- reason`.',
  },
];

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
    via: [],
  };
}
