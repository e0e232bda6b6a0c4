/**
 * Where a rule's documentation page is (docs/rules/<rule id>.md in the repository, at the release
 * tag of this version): the SARIF `helpUri` and the language server's `codeDescription` link to it.
 * Pages exist for the rules of the bundled datasets and the built-in rules; a rule from a user's
 * own dataset has none (its links stay the record's own).
 */
import { PACKAGE, repositoryUrl } from '../io/package.js';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const PKG_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLED_RULES = resolve(PKG_ROOT, 'rules');

/** The page's path inside the repository, for a rule id (`autogen/x` → `docs/rules/autogen/x.md`). */
export function rulePagePath(ruleId: string): string {
  return `docs/rules/${ruleId.split('/').map(encodeURIComponent).join('/')}.md`;
}

/** Whether a dataset file is one of the package's own (rules/records/). */
export function isBundledDataset(file: string): boolean {
  const rel = relative(BUNDLED_RULES, resolve(file));
  return !!rel && !rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel);
}

/** The page's URL: for a built-in rule (`raiselint/...`), or a rule compiled from a bundled dataset. */
export function rulePageUrl(ruleId: string, datasetFile?: string): string | undefined {
  const repo = repositoryUrl();
  if (!repo) return undefined;
  if (!ruleId.startsWith('raiselint/') && !(datasetFile && isBundledDataset(datasetFile))) return undefined;
  return `${repo}/blob/v${PACKAGE.version}/${rulePagePath(ruleId)}`;
}
