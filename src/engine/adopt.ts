/** Adoption helpers that write files: `--add-ignore` (suppress every current finding) and `--update-baseline`. */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Diagnostic } from '../diagnostics/types.js';
import { withTree } from '../parse/parser.js';
import { decodeSource, loneCrEol, normalizeLoneCR, withEol } from '../parse/source.js';
import { applyBytes } from '../fix/apply.js';
import { isBuiltinRule } from '../suppress/builtin.js';
import { collectDirectives } from '../suppress/directives.js';
import { addIgnoreEdits, applyEdits } from '../suppress/edits.js';
import { writeBaseline } from '../suppress/baseline.js';
import type { ProjectResult } from './project.js';

export interface AddIgnoreResult {
  added: number;
  files: number;
  skipped: { file: string; reason: string }[];
}

/** Inserts `# raiselint: ignore[...]` comments for the findings (record rules only) and writes the files. */
export function addIgnores(result: ProjectResult, diags: Diagnostic[] = result.diagnostics): AddIgnoreResult {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diags) if (!isBuiltinRule(d.ruleId)) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  const out: AddIgnoreResult = { added: 0, files: 0, skipped: [] };
  for (const [file, list] of byFile) {
    const abs = result.absOf(list[0]!);
    const bytes = readFileSync(abs);
    const src = decodeSource(bytes);
    if (!isUtf8(bytes, src.text, src.bom)) {
      out.skipped.push({ file, reason: 'not UTF-8 (a coding cookie names another encoding)' });
      continue;
    }
    // Lone CRs are line breaks (as the check read them); every byte outside the edits is copied, so none is lost.
    const text = normalizeLoneCR(src.text);
    const eol = loneCrEol(src.text);
    const edits = withTree(text, (tree) => addIgnoreEdits(tree.rootNode, text, list, collectDirectives(tree.rootNode, text)));
    if (applyEdits(text, edits) === text) continue;
    const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end).map((e) => ({ start: e.start, end: e.end, text: withEol(e.newText, eol) }));
    writeFileSync(abs, applyBytes(bytes, text, src.bom, sorted));
    out.added += new Set(list.map((d) => `${d.line}\0${d.ruleId}`)).size;
    out.files++;
  }
  return out;
}

function isUtf8(bytes: Buffer, text: string, bom: boolean): boolean {
  return Buffer.from(text, 'utf8').equals(bom ? bytes.subarray(3) : bytes);
}

/** Writes every current finding of the run to the baseline file; returns how many. */
export function updateBaseline(result: ProjectResult, path: string): number {
  return writeBaseline(path, result.diagnostics, result.absOf);
}
