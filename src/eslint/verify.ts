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
const resolutionCaches = new WeakMap<ts.Program, ts.ModuleResolutionCache>();

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
  return typeChecksFiles(program, new Map([[fileName, edits]])).get(fileName)!;
}

/**
 * typeChecksAll for several files of one program (`raiselint check` verifies the suggestions of
 * all its files at the end): each round applies, in every file, the edits that overlap none taken
 * in that round, all files in one program. A file without errors then passes the round's edits.
 * The others are checked one edit at a time, each alone in its file (as typeChecks).
 */
export function typeChecksFiles(program: ts.Program, byFile: Map<string, Edit[]>): Map<string, boolean[]> {
  const ok = new Map([...byFile].map(([f, edits]) => [f, edits.map(() => false)]));
  const left = new Map([...byFile].map(([f, edits]) => [f, edits.map((_, i) => i).sort((a, b) => edits[a]!.range[0] - edits[b]!.range[0] || a - b)]));
  for (;;) {
    const round = new Map<string, number[]>();
    for (const [f, l] of left) {
      if (!l.length) continue;
      const { layer, rest } = nonOverlapping(l, byFile.get(f)!);
      round.set(f, layer);
      left.set(f, rest);
    }
    if (!round.size) return ok;
    const counts = errorsWith(program, new Map([...round].map(([f, layer]) => [f, layer.map((i) => byFile.get(f)![i]!)])));
    for (const [f, layer] of round) {
      const edits = byFile.get(f)!;
      const count = counts.get(f);
      const mark = ok.get(f)!;
      if (count === 0) for (const i of layer) mark[i] = true;
      // Alone in its program, one edit: the count is typeChecks' own.
      else if (count !== undefined && round.size === 1 && layer.length === 1) mark[layer[0]!] = count <= beforeCount(program, program.getSourceFile(f)!);
      else for (const i of layer) mark[i] = typeChecks(program, f, edits[i]!.range, edits[i]!.text);
    }
  }
}

/** The edits (indices, by start) that overlap none before them, and the rest. */
function nonOverlapping(sorted: number[], edits: Edit[]): { layer: number[]; rest: number[] } {
  const layer: number[] = [];
  const rest: number[] = [];
  let end = -1;
  for (const i of sorted) {
    const e = edits[i]!;
    if (e.range[0] >= end) {
      layer.push(i);
      end = Math.max(e.range[1], e.range[0] + 1);
    } else rest.push(i);
  }
  return { layer, rest };
}

/** Each file's type errors with its edits (not overlapping, in order) applied, all files in one program; a file the program lacks is left out. */
function errorsWith(program: ts.Program, byFile: Map<string, Edit[]>): Map<string, number> {
  const texts = new Map<string, string>();
  for (const [fileName, edits] of byFile) {
    const sf = program.getSourceFile(fileName);
    if (!sf) continue;
    let text = '';
    let at = 0;
    for (const e of edits) {
      text += sf.text.slice(at, e.range[0]) + e.text;
      at = e.range[1];
    }
    texts.set(sf.fileName, text + sf.text.slice(at));
  }
  const next = texts.size ? replaced(program, texts) : undefined;
  const out = new Map<string, number>();
  for (const fileName of byFile.keys()) {
    const sf = next?.getSourceFile(fileName);
    if (sf && texts.has(sf.fileName)) out.set(fileName, errorCount(next!, sf));
  }
  return out;
}

/** The program with only these files' texts replaced (the other files' parsed trees reused). */
function replaced(program: ts.Program, texts: Map<string, string>): ts.Program {
  const options = program.getCompilerOptions();
  const host = ts.createCompilerHost(options, true);
  // One module resolution cache per base program, shared by its replacements: each would else look up
  // every file's package.json again to reuse the file (half of a replacement's cost, ~5 ms).
  let cache = resolutionCaches.get(program);
  if (!cache) resolutionCaches.set(program, (cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), host.getCanonicalFileName, options)));
  const shared = cache;
  host.getModuleResolutionCache = () => shared;
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, opts, containing) =>
    literals.map((l) => ts.resolveModuleName(l.text, containingFile, opts, host, shared, redirected, ts.getModeForUsageLocation(containing, l, opts)));
  const read = host.getSourceFile;
  host.getSourceFile = (name, version, onError, create) => {
    const fixed = texts.get(name);
    const old = program.getSourceFile(name);
    if (fixed !== undefined && old) return ts.createSourceFile(name, fixed, version, true, scriptKindOf(old));
    return old ?? read.call(host, name, version, onError, create);
  };
  return ts.createProgram({
    rootNames: program.getRootFileNames(),
    options,
    host,
    oldProgram: program,
    projectReferences: program.getProjectReferences(),
  });
}

/** Whether replacing [start, end) of the file with `text` adds no type error to it. */
export function typeChecks(program: ts.Program, fileName: string, range: [number, number], text: string): boolean {
  const sf = program.getSourceFile(fileName);
  if (!sf) return true;
  const count = errorsWith(program, new Map([[fileName, [{ range, text }]]])).get(fileName) ?? -1;
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
