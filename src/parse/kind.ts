/**
 * What a file is and how its content is read (Ruff's `SourceKind`): made once from a path and its
 * bytes (a file's, or standard input's with `--stdin-filename`), and asked by the pipeline and the
 * fixer instead of the path's extension. A notebook is checked as the module of its code cells
 * (./notebook.ts): its `checked` bytes are that module's, and positions in it are told by cell.
 */
import { inCell, notebookModule } from './notebook.js';
import { decodeSource } from './source.js';

/** `notebook`: a Jupyter notebook; `js`: JavaScript/TypeScript (not a `.d.ts`, which declares and runs nothing); `python`: anything else that is checked (`extend-include` may name any extension). */
export type SourceKind = 'python' | 'notebook' | 'js';

const JS = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const DECLARATION = /\.d\.[cm]?ts$/;

/** The one reading of a path's extension for how its content is read (which files are checked at all: src/workspace/pathkind.ts). */
export function kindOf(path: string): SourceKind {
  if (path.endsWith('.ipynb')) return 'notebook';
  return JS.test(path) && !DECLARATION.test(path) ? 'js' : 'python';
}

export class Source {
  readonly kind: SourceKind;
  private module?: Buffer;

  constructor(
    readonly path: string,
    /** The bytes as read. */
    readonly bytes: Buffer,
  ) {
    this.kind = kindOf(path);
  }

  get isNotebook(): boolean {
    return this.kind === 'notebook';
  }

  /** The bytes the Python checker reads: the file's, or the module of a notebook's code cells (throws NotebookError for a notebook it cannot read). */
  checked(): Buffer {
    if (!this.isNotebook) return this.bytes;
    return (this.module ??= Buffer.from(notebookModule(this.bytes), 'utf8'));
  }

  /** The Python text checked (throws DecodeError or NotebookError). */
  text(): string {
    return this.isNotebook ? this.checked().toString('utf8') : decodeSource(this.bytes).text;
  }

  /** A position of the checked text as the user reads it: by cell and line in a notebook, as it is elsewhere. */
  place<T extends { line?: number; column?: number; message: string }>(e: T, checkedText: string): T {
    return this.isNotebook ? inCell(checkedText, e) : e;
  }
}
