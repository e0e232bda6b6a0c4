/**
 * The raiselint language server: findings as diagnostics (on open and save at once, on change
 * after a quiet period), hovers with the record's documentation, and code actions (fixes,
 * ignore comments, fix all). Documents are checked from the editor's text, never from disk.
 */
import { statSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  MessageType,
  ShowMessageNotification,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
  type ClientCapabilities,
  type Connection,
  type FileSystemWatcher,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { checkSource } from '../engine/check.js';
import { loadRules } from '../engine/rules.js';
import type { Diagnostic } from '../diagnostics/types.js';
import { DatasetError } from '../records/load.js';
import type { RecordProblem } from '../records/types.js';
import { CuratedDataError } from '../rules/curated.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { Confidence } from '../rules/types.js';
import { codeActions, FIX_ALL_KIND } from './actions.js';
import { covers, hoverContent, rangeOf, toLspDiagnostic } from './convert.js';
import { withoutIgnored } from './ignore.js';
import { isUnder, watchPaths, type Watcher } from './watch.js';

export interface ServerOptions {
  /** Extra dataset files or folders, absolute. */
  records: string[];
  bundled: boolean;
  minConfidence: Confidence;
  /** Quiet period after a change before the document is checked. */
  debounceMs: number;
  /** Watch the records paths on disk (besides workspace/didChangeWatchedFiles). */
  watch: boolean;
}

interface Checked {
  version: number;
  diagnostics: Diagnostic[];
}

export function describeProblem(w: RecordProblem): string {
  return `${w.file}:${w.line}: ${w.field ? `field '${w.field}': ` : ''}${w.message}`;
}

function isPython(doc: TextDocument): boolean {
  return doc.languageId === 'python' || /\.pyi?$/.test(doc.uri.replace(/[?#].*$/, ''));
}

/** Serves one client over the streams; resolves when the client sends `exit`. */
export function startServer(initialRules: RuleSet, opts: ServerOptions, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): { connection: Connection; done: Promise<void> } {
  const connection = createConnection(input, output);
  const documents = new TextDocuments(TextDocument);
  const checked = new Map<string, Checked>();
  const timers = new Map<string, NodeJS.Timeout>();
  let rules = initialRules;
  let caps: ClientCapabilities = {};
  let root: string | undefined;
  let watcher: Watcher | undefined;
  let reloading: Promise<void> = Promise.resolve();

  const displayPath = (uri: string): string => {
    if (!uri.startsWith('file:')) return uri;
    const abs = fileURLToPath(uri);
    if (root) {
      const rel = relative(root, abs);
      if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel;
    }
    return abs;
  };

  const check = (doc: TextDocument): Checked => {
    const timer = timers.get(doc.uri);
    if (timer) clearTimeout(timer);
    timers.delete(doc.uri);
    let diagnostics: Diagnostic[] = [];
    if (isPython(doc)) {
      const text = doc.getText();
      try {
        const res = checkSource(text, displayPath(doc.uri), rules, { minConfidence: opts.minConfidence });
        diagnostics = withoutIgnored(text, res.diagnostics);
      } catch (e) {
        connection.console.error(`raiselint: internal error while checking ${doc.uri}: ${(e as Error).message}`);
      }
    }
    const result = { version: doc.version, diagnostics };
    checked.set(doc.uri, result);
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: diagnostics.map(toLspDiagnostic) });
    return result;
  };

  /** The findings for the document's current text (checked now if a change is still pending). */
  const current = (doc: TextDocument): Checked => {
    const c = checked.get(doc.uri);
    return c && c.version === doc.version ? c : check(doc);
  };

  const schedule = (doc: TextDocument) => {
    const prev = timers.get(doc.uri);
    if (prev) clearTimeout(prev);
    timers.set(doc.uri, setTimeout(() => {
      timers.delete(doc.uri);
      const latest = documents.get(doc.uri);
      if (latest) check(latest);
    }, opts.debounceMs));
  };

  const reload = (why: string): Promise<void> => {
    reloading = reloading.then(async () => {
      try {
        const next = await loadRules({ records: opts.records, bundled: opts.bundled });
        rules = next;
        connection.console.info(`raiselint: records reloaded (${why}): ${next.rules.length} rules`);
        for (const w of next.warnings) connection.console.warn(`raiselint: warning: ${describeProblem(w)}`);
      } catch (e) {
        const msg = e instanceof DatasetError ? e.describe() : e instanceof CuratedDataError ? e.message : `internal error: ${(e as Error).message}`;
        // A notification, not window/showMessageRequest: nothing waits on the user.
        void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Error, message: `raiselint: records not reloaded, keeping the previous rules: ${msg}` });
        return;
      }
      for (const doc of documents.all()) check(doc);
    });
    return reloading;
  };

  connection.onInitialize((params): InitializeResult => {
    caps = params.capabilities;
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    if (folder?.startsWith('file:')) root = fileURLToPath(folder);
    else if (params.rootPath) root = params.rootPath;
    return {
      capabilities: {
        positionEncoding: 'utf-16',
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
      },
      serverInfo: { name: 'raiselint' },
    };
  });

  connection.onInitialized(() => {
    for (const w of rules.warnings) connection.console.warn(`raiselint: warning: ${describeProblem(w)}`);
    if (opts.records.length && caps.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      const relativeOk = caps.workspace.didChangeWatchedFiles.relativePatternSupport === true;
      const watchers: FileSystemWatcher[] = opts.records.map((p) => {
        const isFile = statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
        const base = isFile ? pathToFileURL(p).href.replace(/\/[^/]*$/, '') : pathToFileURL(p).href;
        const pattern = isFile ? p.split(/[\\/]/).pop()! : '**/*.{jsonl,json,ndjson}';
        return { globPattern: relativeOk ? { baseUri: base, pattern } : `**/${pattern.replace(/^\*\*\//, '')}` };
      });
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers });
    }
    if (opts.watch && opts.records.length) watcher = watchPaths(opts.records, () => void reload('records changed on disk'));
  });

  connection.onDidChangeWatchedFiles((params) => {
    const hit = params.changes.some((c) => c.uri.startsWith('file:') && isUnder(fileURLToPath(c.uri), opts.records));
    if (hit) void reload('records changed in the workspace');
  });

  documents.onDidOpen((e) => void check(e.document));
  documents.onDidChangeContent((e) => {
    // The open event also fires a content change: already checked at this version.
    if (checked.get(e.document.uri)?.version === e.document.version) return;
    schedule(e.document);
  });
  documents.onDidSave((e) => void check(e.document));
  documents.onDidClose((e) => {
    const timer = timers.get(e.document.uri);
    if (timer) clearTimeout(timer);
    timers.delete(e.document.uri);
    checked.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onHover((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return null;
    const { line, character } = params.position;
    const found = current(doc).diagnostics.filter((d) => covers(d, line, character));
    if (!found.length) return null;
    const markdown = caps.textDocument?.hover?.contentFormat?.includes('markdown') ?? true;
    return { contents: hoverContent(found, rules.byId, markdown), range: rangeOf(found[0]!) };
  });

  connection.onCodeAction((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc || !isPython(doc)) return [];
    return codeActions({
      uri: doc.uri,
      version: doc.version,
      text: doc.getText(),
      diagnostics: current(doc).diagnostics,
      range: params.range,
      context: params.context,
      documentChanges: caps.workspace?.workspaceEdit?.documentChanges === true,
      disabledSupport: caps.textDocument?.codeAction?.disabledSupport === true,
    });
  });

  connection.onShutdown(() => {
    watcher?.close();
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
  });

  const done = new Promise<void>((resolveDone) => connection.onExit(() => resolveDone()));
  documents.listen(connection);
  connection.listen();
  return { connection, done };
}
