/**
 * The requests a client asks about a document's findings: hovers (the record's documentation)
 * and code actions (fixes, every fix strategy, ignore comments, fix all: ./actions.ts).
 */
import { codeActions } from './actions.js';
import { AlternativeFixes } from './alternatives.js';
import { cellSource } from './cells.js';
import { isChecked, isJsDoc, type ServerContext } from './context.js';
import { covers, hoverContent, rangeOf } from './convert.js';
import { replaceEdit } from './fixes.js';
import { ignoreEdits, offsetConverter } from './ignore.js';
import type { DiagnosticsPublisher } from './publish.js';

export function serveHover(ctx: ServerContext, publisher: DiagnosticsPublisher): void {
  ctx.connection.onHover((params) => {
    const doc = ctx.documents.get(params.textDocument.uri);
    if (!doc) return null;
    const { line, character } = params.position;
    const found = publisher.current(doc).diagnostics.filter((d) => covers(d, line, character));
    if (!found.length) return null;
    const markdown = ctx.caps.textDocument?.hover?.contentFormat?.includes('markdown') ?? true;
    return { contents: hoverContent(found, ctx.ws.rules.byId, markdown), range: rangeOf(found[0]!) };
  });
}

export function serveCodeActions(ctx: ServerContext, publisher: DiagnosticsPublisher): void {
  const { connection, documents, ws } = ctx;
  // Every fix strategy as a quick fix: the buffer checked again with each other strategy, when asked
  // (a notebook cell as it was checked: its IPython lines masked).
  const alternatives = new AlternativeFixes((uri, strategy) => {
    const doc = documents.get(uri);
    return doc ? ws.check(ctx.fileOf(uri), ctx.displayPath(uri), cellSource(uri, doc.getText()).text, strategy).diagnostics : [];
  });
  connection.onCodeAction((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc || !isChecked(doc, ctx.fileOf(doc.uri))) return [];
    const text = doc.getText();
    const file = ctx.fileOf(doc.uri);
    const jsFile = isJsDoc(doc, file) ? file : undefined;
    return codeActions({
      uri: doc.uri,
      version: doc.version,
      text,
      diagnostics: publisher.current(doc).diagnostics,
      range: params.range,
      context: params.context,
      documentChanges: ctx.caps.workspace?.workspaceEdit?.documentChanges === true,
      disabledSupport: ctx.caps.textDocument?.codeAction?.disabledSupport === true,
      ignore: (d) => ignoreEdits(text, [d], jsFile),
      alternatives: (d) => alternatives.of(doc.uri, doc.version, d),
      fixAll: () => {
        if (!cellSource(doc.uri, text).fixable) return { edits: [], fixed: 0 };
        const r = ws.fixAll(ctx.fileOf(doc.uri), ctx.displayPath(doc.uri), text);
        for (const e of r.errors) connection.console.warn(`raiselint: ${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}`);
        return { edits: replaceEdit(text, r.text, offsetConverter(text)), fixed: r.fixed };
      },
    });
  });
}
