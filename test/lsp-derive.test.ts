/**
 * `raiselint lsp` with derived records (`derive`, on by default as in `raiselint check`): a buffer
 * that imports a standard-library module gets the certain findings of records derived from the
 * installed module, and `--derive off` (or the config's `derive = "off"`) gets none.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from './lsp-client.js';

const APP = 'import statistics\nimport json\n\n\ndef f(xs, s):\n    statistics.quantiles(xs, n=0)\n    json.loads(s)\n';
const QUANTILES = 'cpython/quantiles-n-must-be-at-least-1';

const clients: Client[] = [];
const temps: string[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.kill();
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function openApp(args: string[], config?: string): Promise<{ c: Client; uri: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'raiselint-lsp-derive-'));
  temps.push(dir);
  writeFileSync(join(dir, 'app.py'), APP);
  if (config) writeFileSync(join(dir, 'raiselint.toml'), config);
  const c = new Client(['--debounce', '20', '--cache-dir', join(dir, '.cache'), ...args], dir);
  clients.push(c);
  await c.initialize(dir);
  const uri = pathToFileURL(join(dir, 'app.py')).href;
  await c.open(uri, APP);
  return { c, uri, dir };
}

describe('raiselint lsp: derived records', () => {
  it('by default, the certain findings of the modules a buffer imports (their possible ones left out), as raiselint check reports them', async () => {
    const { c, uri, dir } = await openApp([]);
    const got = await c.until(() => c.published.find((p) => p.uri === uri && p.diagnostics.length));
    expect(got.diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([[QUANTILES, 5]]);
    expect(
      readdirSync(join(dir, '.cache', 'derived'))
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => f.split('-')[0]),
    ).toEqual(['json', 'statistics']);
    // A new import in the buffer derives its module too.
    const before = c.published.filter((p) => p.uri === uri).length;
    await c.replace(uri, `import ipaddress\n${APP}\nipaddress.ip_address("10.0.0.300")\n`);
    const next = await c.until(() => {
      const mine = c.published.filter((p) => p.uri === uri);
      return mine.length > before && mine.at(-1)!.diagnostics.length === 2 && mine.at(-1);
    });
    expect(next.diagnostics.map((d) => d.range.start.line).sort((a, b) => a - b)).toEqual([6, 9]);
  });

  it('--derive off, or the config saying it, derives nothing', async () => {
    for (const [args, config] of [[['--derive', 'off']], [[], 'derive = "off"\n']] as [string[], string?][]) {
      const { c, uri, dir } = await openApp(args, config);
      const got = await c.diagnosticsAt(uri, 1);
      expect(got.diagnostics).toEqual([]);
      // Nothing derived in the meantime either.
      await new Promise((r) => setTimeout(r, 300));
      expect(c.published.filter((p) => p.uri === uri).every((p) => !p.diagnostics.length)).toBe(true);
      expect(() => readdirSync(join(dir, '.cache', 'derived'))).toThrow();
    }
  });
});
