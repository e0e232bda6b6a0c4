/**
 * `--format gitlab`: GitLab Code Quality (a subset of the Code Climate issue format), a JSON array.
 * Paths are relative to `CI_PROJECT_DIR` when GitLab sets it (else the current directory); each issue has
 * a content fingerprint, so merge-request widgets match findings across commits.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import type { ReportInput } from './context.js';
import { fingerprints } from './fingerprint.js';

export function gitlabPath(file: string, cwd: string, projectDir: string | undefined): string {
  const abs = isAbsolute(file) ? file : resolve(cwd, file);
  const base = projectDir ? resolve(projectDir) : resolve(cwd);
  const rel = relative(base, abs);
  return (rel.startsWith('..') || isAbsolute(rel) ? abs : rel).replace(/\\/g, '/');
}

export function gitlabReport(input: ReportInput, env: NodeJS.ProcessEnv = process.env): unknown[] {
  const cwd = input.cwd ?? process.cwd();
  const prints = fingerprints(input.diagnostics, input.sources);
  return input.diagnostics.map((d, i) => ({
    type: 'issue',
    check_name: d.ruleId,
    description: `${d.ruleId}: ${d.message}`,
    content: { body: [...d.tips.map((t) => `- ${t}`), ...(d.sourceUrl ? [`\nRaised at: ${d.sourceUrl}`] : [])].join('\n') },
    categories: ['Bug Risk'],
    severity: d.severity === 'error' ? (d.confidence === 'certain' ? 'major' : 'minor') : 'minor',
    fingerprint: prints[i]!.full,
    location: {
      path: gitlabPath(d.file, cwd, env.CI_PROJECT_DIR),
      positions: { begin: { line: d.line, column: d.column }, end: { line: d.endLine, column: d.endColumn } },
    },
  }));
}

export function formatGitlab(input: ReportInput, env: NodeJS.ProcessEnv = process.env): string {
  return JSON.stringify(gitlabReport(input, env), null, 2) + '\n';
}
