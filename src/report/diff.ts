/** `--diff`: unified diffs of what `--fix` would write (`patch -p0` applies them). */
import { createTwoFilesPatch } from 'diff';

export function formatDiff(file: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(file, file, before, after, '', '', { context: 3 });
  // Drop jsdiff's `Index:` and `====` lines: the plain `---`/`+++` header is what diff and Ruff print.
  return patch.replace(/^Index: .*\n=+\n/, '').replace(/^(---|\+\+\+) (.*?)\t?$/gm, '$1 $2');
}
