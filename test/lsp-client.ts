/**
 * A real LSP client for the end-to-end tests: spawns `node bin/raiselint.js lsp` and talks to it
 * over stdio through vscode-languageserver-protocol's node connection (the same JSON-RPC stack
 * vscode-languageclient uses, without the `vscode` module).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShowMessageNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type ClientCapabilities,
  type CodeAction,
  type CodeActionContext,
  type Hover,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Range,
  type Registration,
  type ShowMessageParams,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

export const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'raiselint.js');

export const CAPABILITIES: ClientCapabilities = {
  workspace: { workspaceEdit: { documentChanges: true }, didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } },
  textDocument: {
    synchronization: { didSave: true, dynamicRegistration: false },
    publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    codeAction: { disabledSupport: true, codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } } },
  },
};

export class Client {
  readonly connection: ProtocolConnection;
  readonly published: PublishDiagnosticsParams[] = [];
  readonly messages: ShowMessageParams[] = [];
  readonly logs: string[] = [];
  readonly registrations: Registration[] = [];
  readonly docs = new Map<string, TextDocument>();
  stderr = '';
  exitCode: Promise<number | null>;
  private waiters: (() => void)[] = [];
  private child: ChildProcess;

  constructor(args: string[] = [], cwd = ROOT) {
    this.child = spawn(process.execPath, [BIN, 'lsp', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (b: Buffer) => (this.stderr += b.toString()));
    this.exitCode = new Promise((res) => this.child.on('exit', (code) => res(code)));
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (p) => this.note(() => this.published.push(p)));
    this.connection.onNotification(ShowMessageNotification.type, (p) => this.note(() => this.messages.push(p)));
    this.connection.onNotification(LogMessageNotification.type, (p) => this.note(() => this.logs.push(p.message)));
    this.connection.onRequest(RegistrationRequest.type, (p) => {
      this.note(() => this.registrations.push(...p.registrations));
      return null;
    });
    this.connection.listen();
  }

  private note(f: () => void): void {
    f();
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  /** Resolves once `pred` holds, re-tested on every message from the server (the test timeout bounds the wait). */
  async until<T>(pred: () => T | undefined | false): Promise<T> {
    for (;;) {
      const v = pred();
      if (v) return v;
      await new Promise<void>((res) => this.waiters.push(res));
    }
  }

  async initialize(rootDir = ROOT, capabilities: ClientCapabilities = CAPABILITIES): Promise<InitializeResult> {
    const uri = pathToFileURL(rootDir).href;
    const r = await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: uri,
      workspaceFolders: [{ uri, name: 'ws' }],
      capabilities,
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
    return r;
  }

  async open(uri: string, text: string, languageId = 'python'): Promise<void> {
    this.docs.set(uri, TextDocument.create(uri, languageId, 1, text));
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Sends edits as incremental changes, as an editor does, and returns the new version. */
  async edit(uri: string, edits: TextEdit[]): Promise<number> {
    const doc = this.docs.get(uri)!;
    const version = doc.version + 1;
    // Apply one at a time from the end, so each change's range is valid in the text it applies to.
    const sorted = [...edits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
    const next = TextDocument.update(
      doc,
      sorted.map((e) => ({ range: e.range, text: e.newText })),
      version,
    );
    this.docs.set(uri, next);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: sorted.map((e) => ({ range: e.range, text: e.newText })),
    });
    return version;
  }

  /** Replaces the whole text (a full-document change). */
  async replace(uri: string, text: string): Promise<number> {
    const doc = this.docs.get(uri)!;
    const version = doc.version + 1;
    this.docs.set(uri, TextDocument.create(uri, 'python', version, text));
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  /** Applies a workspace edit from a code action to the client's copy and tells the server. */
  async apply(edit: WorkspaceEdit): Promise<number> {
    const [uri, edits] = edit.documentChanges
      ? (() => {
          const dc = edit.documentChanges![0] as { textDocument: { uri: string; version: number | null }; edits: TextEdit[] };
          if (dc.textDocument.version !== null && dc.textDocument.version !== this.docs.get(dc.textDocument.uri)!.version)
            throw new Error('edit for a stale version');
          return [dc.textDocument.uri, dc.edits] as const;
        })()
      : (Object.entries(edit.changes!)[0] as [string, TextEdit[]]);
    return this.edit(uri, edits);
  }

  text(uri: string): string {
    return this.docs.get(uri)!.getText();
  }

  async save(uri: string): Promise<void> {
    await this.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  }

  async close(uri: string): Promise<void> {
    this.docs.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** The first diagnostics published for `uri` at `version`, once they arrive. */
  diagnosticsAt(uri: string, version: number): Promise<PublishDiagnosticsParams> {
    return this.until(() => this.published.find((p) => p.uri === uri && p.version === version));
  }

  hover(uri: string, line: number, character: number): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
  }

  async codeActions(uri: string, range: Range, context: Partial<CodeActionContext> = {}): Promise<CodeAction[]> {
    const r = await this.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics: [], ...context } });
    return (r ?? []) as CodeAction[];
  }

  async shutdown(): Promise<number | null> {
    await this.connection.sendRequest(ShutdownRequest.type);
    await this.connection.sendNotification(ExitNotification.type);
    const code = await this.exitCode;
    this.connection.dispose();
    return code;
  }

  kill(): void {
    this.connection.dispose();
    this.child.kill();
  }
}
