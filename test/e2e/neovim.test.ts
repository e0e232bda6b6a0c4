/**
 * README's Neovim configurations, run as written in Debian's Neovim (0.7.2, headless) against the
 * real server: diagnostics, the code actions at a finding, a quick fix applied. Neovim 0.7 has no
 * `vim.lsp.config` and nvim-lspconfig cannot be installed here: for those two blocks, small
 * stand-ins (below) record the configuration and start it with Neovim's own vim.lsp.start_client.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const LONG = 300_000;
const RULE = 'autogen/agent-load-state-is-not-yet-implemented';
// The record's alternative uses LoadStateRequest: imported, so the fixes apply (unsafe: the record's code).
const BAD = `from autogen_core import AgentId, AgentRuntime
from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime
from .messages import LoadStateRequest


async def restore(runtime: AgentRuntime, agent: AgentId, state: dict) -> None:
    await runtime.agent_load_state(agent, state)
`;

/** docs/editors.md's ```lua block whose first line is `-- init.lua: <title>`. */
function readmeBlock(title: string): string {
  const readme = readFileSync(join(ROOT, 'docs', 'editors.md'), 'utf8');
  const m = new RegExp('```lua\\n(-- init\\.lua: ' + title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\n[\\s\\S]*?)```').exec(readme);
  if (!m) throw new Error(`docs/editors.md has no lua block "-- init.lua: ${title}"`);
  return m[1]!;
}

/** For Neovim < 0.11: vim.lsp.config / vim.lsp.enable that start the recorded config with vim.lsp.start_client. */
const STUB_011 = `
local function find_root(markers, buf)
  local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':p:h')
  for _, m in ipairs(markers or {}) do
    local f = vim.fn.findfile(m, dir .. ';')
    if f == '' then f = vim.fn.finddir(m, dir .. ';') end
    if f ~= '' then return vim.fn.fnamemodify(f, ':p:h') end
  end
  return vim.fn.getcwd()
end
local recorded = {}
vim.lsp.config = function(name, cfg) recorded[name] = cfg end
vim.lsp.enable = function(name)
  local cfg = recorded[name]
  local id
  vim.api.nvim_create_autocmd('FileType', { pattern = cfg.filetypes, callback = function(args)
    local root = find_root(cfg.root_markers, args.buf)
    _G.raiselint_test_config = { cmd = cfg.cmd, filetypes = cfg.filetypes, root = root }
    id = id or vim.lsp.start_client({ name = name, cmd = cfg.cmd, root_dir = root })
    vim.lsp.buf_attach_client(args.buf, id)
  end })
end
`;

/** nvim-lspconfig's entry points the README block uses: configs, util.root_pattern, setup. */
const STUB_LSPCONFIG = `
local configs = {}
package.preload['lspconfig.configs'] = function() return configs end
package.preload['lspconfig.util'] = function()
  return { root_pattern = function(...)
    local markers = { ... }
    return function(fname)
      local dir = vim.fn.fnamemodify(fname, ':p:h')
      for _, m in ipairs(markers) do
        local f = vim.fn.findfile(m, dir .. ';')
        if f == '' then f = vim.fn.finddir(m, dir .. ';') end
        if f ~= '' then return vim.fn.fnamemodify(f, ':p:h') end
      end
    end
  end }
end
package.preload['lspconfig'] = function()
  return setmetatable({}, { __index = function(_, name)
    return { setup = function(_)
      local dc = configs[name].default_config
      local id
      vim.api.nvim_create_autocmd('FileType', { pattern = dc.filetypes, callback = function(args)
        local root = dc.root_dir(vim.api.nvim_buf_get_name(args.buf))
        _G.raiselint_test_config = { cmd = dc.cmd, filetypes = dc.filetypes, root = root }
        id = id or vim.lsp.start_client({ name = name, cmd = dc.cmd, root_dir = root })
        vim.lsp.buf_attach_client(args.buf, id)
      end })
    end }
  end })
