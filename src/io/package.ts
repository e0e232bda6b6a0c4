/** The package's own package.json (its version, home page and repository): the one reader of it. */
import { readFileSync } from 'node:fs';

export interface PackageJson {
  version: string;
  homepage?: string;
  repository?: string | { url?: string };
}

/** Two folders up from this module: the package root from src/io, dist/io and dist/bundle alike. */
export const PACKAGE: PackageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageJson;

/** `git+https://github.com/o/r.git` → `https://github.com/o/r`. */
export function repositoryUrl(p: PackageJson = PACKAGE): string | undefined {
  const raw = typeof p.repository === 'string' ? p.repository : p.repository?.url;
  if (!raw) return undefined;
  return raw
    .replace(/^git\+/, '')
    .replace(/\.git$/, '')
    .replace(/^github:/, 'https://github.com/');
}

/** A section of the README on the repository's page (`#<anchor>`, GitHub's heading slug). */
export function readmeUrl(anchor: string, page?: string): string {
  const repo = repositoryUrl() ?? PACKAGE.homepage?.replace(/#.*$/, '') ?? '';
  return page ? `${repo}/blob/main/${page}#${anchor}` : `${repo}#${anchor}`;
}
