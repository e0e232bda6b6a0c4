import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** A clone of this repository at HEAD (what a user's pre-commit `repo:` / `rev:` would fetch). Returns the sha. */
export function cloneHead(into: string): string {
  const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  execFileSync('git', ['clone', '-q', ROOT, into]);
  execFileSync('git', ['checkout', '-q', sha], { cwd: into });
  return sha;
}
