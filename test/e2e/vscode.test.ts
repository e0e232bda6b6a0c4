/**
 * The VS Code extension in a real VS Code: the .vsix is built (editors/vscode: `npm run package`),
 * installed into code-server (VS Code in a browser, 4.100.3: see editors/vscode/scripts/
 * install-code-server.sh), and Debian's Chromium, driven by playwright-core, opens a workspace with a
 * bad file, reads the finding from the Problems view, runs the quick fix from the editor's Quick Fix
 * menu and sees the finding go. Screenshots are kept in test-artifacts/vscode/.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const EXT = join(ROOT, 'editors', 'vscode');
const VSIX = join(EXT, 'raiselint.vsix');
const CODE_SERVER = process.env.RAISELINT_CODE_SERVER_DIR ?? join(ROOT, 'node_modules', '.cache', 'raiselint-code-server');
const ARTIFACTS = join(ROOT, 'test-artifacts', 'vscode');
const CHROMIUM = process.env.RAISELINT_CHROMIUM ?? '/usr/bin/chromium';
const LONG = 900_000;
const RULE = 'autogen/agent-load-state-is-not-yet-implemented';
// The record's alternative uses LoadStateRequest: imported, so the fixes apply (unsafe: the record's code).
const BAD = `from autogen_core import AgentId, AgentRuntime
from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime
from .messages import LoadStateRequest


async def restore(runtime: AgentRuntime, agent: AgentId, state: dict) -> None:
    await runtime.agent_load_state(agent, state)
`;

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A stale suppression (its rule reports nothing there): fix-all removes it (a safe fix). */
const STALE = `from autogen_core import SingleThreadedAgentRuntime


async def save(agent_id):
    runtime = SingleThreadedAgentRuntime()
    return await runtime.agent_save_state(agent_id)  # raiselint: ignore[autogen/agent-save-state-is-not-yet-implemented]
`;

