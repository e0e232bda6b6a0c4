/** Code actions on findings: each fix (every strategy: alternatives.ts) as a quick fix, "ignore this finding", and "fix all in file". */
import { CodeActionKind, type CodeAction, type CodeActionContext, type Range, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver';
import type { Diagnostic, Fix } from '../diagnostics/types.js';
import { intersects, rangeOf, sameRange, SOURCE, toLspDiagnostic } from './convert.js';
import { fixesOf } from './fixes.js';
import { cellSource } from './cells.js';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.${SOURCE}`;

export interface ActionRequest {
  uri: string;
  version: number;
  text: string;
  /** The document's current findings (after ignore comments). */
  diagnostics: Diagnostic[];
  range: Range;
  context: CodeActionContext;
  /** The client applies `documentChanges` (versioned edits). */
  documentChanges: boolean;
  /** The client shows disabled actions with their reason. */
  disabledSupport: boolean;
  /** The edits that suppress a finding (see ignore.ts); empty when it cannot be suppressed. */
  ignore: (d: Diagnostic) => TextEdit[];
  /**
   * Every safe fix of the document, applied and verified as `raiselint check --fix` does (see
   * workspace.ts); asked only when a finding carries a safe fix and the client wants fix-all.
   */
  fixAll: () => { edits: TextEdit[]; fixed: number };
  /** The finding's fixes under the other strategies (see alternatives.ts), each offered as its own quick fix. */
  alternatives?: (d: Diagnostic) => Fix[];
}

function wanted(kind: string, only: string[] | undefined): boolean {
  return !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

function workspaceEdit(req: ActionRequest, edits: TextEdit[]): WorkspaceEdit {
  return req.documentChanges ? { documentChanges: [{ textDocument: { uri: req.uri, version: req.version }, edits }] } : { changes: { [req.uri]: edits } };
}

export function codeActions(req: ActionRequest): CodeAction[] {
  const only = req.context.only;
  const out: CodeAction[] = [];
  const sent = req.context.diagnostics.filter((c) => c.source === SOURCE);
  // The text the findings (and their fixes' offsets) were made on: a notebook cell's magics masked (same lines, other offsets).
  const checked = cellSource(req.uri, req.text).text;
  const relevant = req.diagnostics.filter((d) => intersects(rangeOf(d), req.range) || sent.some((c) => c.code === d.ruleId && sameRange(c.range, rangeOf(d))));
  if (wanted(CodeActionKind.QuickFix, only)) {
    const offered = new Set<string>(); // findings that share one fix (one wrapped statement) offer it once
    for (const d of relevant) {
      const lsp = toLspDiagnostic(d);
      // The other strategies' fixes are planned on the same text (see the server's `alternatives`).
      const alternatives = req.alternatives?.(d) ?? [];
      const fixes = alternatives.length
        ? [...fixesOf({ ...d, fixes: [] } as Diagnostic, checked), ...fixesOf({ ...d, fix: undefined, fixes: alternatives } as Diagnostic, checked)]
        : fixesOf(d, checked);
      fixes.forEach((f, i) => {
        const key = JSON.stringify(f.edits);
        if (offered.has(key)) return;
        offered.add(key);
        if (f.applicability === 'display-only') {
          if (req.disabledSupport)
            out.push({
              title: f.title,
              kind: CodeActionKind.QuickFix,
              diagnostics: [lsp],
              disabled: { reason: f.reason ?? 'this fix is shown for reference only' },
            });
          return;
        }
        out.push({
          title: f.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [lsp],
          isPreferred: i === 0 && f.applicability === 'safe',
          edit: workspaceEdit(req, f.edits),
        });
      });
    }
    // Ignore actions after the fixes; one per rule and line.
    const done = new Set<string>();
    for (const d of relevant) {
      const key = `${d.line}\0${d.ruleId}`;
      if (done.has(key)) continue;
      done.add(key);
      const edits = req.ignore(d);
      if (!edits.length) continue;
      out.push({
        title: `Ignore ${d.ruleId} on this line`,
        kind: CodeActionKind.QuickFix,
        diagnostics: req.diagnostics.filter((o) => o.line === d.line && o.ruleId === d.ruleId).map(toLspDiagnostic),
        edit: workspaceEdit(req, edits),
      });
    }
  }
  if (wanted(FIX_ALL_KIND, only) && req.diagnostics.some((d) => fixesOf(d, checked).some((f) => f.applicability === 'safe' && f.edits.length))) {
    const all = req.fixAll();
    if (all.edits.length)
      out.push({ title: `Fix all raiselint findings in this file (${all.fixed})`, kind: FIX_ALL_KIND, edit: workspaceEdit(req, all.edits) });
  }
  return out;
}
