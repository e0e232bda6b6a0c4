// Why files pass the prefilter (src/prefilter/index.ts): for every file that passes, the entry
// names and the conditions that let it through (src/prefilter/needs.ts); with a JSON report
// of the same run, only the files without findings (those parsed and modelled for nothing),
// ranked by the entry names and conditions that let most of them through.
//
//   node scripts/prefilter-why.mjs DIR --records a.jsonl [--records b.jsonl] [--no-bundled]
//        [--report out.json] [--cache-dir D] [--top 40] [--files]
//
// `out.json` is `raiselint check . --format json ...` run inside DIR with the same records (its
// paths are relative to DIR). Needs the build (`npm run build`): it reads dist/.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    records: { type: 'string', multiple: true, default: [] },
    'no-bundled': { type: 'boolean', default: false },
    report: { type: 'string' },
    'cache-dir': { type: 'string' },
    top: { type: 'string', default: '40' },
    files: { type: 'boolean', default: false },
  },
});
if (positionals.length !== 1) {
  console.error('usage: node scripts/prefilter-why.mjs DIR --records FILE [--no-bundled] [--report out.json] [--top N] [--files]');
  process.exit(2);
}
const dir = resolve(positionals[0]);
const { loadRules } = await import(join(DIST, 'engine', 'rules.js'));
const { prefilterSpec, Prefilter, shapeOf, ROLE_CALL, ROLE_METHOD, ROLE_DIRECTIVE } = await import(join(DIST, 'rules', 'prefilter.js'));
const { importContext } = await import(join(DIST, 'rules', 'prefilter-context.js'));
const { SHAPE_ANY, SHAPE_DOT, SHAPE_VALUE } = await import(join(DIST, 'rules', 'prefilter-needs.js'));

const rules = await loadRules({ records: values.records, bundled: !values['no-bundled'] }, values['cache-dir']);
const spec = prefilterSpec(rules);
const prefilter = Prefilter.build(spec);
const roles = new Map(spec.names);
const entries = new Map(spec.needs.entries);
const withFindings = values.report ? new Set(JSON.parse(readFileSync(values.report, 'utf8')).diagnostics.map((d) => d.file)) : undefined;

function pyFiles(d, out = []) {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    if (e.name === '__pycache__' || e.name.startsWith('.')) continue;
    const p = join(d, e.name);
    if (e.isDirectory()) pyFiles(p, out);
    else if (e.isFile() && /\.pyi?$/.test(e.name)) out.push(p);
  }
  return out;
}

const shapeName = (s) => (s & SHAPE_ANY ? 'any' : [s & SHAPE_DOT ? 'attribute' : '', s & SHAPE_VALUE ? 'value' : ''].filter(Boolean).join('|'));

/** The alternatives met in a file that passes: [entry name, how it must be written, the roots and names that met the condition]. */
function reasons(bytes, names) {
  const found = new Set(names);
  const ctx = importContext(bytes, bytes.length);
  const text = bytes.toString('latin1');
  const out = [];
  for (const n of names) {
    const r = roles.get(n) ?? 0;
    if (r & ROLE_DIRECTIVE) out.push(['# raiselint:', '', '']);
    if (!(r & (ROLE_CALL | ROLE_METHOD))) continue;
    const at = [...text.matchAll(new RegExp(`(?<![A-Za-z0-9_])${n}(?![A-Za-z0-9_])`, 'g'))].map((m) => m.index);
    const shape = shapeOf(n, at, bytes, bytes.length, ctx);
    for (const [want, id] of entries.get(n) ?? []) {
      const c = spec.needs.conds[id];
      const names = c.names.filter((x) => found.has(x));
      const roots = c.roots.filter((x) => ctx.roots.has(x));
      if (!(want & shape) || (c.names.length && !names.length) || (c.roots.length && !roots.length)) continue;
      out.push([
        n,
        shapeName(want),
        `${roots.length ? `import ${roots.join('|')}` : ''}${roots.length && names.length ? ' + ' : ''}${names.slice(0, 3).join('|')}`,
      ]);
    }
  }
  return out;
}

const count = (m, k) => m.set(k, (m.get(k) ?? 0) + 1);
const byEntry = new Map();
const alone = new Map();
const byReason = new Map();
let total = 0;
let passed = 0;
let useful = 0;
for (const f of pyFiles(dir)) {
  total++;
  const bytes = readFileSync(f);
  const names = prefilter.candidateBytes(bytes, bytes.length);
  if (!names) continue;
  passed++;
  const rel = relative(dir, f);
  if (withFindings?.has(rel)) {
    useful++;
    continue;
  }
  const rs = reasons(bytes, names);
  const ents = new Set(rs.map((r) => r[0]));
  for (const e of ents) count(byEntry, e);
  if (ents.size === 1) count(alone, [...ents][0]);
  for (const r of new Set(rs.map((r) => `${r[0]} (${r[1]}) with ${r[2] || 'nothing'}`))) count(byReason, r);
  if (values.files) console.log(`${rel}: ${[...new Set(rs.map((r) => r[0]))].join(', ')}`);
}
const top = (m) =>
  [...m]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, Number(values.top))
    .map(([k, v]) => `  ${String(v).padStart(5)}  ${k}`)
    .join('\n');
const what = withFindings ? `${passed - useful} without findings (${useful} with)` : `${passed} (no --report: all counted)`;
console.log(`${total} files, ${passed} pass the prefilter: ${what}`);
console.log(`entry names letting them through (files):\n${top(byEntry)}`);
console.log(`the only entry name letting a file through (files):\n${top(alone)}`);
console.log(`alternatives met (files):\n${top(byReason)}`);
