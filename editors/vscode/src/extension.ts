/**
 * raiselint for VS Code: starts `raiselint lsp` (the one bundled in the extension, or `raiselint.path`)
 * through vscode-languageclient for Python files, shows its state in the status bar, and restarts it
 * when a setting changes. Diagnostics, hovers, quick fixes (every fix strategy, with its safety) and
 * fix-all (`source.fixAll.raiselint`, also on save via `editor.codeActionsOnSave`) come from the server.
 */
import * as vscode from 'vscode';
import { LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { serverCommand, type Settings } from './settings.js';

let client: LanguageClient | undefined;
let status: vscode.StatusBarItem;
let output: vscode.LogOutputChannel;

function settings(): Settings {
  const c = vscode.workspace.getConfiguration('raiselint');
  return {
    path: c.get<string>('path', ''),
    records: c.get<string[]>('records', []),
    bundledRecords: c.get<boolean>('bundledRecords', true),
    minConfidence: c.get<Settings['minConfidence']>('minConfidence', ''),
  };
}

function serverOptions(context: vscode.ExtensionContext): ServerOptions {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
  const cmd = serverCommand(settings(), context.extensionPath, root, `${storage}/cache`);
  const options = { cwd: root };
  if (cmd.kind === 'command') return { command: cmd.file, args: cmd.args, options };
  return { module: cmd.file, args: cmd.args, transport: TransportKind.stdio, options };
}

function showState(state: State): void {
  const [text, tip] =
    state === State.Running
      ? ['$(check) raiselint', 'raiselint: running']
      : state === State.Starting
        ? ['$(sync~spin) raiselint', 'raiselint: starting']
        : ['$(error) raiselint', 'raiselint: stopped (click for its output)'];
  status.text = text;
  status.tooltip = tip;
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
      // JS/TS files: checked when JS/TS records are loaded (files only: a program needs a path).
      ...['javascript', 'javascriptreact', 'typescript', 'typescriptreact'].map((language) => ({ scheme: 'file', language })),
    ],
    outputChannel: output,
  };
  client = new LanguageClient('raiselint', 'raiselint', serverOptions(context), clientOptions);
  client.onDidChangeState((e) => showState(e.newState));
  showState(State.Starting);
  try {
    await client.start();
  } catch (e) {
    showState(State.Stopped);
    output.appendLine(`raiselint: the server did not start: ${(e as Error).message}`);
  }
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  const old = client;
  client = undefined;
  if (old) await old.stop().catch(() => undefined);
  await start(context);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('raiselint', { log: true });
  status = vscode.window.createStatusBarItem('raiselint.status', vscode.StatusBarAlignment.Right, 100);
  status.name = 'raiselint';
  status.command = 'raiselint.showOutput';
  status.show();
  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand('raiselint.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('raiselint.restart', () => restart(context)),
    vscode.commands.registerCommand('raiselint.fixAll', () =>
      vscode.commands.executeCommand('editor.action.codeAction', { kind: 'source.fixAll.raiselint', apply: 'first' }),
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (['raiselint.path', 'raiselint.records', 'raiselint.bundledRecords', 'raiselint.minConfidence'].some((k) => e.affectsConfiguration(k)))
        void restart(context);
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
