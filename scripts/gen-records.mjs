#!/usr/bin/env node
// Generates synthetic error records in the shared upstream format (one
// `{"record": {...}, "datasetVersion": "..."}` object per line, schemaVersion 2), for benchmarks
// and scale tests. Deterministic: the same arguments give the same bytes.
//
//   node scripts/gen-records.mjs [--count 10000] [--seed 1] [--out file.jsonl]
//
// Each record describes one raising library function of a made-up library, with the fields real
// records carry (a ~35-line `sourceCode` window, validationCode, typeGuard, tryCatchPattern,
// exampleFix, prose, tips). Four kinds rotate: instance methods (with an isinstance guard),
// module functions, constructors and class methods; some records define their own exception class.
// Names are unique per record (`<Word><n>Client.<verb>_<noun>_<n>`), so every record compiles to a rule.
import { pathToFileURL } from 'node:url';
import { intOption, mulberry32, readOptions, writeLines } from './lib/dataset.mjs';

let rand = mulberry32(1);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const hex = (n) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');

const ORGS = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'vandelay', 'soylent', 'tyrell', 'wonka', 'stark'];
const AREAS = ['storage', 'queue', 'vision', 'billing', 'search', 'graph', 'stream', 'auth', 'cache', 'metrics'];
const NOUNS = ['blob', 'record', 'batch', 'token', 'index', 'frame', 'ledger', 'snapshot', 'cursor', 'shard'];
const VERBS = ['fetch', 'commit', 'rotate', 'export', 'restore', 'compact', 'publish', 'resize', 'verify', 'migrate'];
const ERRORS = ['NotImplementedError', 'ValueError', 'RuntimeError', 'TypeError', 'PermissionError', 'TimeoutError', 'KeyError'];
const REASONS = [
  'is not supported by the remote backend',
  'requires a connected session',
  'is deprecated and was removed',
  'is not available in read-only mode',
  'needs an explicit region',
];
const cap = (s) => s[0].toUpperCase() + s.slice(1);

function filler(rows, ind) {
  // Valid Python statement groups, as found around a raising method.
  const groups = [
    (v) => [`${ind}${v} = self._pool.acquire(timeout=self._timeout)`],
    (v) => [`${ind}if ${v} is None:`, `${ind}    logger.debug("retrying %s", ${JSON.stringify(v)})`],
    (v) => [`${ind}self._pending.append(${v})`],
    (v) => [`${ind}for ${v} in self._items:`, `${ind}    self._seen.add(${v})`],
    (v) => [`${ind}${v} = self._transport.request("GET", self._url(${JSON.stringify(v)}))`],
  ];
  const lines = [];
  for (let i = 0; lines.length < rows; i++) lines.push(...pick(groups)(`${pick(NOUNS)}_${i}`));
  lines.push(`${ind}return None`);
  return lines;
}

