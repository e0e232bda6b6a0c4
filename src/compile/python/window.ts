/**
 * A record's `sourceCode` is an excerpt (~36 lines around the raise), not a module: it may start
 * inside a multi-line string or in the middle of a block, more indented than the lines after it.
 * Parsed from its first line, the `def` around the raise can be lost to error recovery. These are
 * the other places to parse it from: lines that begin a statement at their own indentation (no
 * later line up to the raise is less indented), dedented so that line starts at column 0.
 */

export interface WindowStart {
  /** Index of the excerpt's first line in sourceCode. */
  offset: number;
  /** The excerpt from that line, dedented, up to the first later line less indented than it. */
  text: string;
}

const MAX_STARTS = 6;
const indentOf = (l: string) => l.length - l.trimStart().length;
const blank = (l: string) => l.trim() === '' || l.trimStart().startsWith('#');
/** A line that may begin a definition (the `def` or `class` itself, or its first decorator). */
const opensDefinition = (l: string) => /^\s*(@|(async\s+)?def\s|class\s)/.test(l);
/** A line that may begin a statement (not a continuation or the end of a bracket or string). */
const beginsStatement = (l: string) => /^\s*[A-Za-z_@]/.test(l) && !/^\s*(else|elif|except|finally|case)\b/.test(l);

/**
 * Where to re-parse `source` so that line `row` is inside a well-formed block: first the lines that open a
 * definition (top down, so a `class` line comes before its methods), then other statement starts.
 * A start is kept only when no line from it to `row` is less indented (a block around `row` can begin there).
 */
export function windowStarts(source: string, row: number): WindowStart[] {
  const lines = source.split('\n');
  if (row <= 0 || row >= lines.length) return [];
  // suffixMin[k]: the smallest indentation of a non-blank line in k..row.
  const suffixMin: number[] = new Array(row + 1).fill(Infinity);
  for (let k = row, min = Infinity; k >= 0; k--) {
    if (!blank(lines[k]!)) min = Math.min(min, indentOf(lines[k]!));
    suffixMin[k] = min;
  }
  const fits = (k: number) => !blank(lines[k]!) && indentOf(lines[k]!) <= suffixMin[k]!;
  const defs: number[] = [];
  const others: number[] = [];
  for (let k = 1; k <= row; k++) {
    if (!fits(k)) continue;
    // A decorator's `def` starts with the decorator: skip a def line right after its decorators.
    if (opensDefinition(lines[k]!) && !(k > 0 && /^\s*@/.test(lines[k - 1]!) && indentOf(lines[k - 1]!) === indentOf(lines[k]!))) defs.push(k);
    else if (beginsStatement(lines[k]!) && !others.length) others.push(k);
  }
  return [...defs, ...others].slice(0, MAX_STARTS).map((k) => ({ offset: k, text: excerpt(lines, k) }));
}

/** Lines from `k` dedented by line k's indentation, up to the first later line that is less indented. */
function excerpt(lines: string[], k: number): string {
  const base = indentOf(lines[k]!);
  const out: string[] = [];
  for (let i = k; i < lines.length; i++) {
    const l = lines[i]!;
    if (!blank(l) && indentOf(l) < base) break;
    out.push(l.slice(Math.min(base, indentOf(l))));
  }
  return out.join('\n');
}

/**
 * Whether parsing a window can tell anything: a `def` around line `row` needs the word `def` on
 * or before that line, and a class read from it (an exception class joins the hierarchy) the
 * word `class`. A window with neither parses to no def and defines nothing: it is not parsed.
 */
function worthReading(text: string, row: number): boolean {
  if (text.includes('class')) return true;
  let end = -1;
  for (let i = 0; i <= row && (end = text.indexOf('\n', end + 1)) >= 0; i++);
  return (end < 0 ? text : text.slice(0, end)).includes('def');
}

/**
 * `read(sourceCode, row)`, or when it finds no `def` around the raise (or a method whose class error
 * recovery lost) and the parse may have lost it (`settled` is not set), the first re-parse from a window start that finds the def (with its class).
 */
export function readWindow<T extends { def?: { className?: string; inClass: boolean }; settled?: boolean }>(
  source: string,
  row: number,
  read: (code: string, row: number) => T,
): { facts: T; offset: number } {
  const whole = read(source, row);
  const complete = (f: T) => !!f.def && (!f.def.inClass || !!f.def.className);
  // A parse without errors, with the raise's line as code (not in a string the excerpt starts inside),
  // lost nothing to error recovery: a piece of it parses to the same statements.
  if (complete(whole) || whole.settled) return { facts: whole, offset: 0 };
  let found: { facts: T; offset: number } | undefined;
  for (const start of windowStarts(source, row)) {
    if (!worthReading(start.text, row - start.offset)) continue;
    const facts = read(start.text, row - start.offset);
    if (complete(facts)) return { facts, offset: start.offset };
    if (facts.def && !found && !whole.def) found = { facts, offset: start.offset };
  }
  return found ?? { facts: whole, offset: 0 };
}
