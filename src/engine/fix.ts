/**
 * `--fix`, Ruff's lint-and-fix loop for one file: lint (check + the per-file stage of
 * ./filecontext.ts), apply the applicable fixes to the bytes, lint again and verify (the result
 * parses without errors, exactly the fixed findings are gone, nothing new appears), until no
 * applicable fix is left, so a second run changes nothing. The first lint is the run's own when it
 * has one: unchanged text is not analysed again. A round whose result fails is retried fix by
 * fix; a fix that fails alone is dropped and reported. Nothing here reaches back into the run: a
 * file's `FileContext` is data, and fixRun returns the run's findings after the fixes as a new value.
 */
import type { RuleSet } from '../rules/ruleset.js';
import { TOO_DEEP } from '../suppress/builtin.js';
import { decodeSource, DecodeError, loneCrEol, normalizeLoneCR, withEol } from '../parse/source.js';
import type { Diagnostic, Fix, FixEdit, FileError } from '../diagnostics/types.js';
import { applicable, applyBytes, ChangedOnDiskError, distinctFixes, ReadOnlyError, fixKey, fixOffsets, selectEdits, writeAtomic } from '../fix/apply.js';
import type { FileResult } from './check.js';
import { Source } from '../parse/kind.js';
import { withTree } from '../parse/parser.js';
import { namesWritten, undefinedNames } from '../fix/verify.js';
import { fixNotebook, type FileFix } from './notebook-fix.js';
import { aloneContext, lintText, type FileContext, type LintContext, type RunContext } from './filecontext.js';

export { aloneContext };

export interface FixOptions {
  /** Apply `unsafe` fixes too. */
  unsafe?: boolean;
}

export type { LintContext } from './filecontext.js';
export type { FileFix } from './notebook-fix.js';

const MAX_ROUNDS = 10;

/**
 * Fixes one file's bytes in memory. `first`: the run's lint of these very bytes (its findings
 * after the per-file stage, and its errors), so the loop starts from it instead of linting again.
 */
export function fixBytes(
  original: Buffer,
  rules: RuleSet,
  ctx: LintContext,
  opts: FixOptions = {},
  first?: Pick<FileResult, 'diagnostics' | 'errors'>,
): FileFix {
  const file = ctx.file.display;
  let decoded;
  try {
    decoded = decodeSource(original);
  } catch (e) {
    if (e instanceof DecodeError) return { file, before: '', after: '', fixed: 0, diagnostics: [], errors: [{ file, kind: 'decode', message: e.message }] };
    throw e;
  }
  // Lone CRs read as line breaks (as checkSource reads them); the bytes outside edits keep them.
  const before = normalizeLoneCR(decoded.text);
  const eol = loneCrEol(decoded.text);
  let res: Lint = first ?? lintText(before, rules, ctx);
  const lints = { n: first ? 0 : 1 };
  const fail = (message: string): FileFix => ({
    file,
    before,
    after: before,
    fixed: 0,
    diagnostics: res.diagnostics,
    errors: [...res.errors.filter((e) => e.kind !== 'syntax'), { file, kind: 'fix', message }],
  });
  const accept = (f: Fix) => applicable(f.applicability, !!opts.unsafe);
  if (!distinctFixes(res.diagnostics, accept).length)
    return { file, before, after: before, fixed: 0, diagnostics: res.diagnostics, errors: res.errors, lints: lints.n };
  const body = Buffer.from(original.subarray(decoded.bom ? 3 : 0));
  if (!body.equals(Buffer.from(decoded.text, 'utf8'))) return fail('not fixed: fixes are written only to UTF-8 files');
  // A syntax error is already reported (as a warning): the file is left alone.
  if (res.errors.some((e) => e.kind === 'syntax'))
    return {
      file,
      before,
      after: before,
      fixed: 0,
      diagnostics: res.diagnostics,
      errors: [...res.errors, { file, kind: 'syntax', message: 'not fixed: the file has a syntax error' }],
    };

  const loop: Loop = { bytes: original, text: before, res, fixed: 0, lints, errors: [], bom: decoded.bom, eol, accept };
  const stuck = runRounds(loop, rules, ctx);
  res = loop.res;
  if (stuck) return fail(stuck);
  return {
    file,
    before,
    after: loop.text,
    bytes: loop.text === before ? undefined : loop.bytes,
    fixed: loop.fixed,
    diagnostics: res.diagnostics,
    errors: [...loop.errors, ...res.errors],
    lints: lints.n,
  };
}

export type Lint = Pick<FileResult, 'diagnostics' | 'errors'>;

/** A file's loop as it goes: the bytes and text so far, their lint, what was fixed and what failed. */
interface Loop {
  bytes: Buffer;
  text: string;
  res: Lint;
  fixed: number;
  lints: { n: number };
  errors: FileError[];
  readonly bom: boolean;
  readonly eol: '\r' | undefined;
  readonly accept: (f: Fix) => boolean;
}

