/**
 * JS/TS files in `raiselint check`: the prefilter (only files that mention a rule's names go on),
 * one TypeScript program per nearest tsconfig (jsprogram.ts), ESLint's Linter with the plugin's
 * rules for the rule snapshot's JS/TS rules, and its messages as raiselint diagnostics (same
 * fields, reports, suppressions and baseline as Python findings). Inline `eslint-disable`
 * comments do not apply: suppressions are `// raiselint: ignore[...]`.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, parse as parsePath, relative } from 'node:path';
import type { Linter as LinterType } from 'eslint';
import type { Diagnostic, FileError, Fix } from '../diagnostics/types.js';
import { assignFingerprints } from '../diagnostics/fingerprint.js';
import { compareDiagnostics } from '../diagnostics/build.js';
import type { Rule } from '../rules/types.js';
import { collectJsDirectives } from '../suppress/jsdirectives.js';
import { DEFAULT_MAX_FILE_SIZE, readRegular } from '../parse/files.js';
import { readError } from './ioerror.js';
import type { JsStats, RawResult } from './batch.js';

export type { JsStats } from './batch.js';
import { buildPrograms } from './jsprogram.js';

export interface JsFile {
  abs: string;
  display: string;
  /** Why discovery could not take it (see DiscoveredFile): an io-error, never read. */
  error?: string;
}

/** Names whose mention lets a file match (every JS/TS rule's), and `raiselint` for suppression comments. */
export function mentions(text: string, names: Set<string>): { match: boolean; directives: boolean } {
  const directives = text.includes('raiselint');
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) if (names.has(m[0])) return { match: true, directives };
  return { match: false, directives };
}

function realPath(abs: string): string {
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

/** A path for messages: relative to the working directory when under it. */
function shown(abs: string): string {
  const rel = relative(process.cwd(), abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
}

/** Only regular files, bounded (see parse/files.ts); a file discovery could not take (a FIFO, a name that is not UTF-8) is never opened. */
function read(f: JsFile, errors: FileError[], maxBytes: number): string | undefined {
  if (f.error) {
    errors.push({ file: f.display, kind: 'read', message: `cannot read file: ${f.error}` });
    return undefined;
  }
  let bytes: Buffer;
  try {
    bytes = readRegular(f.abs, { maxBytes, limitName: '--max-file-size' }).bytes;
  } catch (e) {
    errors.push(readError(f.display, e));
    return undefined;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    errors.push({ file: f.display, kind: 'decode', message: 'cannot decode file as UTF-8' });
    return undefined;
  }
}

/** The first ESLint suggestion as a display-only fix: its `fix.range` is already an offset edit of `text`. */
function toFix(s: LinterType.LintSuggestion): Fix {
  const guard = /only when/.test(s.desc);
  return {
    applicability: 'display-only',
    strategy: guard ? 'type-guard' : 'try-except',
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

/** Checks JS/TS files with the JS/TS rules; one result per file, in the order given. */
export async function checkJsFiles(
  files: JsFile[],
  rules: Rule[],
  opts: { prefilter?: boolean; maxFileSize?: number } = {},
): Promise<{ results: RawResult[]; errors: FileError[]; stats: JsStats }> {
  const t0 = performance.now();
  const names = new Set(rules.flatMap((r) => r.js?.names ?? []));
  const results: RawResult[] = files.map(() => ({ diagnostics: [], errors: [], directives: [] }));
  const texts: (string | undefined)[] = [];
  const lint: number[] = [];
  files.forEach((f, i) => {
    const text = read(f, results[i]!.errors, opts.maxFileSize ?? DEFAULT_MAX_FILE_SIZE);
    texts.push(text);
    if (text === undefined) return;
    const seen = mentions(text, names);
    if (seen.directives) results[i]!.directives = collectJsDirectives(text, f.abs);
    // --no-prefilter: every file goes to ESLint (for debugging and the benchmark).
    const match = seen.match || opts.prefilter === false;
    if (match) lint.push(i);
    if (match || seen.directives) results[i]!.text = text;
  });
  const errors: FileError[] = [];
  const stats: JsStats = { files: files.length, linted: lint.length, programs: 0, ms: 0 };
  if (lint.length) {
    // Real paths: a linked checkout resolves its packages and tsconfig where its files really are.
    const real = new Map(lint.map((i) => [i, realPath(files[i]!.abs)]));
    const displayOf = new Map(lint.map((i) => [real.get(i)!, files[i]!.display]));
    const groups = buildPrograms([...real.values()], errors, (abs) => displayOf.get(abs) ?? shown(abs));
    stats.programs = groups.length;
    const { Linter } = await import('eslint');
    const tsParser = await import('@typescript-eslint/parser');
    const { createPlugin } = await import('../eslint/plugin.js');
    const plugin = createPlugin({ rules });
    const config: LinterType.Config[] = [
      {
        files: ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'],
        languageOptions: { parser: tsParser as unknown as LinterType.Parser, parserOptions: { programs: groups.map((g) => g.program) } },
        linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
        plugins: { raiselint: plugin as unknown as NonNullable<LinterType.Config['plugins']>[string] },
        rules: Object.fromEntries(rules.map((r) => [`raiselint/${r.id}`, 'error'])),
      },
    ];
    const byId = new Map(rules.map((r) => [`raiselint/${r.id}`, r]));
    for (const i of lint) lintOne({ abs: real.get(i)!, display: files[i]!.display }, texts[i]!, results[i]!, config, Linter, byId);
  }
  stats.ms = performance.now() - t0;
  return { results, errors, stats };
}

function lintOne(f: JsFile, text: string, out: RawResult, config: LinterType.Config[], Linter: typeof import('eslint').Linter, byId: Map<string, Rule>): void {
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
