/**
 * The two ways rules reach a file, side by side: what users run (`raiselint check`, the bundled
 * CLI reading its compiled-rules snapshot) and fresh compilation (`loadRules` + `checkSource`).
 * Tests compare findings through both, so the snapshot and the compiler cannot disagree.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './project.js';

/** `<line> <confidence> <rule id>`, sorted: a finding as both paths report it. */
export type FindingKey = string;

export interface CliRun {
  /** Findings per file, by the path the CLI printed. */
  byFile: Map<string, FindingKey[]>;
  code: number;
  stderr: string;
}

/** Dataset options as the CLI spells them. */
export function recordArgs(records?: string[], bundled = true): string[] {
  return [...(bundled ? [] : ['--no-bundled']), ...(records ?? []).flatMap((r) => ['--records', r])];
}

/**
 * Runs `raiselint check --format json` on `paths` from `cwd` with a fresh cache directory (so the
 * snapshot is compiled, written and read back, as a first run does), no config and no result cache.
 */
export function cliFindings(cwd: string, paths: string[], records?: string[], bundled = true, extra: string[] = []): CliRun {
  const cacheDir = mkdtempSync(join(tmpdir(), 'raiselint-snap-'));
  try {
    const args = ['check', '--format', 'json', '--no-config', '--no-cache', '--cache-dir', cacheDir, ...recordArgs(records, bundled), ...extra, ...paths];
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    let diagnostics: { file: string; line: number; confidence: string; ruleId: string }[];
    try {
      diagnostics = (JSON.parse(r.stdout) as { diagnostics: typeof diagnostics }).diagnostics;
    } catch {
      throw new Error(`raiselint check did not print JSON (exit ${r.status}): ${r.stdout}\n${r.stderr}`);
    }
    const byFile = new Map<string, FindingKey[]>();
    for (const d of diagnostics) {
      const list = byFile.get(d.file) ?? [];
      list.push(`${d.line} ${d.confidence} ${d.ruleId}`);
      byFile.set(d.file, list);
    }
    for (const list of byFile.values()) list.sort();
    return { byFile, code: r.status ?? -1, stderr: r.stderr };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** The CLI's findings for one source text (written to a temporary `name`). */
export function cliFindingsOf(text: string, name: string, records?: string[], bundled = true): FindingKey[] {
  const dir = mkdtempSync(join(tmpdir(), 'raiselint-src-'));
  try {
    writeFileSync(join(dir, name), text);
    return cliFindings(dir, [name], records, bundled).byFile.get(name) ?? [];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
