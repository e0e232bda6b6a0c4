/**
 * `--format junit`: JUnit XML for CI test reports. One `<testsuite>` per file with findings, one failing
 * `<testcase>` per finding; files that could not be checked are `<error>`s. With nothing to report, one
 * passing test case, so the report is never empty.
 */
import { locationOf } from './notebook.js';
import type { Diagnostic, FileError } from '../diagnostics/types.js';
import type { ReportInput } from './context.js';
import { TOOL_NAME } from './tool.js';

/** Escapes text for XML 1.0 attributes and content; drops characters XML cannot carry. */
export function xmlEscape(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

/** Element text keeps line breaks as they are. */
function xmlText(s: string): string {
  return xmlEscape(s).replace(/&#10;/g, '\n').replace(/&#9;/g, '\t');
}

function attrs(a: Record<string, string | number | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');
}

function testcase(d: Diagnostic): string {
  const body = [`${locationOf(d)}: ${d.message}`, ...d.tips.map((t) => `help: ${t}`), ...(d.sourceUrl ? [`raised at: ${d.sourceUrl}`] : [])].join('\n');
  return (
    `    <testcase${attrs({ name: `${d.ruleId} (${d.line}:${d.column})`, classname: d.file, file: d.file, line: d.line })}>\n` +
    `      <failure${attrs({ message: d.message, type: d.errorClass })}>${xmlText(body)}</failure>\n` +
    `    </testcase>`
  );
}

function errorcase(e: FileError): string {
  const where = `${e.file}${e.line ? `:${e.line}:${e.column ?? 1}` : ''}`;
  const inner =
    e.kind === 'syntax'
      ? `      <system-err>${xmlText(`${where}: warning: ${e.message}`)}</system-err>\n`
      : `      <error${attrs({ message: e.message, type: `${e.kind}-error` })}>${xmlText(`${where}: ${e.message}`)}</error>\n`;
  return `    <testcase${attrs({ name: `${e.kind} error`, classname: e.file, file: e.file, line: e.line })}>\n${inner}    </testcase>`;
}

export function formatJunit(input: ReportInput): string {
  const byFile = new Map<string, { diags: Diagnostic[]; errors: FileError[] }>();
  const entry = (f: string) => {
    let e = byFile.get(f);
    if (!e) byFile.set(f, (e = { diags: [], errors: [] }));
    return e;
  };
  for (const d of input.diagnostics) entry(d.file).diags.push(d);
  for (const e of input.errors) entry(e.file).errors.push(e);
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const [file, { diags, errors: errs }] of byFile) {
    const hard = errs.filter((e) => e.kind !== 'syntax').length;
    const n = diags.length + errs.length;
    tests += n;
    failures += diags.length;
    errors += hard;
    suites.push(
      `  <testsuite${attrs({ name: file, tests: n, failures: diags.length, errors: hard })}>\n` +
        [...diags.map(testcase), ...errs.map(errorcase)].join('\n') +
        `\n  </testsuite>`,
    );
  }
  if (!suites.length) {
    tests = 1;
    suites.push(
      `  <testsuite${attrs({ name: TOOL_NAME, tests: 1, failures: 0, errors: 0 })}>\n    <testcase${attrs({ name: 'No findings', classname: TOOL_NAME })}/>\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name: TOOL_NAME, tests, failures, errors })}>\n${suites.join('\n')}\n</testsuites>\n`;
}
