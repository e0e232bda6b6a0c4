/** Adoption helpers that write files: `--add-ignore` (suppress every current finding) and `--update-baseline`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { groupByFile } from '../diagnostics/group.js';
import type { Diagnostic } from '../diagnostics/types.js';
import { withTree } from '../parse/parser.js';
import { decodeSource, loneCrEol, normalizeLoneCR, withEol } from '../parse/source.js';
import { applyBytes } from '../fix/apply.js';
import { isBuiltinRule } from '../suppress/builtin.js';
import { collectDirectives } from '../suppress/directives.js';
import { addIgnoreEdits, applyEdits } from '../suppress/edits.js';
import { addJsIgnoreEdits } from '../suppress/jsedits.js';
import { isJsFile } from './jsproject.js';
import { writeBaseline } from '../suppress/baseline.js';
import type { ProjectResult } from './project.js';

export interface AddIgnoreResult {
  added: number;
  files: number;
  skipped: { file: string; reason: string }[];
}

/** Inserts `# raiselint: ignore[...]` comments for the findings (record rules only) and writes the files. */
export function addIgnores(result: ProjectResult, diags: Diagnostic[] = result.diagnostics): AddIgnoreResult {
  const byFile = groupByFile(diags.filter((d) => !isBuiltinRule(d.ruleId)));
  const out: AddIgnoreResult = { added: 0, files: 0, skipped: [] };
  for (const [file, list] of byFile) {
    const abs = result.absOf(list[0]!);
    const bytes = readFileSync(abs);
    const src = decodeSource(bytes);
    if (!isUtf8(bytes, src.text, src.bom)) {
      out.skipped.push({ file, reason: 'not UTF-8 (a coding cookie names another encoding)' });
      continue;
    }
    const next = isJsFile(abs) && list.some((d) => result.rules.byId.get(d.ruleId)?.js) ? withJsIgnores(abs, src, list) : withPyIgnores(bytes, src, list);
    if (!next) continue;
    writeFileSync(abs, next);
    out.added += new Set(list.map((d) => `${d.line}\0${d.ruleId}`)).size;
    out.files++;
  }
  return out;
}

/** JS/TS files get `// raiselint: ignore[...]` comments (their findings come from the JS/TS rules); undefined: nothing to add. */
function withJsIgnores(abs: string, src: { text: string; bom: boolean }, list: Diagnostic[]): Buffer | undefined {
  const next = applyEdits(src.text, addJsIgnoreEdits(src.text, abs, list));
  if (next === src.text) return undefined;
  return Buffer.concat([src.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(next, 'utf8')]);
}

/** Python files: lone CRs are line breaks (as the check read them); every byte outside the edits is copied, so none is lost. */
function withPyIgnores(bytes: Buffer, src: { text: string; bom: boolean }, list: Diagnostic[]): Buffer | undefined {
  const text = normalizeLoneCR(src.text);
  const eol = loneCrEol(src.text);
  const edits = withTree(text, (tree) => addIgnoreEdits(tree.rootNode, text, list, collectDirectives(tree.rootNode, text)));
  if (applyEdits(text, edits) === text) return undefined;
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end).map((e) => ({ ...e, text: withEol(e.text, eol) }));
  return applyBytes(bytes, text, src.bom, sorted);
}

function isUtf8(bytes: Buffer, text: string, bom: boolean): boolean {
  return Buffer.from(text, 'utf8').equals(bom ? bytes.subarray(3) : bytes);
}

/** Writes every current finding of the run to the baseline file; returns how many. */
export function updateBaseline(result: ProjectResult, path: string): number {
  return writeBaseline(path, result.diagnostics, result.absOf);
}