/** What \`raiselint check --fix\` writes for \`text\`. */
function cliFix(text: string, args: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'raiselint-vscode-cli-'));
  try {
    writeFileSync(join(dir, 'f.py'), text);
    spawnSync(process.execPath, [join(ROOT, 'bin', 'raiselint.js'), 'check', 'f.py', '--fix', ...args, '--no-config', '--cache-dir', join(dir, 'c')], {
      cwd: dir,
    });
    return readFileSync(join(dir, 'f.py'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let tmp: string;
let server: ChildProcess | undefined;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'raiselint-vscode-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  if (!existsSync(join(EXT, 'node_modules', '.package-lock.json'))) run('npm', ['ci', '--no-audit', '--no-fund'], EXT);
  run('npm', ['run', 'package'], EXT);
  run('bash', [join(EXT, 'scripts', 'install-code-server.sh'), CODE_SERVER], ROOT);
}, LONG);

afterAll(() => {
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  rmSync(tmp, { recursive: true, force: true });
});

describe('VS Code extension', () => {
  it('the .vsix holds the client, the bundled raiselint package and its two dependencies; no sources or maps', () => {
    const names = execFileSync('python3', ['-c', 'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', VSIX], { encoding: 'utf8' })
      .trim()
      .split('\n');
    for (const f of [
      'extension/package.json',
      'extension/dist/extension.js',
      'extension/server/bin/raiselint.js',
      'extension/server/dist/bundle/main.cjs',
      'extension/server/dist/bundle/tree-sitter-python.wasm',
      'extension/server/rules/records/autogen-grpc-runtime.jsonl',
      'extension/server/node_modules/vscode-languageserver/package.json',
      'extension/LICENSE.txt',
    ]) {
      expect(names).toContain(f);
    }
    expect(names.filter((n) => /\.map$|\.ts$|\/src\/|extension\/node_modules\//.test(n))).toEqual([]);
    const deps = [...new Set(names.filter((n) => n.startsWith('extension/server/node_modules/')).map((n) => n.split('/')[3]))].sort();
    expect(deps).toEqual([
      'vscode-jsonrpc',
      'vscode-languageserver',
      'vscode-languageserver-protocol',
      'vscode-languageserver-textdocument',
      'vscode-languageserver-types',
    ]);
    const manifest = JSON.parse(readFileSync(join(EXT, 'package.json'), 'utf8'));
    expect(manifest.activationEvents).toEqual([
      'onLanguage:python',
      'onLanguage:javascript',
      'onLanguage:javascriptreact',
      'onLanguage:typescript',
      'onLanguage:typescriptreact',
    ]);
    expect(Object.keys(manifest.contributes.configuration.properties).sort()).toEqual([
      'raiselint.bundledRecords',
      'raiselint.minConfidence',
      'raiselint.path',
      'raiselint.records',
      'raiselint.trace.server',
    ]);
  });

  it(
    'in code-server: the Problems view shows the finding, the Quick Fix menu lists every strategy, the try/except fix removes it; fix-all removes a stale suppression',
    async () => {
      const cs = join(CODE_SERVER, 'bin', 'code-server');
      const userData = join(tmp, 'user-data');
      const extensions = join(tmp, 'extensions');
      const workspace = join(tmp, 'workspace');
      mkdirSync(join(userData, 'User'), { recursive: true });
      mkdirSync(workspace);
      writeFileSync(join(workspace, 'bad.py'), BAD);
      writeFileSync(join(workspace, 'stale.py'), STALE);
      writeFileSync(
        join(userData, 'User', 'settings.json'),
        JSON.stringify({
          'security.workspace.trust.enabled': false,
          'workbench.startupEditor': 'none',
          'telemetry.telemetryLevel': 'off',
          'extensions.autoCheckUpdates': false,
          'update.mode': 'none',
        }),
      );
      const installed = run(cs, ['--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', VSIX], tmp);
      expect(installed).toContain("Extension 'raiselint.vsix' was successfully installed.");

      const port = await freePort();
      server = spawn(
        cs,
        [
          '--auth',
          'none',
          '--bind-addr',
          `127.0.0.1:${port}`,
          '--user-data-dir',
          userData,
          '--extensions-dir',
          extensions,
          '--disable-telemetry',
          '--disable-update-check',
          '--disable-workspace-trust',
          workspace,
        ],
        { cwd: tmp, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let log = '';
      server.stdout!.on('data', (d: Buffer) => (log += d.toString()));
      server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
      for (let i = 0; i < 600 && !log.includes('HTTP server listening'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(log).toContain(`HTTP server listening on http://127.0.0.1:${port}/`);

      const { chromium } = createRequire(join(EXT, 'package.json'))('playwright-core') as typeof import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
      try {
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
        const file = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'bad.py' });
        await file.waitFor({ timeout: 120_000 });
        await file.click();
        await page.waitForSelector('.monaco-editor .view-lines', { timeout: 60_000 });
        // The Problems view, through the command palette.
        await page.keyboard.press('F1');
        await page.waitForSelector('.quick-input-widget input', { timeout: 30_000 });
        await page.keyboard.type('Focus on Problems View');
        await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 30_000 });
        await page.keyboard.press('Enter');
        const problem = page.locator('.markers-panel .monaco-list-row', { hasText: RULE });
        await problem.first().waitFor({ timeout: 120_000 });
        const text = (await problem.first().textContent()) ?? '';
        expect(text).toContain('(possible) runtime.agent_load_state() may raise NotImplementedError when the receiver is a GrpcWorkerAgentRuntime');
        expect(text).toContain('[Ln 7, Col 11]');
        await page.screenshot({ path: join(ARTIFACTS, '1-problems.png') });

        // The Quick Fix menu at the call: every strategy, with its safety.
        await page.click('.monaco-editor .view-lines');
        await page.keyboard.press('Control+G');
        await page.waitForSelector('.quick-input-widget input', { timeout: 30_000 });
        await page.keyboard.type('7:20');
        await page.keyboard.press('Enter');
        await page.keyboard.press('Control+.');
        const menu = page.locator('.action-widget .monaco-list-row');
        await menu.first().waitFor({ timeout: 60_000 });
        await page.waitForFunction(() => document.querySelectorAll('.action-widget .monaco-list-row').length >= 4, undefined, { timeout: 30_000 });
        const items = await menu.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''));
        expect(items).toEqual([
          'Quick Fix',
          `Guard with isinstance(runtime, GrpcWorkerAgentRuntime) (${RULE}) [unsafe]`,
          `Wrap in try/except NotImplementedError (${RULE}) [unsafe]`,
          `Ignore ${RULE} on this line`,
        ]);
        await page.screenshot({ path: join(ARTIFACTS, '2-quick-fix.png') });
        // The first action is selected; move down to the try/except one and apply it (keyboard: the menu animates).
        for (let i = 1; i < items.findIndex((t) => t.startsWith('Wrap in try/except')); i++) await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        await page.keyboard.press('Control+S');
        const expected = cliFix(BAD, ['--unsafe-fixes', '--fix-strategy', 'try-except']);
        expect(expected).toContain('except NotImplementedError:');
        for (let i = 0; i < 300 && readFileSync(join(workspace, 'bad.py'), 'utf8') !== expected; i++) await new Promise((r) => setTimeout(r, 100));
        expect(readFileSync(join(workspace, 'bad.py'), 'utf8')).toBe(expected);
        await page.locator('.markers-panel', { hasText: 'No problems have been detected in the workspace.' }).waitFor({ timeout: 60_000 });
        await page.screenshot({ path: join(ARTIFACTS, '3-fixed.png') });

        // Fix all (the extension's command) on a file whose only finding is a stale suppression.
        await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'stale.py' }).click();
        await page.locator('.markers-panel .monaco-list-row', { hasText: 'raiselint/unused-ignore' }).first().waitFor({ timeout: 60_000 });
        await page.click('.monaco-editor .view-lines');
        await page.keyboard.press('F1');
        await page.waitForSelector('.quick-input-widget input', { timeout: 30_000 });
        await page.keyboard.type('raiselint: Fix all raiselint findings in this file');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Fix all raiselint findings' }).first().waitFor({ timeout: 30_000 });
        await page.keyboard.press('Enter');
        await page.locator('.markers-panel', { hasText: 'No problems have been detected in the workspace.' }).waitFor({ timeout: 60_000 });
        await page.keyboard.press('Control+S');
        const fixedAll = cliFix(STALE);
        expect(fixedAll).not.toBe(STALE);
        for (let i = 0; i < 300 && readFileSync(join(workspace, 'stale.py'), 'utf8') !== fixedAll; i++) await new Promise((r) => setTimeout(r, 100));
        expect(readFileSync(join(workspace, 'stale.py'), 'utf8')).toBe(fixedAll);
        await page.screenshot({ path: join(ARTIFACTS, '4-fixed-all.png') });
      } finally {
        await browser.close();
      }
    },
    LONG,
  );
});
