/**
 * Jupyter notebooks (nbformat 4): the code cells become one Python module, as Ruff does, so names
 * bound in one cell are known in the next. Each code cell starts with a marker comment line
 * (`# %% notebook cell N`, the cell marker of Jupytext and editors; N counting every cell from 1 as Jupyter front ends do), so any position in
 * the module maps back to its cell from the module text alone. IPython syntax is masked line by line
 * (the line count stays): line magics and shell escapes (`%pip`, `!ls`, `x = !ls`, `obj?`) become
 * `pass` / `None`, and a cell that starts with a cell magic other than a timing one (`%%bash`,
 * `%%html`) becomes blank lines. A fix rewrites the `source` of the changed cells only: every other
 * byte of the notebook's JSON stays.
 */
import { diffArrays } from 'diff';
import { findNodeAtLocation, parseTree, type Node, type ParseError } from 'jsonc-parser';

export class NotebookError extends Error {}

export interface CodeCell {
  /** 1-based, counting every cell (markdown too). */
  index: number;
  /** The cell's source as stored (lines joined). */
  source: string;
  /** Offset and length of the cell's `source` value in the notebook's JSON text. */
  offset: number;
  length: number;
  /** The source was stored as one string, not a list of lines. */
  stringForm: boolean;
  /** Lines masked as IPython syntax (0-based within the cell). */
  masked: number[];
}

export interface Notebook {
  cells: CodeCell[];
  /** The code cells as one module, with a marker line before each. */
  module: string;
}

const MARKER = /^# %% notebook cell (\d+)$/;
const markerLine = (index: number) => `# %% notebook cell ${index}`;
/** Cell magics whose body is Python (timing and capturing): kept, only the magic line is masked. */
/** IPython's automagic package commands without `%` (`pip install -U x`), common in published notebooks. */
const AUTOMAGIC = /^\s*(?:pip|conda|mamba)\s+(?:install|uninstall|list|show|freeze|update|upgrade)\b/;
const PYTHON_CELL_MAGICS = new Set(['time', 'timeit', 'capture', 'prun', 'debug']);

function sourceText(node: Node | undefined, index: number): { text: string; stringForm: boolean } {
  if (!node) return { text: '', stringForm: false };
  if (node.type === 'string') return { text: node.value as string, stringForm: true };
  if (node.type === 'array' && (node.children ?? []).every((c) => c.type === 'string'))
    return { text: (node.children ?? []).map((c) => c.value as string).join(''), stringForm: false };
  throw new NotebookError(`cell ${index}: 'source' is neither a string nor a list of strings`);
}

/** Masks IPython syntax in a cell, keeping its lines. */
export function maskCell(source: string): { text: string; masked: number[] } {
  const lines = source.split('\n');
  const masked: number[] = [];
  const cellMagic = /^%%(\w+)/.exec(lines[0] ?? '');
  if (cellMagic && !PYTHON_CELL_MAGICS.has(cellMagic[1]!)) return { text: lines.map(() => '').join('\n'), masked: lines.map((_, i) => i) };
  const out = lines.map((line, i) => {
    let m = /^(\s*)(?:[%!]|\?\??\w)/.exec(line);
    if (m || /^\s*[\w.]+\?\??\s*$/.test(line) || AUTOMAGIC.test(line)) {
      masked.push(i);
      return `${m?.[1] ?? /^\s*/.exec(line)![0]}pass`;
    }
    m = /^(\s*[\w.]+(?:\s*,\s*[\w.]+)*\s*=\s*)[%!]/.exec(line);
    if (m) {
      masked.push(i);
      return `${m[1]}None`;
    }
    return line;
  });
  return { text: out.join('\n'), masked };
}

/** A notebook file's bytes (UTF-8 JSON) → its module text, for the checker. */
export function notebookModule(bytes: Uint8Array): string {
  return readNotebook(
    Buffer.from(bytes)
      .toString('utf8')
      .replace(/^\uFEFF/, ''),
  ).module;
}

/** Reads a notebook's JSON text: its Python code cells (none when its language is not Python). */
export function readNotebook(json: string): Notebook {
  const errors: ParseError[] = [];
  const tree = parseTree(json, errors, { allowTrailingComma: false, disallowComments: true });
  if (!tree || errors.length) throw new NotebookError(`not a notebook: invalid JSON at offset ${errors[0]?.offset ?? 0}`);
  const nbformat = findNodeAtLocation(tree, ['nbformat'])?.value;
  if (typeof nbformat !== 'number' || nbformat < 4) throw new NotebookError(`not an nbformat 4 notebook (nbformat ${JSON.stringify(nbformat ?? null)})`);
  const cellsNode = findNodeAtLocation(tree, ['cells']);
  if (cellsNode?.type !== 'array') throw new NotebookError("not a notebook: no 'cells' list");
  const lang =
    findNodeAtLocation(tree, ['metadata', 'language_info', 'name'])?.value ?? findNodeAtLocation(tree, ['metadata', 'kernelspec', 'language'])?.value;
  const cells: CodeCell[] = [];
  if (typeof lang === 'string' && lang.toLowerCase() !== 'python') return { cells, module: '' };
  (cellsNode.children ?? []).forEach((cell, i) => {
    if (findNodeAtLocation(cell, ['cell_type'])?.value !== 'code') return;
    const node = findNodeAtLocation(cell, ['source']);
    const { text, stringForm } = sourceText(node, i + 1);
    cells.push({ index: i + 1, source: text, offset: node?.offset ?? -1, length: node?.length ?? 0, stringForm, masked: maskCell(text).masked });
  });
  return { cells, module: moduleOf(cells) };
}

