/**
 * The raiselint language server: findings as diagnostics (on open and save at once, on change
 * after a quiet period), hovers with the record's documentation, and code actions (fixes,
 * ignore comments, fix all). Documents are checked from the editor's text, never from disk, with
 * the configuration `raiselint check` would use for the file (see workspace.ts); records and
 * config files are reloaded when they change.
 */
import { statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cellSource, notebookFileOfCell } from './cells.js';
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
import { catalogRules } from '../engine/batch.js';
import type { Diagnostic } from '../diagnostics/types.js';
import { DatasetError, describeProblem } from '../records/load.js';
import { CuratedDataError } from '../rules/curated.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { Confidence } from '../rules/types.js';
import { codeActions, FIX_ALL_KIND } from './actions.js';
import { AlternativeFixes } from './alternatives.js';
import { covers, hoverContent, rangeOf, toLspDiagnostic } from './convert.js';
import { replaceEdit } from './fixes.js';
import { ignoreEdits, offsetConverter } from './ignore.js';
import { isUnder, watchPaths, type Watcher } from './watch.js';
import { LspFraming } from './framing.js';
import { Workspace } from './workspace.js';
import { CONFIG_FILE_NAMES } from '../config/resolve.js';

export interface ServerOptions {
  /** Extra dataset files or folders, absolute. */
  records: string[];
  bundled: boolean;
  /** Overrides every config's `min-confidence`. */
  minConfidence?: Confidence;
  /** Where the compiled rules are cached (absolute; default: the engine's). */
  cacheDir?: string;
  /** Read `raiselint.toml` / `[tool.raiselint]` (false: `--no-config`). */
  config?: boolean;
  /** Quiet period after a change before the document is checked. */
  debounceMs: number;
  /** Watch the records paths and config files on disk (besides workspace/didChangeWatchedFiles). */
  watch: boolean;
}

interface Checked {
  version: number;
  diagnostics: Diagnostic[];
}


