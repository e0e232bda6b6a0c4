/** The cache directory every cache writes under. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Creates the cache directory with a `.gitignore` (`*`) and a CACHEDIR.TAG, as Ruff does. */
export function ensureCacheDir(dir: string): void {
  if (existsSync(join(dir, '.gitignore'))) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '.gitignore'), '# Automatically created by raiselint.\n*\n');
  writeFileSync(join(dir, 'CACHEDIR.TAG'), 'Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by raiselint.\n');
}