function record(i) {
  const org = pick(ORGS);
  const area = pick(AREAS);
  const noun = pick(NOUNS);
  const verb = pick(VERBS);
  const pkg = `${org}_${area}_${i}`;
  const mod = `_${area}_client`;
  const cls = `${cap(area)}${i}Client`;
  const fn = `${verb}_${noun}_${i}`;
  const kind = ['method', 'function', 'constructor', 'classmethod'][i % 4];
  const ownError = i % 5 === 0;
  const errorClass = ownError ? `${cap(noun)}${i}Error` : pick(ERRORS);
  const reason = pick(REASONS);
  const message = `${cap(verb)} ${noun} ${reason}.`;
  const filePath = `python/packages/${org}-${area}/src/${pkg}/${mod}.py`;

  const pre = [];
  if (ownError) pre.push(`class ${errorClass}(Exception):`, `    """Raised when a ${noun} cannot be processed."""`, '');
  let body;
  let raiseRow;
  let callExpr;
  let recv;
  const args = `${noun}_id: str`;
  if (kind === 'function') {
    body = [
      `def _${noun}_helper_${i}(value):`,
      ...filler(5, '    '),
      '',
      `def ${fn}(${args}, *, timeout: float = 30.0) -> bytes:`,
      `    """${cap(verb)} a ${noun}."""`,
      `    raise ${errorClass}(${JSON.stringify(message)})`,
      '',
      `def list_${noun}s_${i}(prefix: str = "") -> list[str]:`,
      ...filler(8, '    '),
    ];
    raiseRow = body.findIndex((l) => l.startsWith('    raise'));
    callExpr = `${fn}(${noun}_id)`;
  } else {
    const m = kind === 'constructor' ? '__init__' : fn;
    const deco = kind === 'classmethod' ? ['    @classmethod'] : [];
    const self = kind === 'classmethod' ? 'cls' : 'self';
    body = [
      `class ${cls}:`,
      `    """Client for the ${org} ${area} service."""`,
      '',
      `    def _prepare_${i}(self, value):`,
      ...filler(5, '        '),
      '',
      ...deco,
      `    ${kind === 'method' ? 'async ' : ''}def ${m}(${self}, ${args}) -> None:`,
      `        raise ${errorClass}(${JSON.stringify(message)})`,
      '',
      `    def close(self) -> None:`,
      ...filler(8, '        '),
    ];
    raiseRow = body.findIndex((l) => l.startsWith('        raise'));
    recv = 'client';
    callExpr = kind === 'method' ? `await client.${fn}(${noun}_id)` : kind === 'constructor' ? `${cls}(${noun}_id)` : `${cls}.${fn}(${noun}_id)`;
  }
  const lines = [...pre, ...body];
  const start = 100 + Math.floor(rand() * 800);
  const lineNumber = start + pre.length + raiseRow;
  const imported = kind === 'function' ? fn : cls;
  const imp = `from ${pkg} import ${imported}`;
  const errImp = ownError ? `from ${pkg} import ${errorClass}` : '';
  const fallback = `fallback_${noun}(${noun}_id)`;
  const guardName = `supports_${verb}_${i}`;
  const validationCode =
    kind === 'method'
      ? `${imp}\n\nif isinstance(${recv}, ${cls}):\n    result = ${fallback}\nelse:\n    result = ${callExpr}`
      : `${imp}\n\nif ${noun}_id:\n    result = ${fallback}`;
  const typeGuard = kind === 'method' ? `def ${guardName}(${recv}: object) -> bool:\n    return not isinstance(${recv}, ${cls})` : null;
  const tryCatchPattern = `${errImp ? `${errImp}\n` : ''}${imp}\n\ntry:\n    result = ${callExpr}\nexcept ${errorClass}:\n    result = ${fallback}`;
  const exampleFix = `# before\nresult = ${callExpr}  # ${errorClass}\n\n# after\nresult = ${fallback}`;
  const slug = `${verb}-${noun}-${i}-${reason.split(' ').slice(0, 3).join('-')}`;
  const usage = {
    ruleId: `${org}-${area}/${slug}`,
    imports: [imp],
    call: callExpr,
    receiverClass: kind === 'method' ? cls : undefined,
    errorClass: ownError ? errorClass : undefined,
    errorImport: errImp || undefined,
    guard: typeGuard ? { name: guardName, code: typeGuard } : undefined,
  };
  const id = hex(16);
  const sha = hex(40);
  const line = {
    record: {
      id,
      repo: `${org}/${org}-${area}`,
      slug,
      errorCode: null,
      errorMessage: message,
      messagePattern: message.replace(/[.]/g, '\\.'),
      errorType: 'exception',
      errorClass,
      httpStatus: null,
      severity: i % 7 === 0 ? 'warning' : 'error',
      filePath,
      lineNumber,
      sourceCode: lines.join('\n'),
      sourceCodeStart: start,
      sourceCodeEnd: start + lines.length - 1,
      githubUrl: `https://github.com/${org}/${org}-${area}/blob/${sha}/${filePath}#L${start}-L${start + lines.length - 1}`,
      documentation: `${kind === 'function' ? fn : `${cls}.${kind === 'constructor' ? '__init__' : fn}`}() raises ${errorClass}: ${noun} ${verb} ${reason}. This is a synthetic record generated for benchmarks.`,
      triggerScenarios: `Calling \`${callExpr.replace(/^await /, '')}\` when the ${area} backend ${reason}.`,
      commonSituations: `Code written against an older ${pkg} release; batch jobs that ${verb} every ${noun}.`,
      solutions: [`Check the backend before calling ${fn}`, `Catch ${errorClass} and fall back`, `Use ${fallback.split('(')[0]} instead`],
      exampleFix,
      handlingStrategy: kind === 'method' ? 'type-guard' : 'try-catch',
      validationCode,
      typeGuard,
      tryCatchPattern,
      preventionTips: [`Do not call ${fn} on this backend`, `Pin ${pkg} and read its changelog`],
      tags: ['python', org, area, 'synthetic'],
      backgroundTag: null,
      analyzedSha: sha,
      analyzedAt: '2026-08-15T03:38:00.719Z',
      schemaVersion: 2,
    },
    datasetVersion: '2026-08-15T17:31:12.345Z',
  };
  return { line, usage };
}

/** `count` records (JSON Lines objects) and, for tests, how code would call each raising function. */
export function generateRecords(count = 10000, seed = 1) {
  rand = mulberry32(seed);
  const out = [];
  for (let i = 0; i < count; i++) out.push(record(i));
  return out;
}

function main() {
  const opts = readOptions('gen-records', process.argv.slice(2), ['count', 'seed', 'out']);
  const count = intOption('gen-records', opts, 'count', 10000);
  const seed = intOption('gen-records', opts, 'seed', 1, -(2 ** 31));
  writeLines(
    generateRecords(count, seed).map((r) => JSON.stringify(r.line)),
    opts.out,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
