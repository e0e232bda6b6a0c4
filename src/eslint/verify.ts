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

/** Whether replacing [start, end) of the file with `text` adds no type error to it. */
export function typeChecks(program: ts.Program, fileName: string, range: [number, number], text: string): boolean {
  const sf = program.getSourceFile(fileName);
  if (!sf) return true;
  const fixed = sf.text.slice(0, range[0]) + text + sf.text.slice(range[1]);
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
  if (!after) return false;
  const count = errorCount(next, after);
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
