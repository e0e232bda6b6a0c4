/** Applies suppression directives to a file's findings and reports blanket, invalid and unused ones. */
import type { Diagnostic, Fix } from '../diagnostics/types.js';
import { assignFingerprints } from '../diagnostics/fingerprint.js';
import { BLANKET_IGNORE, INVALID_IGNORE, UNUSED_IGNORE, builtinDiagnostic, isBuiltinRule } from './builtin.js';
import type { Directive, DirectiveId } from './directives.js';
import { unusedSuppressionEdits, type UnusedSuppression } from './edits.js';

/** Rule ids of a directive that suppress nothing (all of them when `all`). */
export type { UnusedSuppression } from './edits.js';

export interface SuppressOptions {
  /** The rule is reported for this file (selected, not ignored): an unused id for a disabled rule is not reported. */
  active: (ruleId: string) => boolean;
  /** The rule exists (record rules and built-in ones). */
  known: (ruleId: string) => boolean;
  /** The file's text: when given, unused-suppression findings carry the safe fix that removes them. */
  text?: () => string | undefined;
}

export interface SuppressResult {
  kept: Diagnostic[];
  suppressed: Diagnostic[];
  /** Built-in findings about the comments themselves. */
  problems: Diagnostic[];
  unused: UnusedSuppression[];
}

/** Whether a valid directive covers a finding of this rule (or record) on this line: the plugin's check (src/eslint/plugin.ts), as applySuppressions decides it. */
export function suppressedBy(directives: Directive[], ruleId: string, recordId: string, line: number): boolean {
  return directives.some(
    (d) => !d.invalid && (d.kind === 'file' || (line >= d.from && line <= d.to)) && d.ids.some((id) => id.id === ruleId || id.id === recordId),
  );
}

export function applySuppressions(file: string, diags: Diagnostic[], directives: Directive[], opts: SuppressOptions): SuppressResult {
  const used = new Set<DirectiveId>();
  const kept: Diagnostic[] = [];
  const suppressed: Diagnostic[] = [];
  const valid = directives.filter((d) => !d.invalid && d.ids.length);
  for (const diag of diags) {
    let hit = false;
    if (!isBuiltinRule(diag.ruleId)) {
      for (const d of valid) {
        if (d.kind === 'line' && (diag.line < d.from || diag.line > d.to)) continue;
        for (const id of d.ids) {
          if (id.id !== diag.ruleId && id.id !== diag.recordId) continue;
          used.add(id);
          hit = true;
        }
      }
    }
    (hit ? suppressed : kept).push(diag);
  }
  const problems: Diagnostic[] = [];
  const keys = new Map<Diagnostic, string>();
  const unused: UnusedSuppression[] = [];
  for (const d of directives) {
    if (d.invalid) {
      const p = builtinDiagnostic(INVALID_IGNORE, file, d.line, d.column, d.endColumn, `invalid suppression comment: ${d.invalid}`);
      keys.set(p, `${INVALID_IGNORE}\0${d.invalid}`);
      problems.push(p);
      continue;
    }
    if (!d.ids.length) {
      const here = diags.filter((x) => !isBuiltinRule(x.ruleId) && (d.kind === 'file' || (x.line >= d.from && x.line <= d.to))).map((x) => x.ruleId);
      const ids = [...new Set(here)].sort();
      const example = `# raiselint: ${d.kind === 'file' ? 'ignore-file' : 'ignore'}[${ids.length ? ids.join(', ') : 'rule-id'}]`;
      const p = builtinDiagnostic(
        BLANKET_IGNORE,
        file,
        d.line,
        d.column,
        d.endColumn,
        `blanket suppression without rule ids suppresses nothing: write \`${example}\``,
      );
      keys.set(p, `${BLANKET_IGNORE}\0${d.kind}`);
      problems.push(p);
      continue;
    }
    const idle = d.ids.filter((id) => !used.has(id) && (!opts.known(id.id) || opts.active(id.id)));
    if (!idle.length) continue;
    const all = idle.length === d.ids.length && d.ids.every((id) => !used.has(id));
    unused.push({ directive: d, ids: idle, all });
    for (const id of idle) {
      const col = d.column + (id.start - d.directiveStart);
      const why = !opts.known(id.id)
        ? `unknown rule '${id.id}'`
        : d.kind === 'file'
          ? `no '${id.id}' finding in this file`
          : `no '${id.id}' finding ${d.ownLine ? `in the statement below (lines ${d.from}-${d.to})` : 'on this line'}`;
      const p = builtinDiagnostic(UNUSED_IGNORE, file, d.line, col, col + id.id.length, `unused suppression: ${why}`);
      keys.set(p, `${UNUSED_IGNORE}\0${d.kind}\0${id.id}`);
      problems.push(p);
    }
  }
  assignFingerprints(problems, (p) => keys.get(p)!);
  const text = unused.length ? opts.text?.() : undefined;
  if (text !== undefined) attachRemovalFixes(text, unused, problems);
  return { kept, suppressed, problems, unused };
}

/**
 * Gives each unused-suppression finding the fix that cleans its comment: every finding of one
 * comment carries the same fix (all its unused ids go at once), so `--fix` applies it once.
 */
function attachRemovalFixes(text: string, unused: UnusedSuppression[], problems: Diagnostic[]): void {
  const byLine = new Map<number, UnusedSuppression[]>();
  for (const u of unused) byLine.set(u.directive.line, [...(byLine.get(u.directive.line) ?? []), u]);
  for (const [line, list] of byLine) {
    const edits = unusedSuppressionEdits(text, list);
    if (!edits.length) continue;
    const ids = list.flatMap((u) => u.ids.map((i) => i.id));
    const whole = list.every((u) => u.all);
    const fix: Fix = {
      applicability: 'safe',
      strategy: 'remove-ignore',
      reason: whole ? 'remove the unused suppression' : `remove the unused rule id${ids.length === 1 ? '' : 's'} ${ids.join(', ')} from the suppression`,
      edits,
    };
    for (const p of problems) if (p.ruleId === UNUSED_IGNORE && p.line === line) p.fix = fix;
  }
}
