/** A rule's documentation, from its record: the same sections for `explain`, SARIF help and editors. */
import type { ClassRegistry } from '../rules/classes.js';
import { splitQualified } from '../rules/names.js';
import { reachIndex, ruleReach, type ReachIndex } from '../rules/reach.js';
import type { Rule } from '../rules/types.js';
import { oneLine } from '../parse/files.js';

export interface RuleDoc {
  id: string;
  title: string;
  errorClass: string;
  errorMessage: string;
  messagePattern?: string;
  raiser: string;
  documentation?: string;
  triggers?: string;
  situations?: string;
  solutions: string[];
  tips: string[];
  exampleFix?: string;
  source?: string;
}

function text(s: string | null | undefined): string | undefined {
  const t = s?.trim();
  return t ? t : undefined;
}

export function ruleDoc(rule: Rule): RuleDoc {
  const r = rule.record;
  return {
    id: rule.id,
    // A title is one line (a heading, a list entry, a SARIF short description): a message's line breaks are shown escaped.
    title: `${rule.errorClass}: ${oneLine(rule.message ?? r.errorMessage, Infinity)}`,
    errorClass: rule.errorClass,
    errorMessage: rule.message ?? r.errorMessage,
    messagePattern: text(r.messagePattern),
    raiser: `${rule.raiser.module ? `${rule.raiser.module}.` : ''}${rule.raiser.qualname}`,
    documentation: text(r.documentation),
    triggers: text(r.triggerScenarios),
    situations: text(r.commonSituations),
    solutions: (r.solutions ?? []).map((s) => s.trim()).filter(Boolean),
    tips: rule.tips.map((s) => s.trim()).filter(Boolean),
    exampleFix: text(r.exampleFix),
    source: rule.raiser.url ?? rule.docsUrl,
  };
}

/** One line: what raises what. */
export function shortDescription(doc: RuleDoc): string {
  return `${doc.raiser.split('.').slice(-2).join('.')}() raises ${doc.title}`;
}

function indent(s: string, by = '  '): string {
  return s
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
}

/** Plain text with headed sections (terminal, SARIF `help.text`). */
export function docText(doc: RuleDoc): string {
  const out: string[] = [];
  const section = (head: string, body: string | undefined) => {
    if (body) out.push(`${head}:`, indent(body), '');
  };
  const list = (head: string, items: string[]) => {
    if (items.length) out.push(`${head}:`, ...items.map((i) => `  - ${i}`), '');
  };
  section('Documentation', doc.documentation);
  section('Triggered by', doc.triggers);
  section('Common situations', doc.situations);
  list('Solutions', doc.solutions);
  list('Prevention tips', doc.tips);
  section('Example fix', doc.exampleFix);
  if (doc.source) out.push(`Raised at: ${doc.source}`);
  return out.join('\n').trimEnd();
}

/** Markdown (SARIF `help.markdown`, hovers). */
export function docMarkdown(doc: RuleDoc): string {
  const out: string[] = [`**${mdEscape(doc.title)}** (raised by \`${doc.raiser}()\`)`, ''];
  const para = (head: string, body: string | undefined) => {
    if (body) out.push(`### ${head}`, '', body, '');
  };
  const list = (head: string, items: string[]) => {
    if (items.length) out.push(`### ${head}`, '', ...items.map((i) => `- ${i}`), '');
  };
  para('Documentation', doc.documentation);
  para('Triggered by', doc.triggers);
  para('Common situations', doc.situations);
  list('Solutions', doc.solutions);
  list('Prevention tips', doc.tips);
  if (doc.exampleFix) out.push('### Example fix', '', fence(doc.exampleFix, 'python'), '');
  if (doc.source) out.push(`[Where the library raises it](${doc.source})`);
  return out.join('\n').trimEnd();
}

function mdEscape(s: string): string {
  return s.replace(/([\\`*_[\]<>])/g, '\\$1');
}

function fence(code: string, lang: string): string {
  let ticks = '```';
  while (code.includes(ticks)) ticks += '`';
  return `${ticks}${lang}\n${code}\n${ticks}`;
}

/** Where a rule fires, in short: the calls it targets and the library calls that reach it indirectly. */
export function ruleCalls(rule: Rule, classes: ClassRegistry, reach?: ReachIndex): { direct: string[]; indirect: string[] } {
  const direct = rule.targets.map((t) =>
    t.kind === 'method' ? `${splitQualified(t.classKey).name}.${t.method}()` : `${t.symbol.module}.${t.symbol.path}${t.what === 'attribute' ? '' : '()'}`,
  );
  const indirect = ruleReach(rule, classes, reach).indirect.map((p) => p.split(' -> ')[0]!);
  return { direct: [...new Set(direct)], indirect: [...new Set(indirect)] };
}

/**
 * The README's rules table (Markdown), from the same rules as `raiselint rules`, `explain` and SARIF
 * help; `link` gives a rule id a link (docs/rules/README.md links each to its page).
 */
export function rulesTable(rules: Rule[], classes: ClassRegistry, link: (rule: Rule) => string | undefined = () => undefined): string {
  const code = (s: string) => `\`${s}\``;
  const reach = reachIndex(classes);
  const rows = rules.map((r) => {
    const { direct, indirect } = ruleCalls(r, classes, reach);
    const via = indirect.length ? `; through ${indirect.map(code).join(', ')}` : '';
    const href = link(r);
    return `| ${href ? `[${code(r.id)}](${href})` : code(r.id)} | ${code(r.errorClass)} | ${direct.map(code).join(', ')}${via} |`;
  });
  return ['| rule id | raises | when you call |', '|---|---|---|', ...rows].join('\n') + '\n';
}
