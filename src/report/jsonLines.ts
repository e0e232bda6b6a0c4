/**
 * `--format json-lines`: one JSON object per finding per line, the same objects as `--format json`'s
 * `diagnostics` (so fields added there appear here too). Streams well into `jq` and log pipelines.
 */
import type { Diagnostic } from '../diagnostics/types.js';
import { formatJson } from './json.js';

export function formatJsonLines(diags: Diagnostic[], sources?: ReadonlyMap<string, string>): string {
  const doc = JSON.parse(formatJson(diags, [], sources)) as { diagnostics: unknown[] };
  return doc.diagnostics.map((d) => JSON.stringify(d) + '\n').join('');
}
