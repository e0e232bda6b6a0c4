/** The machine's Python standard library, as the dataset-scale tests read it. */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** python3's standard library folder, or undefined without python3. */
export function stdlibDir(): string | undefined {
  try {
    return execFileSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** The library's `.py` files in a stable order, without site-packages, __pycache__ and dot folders. */
export function pyFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name === 'site-packages' || e.name === '__pycache__' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) pyFiles(p, out);
    else if (e.isFile() && e.name.endsWith('.py')) out.push(p);
  }
  return out;
}
