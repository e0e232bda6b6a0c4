/** A rule's metadata from its record: the qualified error class, id, severity, links, versions, prefilter names. */
import type { ExceptionView } from './state.js';
import { splitQualified, triggerKey } from '../../rules/names.js';
import { ROLE_CALL, ROLE_METHOD, ROLE_OTHER, type RuleTarget, type Severity, type VersionNote } from '../../rules/types.js';
import type { SnippetFacts } from './snippets.js';
import type { SourceFacts } from './source.js';

/** `<repo short name>/<slug>`. */
export function ruleId(repo: string, slug: string): string {
  return `${(repo.split('/').pop() ?? repo).toLowerCase()}/${slug}`;
}

/** The names the prefilter looks for on the rule's behalf, each with its roles (see ../prefilter.ts). */
export function prefilterNames(targets: RuleTarget[], triggers: Iterable<string>): [string, number][] {
  const roles = new Map<string, number>();
  const add = (name: string, role: number) => {
    if (name) roles.set(name, (roles.get(name) ?? 0) | role);
  };
  for (const t of targets) {
    add(triggerKey(t), t.kind === 'method' ? ROLE_METHOD : ROLE_CALL);
  }
  for (const n of triggers) add(n, ROLE_OTHER);
  return [...roles];
}

export function qualifyError(name: string, facts: SnippetFacts, exceptions: ExceptionView, module: string, src: SourceFacts): string {
  const simple = name.split('.').pop()!;
  const local = `${module}.${simple}`;
  const prefer = (q: string): string => {
    // A re-export of the class sourceCode defines: keep the defining name.
    const c = exceptions.canonical(q);
    if (src.classes.has(simple) && exceptions.isKnown(local) && splitQualified(c).name === simple && module.startsWith(`${splitQualified(c).module}.`))
      return local;
    return c;
  };
  if (name.includes('.')) {
    const imported = facts.imports.get(name.split('.')[0]!);
    return prefer(imported ? [imported, ...name.split('.').slice(1)].join('.') : name);
  }
  if (exceptions.isKnown(name)) return exceptions.canonical(name);
  if (src.classes.has(name) && exceptions.isKnown(local)) return local;
  const imported = facts.imports.get(name);
  if (imported) return prefer(imported);
  const seen = facts.excepts.find((e) => e === name || e.endsWith(`.${name}`));
  if (seen && seen.includes('.')) return prefer(seen);
  if (exceptions.isKnown(local)) return local;
  return name;
}

/** The record's own grade caps a certain finding's severity: `warning`, `info`, `low`, `medium`, `minor`, `hint`, `note` are warnings. */
export function severityOf(s: string | null | undefined): Severity {
  return s && /warn|info|low|medium|minor|hint|note/i.test(s) ? 'warning' : 'error';
}

export function lineUrl(url: string, line: number): string {
  return url.replace(/#L\d+(-L\d+)?$/, '') + `#L${line}`;
}

/** Names a version constraint may be about: Python itself, the library (repo, top module, imports, tags). */
export function versionSubjects(repo: string, module: string, facts: SnippetFacts, tags: string[]): Set<string> {
  const out = new Set(['python', 'cpython', 'py']);
  const add = (s: string) => {
    const n = s.toLowerCase().replace(/_/g, '-');
    if (n) out.add(n);
  };
  for (const part of repo.split('/')) add(part);
  add(
    repo
      .split('/')
      .pop()!
      .replace(/-python$/, ''),
  );
  add(module.split('.')[0]!);
  for (const m of facts.modules) add(m.split('.')[0]!);
  for (const t of tags) add(t.split(/[<>=!~ ]/)[0]!);
  return out;
}

/**
 * Version constraints stated in a record's text or tags (`Python >= 3.12`, `numpy<2`, `autogen-core <= 0.4.0.dev8`,
 * `removed in Python 3.13`). With `subjects`, only constraints about those names are kept (not `retcode != 0`).
 */
export function versionNotes(subjects: Set<string> | undefined, ...texts: (string | string[])[]): VersionNote[] {
  const out: VersionNote[] = [];
  const all = texts.flatMap((t) => (Array.isArray(t) ? t : [t]));
  const keep = (subject: string, constraint: string, from: string) => {
    const s = subject.toLowerCase();
    if (subjects && !subjects.has(s.replace(/_/g, '-'))) return;
    if (out.some((v) => v.subject === s && v.constraint === constraint)) return;
    out.push({ subject: s, constraint, from });
  };
  const re = /\b([A-Za-z][A-Za-z0-9_.-]*)\s*(>=|<=|==|!=|~=|<|>)\s*(\d+(?:\.\d+)*(?:[a-z]+\d*)?(?:\.dev\d+)?)/g;
  const since = /\b(since|from|new in|added in|removed in|deprecated in|before|until|prior to)\s+(Python|[A-Za-z][\w.-]*)\s+v?(\d+\.\d+(?:\.\d+)?)/gi;
  for (const text of all) {
    for (let m = re.exec(text); m; m = re.exec(text)) keep(m[1]!, `${m[2]}${m[3]}`, m[0]);
    re.lastIndex = 0;
    for (let m = since.exec(text); m; m = since.exec(text)) {
      // `deprecated since 3.11` says nothing about where the error exists.
      if (/deprecated\s*$/i.test(text.slice(0, m.index))) continue;
      const word = m[1]!.toLowerCase();
      const op = word === 'before' || word === 'until' || word === 'removed in' || word === 'prior to' ? '<' : '>=';
      keep(m[2]!, `${op}${m[3]}`, m[0]);
    }
    since.lastIndex = 0;
  }
  return out;
}
