/** The per-file pipeline: parse → semantic model → matching → handlers → diagnostics. */
import { readRegular, sourceLimits } from '../parse/files.js';
import { readError } from './ioerror.js';
import { parsePython } from '../parse/parser.js';
import { DecodeError, decodeSource, normalizeLoneCR } from '../parse/source.js';
import { firstSyntaxError } from '../parse/syntax.js';
import { isStackOverflow, mayBeDeeper, shallowSource } from '../parse/depth.js';
import { builtinDiagnostic, TOO_DEEP } from '../suppress/builtin.js';
import { prefilterFor, type ProjectImports } from '../prefilter/index.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { Confidence } from '../rules/types.js';
import type { Pins } from '../rules/condition/versions.js';
import { buildModel } from '../semantic/model.js';
import type { ProjectModules } from '../semantic/crossfile.js';
import { projectImports } from '../semantic/projectfacts.js';
import { matchCalls } from '../match/match.js';
import { filterHandled, inOwnContext } from '../analysis/handlers.js';
import { runLiteralCalls } from '../analysis/probe.js';
import { filterNeverRun } from '../analysis/dead.js';
import type { Finding } from '../match/match.js';
import { compareDiagnostics, toDiagnostic } from '../diagnostics/build.js';
import { planFixes, type StrategyOption } from '../fix/plan.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { assignFingerprints, fingerprintKey } from '../diagnostics/fingerprint.js';
import { collectDirectives, type Directive } from '../suppress/directives.js';

export interface CheckOptions {
  minConfidence?: Confidence;
  /** How fixes are planned (`auto`: the record's handlingStrategy, direct replacement when certain). */
  fixStrategy?: StrategyOption;
  /** Skip the semantic model for files that mention no trigger name (default true). */
  prefilter?: boolean;
  /** The versions the file's project pins (src/config/pins.ts), for version-dependent rules. */
  pins?: Pins;
  /** Plan fixes (default true); false when nothing will read them (an output format that shows none). */
  fixes?: boolean;
  /** The project's modules, read for what a file imports from them (semantic/crossfile.ts); absent: each file alone. */
  modules?: ProjectModules;
}

export interface FileResult {
  file: string;
  diagnostics: Diagnostic[];
  errors: FileError[];
  /** The decoded text, for reporters and fixes. */
  text?: string;
  /** `# raiselint:` suppression comments (read from the tree). */
  directives?: Directive[];
  /** The bytes read (checkFile), for fixes. */
  bytes?: Buffer;
  /** Project module files the findings were read from (cross-file), transitively. */
  deps?: string[];
}

/** False when the text cannot produce a finding (see src/prefilter/index.ts): one pass, whatever the number of rules. */
export function canMatch(text: string, rules: RuleSet, project?: ProjectImports): boolean {
  return prefilterFor(rules).candidateText(text, project) !== null;
}

/** `abs`: the file's absolute path, where its imports of project modules are resolved from (with `opts.modules`). */
export function checkSource(source: string, file: string, rules: RuleSet, opts: CheckOptions = {}, abs?: string): FileResult {
  // Lone CRs are line breaks, as CPython counts them (see normalizeLoneCR): same offsets, CPython's lines.
  const text = normalizeLoneCR(source);
  // A tree deeper than the limit is read with its deep subtrees blanked: recursive walks would overflow the stack, and some are quadratic in depth.
  if (mayBeDeeper(text, DEPTH_LIMITS[0]!)) return checkDeep(text, file, rules, opts);
  try {
    return checkText(text, file, rules, opts, abs);
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    return checkDeep(text, file, rules, opts);
  }
}

/**
 * A file nested too deep for the analysis: checked with the deep subtrees blanked
 * (parse/depth.ts). Findings elsewhere are kept; each blanked subtree is a raiselint/too-deep
 * warning; a fix whose edit touches blanked code is dropped (it would write the placeholder).
 */
function checkDeep(text: string, file: string, rules: RuleSet, opts: CheckOptions): FileResult {
  for (const limit of DEPTH_LIMITS) {
    const shallow = shallowSource(text, limit);
    let r: FileResult;
    try {
      r = checkText(shallow.text, file, rules, opts);
    } catch (e) {
      if (isStackOverflow(e)) continue;
      throw e;
    }
    if (!shallow.regions.length) return r;
    const blanked = (s: number, e: number) => shallow.regions.some((g) => s < g.end && g.start < e);
    for (const d of r.diagnostics) if (d.fix?.edits.some((x) => blanked(x.start, x.end))) d.fix = undefined;
    const notes = shallow.regions.map((g) =>
      builtinDiagnostic(
        TOO_DEEP,
        file,
        g.row + 1,
        g.column + 1,
        g.column + 1,
        `nested more than ${limit} levels deep: this code (lines ${g.row + 1}-${g.endRow + 1}) is not analysed; the rest of the file is`,
      ),
    );
    const errors = r.errors.filter((e) => e.kind !== 'syntax');
    const err = shallow.syntax;
    if (err)
      errors.unshift({
        file,
        line: err.row + 1,
        column: err.column + 1,
        kind: 'syntax',
        message: `syntax error: ${err.text} (checked anyway; findings near it may be missed)`,
      });
    return { ...r, text, errors, diagnostics: [...r.diagnostics, ...notes].sort(compareDiagnostics) };
  }
  return { file, diagnostics: [], errors: [{ file, kind: 'internal', message: 'internal error while checking: nested too deep to analyse' }], text };
}

