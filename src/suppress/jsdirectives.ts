/**
 * Suppression comments in JS/TS files, read from comments (the TypeScript scanner, never strings):
 *   parse(text); // raiselint: ignore[yaml/parse-throws-yamlparseerror]
 *   // raiselint: ignore[rule-a, rule-b] -- reason      (alone on its line: covers the statement below)
 *   // raiselint: ignore-file[rule-a]                    (anywhere: the whole file)
 * The same directives as Python's `# raiselint:` comments (directives.ts), as plain data.
 */
import type * as TS from 'typescript';
import { typescript } from '../parse/typescript.js';
import { lineStarts, positionAt } from '../diagnostics/positions.js';
import { directiveIds, type Directive } from './directives.js';

const DIRECTIVE = /^raiselint\s*:\s*(ignore-file|ignore)(?![\w-])(?:\[([^\]]*)\])?(?:\s+--\s+(.*?)(?=\s*(?:\/\/|\*\/)|\s*$)|\s*(?=\/\/|\*\/|$))/;

/** Comment ranges, from the syntax tree (so never inside strings, templates or regular expressions). */
function comments(sf: TS.SourceFile): [number, number][] {
  const ts = typescript();
  const seen = new Map<number, number>();
  const add = (rs: TS.CommentRange[] | undefined) => rs?.forEach((r) => seen.set(r.pos, r.end));
  const visit = (n: TS.Node) => {
    add(ts.getLeadingCommentRanges(sf.text, n.pos));
    add(ts.getTrailingCommentRanges(sf.text, n.end));
    ts.forEachChild(n, visit);
  };
  visit(sf);
  add(ts.getLeadingCommentRanges(sf.text, sf.endOfFileToken.pos));
  return [...seen].sort((a, b) => a[0] - b[0]);
}

/** The lines of the statement that starts on `line` (1-based), from the file's syntax tree. */
function statementLines(sf: TS.SourceFile, line: number): [number, number] {
  const ts = typescript();
  let best: [number, number] = [line, line];
  const visit = (n: TS.Node) => {
    const s = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
    const e = sf.getLineAndCharacterOfPosition(n.getEnd()).line + 1;
    if (s > line || e < line) return;
    if (s === line && ts.isStatement(n) && !ts.isBlock(n)) {
      // Compound statements: the header only (up to its body), as for Python.
      const body =
        (n as { thenStatement?: TS.Node }).thenStatement ??
        (n as { statement?: TS.Node }).statement ??
        (n as { body?: TS.Node }).body ??
        (n as { tryBlock?: TS.Node }).tryBlock;
      best = [line, body ? sf.getLineAndCharacterOfPosition(body.getStart(sf)).line + 1 : e];
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return best;
}

/** A JS/TS source's syntax tree (for comments and statements). */
export function jsSourceFile(text: string, fileName: string): TS.SourceFile {
  const ts = typescript();
  const kind = /\.[jt]sx$/.test(fileName) ? ts.ScriptKind.TSX : /\.[cm]?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
}

export function collectJsDirectives(text: string, fileName: string): Directive[] {
  if (!text.includes('raiselint')) return [];
  const starts = lineStarts(text);
  const sf = jsSourceFile(text, fileName);
  const out: Directive[] = [];
  for (const [cs, ce] of comments(sf)) {
    const ctext = text.slice(cs, ce);
    const at = ctext.search(/raiselint\s*:/);
    if (at < 0) continue;
    const line = positionAt(starts, cs).row + 1;
    const ownLine = text.slice(starts[line - 1]!, cs).trim() === '';
    const dStart = cs + at;
    const base = { line, column: dStart - starts[line - 1]! + 1, commentStart: cs, commentEnd: ce, directiveStart: dStart, ownLine, from: line, to: line };
    const rest = ctext.slice(at);
    const d = DIRECTIVE.exec(rest);
    if (!d) {
      const len = rest.replace(/\*\/$/, '').trimEnd().length;
      out.push({
        ...base,
        kind: 'line',
        ids: [],
        directiveEnd: cs + at + len,
        endColumn: cs + at + len - starts[line - 1]! + 1,
        invalid: "not a raiselint directive: expected '// raiselint: ignore[rule-id]' or '// raiselint: ignore-file[rule-id]'",
      });
      continue;
    }
    const { ids, invalid } = directiveIds(d[2], cs + at + rest.indexOf('[') + 1);
    const len = d[0].trimEnd().length;
    const dkind = d[1] === 'ignore-file' ? 'file' : 'line';
    const dir: Directive = {
      ...base,
      kind: dkind,
      ids,
      reason: d[3] || undefined,
      directiveEnd: cs + at + len,
      endColumn: cs + at + len - starts[line - 1]! + 1,
      invalid,
    };
    if (dkind === 'line' && ownLine) {
      const next = nextCodeLine(text, starts, positionAt(starts, ce).row + 1);
      if (next) [dir.from, dir.to] = statementLines(sf, next);
    }
    out.push(dir);
  }
  return out;
}

/** The first line after `line` that is not a comment; undefined when a blank line comes first. */
function nextCodeLine(text: string, starts: number[], line: number): number | undefined {
  for (let r = line; r < starts.length; r++) {
    const t = text.slice(starts[r]!, starts[r + 1] ?? text.length).trim();
    if (!t) return undefined;
    if (t.startsWith('//') || t.startsWith('/*') || t.startsWith('*')) continue;
    return r + 1;
  }
  return undefined;
}