function isPython(doc: TextDocument): boolean {
  return doc.languageId === 'python' || /\.pyi?$/.test(doc.uri.replace(/[?#].*$/, ''));
}

const INITIALIZE_RESULT: InitializeResult = {
  capabilities: {
    positionEncoding: 'utf-16',
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
    hoverProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
  },
  serverInfo: { name: 'raiselint' },
};

/** What the client watches for the server (dynamic registration): the `--records` paths, config files, datasets configs may name. */
function fileWatchers(opts: ServerOptions, relativeOk: boolean): FileSystemWatcher[] {
  const watchers: FileSystemWatcher[] = opts.records.map((p) => {
    const isFile = statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
    const base = isFile ? pathToFileURL(p).href.replace(/\/[^/]*$/, '') : pathToFileURL(p).href;
    const pattern = isFile ? p.split(/[\\/]/).pop()! : '**/*.{jsonl,json,ndjson}';
    return { globPattern: relativeOk ? { baseUri: base, pattern } : `**/${pattern.replace(/^\*\*\//, '')}` };
  });
  if (opts.config !== false) for (const name of CONFIG_FILE_NAMES) watchers.push({ globPattern: `**/${name}` });
  // Datasets named by configs: any JSON Lines file may be one.
  if (opts.config !== false) watchers.push({ globPattern: '**/*.{jsonl,ndjson}' });
  return watchers;
}

/** Serves one client over the streams; resolves when the client sends `exit`. */
/** How a buffer is named in findings: relative to the workspace root when under it, else absolute (or its URI). */
function displayPathOf(uri: string, abs: string | undefined, root: string | undefined): string {
  if (!abs) return uri;
  if (root) {
    const rel = relative(root, abs);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel;
  }
  return abs;
}

export function startServer(initialRules: RuleSet, opts: ServerOptions, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): { connection: Connection; done: Promise<void> } {
  // Malformed frames are dropped and said (framing.ts): the reader underneath never wedges.
  const framed = input.pipe(new LspFraming((problem) => connection.console.warn(`raiselint: ${problem}`)));
  const connection = createConnection(framed, output);
  const documents = new TextDocuments(TextDocument);
  const checked = new Map<string, Checked>();
  const timers = new Map<string, NodeJS.Timeout>();
  const ws = new Workspace(initialRules, { records: opts.records, minConfidence: opts.minConfidence, config: opts.config !== false });
  let caps: ClientCapabilities = {};
  let recordWatcher: Watcher | undefined;
  let configWatcher: Watcher | undefined;
  let watchedDirs = '';
  let watchedDatasets = '';
  /** Datasets a reload was asked for (so checks made while it runs do not ask again). */
  const requested = new Set<string>();
  let reloading: Promise<void> = Promise.resolve();
  /** Config problems already shown (each once, until the configuration changes). */
  const shown = new Set<string>();

  // A notebook cell's URI stands for its notebook file (./cells.ts).
  const fileOf = (uri: string): string | undefined => (uri.startsWith('file:') ? fileURLToPath(uri) : notebookFileOfCell(uri));
  const displayPath = (uri: string): string => displayPathOf(uri, fileOf(uri), ws.root);
  const showError = (message: string) => {
    if (shown.has(message)) return;
    shown.add(message);
    // A notification, not window/showMessageRequest: nothing waits on the user.
    void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Error, message });
  };

  const check = (doc: TextDocument): Checked => {
    const timer = timers.get(doc.uri);
    if (timer) clearTimeout(timer);
    timers.delete(doc.uri);
    let diagnostics: Diagnostic[] = [];
    if (isPython(doc)) {
      const abs = fileOf(doc.uri);
      try {
        const missing = ws.missingRecords(ws.configOf(abs).cfg).filter((f) => !requested.has(f));
        for (const f of missing) requested.add(f);
        if (missing.length) void reload(`a config names ${missing.map((f) => basename(f)).join(', ')}`, missing);
        const res = ws.check(abs, displayPath(doc.uri), cellSource(doc.uri, doc.getText()).text);
        if (res.configError) showError(`raiselint: config error, checking without it: ${res.configError}`);
        if (res.ruleProblem) showError(`raiselint: config error: ${res.ruleProblem}`);
        diagnostics = res.diagnostics;
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

  /** Dataset files the configs of the open documents name. */
  const configRecords = (): string[] => {
    const out = new Set<string>();
    for (const doc of documents.all()) for (const f of ws.configOf(fileOf(doc.uri)).cfg.records) out.add(f);
    return [...out];
  };

  /** Rebuilds the rules from `--records` and the configs' datasets (plus `extra`), then re-checks every document. */
  const reload = (why: string, extra: string[] = []): Promise<void> => {
    reloading = reloading.then(async () => {
      const fromConfigs = [...new Set([...configRecords(), ...extra])];
      try {
        const next = await catalogRules({ records: [...opts.records, ...fromConfigs], bundled: opts.bundled }, opts.cacheDir);
        ws.setRules(next, fromConfigs.map((f) => resolve(f)));
        connection.console.info(`raiselint: records reloaded (${why}): ${next.rules.length} rules`);
        for (const w of next.warnings) connection.console.warn(`raiselint: warning: ${describeProblem(w)}`);
      } catch (e) {
        const msg = e instanceof DatasetError ? e.describe() : e instanceof CuratedDataError ? e.message : `internal error: ${(e as Error).message}`;
        // Keep the datasets that failed out of the wanted set, so a check does not ask again at once.
        ws.setRules(ws.rules, [...ws.datasets().filter((f) => !opts.records.includes(f)), ...extra]);
        showError(`raiselint: records not reloaded, keeping the previous rules: ${msg}`);
        return;
      }
      rewatch();
      for (const doc of documents.all()) check(doc);
    });
    return reloading;
  };

  /** Config files changed: read them again; reload the rules when the datasets they name changed. */
  const configChanged = (why: string): void => {
    ws.resetConfig();
    shown.clear();
    requested.clear();
    connection.console.info(`raiselint: configuration reloaded (${why})`);
    const want = configRecords().sort().join('\n');
    const have = ws.datasets().filter((f) => !opts.records.includes(f)).sort().join('\n');
    if (want !== have) void reload('the configuration changed');
    else for (const doc of documents.all()) check(doc);
  };

  /** Watches (on disk) the datasets and the folders whose config files apply to open documents. */
  const rewatch = () => {
    if (!opts.watch) return;
    const datasets = ws.datasets();
    if (datasets.join('\n') !== watchedDatasets) {
      watchedDatasets = datasets.join('\n');
      recordWatcher?.close();
      recordWatcher = datasets.length ? watchPaths(datasets, () => void reload('records changed on disk')) : undefined;
    }
    if (opts.config === false) return;
    const dirs = new Set<string>();
    for (const doc of documents.all()) {
      const abs = fileOf(doc.uri);
      for (let d = abs ? dirname(abs) : undefined; d; d = dirname(d) === d ? undefined : dirname(d)) dirs.add(d);
    }
    const key = [...dirs].sort().join('\n');
    if (key === watchedDirs) return;
    watchedDirs = key;
    configWatcher?.close();
    configWatcher = watchPaths([...dirs].flatMap((d) => CONFIG_FILE_NAMES.map((n) => join(d, n))), () => configChanged('a config file changed on disk'));
  };

  connection.onInitialize((params): InitializeResult => {
    caps = params.capabilities;
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    if (folder?.startsWith('file:')) ws.root = fileURLToPath(folder);
    else if (params.rootPath) ws.root = params.rootPath;
    return INITIALIZE_RESULT;
  });

  connection.onInitialized(() => {
    for (const w of ws.rules.warnings) connection.console.warn(`raiselint: warning: ${describeProblem(w)}`);
    if (caps.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      const watchers = fileWatchers(opts, caps.workspace.didChangeWatchedFiles.relativePatternSupport === true);
      if (watchers.length) void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers });
    }
    rewatch();
  });

  connection.onDidChangeWatchedFiles((params) => {
    const files = params.changes.filter((c) => c.uri.startsWith('file:')).map((c) => fileURLToPath(c.uri));
    if (opts.config !== false && files.some((f) => CONFIG_FILE_NAMES.includes(basename(f)))) configChanged('a config file changed in the workspace');
    else if (files.some((f) => isUnder(f, ws.datasets()))) void reload('records changed in the workspace');
  });

  documents.onDidOpen((e) => {
    check(e.document);
    rewatch();
  });
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
    return { contents: hoverContent(found, ws.rules.byId, markdown), range: rangeOf(found[0]!) };
  });

  // Every fix strategy as a quick fix: the buffer checked again with each other strategy, when asked.
  const alternatives = new AlternativeFixes((uri, strategy) => {
    const doc = documents.get(uri);
    return doc ? ws.check(fileOf(uri), displayPath(uri), doc.getText(), strategy).diagnostics : [];
  });
  connection.onCodeAction((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc || !isPython(doc)) return [];
    const text = doc.getText();
    return codeActions({
      uri: doc.uri,
      version: doc.version,
      text,
      diagnostics: current(doc).diagnostics,
      range: params.range,
      context: params.context,
      documentChanges: caps.workspace?.workspaceEdit?.documentChanges === true,
      disabledSupport: caps.textDocument?.codeAction?.disabledSupport === true,
      ignore: (d) => ignoreEdits(text, [d]),
      alternatives: (d) => alternatives.of(doc.uri, doc.version, d),
      fixAll: () => {
        if (!cellSource(doc.uri, text).fixable) return { edits: [], fixed: 0 };
        const r = ws.fixAll(fileOf(doc.uri), displayPath(doc.uri), text);
        for (const e of r.errors) connection.console.warn(`raiselint: ${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}`);
        return { edits: replaceEdit(text, r.text, offsetConverter(text)), fixed: r.fixed };
      },
    });
  });

  connection.onShutdown(() => {
    recordWatcher?.close();
    configWatcher?.close();
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
  });

  const done = new Promise<void>((resolveDone) => connection.onExit(() => resolveDone()));
  documents.listen(connection);
  connection.listen();
  return { connection, done };
}