/** Rounds of fixes until no applicable fix is left; says why the file is not fixed when the fixes do not settle. */
function runRounds(loop: Loop, rules: RuleSet, ctx: LintContext): string | undefined {
  const failed = new Set<string>();
  const file = ctx.file.display;
  for (let round = 0; ; round++) {
    const candidates = distinctFixes(loop.res.diagnostics, loop.accept).filter((c) => !failed.has(fixKey(c.fix, false)));
    if (!candidates.length) return undefined;
    if (round === MAX_ROUNDS) return `not fixed: the fixes did not settle after ${MAX_ROUNDS} rounds`;
    const sel = selectEdits(
      loop.text,
      candidates.map((c) => c.fix),
    );
    const chosen = candidates.filter((c) => sel.applied.includes(c.fix));
    const attempt = tryApply(loop.bytes, loop.text, loop.bom, eolEdits(sel.edits, loop.eol), chosen, loop.res, rules, ctx, loop.lints);
    if (attempt.ok) {
      ({ bytes: loop.bytes, text: loop.text, res: loop.res } = attempt);
      loop.fixed += chosen.reduce((n, c) => n + c.diagnostics.length, 0);
      continue;
    }
    // Find the fix at fault: apply them one at a time; keep the first that passes.
    let progressed = false;
    for (const c of chosen) {
      const one = tryApply(loop.bytes, loop.text, loop.bom, eolEdits(fixOffsets(loop.text, c.fix), loop.eol), [c], loop.res, rules, ctx, loop.lints);
      if (one.ok) {
        ({ bytes: loop.bytes, text: loop.text, res: loop.res } = one);
        loop.fixed += c.diagnostics.length;
        progressed = true;
        break;
      }
      failed.add(fixKey(c.fix, false));
      const d = c.diagnostics[0]!;
      loop.errors.push({ file, line: d.line, column: d.column, kind: 'fix', message: `fix for ${d.ruleId} not applied: ${one.why}` });
    }
    if (!progressed && !candidates.some((c) => !failed.has(fixKey(c.fix, false)))) return undefined;
  }
}

/** Edits for a lone-CR file insert lone CRs (see loneCrEol). */
function eolEdits(edits: FixEdit[], eol: '\r' | undefined): FixEdit[] {
  return eol ? edits.map((e) => ({ ...e, text: withEol(e.text, eol) })) : edits;
}

type Attempt = { ok: true; bytes: Buffer; text: string; res: FileResult } | { ok: false; why: string };

function tryApply(
  bytes: Buffer,
  text: string,
  bom: boolean,
  edits: FixEdit[],
  chosen: { fix: Fix; diagnostics: Diagnostic[] }[],
  prev: Pick<FileResult, 'diagnostics'>,
  rules: RuleSet,
  ctx: LintContext,
  lints: { n: number },
): Attempt {
  const next = applyBytes(bytes, text, bom, edits);
  const nextText = normalizeLoneCR(decodeSource(next).text);
  const res = lintText(nextText, rules, ctx);
  lints.n++;
  const syntax = res.errors.find((e) => e.kind === 'syntax');
  if (syntax) return { ok: false, why: `the result does not parse (line ${syntax.line})` };
  // Unsafe still means valid: the fixed code reads no name that nothing defines.
  const written = namesWritten(edits.map((e) => e.text));
  const undef = written.size ? withTree(nextText, (t) => undefinedNames(t.rootNode, written)) : new Set<string>();
  if (undef.size) {
    const was = withTree(text, (t) => undefinedNames(t.rootNode, undef));
    const added = [...undef].filter((n) => !was.has(n));
    if (added.length) return { ok: false, why: `the fixed code reads ${added.map((n) => `\`${n}\``).join(', ')}, which nothing defines` };
  }
  // Exactly the fixed findings are gone: compare rule and confidence counts.
  const count = (ds: Diagnostic[]) => {
    const m = new Map<string, number>();
    // raiselint/too-deep says what was not analysed: a file with nothing left to analyse has none, and that is no lost finding.
    for (const d of ds) if (d.ruleId !== TOO_DEEP) m.set(`${d.ruleId} ${d.confidence}`, (m.get(`${d.ruleId} ${d.confidence}`) ?? 0) + 1);
    return m;
  };
  const before = count(prev.diagnostics);
  const want = count(prev.diagnostics);
  for (const c of chosen) for (const d of c.diagnostics) want.set(`${d.ruleId} ${d.confidence}`, want.get(`${d.ruleId} ${d.confidence}`)! - 1);
  const got = count(res.diagnostics);
  for (const k of new Set([...want.keys(), ...got.keys()])) {
    const w = want.get(k) ?? 0;
    const g = got.get(k) ?? 0;
    if (g > w)
      return {
        ok: false,
        why: before.get(k) ? `the finding ${k.split(' ')[0]} is still reported after the fix` : `the fixed code has a new ${k.split(' ')[0]} finding`,
      };
    if (g < w) return { ok: false, why: `the fix also removed another ${k.split(' ')[0]} finding` };
  }
  return { ok: true, bytes: next, text: nextText, res };
}

export interface WriteOutcome {
  written: boolean;
  error?: FileError;
}

/** Writes a fixed file, unless it changed since `original` was read. */
export function writeFixed(abs: string, display: string, original: Buffer, fixedBytes: Buffer): WriteOutcome {
  try {
    writeAtomic(abs, fixedBytes, original);
    return { written: true };
  } catch (e) {
    if (e instanceof ChangedOnDiskError || e instanceof ReadOnlyError)
      return { written: false, error: { file: display, kind: 'fix', message: `not fixed: ${e.message}` } };
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    return { written: false, error: { file: display, kind: 'fix', message: `not fixed: cannot write the file (${code})` } };
  }
}

/** One file's job for the fix phase: its bytes as the run read them, its context, and the run's lint of it. */
export interface FixJob {
  display: string;
  abs: string;
  bytes: Uint8Array;
  file: FileContext;
  /** The run's findings and errors of the file (not for a notebook: its findings are placed in cells, its module is linted afresh). */
  first?: Lint;
}

/** Runs a file's lint-and-fix loop (a notebook's through its module of code cells). */
export function fixFile(job: FixJob, rules: RuleSet, run: RunContext | undefined, opts: FixOptions): FileFix {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  const ctx: LintContext = { file: job.file, run };
  if (new Source(job.abs, bytes).isNotebook) return fixNotebook(bytes, job.display, (b) => fixBytes(b, rules, ctx, opts));
  return fixBytes(bytes, rules, ctx, opts, job.first);
}
