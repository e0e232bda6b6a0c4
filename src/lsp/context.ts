/**
 * What every part of the language server shares: the connection, the open documents, the
 * workspace (rules and configuration), the options, the client's capabilities, and how a buffer's
 * URI is named and shown. Built once per client by startServer (server.ts).
 */
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageType, ShowMessageNotification, type TextDocuments, type ClientCapabilities, type Connection } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Confidence } from '../rules/types.js';
import type { DeriveMode } from '../records/generate/derive.js';
import { notebookFileOfCell } from './cells.js';
import { Workspace } from './workspace.js';

export interface ServerOptions {
  /** Extra dataset files or folders, absolute. */
  records: string[];
  bundled: boolean;
  /** `--python`: the environment whose installed libraries ground the rules (src/workspace/pyenv.ts). */
  python?: string | false;
  /** Overrides every config's `min-confidence`. */
  minConfidence?: Confidence;
  /** Where the compiled rules are cached (absolute; default: the engine's). */
  cacheDir?: string;
  /** Read `raiselint.toml` / `[tool.raiselint]` (false: `--no-config`). */
  config?: boolean;
  /** `--derive`: overrides every config's `derive` (records for the installed modules the buffers import). */
  derive?: DeriveMode;
  /** Quiet period after a change before the document is checked. */
  debounceMs: number;
  /** Watch the records paths and config files on disk (besides workspace/didChangeWatchedFiles). */
  watch: boolean;
}

export interface ServerContext {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly ws: Workspace;
  readonly opts: ServerOptions;
  /** The client's capabilities: empty until `initialize`. */
  caps: ClientCapabilities;
  /** The file a buffer stands for: its path, a notebook cell's notebook (./cells.ts), or undefined (untitled). */
  fileOf(uri: string): string | undefined;
  /** How a buffer is named in findings. */
  displayPath(uri: string): string;
  /** Shows an error once (until `forgetShown`), as a notification: nothing waits on the user. */
  showError(message: string): void;
  /** The configuration changed: errors shown before may be shown again. */
  forgetShown(): void;
  /**
   * The newest version of each document that has come in on the wire (the framing sees a change
   * before the connection applies it): a check of an older version would be superseded work.
   */
  readonly arrived: Map<string, number>;
}

export function isPython(doc: TextDocument): boolean {
  return doc.languageId === 'python' || /\.pyi?$/.test(doc.uri.replace(/[?#].*$/, ''));
}

/** A JS/TS file's buffer (checked with the JS/TS rules): by its path, as `raiselint check` tells them apart. */
export function isJsDoc(doc: TextDocument, file: string | undefined): boolean {
  return !!file && Workspace.isJs(file);
}

/** The buffers the server checks: Python (and notebook cells) and JS/TS files. */
export function isChecked(doc: TextDocument, file: string | undefined): boolean {
  return isJsDoc(doc, file) || isPython(doc);
}

/** How a buffer is named in findings: relative to the workspace root when under it, else absolute (or its URI). */
export function displayPathOf(uri: string, abs: string | undefined, root: string | undefined): string {
  if (!abs) return uri;
  if (root) {
    const rel = relative(root, abs);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel;
  }
  return abs;
}

export function createContext(connection: Connection, documents: TextDocuments<TextDocument>, ws: Workspace, opts: ServerOptions): ServerContext {
  /** Errors already shown (each once, until the configuration changes). */
  const shown = new Set<string>();
  const fileOf = (uri: string): string | undefined => (uri.startsWith('file:') ? fileURLToPath(uri) : notebookFileOfCell(uri));
  return {
    connection,
    documents,
    ws,
    opts,
    caps: {},
    fileOf,
    displayPath: (uri) => displayPathOf(uri, fileOf(uri), ws.root),
    showError: (message) => {
      if (shown.has(message)) return;
      shown.add(message);
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Error, message });
    },
    forgetShown: () => shown.clear(),
    arrived: new Map(),
  };
}