end
`;

/** After init: waits for diagnostics, lists them and the code actions at the first, applies the try/except fix, writes a transcript. */
const DRIVER = `
local out = {}
local function say(s) table.insert(out, s) end
local function diags() return vim.diagnostic.get(0) end
if not vim.wait(60000, function() return #diags() > 0 end, 100) then say('no diagnostics') end
local cfg = _G.raiselint_test_config
if cfg then say('config: cmd=' .. table.concat(cfg.cmd, ' ') .. ' filetypes=' .. table.concat(cfg.filetypes, ',') .. ' root=' .. tostring(cfg.root)) end
for _, d in ipairs(diags()) do
  say(string.format('%d:%d %s %s %s', d.lnum + 1, d.col + 1, d.severity == 1 and 'E' or 'W', tostring(d.code), (d.message:gsub('\\n.*', ''))))
end
local d = diags()[1]
if d then
  local params = { textDocument = vim.lsp.util.make_text_document_params(), range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } }, context = { diagnostics = {} } }
  local res = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, 20000) or {}
  local chosen
  for _, r in pairs(res) do
    for _, a in ipairs(r.result or {}) do
      say('action: ' .. a.title)
      if a.title:find('^Wrap in try/except') then chosen = a end
    end
  end
  if chosen then
    vim.lsp.util.apply_workspace_edit(chosen.edit, 'utf-16')
    say('applied: ' .. chosen.title)
    vim.wait(20000, function() return #diags() == 0 end, 100)
  end
  say('findings after the fix: ' .. #diags())
end
vim.cmd('silent write')
vim.fn.writefile(out, os.getenv('RAISELINT_NVIM_OUT'))
vim.cmd('qa!')
`;

let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  if (spawnSync('sh', ['-c', 'command -v nvim']).status !== 0) {
    const e = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { env: e });
    const inst = spawnSync('apt-get', ['install', '-y', '-qq', 'neovim'], { env: e, encoding: 'utf8' });
    if (inst.status !== 0) throw new Error(`cannot install neovim: ${inst.stderr}`);
  }
  tmp = mkdtempSync(join(tmpdir(), 'raiselint-nvim-'));
  // `raiselint` on PATH, as README assumes (npm i -g): this checkout's CLI.
  const bin = join(tmp, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'raiselint'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'raiselint.js')}" "$@"\n`);
  chmodSync(join(bin, 'raiselint'), 0o755);
  env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    HOME: tmp,
    XDG_CONFIG_HOME: join(tmp, 'config'),
    XDG_DATA_HOME: join(tmp, 'data'),
    XDG_STATE_HOME: join(tmp, 'state'),
  };
}, LONG);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function session(name: string, init: string): { transcript: string[]; text: string; project: string } {
  const project = join(tmp, name, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'raiselint.toml'), '');
  writeFileSync(join(project, 'src', 'bad.py'), BAD);
  writeFileSync(join(tmp, name, 'init.lua'), init);
  writeFileSync(join(tmp, name, 'driver.lua'), DRIVER);
  const out = join(tmp, name, 'transcript.txt');
  const r = spawnSync(
    'nvim',
    ['--headless', '-n', '-u', join(tmp, name, 'init.lua'), '-c', `luafile ${join(tmp, name, 'driver.lua')}`, join('src', 'bad.py')],
    { cwd: project, env: { ...env, RAISELINT_NVIM_OUT: out }, encoding: 'utf8', timeout: 180_000 },
  );
  let transcript: string[] = [];
  try {
    transcript = readFileSync(out, 'utf8').trim().split('\n');
  } catch {
    throw new Error(`nvim wrote no transcript (exit ${r.status}): ${r.stdout}\n${r.stderr}`);
  }
  return { transcript, text: readFileSync(join(project, 'src', 'bad.py'), 'utf8'), project };
}

/** What `raiselint check --fix --unsafe-fixes --fix-strategy try-except` writes for BAD. */
function cliFixed(): string {
  const dir = mkdtempSync(join(tmp, 'cli-'));
  writeFileSync(join(dir, 'bad.py'), BAD);
  spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'raiselint.js'),
      'check',
      'bad.py',
      '--fix',
      '--unsafe-fixes',
      '--fix-strategy',
      'try-except',
      '--no-config',
      '--cache-dir',
      join(dir, 'c'),
    ],
    { cwd: dir },
  );
  return readFileSync(join(dir, 'bad.py'), 'utf8');
}

const EXPECTED = [
  `7:11 W ${RULE} (possible) runtime.agent_load_state() may raise NotImplementedError when the receiver is a GrpcWorkerAgentRuntime: Agent load_state is not yet implemented.`,
  `action: Guard with isinstance(runtime, GrpcWorkerAgentRuntime) (${RULE}) [unsafe]`,
  `action: Wrap in try/except NotImplementedError (${RULE}) [unsafe]`,
  `action: Ignore ${RULE} on this line`,
  `applied: Wrap in try/except NotImplementedError (${RULE}) [unsafe]`,
  'findings after the fix: 0',
];

describe('Neovim (Debian 0.7.2) with the README configurations', () => {
  it(
    'Neovim 0.7 to 0.10 block, as is: diagnostics, every quick fix, the try/except one applied',
    () => {
      const s = session('nvim07', readmeBlock('Neovim 0.7 to 0.10 (built-in client)'));
      expect(s.transcript).toEqual(EXPECTED);
      expect(s.text).toBe(cliFixed());
    },
    LONG,
  );

  it(
    'Neovim 0.11+ block (vim.lsp.config / vim.lsp.enable recorded by a stand-in): its cmd, filetypes and root markers work',
    () => {
      const s = session('nvim011', `${STUB_011}\n${readmeBlock('Neovim 0.11+ (vim.lsp.config)')}`);
      expect(s.transcript).toEqual([`config: cmd=raiselint lsp filetypes=python root=${s.project}`, ...EXPECTED]);
      expect(s.text).toBe(cliFixed());
    },
    LONG,
  );

  it(
    'nvim-lspconfig block (configs / util.root_pattern / setup by a stand-in): its default_config works',
    () => {
      const s = session('lspconfig', `${STUB_LSPCONFIG}\n${readmeBlock('nvim-lspconfig (custom server)')}`);
      expect(s.transcript).toEqual([`config: cmd=raiselint lsp filetypes=python root=${s.project}`, ...EXPECTED]);
      expect(s.text).toBe(cliFixed());
    },
    LONG,
  );
});
