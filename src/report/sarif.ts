/**
 * `--format sarif`: a SARIF 2.1.0 log (OASIS), for GitHub code scanning and other SARIF viewers.
 * One run; `tool.driver.rules[]` holds the rules that have results, with the record's documentation as
 * help and its documentation page (docs/rules/) as helpUri; results carry full regions, a line-hash
 * fingerprint, the start of an indirect path as a related location linked from the message, the
 * raising library line (property raisedAt, a link in message.markdown), and fixes when a diagnostic has one.
 */
import { cellLines } from './notebook.js';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rulePageUrl } from '../diagnostics/docpage.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { splitLines } from '../parse/source.js';
import { BUILTIN_RULES } from '../suppress/builtin.js';
import type { Rule } from '../rules/types.js';
import type { ReportInput } from './context.js';
import { fingerprints, regionText, type Span } from './fingerprint.js';
import { describeFix, FixPositions, type FixInfo } from './fixinfo.js';
import { docMarkdown, docText, ruleDoc, shortDescription } from './ruledoc.js';
import { TOOL_NAME, TOOL_URI, TOOL_VERSION } from './tool.js';

export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
export const SRCROOT = '%SRCROOT%';

type Json = Record<string, unknown>;

/** A display path as a SARIF artifact location: relative paths stay relative to %SRCROOT%. */
export function artifactLocation(file: string): Json {
  const slashed = file.replace(/\\/g, '/');
  if (isAbsolute(file) || /^[A-Za-z]:\//.test(slashed)) return { uri: pathToFileURL(file).href };
  const uri = slashed
    .split('/')
    .filter((s, i) => !(s === '.' && i === 0))
    .map((s) => encodeURIComponent(s))
    .join('/');
  return { uri, uriBaseId: SRCROOT };
}

function level(sev: Diagnostic['severity']): 'error' | 'warning' {
  return sev === 'error' ? 'error' : 'warning';
}

function region(d: Span, lines?: string[]): Json {
  const r: Json = { startLine: d.line, startColumn: d.column, endLine: d.endLine, endColumn: d.endColumn };
  if (lines) r.snippet = { text: regionText(d, lines) };
  return r;
}

/** The finding's location: its exact region, and the whole lines around it as the context region. */
function physical(d: Diagnostic, lines: string[] | undefined): Json {
  const p: Json = { artifactLocation: artifactLocation(d.file), region: region(d, lines) };
  if (lines) p.contextRegion = { startLine: d.line, endLine: d.endLine, snippet: { text: lines.slice(d.line - 1, d.endLine).join('\n') } };
  return p;
}

/** `https://host/path#L502` → the URL without the fragment and the line. */
export function urlLine(url: string): { uri: string; line?: number } {
  const m = /^(.*?)#L(\d+)(?:-L?\d+)?$/.exec(url);
  if (!m) return { uri: url.replace(/#.*$/, '') };
  return { uri: m[1]!, line: Number(m[2]) };
}

function ruleDescriptor(id: string, rule: Rule | undefined, sample: Diagnostic): Json {
  const builtin = BUILTIN_RULES.find((b) => b.id === id);
  if (builtin) {
    const page = rulePageUrl(id);
    return {
      id,
      shortDescription: { text: builtin.summary },
      help: { text: builtin.help, markdown: builtin.help },
      ...(page ? { helpUri: page } : {}),
      defaultConfiguration: { level: level(builtin.defaultSeverity) },
    };
  }
  if (!rule) {
    return {
      id,
      shortDescription: { text: `${sample.errorClass}` },
      defaultConfiguration: { level: level(sample.severity) },
      ...(sample.helpUri ? { helpUri: sample.helpUri } : {}),
    };
  }
  const doc = ruleDoc(rule);
  const tags = ['raiselint', 'correctness', rule.errorClass, ...(rule.record.tags ?? [])];
  const d: Json = {
    id,
    name: pascalCase(rule.record.slug),
    shortDescription: { text: shortDescription(doc) },
    fullDescription: { text: doc.documentation ?? shortDescription(doc) },
    help: { text: docText(doc) || shortDescription(doc), markdown: docMarkdown(doc) },
    defaultConfiguration: { level: level(rule.defaultSeverity) },
    properties: {
      tags: [...new Set(tags)],
      precision: 'high',
      recordId: rule.recordId,
      errorClass: rule.errorClass,
      raiser: doc.raiser,
      ...(doc.messagePattern ? { messagePattern: doc.messagePattern } : {}),
    },
  };
  // The rule's documentation page (docs/rules/); a rule from a user's own dataset has none.
  const page = rulePageUrl(id, rule.source.file);
  if (page) d.helpUri = page;
  return d;
}

/** `agent-save-state-is-not-yet-implemented` → `AgentSaveStateIsNotYetImplemented` (SARIF's friendly-name style). */
export function pascalCase(slug: string): string {
  const s = slug
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
  return /^[A-Za-z]/.test(s) ? s : `Rule${s}`;
}

function fixes(d: Diagnostic, fix: FixInfo | undefined): Json[] | undefined {
  if (!fix) return undefined;
  return [
    {
      description: { text: describeFix(fix) },
      artifactChanges: [
        {
          artifactLocation: artifactLocation(d.file),
          replacements: fix.edits.map((e) => ({
            deletedRegion: { startLine: e.line, startColumn: e.column, endLine: e.endLine, endColumn: e.endColumn },
            insertedContent: { text: e.text },
          })),
        },
      ],
      properties: { applicability: fix.applicability, ...(fix.strategy ? { strategy: fix.strategy } : {}) },
    },
  ];
}

/**
 * Related locations: only places in the checked files (GitHub links a related location only when
 * it has a physicalLocation in the repository, and only from the message, as `[text](id)`). For an
 * indirect finding, the call that starts the path; the rest of the path is inside the library.
 */
function relatedLocations(d: Diagnostic, lines: string[] | undefined): Json[] {
  if (!d.via.length) return [];
  const through = d.via.slice(1).join(' -> ');
  return [{ id: 1, message: { text: `${d.via[0]}${through ? `, which calls ${through}` : ''}` }, physicalLocation: physical(d, lines) }];
}

/** Plain message text with its own `[` `]` escaped where they could read as an embedded link. */
function escapeLinks(text: string): string {
  return /[[\]]/.test(text) ? text.replace(/([[\]])/g, '\\$1') : text;
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>])/g, '\\$1');
}

