/**
 * `raiselint clean`: removes the caches in the current folder and its subfolders (as `ruff clean`),
 * or the one `--cache-dir` names. Only folders raiselint made (their CACHEDIR.TAG says so) are removed.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_CACHE_DIR } from '../engine/batch.js';
import { UsageError, type IO } from './io.js';

/** Folders a search for caches never enters (and never follows: symbolic links are not walked). */
const NEVER = new Set(['.git', '.hg', '.svn', 'node_modules']);

function isOurs(dir: string): boolean {
  try {
    return readFileSync(join(dir, 'CACHEDIR.TAG'), 'utf8').includes('created by raiselint');
  } catch {
    return false;
  }
}

/** Cache folders named `name` under `root` (not looking inside them). */
export function findCaches(root: string, name = DEFAULT_CACHE_DIR): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory() || NEVER.has(e.name)) continue;
      const p = join(dir, e.name);
      if (e.name === name && isOurs(p)) out.push(p);
      else visit(p);
    }
  };
  visit(root);
  return out.sort();
}

export function registerClean(program: Command, { stderr }: IO, setCode: (code: number) => void): void {
  program
    .command('clean')
    .description('remove the caches (.raiselint_cache) in the current folder and its subfolders')
    .option('--cache-dir <dir>', 'remove this cache folder instead')
    .action((flags: { cacheDir?: string }) => {
      const cwd = process.cwd();
      let dirs: string[];
      if (flags.cacheDir !== undefined) {
        const dir = resolve(flags.cacheDir);
        let exists = true;
        try {
          readdirSync(dir);
        } catch {
          exists = false;
        }
        if (exists && !isOurs(dir)) throw new UsageError(`${flags.cacheDir}: not a raiselint cache (no CACHEDIR.TAG written by raiselint): not removed`);
        dirs = exists ? [dir] : [];
      } else dirs = findCaches(cwd);
      for (const d of dirs) {
        stderr(`Removing cache at: ${relative(cwd, d) || '.'}\n`);
        try {
          rmSync(d, { recursive: true, force: true });
        } catch (e) {
          throw new UsageError(`${relative(cwd, d)}: cannot remove the cache (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
        }
      }
      if (!dirs.length) stderr('No cache found.\n');
      setCode(0);
    });
}
