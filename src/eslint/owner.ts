/**
 * The npm package a file belongs to by its nearest `package.json` (its `name`): a workspace
 * package or an `npm link`ed one, which node_modules holds as a symlink, is read by TypeScript at
 * its real path (`packages/ids/dist/index.d.ts`), outside any node_modules.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const names = new Map<string, string | null>();

/** The `name` of the nearest `package.json` above `file`, or undefined. */
export function ownerPackage(file: string): string | undefined {
  const seen: string[] = [];
  let dir = dirname(file);
  let found: string | null | undefined;
  for (;;) {
    found = names.get(dir);
    if (found !== undefined) break;
    seen.push(dir);
    try {
      const name = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
      found = typeof name === 'string' ? name : null;
      break;
    } catch (e) {
      // No package.json here (or one that does not parse: no name): one level up.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && !(e instanceof SyntaxError)) {
        found = null;
        break;
      }
    }
    const up = dirname(dir);
    if (up === dir) {
      found = null;
      break;
    }
    dir = up;
  }
  for (const d of seen) names.set(d, found);
  return found ?? undefined;
}
