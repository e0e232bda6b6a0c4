/**
 * A suggestion must type-check: the fixed text is checked by the TypeScript checker, in a program
 * that is the file's own with only that file replaced (the other files' parsed trees are reused),
 * and a suggestion that adds an error to the file is not offered. A try/catch that leaves a
 * variable unassigned when the catch falls through (`let sub: Command; try { sub = ... } catch
 * { ... } return sub;`) or a function without its return is caught here, whatever the pattern.
 * JavaScript files are checked only when the program checks them (`checkJs`).
 */
import ts from 'typescript';

const baseErrors = new WeakMap<ts.Program, Map<string, number>>();

function errorCount(program: ts.Program, sf: ts.SourceFile): number {
  return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].filter((d) => d.category === ts.DiagnosticCategory.Error).length;
}

export interface Edit {
  /** [start, end) of the file's text and its replacement. */
  range: [number, number];
  text: string;
}

/**
 * Whether each edit, applied alone, adds no type error to the file. Edits that do not overlap are
 * applied together first: when the file then has no error at all, each of them passes (one program
 * for all, where most files have a few suggestions and no error). Otherwise, and for edits that
 * overlap one already taken (a guard and a try/catch around the same statement), one at a time.
 */
export function typeChecksAll(program: ts.Program, fileName: string, edits: Edit[]): boolean[] {
  const ok = edits.map(() => false);
  let left = edits.map((_, i) => i).sort((a, b) => edits[a]!.range[0] - edits[b]!.range[0] || a - b);
  while (left.length) {
    const layer: number[] = [];
    const rest: number[] = [];
    let end = -1;
    for (const i of left) {
      const e = edits[i]!;
      if (e.range[0] >= end) {
        layer.push(i);
        end = Math.max(e.range[1], e.range[0] + 1);
      } else rest.push(i);
    }
    if (
      layer.length > 1 &&
      errorsWith(
        program,
        fileName,
        layer.map((i) => edits[i]!),
      ) === 0
    )
      for (const i of layer) ok[i] = true;
    else for (const i of layer) ok[i] = typeChecks(program, fileName, edits[i]!.range, edits[i]!.text);
    left = rest;
  }
  return ok;
}

/** The file's type errors with the edits (not overlapping, in order) applied; -1 when the program has no such file. */
function errorsWith(program: ts.Program, fileName: string, edits: Edit[]): number {
  const sf = program.getSourceFile(fileName);
  if (!sf) return -1;
  let text = '';
  let at = 0;
  for (const e of edits) {
    text += sf.text.slice(at, e.range[0]) + e.text;
    at = e.range[1];
  }
  const after = replaced(program, sf, text + sf.text.slice(at));
  return after ? errorCount(after.program, after.sf) : -1;
}

/** The file's program with only that file's text replaced (the other files' parsed trees reused). */
function replaced(program: ts.Program, sf: ts.SourceFile, fixed: string): { program: ts.Program; sf: ts.SourceFile } | undefined {
  const options = program.getCompilerOptions();
  const host = ts.createCompilerHost(options, true);
  const read = host.getSourceFile;
  host.getSourceFile = (name, version, onError, create) =>
    name === sf.fileName
      ? ts.createSourceFile(name, fixed, version, true, scriptKindOf(sf))
      : (program.getSourceFile(name) ?? read.call(host, name, version, onError, create));
  const next = ts.createProgram({
    rootNames: program.getRootFileNames(),
    options,
    host,
    oldProgram: program,
    projectReferences: program.getProjectReferences(),
  });
  const after = next.getSourceFile(sf.fileName);
  return after ? { program: next, sf: after } : undefined;
}

/** Whether replacing [start, end) of the file with `text` adds no type error to it. */
export function typeChecks(program: ts.Program, fileName: string, range: [number, number], text: string): boolean {
  const sf = program.getSourceFile(fileName);
  if (!sf) return true;
  const count = errorsWith(program, fileName, [{ range, text }]);
  if (count < 0) return false;
  // The file as it is is checked only when the fixed one has errors (most files have none).
  return count === 0 || count <= beforeCount(program, sf);
}

function beforeCount(program: ts.Program, sf: ts.SourceFile): number {
  let known = baseErrors.get(program);
  if (!known) baseErrors.set(program, (known = new Map()));
  let before = known.get(sf.fileName);
  if (before === undefined) known.set(sf.fileName, (before = errorCount(program, sf)));
  return before;
}

function scriptKindOf(sf: ts.SourceFile): ts.ScriptKind {
  const n = sf.fileName;
  if (/\.tsx$/.test(n)) return ts.ScriptKind.TSX;
  if (/\.jsx$/.test(n)) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(n)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}
