/** Which files are Python: by extension, or (a file without one, as pre-commit passes scripts) by a python shebang. */
import { closeSync, openSync, readSync } from 'node:fs';
import { basename, extname } from 'node:path';

/** Files a folder walk checks: Python sources, stubs and Jupyter notebooks. */
export const PYTHON_FILE = /\.(?:pyi?|ipynb)$/;

/** Extensions of Python files named on the command line. */
const NAMED = new Set(['.py', '.pyi', '.pyw', '.ipynb']);

/** A file named on the command line is checked when it is Python: a Python extension, or no extension and a `#!...python` first line. */
export function isPythonFile(abs: string): boolean {
  const ext = extname(basename(abs));
  if (NAMED.has(ext)) return true;
  if (ext) return false;
  return pythonShebang(abs);
}

function pythonShebang(abs: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(abs, 'r');
    const buf = Buffer.alloc(128);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const first = buf.subarray(0, n).toString('latin1').split('\n')[0]!;
    return /^#!.*\bpython[0-9.]*\b/.test(first);
  } catch {
    return true; // unreadable: checked, so the error is reported
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
