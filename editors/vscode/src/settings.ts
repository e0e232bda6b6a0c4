/** How the extension starts the server, from its settings (no `vscode` import: tested on its own). */
import { isAbsolute, join } from 'node:path';

export interface Settings {
  /** A `raiselint` executable; empty: the bundled one. */
  path: string;
  records: string[];
  bundledRecords: boolean;
  minConfidence: '' | 'certain' | 'possible';
}

export interface ServerCommand {
  /** Run with the editor's own Node (`module`), or as an executable (`command`). */
  kind: 'module' | 'command';
  file: string;
  args: string[];
}

/** `raiselint lsp` and its flags; `root` resolves relative record paths, `cacheDir` is the extension's storage. */
export function serverCommand(s: Settings, extensionDir: string, root: string | undefined, cacheDir: string | undefined): ServerCommand {
  const args = ['lsp'];
  for (const r of s.records) if (r.trim()) args.push('--records', root && !isAbsolute(r) ? join(root, r) : r);
  if (!s.bundledRecords) args.push('--no-bundled');
  if (s.minConfidence) args.push('--min-confidence', s.minConfidence);
  if (cacheDir) args.push('--cache-dir', cacheDir);
  if (s.path.trim()) return { kind: 'command', file: s.path.trim(), args };
  return { kind: 'module', file: join(extensionDir, 'server', 'bin', 'raiselint.js'), args };
}
