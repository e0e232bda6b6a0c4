/**
 * ESLint's Linter with the plugin's rules (src/eslint/plugin.ts) over given TypeScript programs,
 * and its messages as raiselint diagnostics: the lint of one JS/TS text, for `raiselint check`
 * (./jsrun.ts) and the language server's buffers (./jsbuffer.ts). ESLint's inline `eslint-disable`
 * comments apply, as in ESLint.
 */
import { parse as parsePath } from 'node:path';
import { Linter, type Linter as LinterType } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import type ts from 'typescript';
import type { Diagnostic, Fix } from '../diagnostics/types.js';
import { assignFingerprints } from '../diagnostics/fingerprint.js';
import { compareDiagnostics } from '../diagnostics/build.js';
import type { Rule } from '../rules/types.js';
import { createPlugin } from '../eslint/plugin.js';
import type { RawResult } from './batch.js';

export interface LintedFile {
  abs: string;
  display: string;
}

/** The first ESLint suggestion as a display-only fix: its `fix.range` is already an offset edit of `text`. */
function toFix(s: LinterType.LintSuggestion): Fix {
  const guard = /only when/.test(s.desc);
  return {
    applicability: 'display-only',
    strategy: guard ? 'type-guard' : 'try-except',
    title: s.desc,
    reason: `${s.desc} (an editor quick fix: it changes what happens when the call throws)`,
    edits: [{ start: s.fix.range[0], end: s.fix.range[1], text: s.fix.text }],
  };
}

function toDiagnostic(m: LinterType.LintMessage, rule: Rule, file: string): Diagnostic {
  const certain = m.messageId === 'certain';
  return {
    ruleId: rule.id,
    recordId: rule.recordId,
    file,
    line: m.line,
    column: m.column,
    endLine: m.endLine ?? m.line,
    endColumn: m.endColumn ?? m.column,
    severity: certain ? rule.defaultSeverity : 'warning',
    confidence: certain ? 'certain' : 'possible',
    errorClass: rule.errorClass,
    message: m.message,
    tips: rule.tips,
    docsUrl: rule.docsUrl,
    sourceUrl: rule.raiser.url,
    via: [],
    fix: m.suggestions?.length ? toFix(m.suggestions[0]!) : undefined,
  };
}

export interface JsLinter {
  /** Lints one file's text into `out` (its diagnostics sorted and fingerprinted; a crash or a syntax error is an error of the file). */
  lint(f: LintedFile, text: string, out: RawResult): void;
}

const plugins = new WeakMap<Rule[], ReturnType<typeof createPlugin>>();

/** ESLint's Linter with the plugin's rules for `rules`, over these TypeScript programs. */
export function jsLinter(rules: Rule[], programs: ts.Program[]): JsLinter {
  let plugin = plugins.get(rules);
  if (!plugin) plugins.set(rules, (plugin = createPlugin({ rules, suppress: false })));
  const config: LinterType.Config[] = [
    {
      files: ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'],
      languageOptions: { parser: tsParser as unknown as LinterType.Parser, parserOptions: { programs } },
      // Inline `eslint-disable` comments apply, as in ESLint (reported unused ones do not: other tools' directives are not ours).
      linterOptions: { reportUnusedDisableDirectives: 'off' },
      plugins: { raiselint: plugin as unknown as NonNullable<LinterType.Config['plugins']>[string] },
      rules: Object.fromEntries(rules.map((r) => [`raiselint/${r.id}`, 'error'])),
    },
  ];
  const byId = new Map(rules.map((r) => [`raiselint/${r.id}`, r]));
  return { lint: (f, text, out) => lintOne(f, text, out, config, byId) };
}

function lintOne(f: LintedFile, text: string, out: RawResult, config: LinterType.Config[], byId: Map<string, Rule>): void {
  const linter = new Linter({ cwd: parsePath(f.abs).root, configType: 'flat' });
  let messages: LinterType.LintMessage[];
  try {
    messages = linter.verify(text, config, { filename: f.abs });
  } catch (e) {
    out.errors.push({ file: f.display, kind: 'internal', message: `internal error while checking: ${(e as Error).message.split('\n')[0]}` });
    return;
  }
  for (const m of messages) {
    if (m.fatal) {
      out.errors.push({
        file: f.display,
        line: m.line,
        column: Math.max(1, m.column),
        kind: 'syntax',
        message: `syntax error: ${m.message.replace(/^Parsing error: /, '')} (not checked)`,
      });
      continue;
    }
    const rule = m.ruleId ? byId.get(m.ruleId) : undefined;
    if (rule) out.diagnostics.push(toDiagnostic(m, rule, f.display));
  }
  out.diagnostics.sort(compareDiagnostics);
  assignFingerprints(out.diagnostics, (d) => `${d.ruleId}\0${d.message}`);
}