function moduleOf(cells: CodeCell[]): string {
  return cells.map((c) => `${markerLine(c.index)}\n${withNewline(maskCell(c.source).text)}`).join('');
}

function withNewline(s: string): string {
  return s === '' || s.endsWith('\n') ? s : `${s}\n`;
}

/** A 1-based module line's cell and 1-based line within it (undefined before the first cell's marker, or on a marker). */
export function cellOf(moduleText: string, line: number): { cell: number; line: number } | undefined {
  const lines = moduleText.split('\n');
  for (let l = Math.min(line, lines.length) - 1; l >= 0; l--) {
    const m = MARKER.exec(lines[l]!);
    if (m) return l + 1 === line ? undefined : { cell: Number(m[1]), line: line - (l + 1) };
  }
  return undefined;
}

/** The 1-based module line of a cell's 1-based line. */
export function moduleLineOf(moduleText: string, cell: number, line: number): number {
  const at = moduleText.split('\n').indexOf(markerLine(cell));
  return at < 0 ? line : at + 1 + line;
}

/** The module's text per cell (text before the first marker, such as an added import, belongs to the first cell). */
function splitModule(moduleText: string): Map<number, string> {
  const out = new Map<number, string>();
  let current: number | undefined;
  let pending = '';
  let buf: string[] = [];
  const flush = () => {
    if (current !== undefined) out.set(current, buf.join(''));
  };
  for (const line of moduleText.split(/(?<=\n)/)) {
    const m = MARKER.exec(line.replace(/\r?\n$/, ''));
    if (m) {
      flush();
      current = Number(m[1]);
      buf = [];
      if (pending) {
        buf.push(pending);
        pending = '';
      }
      continue;
    }
    if (current === undefined) pending += line;
    else buf.push(line);
  }
  flush();
  return out;
}

/**
 * The notebook's JSON with the cells whose code changed in `fixedModule` rewritten, every other
 * byte as it was. A changed cell that holds masked IPython lines is not rewritten: the error says so.
 */
export function rewriteNotebook(json: string, nb: Notebook, fixedModule: string): string {
  const parts = splitModule(fixedModule);
  const edits: { offset: number; length: number; text: string }[] = [];
  for (const c of nb.cells) {
    const before = withNewline(maskCell(c.source).text);
    const after = parts.get(c.index);
    if (after === undefined) throw new NotebookError(`cell ${c.index}: its marker line was lost while fixing`);
    if (after === before) continue;
    const restored = c.masked.length ? unmask(c, before, after) : after;
    const text = c.source.endsWith('\n') || c.source === '' ? restored : restored.replace(/\n$/, '');
    edits.push({ offset: c.offset, length: c.length, text: encodeSource(json, c, text) });
  }
  let out = json;
  for (const e of edits.sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.text + out.slice(e.offset + e.length);
  return out;
}

/**
 * The fixed cell with its IPython lines back: a line diff of the masked cell and the fixed one
 * (lines the fix kept are the original lines). A fix that changed a masked line is refused.
 */
function unmask(c: CodeCell, before: string, after: string): string {
  const original = withNewline(c.source).split(/(?<=\n)/);
  const masked = new Set(c.masked);
  const out: string[] = [];
  let at = 0;
  for (const part of diffArrays(before.split(/(?<=\n)/), after.split(/(?<=\n)/))) {
    if (part.added) out.push(...part.value);
    else if (part.removed) {
      for (let i = at; i < at + part.value.length; i++)
        if (masked.has(i)) throw new NotebookError(`cell ${c.index}: not fixed: the fix changes an IPython magic or shell line`);
      at += part.value.length;
    } else {
      out.push(...original.slice(at, at + part.value.length));
      at += part.value.length;
    }
  }
  return out.join('');
}

/** A cell's new `source` value in the style of the old one (a string, or a list of lines indented as before). */
function encodeSource(json: string, c: CodeCell, text: string): string {
  if (c.stringForm) return JSON.stringify(text);
  const lines = text.split(/(?<=\n)/).filter((l) => l !== '');
  const old = json.slice(c.offset, c.offset + c.length);
  const item = /^\[(\r?\n[ \t]*)/.exec(old);
  const close = /(\r?\n[ \t]*)\]$/.exec(old);
  if (!item) return JSON.stringify(lines);
  return `[${lines.map((l) => `${item[1]}${JSON.stringify(l)}`).join(',')}${close?.[1] ?? item[1]}]`;
}

/** A problem at a module position, said in the notebook's terms: no line, "cell N, line M" in the message. */
export function inCell<T extends { line?: number; column?: number; message: string }>(moduleText: string, e: T): T {
  if (!e.line) return e;
  const at = cellOf(moduleText, e.line);
  if (!at) return e;
  return { ...e, line: undefined, column: undefined, message: `cell ${at.cell}, line ${at.line}${e.column ? `, column ${e.column}` : ''}: ${e.message}` };
}
