/**
 * `--format sarif`: a SARIF 2.1.0 log (OASIS), for GitHub code scanning and other SARIF viewers.
 * One run; `tool.driver.rules[]` holds the rules that have results, with the record's documentation as
 * help; results carry full regions, a line-hash fingerprint, the indirect path and the raising library
 * line as related locations, and fixes when a diagnostic has one.
 */
import { cellLines } from './notebook.js';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import { splitLines } from '../parse/source.js';
import { BUILTIN_RULES } from '../suppress/builtin.js';
import type { Rule } from '../rules/types.js';
import type { ReportInput } from './context.js';
import { fingerprints, regionText, type Span } from './fingerprint.js';
import { applicableFix, describeFix, type FixInfo } from './fixinfo.js';
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
    return { id, shortDescription: { text: builtin.summary }, help: { text: builtin.help, markdown: builtin.help }, defaultConfiguration: { level: level(builtin.defaultSeverity) } };
  }
  if (!rule) {
    return {
      id,
      shortDescription: { text: `${sample.errorClass}` },
      defaultConfiguration: { level: level(sample.severity) },
      ...(sample.docsUrl ? { helpUri: sample.docsUrl } : {}),
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
  if (rule.docsUrl) d.helpUri = rule.docsUrl;
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

function relatedLocations(d: Diagnostic, rule: Rule | undefined, lines: string[] | undefined): Json[] {
  const out: Json[] = [];
  let id = 1;
  d.via.forEach((step, i) => {
    const loc: Json = { id: id++, message: { text: i === 0 ? `Called here: ${step}` : `which calls ${step}` } };
    if (i === 0) loc.physicalLocation = physical(d, lines);
    out.push(loc);
  });
  if (d.sourceUrl) {
    const { uri, line } = urlLine(d.sourceUrl);
    const raiser = rule ? `${rule.raiser.qualname}()` : 'the library';
    const physical: Json = { artifactLocation: { uri } };
    if (line) physical.region = { startLine: line };
    out.push({ id: id++, message: { text: `${raiser} raises ${d.errorClass} here` }, physicalLocation: physical });
  }
  return out;
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
  const linesByFile = new Map<string, string[] | undefined>();
  const linesOf = (file: string) => {
    if (!linesByFile.has(file)) {
      const s = input.sources?.get(file);
      linesByFile.set(file, s === undefined ? undefined : splitLines(s));
    }
    return linesByFile.get(file);
  };
  const results = diags.map((d, i) => {
    const rule = input.rules?.get(d.ruleId);
    const lines = cellLines(d, linesOf(d.file));
    const r: Json = {
      ruleId: d.ruleId,
      ruleIndex: ruleIndex.get(d.ruleId)!,
      level: level(d.severity),
      kind: 'fail',
      message: { text: d.message },
      locations: [{ physicalLocation: physical(d, lines) }],
      partialFingerprints: { primaryLocationLineHash: prints[i]!.lineHash, ...(d.fingerprint ? { 'raiselint/v1': d.fingerprint } : {}) },
      properties: { confidence: d.confidence, errorClass: d.errorClass, recordId: d.recordId, tips: d.tips, ...(d.via.length ? { via: d.via } : {}), ...(d.cell ? { cell: d.cell.index } : {}) },
    };
    const related = relatedLocations(d, rule, lines);
    if (related.length) r.relatedLocations = related;
    const fx = fixes(d, applicableFix(d));
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
