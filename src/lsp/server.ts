/**
 * The raiselint language server: findings as diagnostics (on open and save at once, on change
 * after a quiet period), hovers with the record's documentation, and code actions (fixes,
 * ignore comments, fix all). Documents are checked from the editor's text, never from disk, with
 * the configuration `raiselint check` would use for the file (see workspace.ts); records and
 * config files are reloaded when they change.
 *
 * One file per concern: context.ts (what the parts share), publish.ts (checking and publishing
 * diagnostics), reload.ts (configuration, records and watching), requests.ts (hovers, code actions).
 */
import { fileURLToPath } from 'node:url';
import {
  CodeActionKind,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { warningLines } from '../records/load.js';
import type { RuleSet } from '../rules/ruleset.js';
import { FIX_ALL_KIND } from './actions.js';
import { createContext, type ServerContext, type ServerOptions } from './context.js';
import { LspFraming } from './framing.js';
import { DiagnosticsPublisher } from './publish.js';
import { RuleReloader } from './reload.js';
import { serveCodeActions, serveHover } from './requests.js';
import { Workspace } from './workspace.js';

export type { ServerOptions } from './context.js';

const INITIALIZE_RESULT: InitializeResult = {
  capabilities: {
    positionEncoding: 'utf-16',
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
    hoverProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
  },
  serverInfo: { name: 'raiselint' },
};

/** `initialize`: keeps the client's capabilities and takes the workspace root from its first folder. */
function initialize(ctx: ServerContext, params: InitializeParams): InitializeResult {
  ctx.caps = params.capabilities;
  const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
  if (folder?.startsWith('file:')) ctx.ws.root = fileURLToPath(folder);
  else if (params.rootPath) ctx.ws.root = params.rootPath;
  return INITIALIZE_RESULT;
}

/** Open, change, save and close of documents: checked at once, after a quiet period, at once, cleared. */
function serveDocuments(ctx: ServerContext, publisher: DiagnosticsPublisher, reloader: RuleReloader): void {
  const { documents } = ctx;
  documents.onDidOpen((e) => {
    publisher.check(e.document);
    reloader.rewatch();
  });
  documents.onDidChangeContent((e) => {
    // The open event also fires a content change: already checked at this version.
    if (publisher.isCurrent(e.document)) return;
    publisher.schedule(e.document);
    // Open files whose findings were read from this module (cross-file) are checked again too.
    const abs = ctx.fileOf(e.document.uri);
    if (abs) recheck(ctx, publisher, ctx.ws.modules.changed(abs));
  });
  documents.onDidSave((e) => void publisher.check(e.document));
  documents.onDidClose((e) => {
    publisher.close(e.document.uri);
    const abs = ctx.fileOf(e.document.uri);
    if (abs) recheck(ctx, publisher, ctx.ws.modules.closed(abs));
  });
}

/** Checks the open documents of these files again (their findings were read from a module that changed). */
function recheck(ctx: ServerContext, publisher: DiagnosticsPublisher, files: string[]): void {
  for (const f of files) {
    const doc = ctx.documents.all().find((d) => ctx.fileOf(d.uri) === f);
    if (doc) publisher.schedule(doc);
  }
}

/** Keeps the newest version of a document seen on the wire (a change not applied yet supersedes a pending check). */
function noteArrival(ctx: ServerContext, params: unknown): void {
  const doc = (params as { textDocument?: { uri?: unknown; version?: unknown } } | undefined)?.textDocument;
  if (typeof doc?.uri === 'string' && typeof doc.version === 'number') ctx.arrived.set(doc.uri, Math.max(doc.version, ctx.arrived.get(doc.uri) ?? 0));
}

/** The open buffers of files, by path (a JS/TS buffer's program reads them instead of the disk). */
function openTexts(ctx: ServerContext): Map<string, string> {
  const out = new Map<string, string>();
  for (const doc of ctx.documents.all()) {
    const abs = doc.uri.startsWith('file:') ? ctx.fileOf(doc.uri) : undefined;
    if (abs) out.set(abs, doc.getText());
  }
  return out;
}

/** Serves one client over the streams; resolves when the client sends `exit`. */
export function startServer(
  initialRules: RuleSet,
  opts: ServerOptions,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): { connection: Connection; done: Promise<void> } {
  // Malformed frames are dropped and said (framing.ts): the reader underneath never wedges.
  // After `shutdown`, every request but `exit` is answered InvalidRequest, as the protocol says.
  let shutDown = false;
  const afterShutdown = (msg: Record<string, unknown>): boolean => {
    if (msg.method === 'textDocument/didChange') noteArrival(ctx, msg.params);
    if (!shutDown) {
      if (msg.method === 'shutdown') shutDown = true;
      return true;
    }
    if (msg.method === 'exit' || msg.id === undefined || typeof msg.method !== 'string') return true;
    const reply = Buffer.from(
      JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32600, message: `the server is shut down: '${msg.method}' refused` } }),
      'utf8',
    );
    output.write(Buffer.concat([Buffer.from(`Content-Length: ${reply.length}\r\n\r\n`, 'latin1'), reply]));
    return false;
  };
  const framed = input.pipe(new LspFraming((problem) => connection.console.warn(`raiselint: ${problem}`), afterShutdown));
  const connection = createConnection(framed, output);
  const ws = new Workspace(initialRules, {
    records: opts.records,
    minConfidence: opts.minConfidence,
    config: opts.config !== false,
    openTexts: () => openTexts(ctx),
    derive: opts.derive,
  });
  const ctx = createContext(connection, new TextDocuments(TextDocument), ws, opts);
  const reloader: RuleReloader = new RuleReloader(ctx, () => publisher.checkAll());
  const publisher = new DiagnosticsPublisher(ctx, (abs, text) => reloader.beforeCheck(abs, text));

  connection.onInitialize((params) => initialize(ctx, params));
  connection.onInitialized(() => {
    for (const l of warningLines(ws.rules.warnings)) connection.console.warn(l);
    reloader.registerClientWatchers();
    reloader.rewatch();
  });
  connection.onDidChangeWatchedFiles((params) => reloader.filesChanged(params));
  serveDocuments(ctx, publisher, reloader);
  serveHover(ctx, publisher);
  serveCodeActions(ctx, publisher);
  connection.onShutdown(() => {
    reloader.close();
    publisher.dispose();
  });

  const done = new Promise<void>((resolveDone) => connection.onExit(() => resolveDone()));
  ctx.documents.listen(connection);
  connection.listen();
  return { connection, done };
}