/**
 * The result's message: for an indirect finding its first step links to related location 1
 * (`[team.save_state()](1) -> runtime.agent_save_state(): ...`); the markdown form also links the
 * library line that raises.
 */
function message(d: Diagnostic): Json {
  const first = d.via[0];
  const linked = (esc: (s: string) => string) =>
    first && d.message.startsWith(first) ? `[${esc(first)}](1)${esc(d.message.slice(first.length))}` : esc(d.message);
  const m: Json = { text: linked(escapeLinks) };
  if (d.sourceUrl) m.markdown = `${linked(escapeMarkdown)} ([raised here](${d.sourceUrl}))`;
  return m;
}

function notification(e: FileError): Json {
  const loc: Json = { artifactLocation: artifactLocation(e.file) };
  if (e.line) loc.region = { startLine: e.line, ...(e.column ? { startColumn: e.column } : {}) };
  return {
    level: e.kind === 'syntax' ? 'warning' : 'error',
    message: { text: e.message },
    locations: [{ physicalLocation: loc }],
    descriptor: { id: `${e.kind}-error` },
  };
}

export function sarifLog(input: ReportInput): Json {
  const { diagnostics: diags, errors } = input;
  const ruleIds = [...new Set(diags.map((d) => d.ruleId))].sort();
  const ruleIndex = new Map(ruleIds.map((id, i) => [id, i]));
  const descriptors = ruleIds.map((id) => ruleDescriptor(id, input.rules?.get(id), diags.find((d) => d.ruleId === id)!));
  const prints = fingerprints(diags, input.sources);
  const fixAt = new FixPositions(input.sources);
  const linesByFile = new Map<string, string[] | undefined>();
  const linesOf = (file: string) => {
    if (!linesByFile.has(file)) {
      const s = input.sources?.get(file);
      linesByFile.set(file, s === undefined ? undefined : splitLines(s));
    }
    return linesByFile.get(file);
  };
  const results = diags.map((d, i) => {
    const lines = cellLines(d, linesOf(d.file));
    const r: Json = {
      ruleId: d.ruleId,
      ruleIndex: ruleIndex.get(d.ruleId)!,
      level: level(d.severity),
      kind: 'fail',
      message: message(d),
      locations: [{ physicalLocation: physical(d, lines) }],
      partialFingerprints: { primaryLocationLineHash: prints[i]!.lineHash, ...(d.fingerprint ? { 'raiselint/v1': d.fingerprint } : {}) },
      properties: {
        confidence: d.confidence,
        errorClass: d.errorClass,
        recordId: d.recordId,
        tips: d.tips,
        ...(d.via.length ? { via: d.via } : {}),
        ...(d.sourceUrl ? { raisedAt: d.sourceUrl } : {}),
        ...(d.cell ? { cell: d.cell.index } : {}),
      },
    };
    const related = relatedLocations(d, lines);
    if (related.length) r.relatedLocations = related;
    const fx = fixes(d, fixAt.applicable(d));
    if (fx) r.fixes = fx;
    return r;
  });
  const cwd = input.cwd ?? process.cwd();
  const driver: Json = {
    name: TOOL_NAME,
    version: TOOL_VERSION,
    semanticVersion: TOOL_VERSION,
    rules: descriptors,
  };
  if (TOOL_URI) driver.informationUri = TOOL_URI;
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver },
        invocations: [
          {
            executionSuccessful: !errors.some((e) => e.kind !== 'syntax'),
            ...(errors.length ? { toolExecutionNotifications: errors.map(notification) } : {}),
          },
        ],
        // The upload category (GitHub code scanning); the action's `category` input may override it.
        automationDetails: { id: `${TOOL_NAME}/` },
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(resolve(cwd)).href.replace(/\/?$/, '/') } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

export function formatSarif(input: ReportInput): string {
  return JSON.stringify(sarifLog(input), null, 2) + '\n';
}
