/**
 * Diagnostics publishing: a document is checked from the editor's text at once (open, save) or
 * after a quiet period (a change), and its findings are sent with the version they were made for.
 * The last findings of each document are kept for hovers and code actions.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../diagnostics/types.js';
import { cellSource } from './cells.js';
import { isChecked, isJsDoc, type ServerContext } from './context.js';
import { toLspDiagnostic } from './convert.js';

/** Quiet periods a check waits at most for a change seen on the wire but not applied. */
const MAX_SKIPS = 20;

function clearPending(t: NodeJS.Timeout | NodeJS.Immediate): void {
  if ('refresh' in t) clearTimeout(t);
  else clearImmediate(t as NodeJS.Immediate);
}

export interface Checked {
  version: number;
  diagnostics: Diagnostic[];
}

export class DiagnosticsPublisher {
  private readonly checked = new Map<string, Checked>();
  private readonly timers = new Map<string, NodeJS.Timeout | NodeJS.Immediate>();
  private jsLoading: Promise<void> | undefined;

  /** `beforeCheck`: called with the document's file and text before each check (its config may name datasets; its imports may want records derived). */
  constructor(
    private readonly ctx: ServerContext,
    private readonly beforeCheck: (abs: string | undefined, text: string) => void,
  ) {}

  /** Checks the document now (a pending check is dropped) and publishes its findings. */
  check(doc: TextDocument): Checked {
    this.cancel(doc.uri);
    const { ws, connection } = this.ctx;
    let diagnostics: Diagnostic[] = [];
    const abs = this.ctx.fileOf(doc.uri);
    if (isJsDoc(doc, abs) && !ws.jsLoaded && ws.jsRules().length) this.loadJs();
    if (isChecked(doc, abs)) {
      try {
        const text = cellSource(doc.uri, doc.getText()).text;
        this.beforeCheck(abs, text);
        const res = ws.check(abs, this.ctx.displayPath(doc.uri), text);
        if (res.configError) this.ctx.showError(`raiselint: config error, checking without it: ${res.configError}`);
        if (res.ruleProblem) this.ctx.showError(`raiselint: config error: ${res.ruleProblem}`);
        diagnostics = res.diagnostics;
      } catch (e) {
        connection.console.error(`raiselint: internal error while checking ${doc.uri}: ${(e as Error).message}`);
      }
    }
    const result = { version: doc.version, diagnostics };
    this.checked.set(doc.uri, result);
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: diagnostics.map(toLspDiagnostic) });
    return result;
  }

  /**
   * Loads the JS/TS checker (ESLint, typescript-eslint, TypeScript: a Python-only workspace never
   * loads them), then checks the open JS/TS documents again.
   */
  private loadJs(): void {
    if (this.jsLoading) return;
    this.jsLoading = import('../engine/jsbuffer.js').then(
      (m) => {
        this.ctx.ws.useJs(new m.JsBuffers());
        for (const doc of this.ctx.documents.all()) if (isJsDoc(doc, this.ctx.fileOf(doc.uri))) this.check(doc);
      },
      (e: Error) => this.ctx.connection.console.error(`raiselint: cannot load the JS/TS checker: ${e.message}`),
    );
  }

  /** Checks every open document. */
  checkAll(): void {
    for (const doc of this.ctx.documents.all()) this.check(doc);
  }

  /** The findings for the document's current text (checked now if a change is still pending). */
  current(doc: TextDocument): Checked {
    const c = this.checked.get(doc.uri);
    return c && c.version === doc.version ? c : this.check(doc);
  }

  /** Whether the document was checked at this version (the open event also fires a content change). */
  isCurrent(doc: TextDocument): boolean {
    return this.checked.get(doc.uri)?.version === doc.version;
  }

  /**
   * Checks the document after the quiet period, with its text then. When the period ends, input
   * that came in meanwhile is read first (a timer runs before the event loop polls its input): if
   * a newer version of the document is on its way, this check would be superseded, and the change
   * that brings it schedules the next one. A busy server thus checks the latest text of each
   * document rather than working through the backlog (a few skips at most, should a change that
   * was seen never be applied).
   */
  schedule(doc: TextDocument, skips = 0): void {
    this.cancel(doc.uri);
    this.timers.set(
      doc.uri,
      setTimeout(() => {
        this.timers.set(
          doc.uri,
          setImmediate(() => {
            this.timers.delete(doc.uri);
            const latest = this.ctx.documents.get(doc.uri);
            if (!latest) return;
            if ((this.ctx.arrived.get(doc.uri) ?? 0) > latest.version && skips < MAX_SKIPS) this.schedule(latest, skips + 1);
            else this.check(latest);
          }),
        );
      }, this.ctx.opts.debounceMs),
    );
  }

  /** The document was closed: its findings are dropped and cleared in the client. */
  close(uri: string): void {
    this.cancel(uri);
    this.ctx.arrived.delete(uri);
    this.checked.delete(uri);
    void this.ctx.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** Drops every pending check (shutdown). */
  dispose(): void {
    for (const t of this.timers.values()) clearPending(t);
    this.timers.clear();
  }

  private cancel(uri: string): void {
    const timer = this.timers.get(uri);
    if (timer) clearPending(timer);
    this.timers.delete(uri);
  }
}