/** Depth limits tried in turn (the second for a thread with a smaller stack). */
const DEPTH_LIMITS = [100, 40];

function checkText(text: string, file: string, rules: RuleSet, opts: CheckOptions, abs?: string): FileResult {
  const errors: FileError[] = [];
  const tree = parsePython(text);
  try {
    const err = firstSyntaxError(tree.rootNode);
    if (err)
      errors.push({
        file,
        line: err.row + 1,
        column: err.column + 1,
        kind: 'syntax',
        message: `syntax error: ${err.text} (checked anyway; findings near it may be missed)`,
      });
    const directives = collectDirectives(tree.rootNode, text);
    let read: (() => string[]) | undefined;
    if (opts.prefilter !== false) {
      const pf = prefilterFor(rules);
      const project = opts.modules && abs ? projectImports(opts.modules, abs, text, pf) : undefined;
      // Through the project modules it imports: a class they make, a function there that calls a rule's method on what it is passed.
      const buf = Buffer.from(text, 'utf8');
      if (!canMatch(text, rules, project) && !(project && pf.passedNames(buf, buf.length, project)))
        return { file, diagnostics: [], errors, text, directives, deps: orUndefined(project?.read() ?? []) };
      read = project?.read;
    }
    const model = buildModel(tree.rootNode, rules, file, { source: text, project: opts.modules && abs ? { modules: opts.modules, abs } : undefined });
    const found = inOwnContext(
      runLiteralCalls(filterHandled(filterNeverRun(matchCalls(model, rules, opts.pins), rules.python?.version), model, rules.exceptions), rules.python),
    );
    const keys = new Map<Diagnostic, string>();
    const findingOf = new Map<Diagnostic, Finding>();
    let diagnostics = found.map((f) => {
      const d = toDiagnostic(f, file);
      keys.set(d, fingerprintKey(f));
      findingOf.set(d, f);
      return d;
    });
    diagnostics.sort(compareDiagnostics);
    assignFingerprints(diagnostics, (d) => keys.get(d)!);
    if (opts.minConfidence === 'certain') diagnostics = diagnostics.filter((d) => d.confidence === 'certain');
    // Fixes, while the tree is alive: the record's patterns bound to this code (several findings of one statement share one).
    const fixes =
      opts.fixes === false
        ? new Map<Finding, Diagnostic['fix']>()
        : planFixes(
            tree.rootNode,
            text,
            diagnostics.map((d) => findingOf.get(d)!),
            rules,
            { strategy: opts.fixStrategy, scopes: model.scopes },
          );
    for (const d of diagnostics) d.fix = fixes.get(findingOf.get(d)!);
    return { file, diagnostics, errors, text, directives, deps: orUndefined([...new Set([...model.deps(), ...(read?.() ?? [])])].sort()) };
  } finally {
    tree.delete();
  }
}

const orUndefined = (a: string[]): string[] | undefined => (a.length ? a : undefined);

export function checkFile(abs: string, display: string, rules: RuleSet, opts: CheckOptions = {}): FileResult {
  let bytes: Buffer;
  try {
    bytes = Buffer.from(readRegular(abs, sourceLimits()).bytes);
  } catch (e) {
    return { file: display, diagnostics: [], errors: [readError(display, e)] };
  }
  return checkBytes(bytes, display, rules, opts);
}

/** Checks a file's bytes (read from disk or stdin): an undecodable file or an internal error is a file error, never a throw. */
export function checkBytes(bytes: Buffer, display: string, rules: RuleSet, opts: CheckOptions = {}, abs?: string): FileResult {
  let text: string;
  try {
    text = decodeSource(bytes).text;
  } catch (e) {
    if (e instanceof DecodeError) return { file: display, diagnostics: [], errors: [{ file: display, kind: 'decode', message: e.message }] };
    throw e;
  }
  try {
    return { ...checkSource(text, display, rules, opts, abs), bytes };
  } catch (e) {
    return { file: display, diagnostics: [], errors: [{ file: display, kind: 'internal', message: `internal error while checking: ${(e as Error).message}` }] };
  }
}
