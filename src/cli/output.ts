/** Writing a report to `--output-file`: a failure is a one-line error naming the file (exit 2). */
import { writeFileSync } from 'node:fs';
import { UsageError } from './io.js';

export function writeReport(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (e) {
    throw new UsageError(`${file}: cannot write the report (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}
