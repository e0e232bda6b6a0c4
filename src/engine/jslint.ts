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
import { typeChecksFiles, type Edit } from '../eslint/verify.js';
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

/** The message as a diagnostic; its fix is the first suggestion when the plugin type-checked them (`verified`), else finish's to choose. */
function toDiagnostic(m: LinterType.LintMessage, rule: Rule, file: string, verified: boolean): Diagnostic {
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
    fix: verified && m.suggestions?.length ? toFix(m.suggestions[0]!) : undefined,
  };
}

export interface JsLinter {
  /** Lints one file's text into `out` (its diagnostics sorted and fingerprinted; a crash or a syntax error is an error of the file). */
  lint(f: LintedFile, text: string, out: RawResult): void;
  /**
   * With `deferVerify`: gives each finding linted so far its first suggestion that type-checks,
   * the suggestions of all files of a program checked together (src/eslint/verify.ts
   * `typeChecksFiles`: a few programs for the run instead of one or two per file).
   */
  finish(): void;
}

/** A finding whose suggestions are not yet type-checked: its file (as the program names it) and its suggestions, in order. */
interface Unverified {
  diagnostic: Diagnostic;
  abs: string;
  suggestions: LinterType.LintSuggestion[];
}

const plugins = new WeakMap<Rule[], Map<boolean, ReturnType<typeof createPlugin>>>();

/**
 * ESLint's Linter with the plugin's rules for `rules`, over these TypeScript programs. The plugin
 * type-checks each file's suggestions when it lints the file, unless `deferVerify`: then `finish`
 * does it for all files at once (`raiselint check`).
 */
export function jsLinter(rules: Rule[], programs: ts.Program[], opts: { deferVerify?: boolean } = {}): JsLinter {
  const verify = !opts.deferVerify;
  let made = plugins.get(rules);
  if (!made) plugins.set(rules, (made = new Map()));
  let plugin = made.get(verify);
  if (!plugin) made.set(verify, (plugin = createPlugin({ rules, suppress: false, verify })));
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
  const unverified: Unverified[] = [];
  return {
    lint: (f, text, out) => lintOne(f, text, out, config, byId, verify ? undefined : unverified),
    finish: () => {
      verifyAll(unverified, programs);
      unverified.length = 0;
    },
  };
}

/** Each finding's first suggestion that type-checks, rounds of first, then second, suggestions; all files of a program together in each round. */
function verifyAll(unverified: Unverified[], programs: ts.Program[]): void {
  const edit = (s: LinterType.LintSuggestion): Edit => ({ range: [s.fix.range[0], s.fix.range[1]], text: s.fix.text });
  const key = (s: LinterType.LintSuggestion) => `${s.fix.range[0]}\0${s.fix.range[1]}\0${s.fix.text}`;
  let left = unverified.filter((u) => u.suggestions.length);
  for (let k = 0; left.length; k++) {
    for (const program of programs) {
      const mine = left.filter((u) => u.suggestions[k] && program.getSourceFile(u.abs));
      // One edit per distinct suggestion of a file (two rules on one call offer the same try/catch).
      const byFile = new Map<string, { keys: string[]; edits: Edit[] }>();
      for (const u of mine) {
        const f = byFile.get(u.abs) ?? { keys: [], edits: [] };
        byFile.set(u.abs, f);
        const s = u.suggestions[k]!;
        if (f.keys.includes(key(s))) continue;
        f.keys.push(key(s));
        f.edits.push(edit(s));
      }
      const ok = typeChecksFiles(program, new Map([...byFile].map(([abs, f]) => [abs, f.edits])));
      for (const u of mine) {
        const f = byFile.get(u.abs)!;
        if (ok.get(u.abs)?.[f.keys.indexOf(key(u.suggestions[k]!))]) u.diagnostic.fix = toFix(u.suggestions[k]!);
      }
    }
    left = left.filter((u) => !u.diagnostic.fix && u.suggestions.length > k + 1);
  }
}

function lintOne(f: LintedFile, text: string, out: RawResult, config: LinterType.Config[], byId: Map<string, Rule>, unverified?: Unverified[]): void {
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
    if (!rule) continue;
    const d = toDiagnostic(m, rule, f.display, !unverified);
    out.diagnostics.push(d);
    if (unverified && m.suggestions?.length) unverified.push({ diagnostic: d, abs: f.abs, suggestions: m.suggestions });
  }
  out.diagnostics.sort(compareDiagnostics);
  assignFingerprints(out.diagnostics, (d) => `${d.ruleId}\0${d.message}`);
}
