// One fuzz input per call: generated from (seed, index), run through the real pipeline (the
// compiled modules in dist/), judged. An outcome is { kind, crash?, lostBytes?, badFix?, fixed?, pair? }:
//   crash     an exception escaped, or an "internal error" was reported, or a malformed result
//   lostBytes a byte of the user's code (or an LSP message) that should have survived did not
//   badFix    a fix whose result does not parse, is not stable (fixing again changes it), or
//             that left its finding
//   pair      [input, output] of an applied fix, for the CPython check at the end (scripts/fuzz.mjs)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configText, encodedSource, frame, framingGarbage, pythonSource, recordsText, rngFor, rpcMessage, PY_SEEDS } from './gen.mjs';

const DIST = new URL('../../dist/', import.meta.url);
const load = (p) => import(new URL(p, DIST).href);

let ctx;
/** Loads the pipeline once per process. */
export async function setup(workDir) {
  if (ctx) return ctx;
  const [parser, check, fix, records, schema, framing, project, rules, lookup, syntax, source, positions] = await Promise.all(
    [
      'parse/parser.js',
      'engine/check.js',
      'engine/fix.js',
      'records/load.js',
      'config/schema.js',
      'lsp/framing.js',
      'engine/project.js',
      'compile/load.js',
      'rules/lookup.js',
      'parse/syntax.js',
      'parse/source.js',
      'diagnostics/positions.js',
    ].map(load),
  );
  await parser.initParser();
  const ruleSet = await rules.loadRules({});
  const bundled = readdirSync(rules.BUNDLED_RULES_DIR + '/records').map((f) => join(rules.BUNDLED_RULES_DIR, 'records', f));
  const baseRecords = bundled.map((f) => readFileSync(f, 'utf8')).join('\n');
  const dir = workDir ?? mkdtempSync(join(tmpdir(), 'raiselint-fuzz-'));
  ctx = {
    parser,
    check,
    fix,
    records,
    schema,
    framing,
    project,
    rules,
    lookup,
    syntax,
    source,
    positions,
    ruleSet,
    baseRecords,
    dir,
    cacheDir: join(dir, 'cache'),
  };
  return ctx;
}

const internal = (errors) => errors.find((e) => e.kind === 'internal');

/** Lines with their terminators (`\r\n`, `\r`, `\n`). */
function splitKeep(text) {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n|$)/g).filter((l, i, a) => l !== '' || i < a.length - 1);
}

/**
 * Lost bytes of a fix: input lines that are not in the output (a line-level LCS), outside the
 * lines the applied fixes were allowed to rewrite (their edits' line ranges in the input).
 */
function lostLines(before, after, allowed) {
  const a = splitKeep(before);
  const b = splitKeep(after);
  // Common prefix and suffix, then an LCS over the middle (fixes are local: the middle is small).
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  const am = a.slice(p, a.length - s);
  const bm = b.slice(p, b.length - s);
  if (am.length * bm.length > 4e6) return [];
  const dp = Array.from({ length: am.length + 1 }, () => new Int32Array(bm.length + 1));
  for (let i = am.length - 1; i >= 0; i--)
    for (let j = bm.length - 1; j >= 0; j--) dp[i][j] = am[i] === bm[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
  const lost = [];
  let i = 0;
  let j = 0;
  while (i < am.length) {
    if (j < bm.length && am[i] === bm[j]) {
      i++;
      j++;
    } else if (j < bm.length && dp[i][j + 1] >= dp[i + 1][j]) j++;
    else {
      const line = p + i + 1;
      if (!allowed.some(([lo, hi]) => line >= lo && line <= hi)) lost.push(line);
      i++;
    }
  }
  return lost;
}

function pythonCase(c, r, bytes) {
  const out = { kind: 'python' };
  const res = c.check.checkBytes(bytes, 'fuzz.py', c.ruleSet, {});
  const bad = internal(res.errors);
  if (bad) return { ...out, crash: bad.message };
  for (const d of res.diagnostics) if (!(d.line >= 1 && d.column >= 1 && d.endLine >= d.line)) return { ...out, crash: `bad position ${d.line}:${d.column}` };
  const unsafe = r.chance(0.7);
  const fixStrategy = r.pick([undefined, 'try-except', 'type-guard']);
  const ff = c.fix.fixBytes(bytes, c.ruleSet, c.fix.aloneContext('fuzz.py', { fixStrategy }), { unsafe });
  if (internal(ff.errors)) return { ...out, crash: internal(ff.errors).message };
  if (!ff.bytes) return out;
  out.fixed = true;
  const after = ff.bytes.toString('utf8').replace(/^\ufeff/, '');
  const before = bytes.toString('utf8').replace(/^\ufeff/, '');
  // The result parses (tree-sitter; CPython in the batch check at the end).
  const tree = c.parser.parsePython(c.source.normalizeLoneCR(after));
  try {
    if (c.syntax.firstSyntaxError(tree.rootNode)) return { ...out, badFix: 'the fixed file has a syntax error' };
  } finally {
    tree.delete();
  }
  // Stable: fixing the result again changes nothing (the rounds of --fix run until nothing is left to fix).
  const again = c.fix.fixBytes(ff.bytes, c.ruleSet, c.fix.aloneContext('fuzz.py', { fixStrategy }), { unsafe });
  if (again.bytes && !again.bytes.equals(ff.bytes)) return { ...out, badFix: 'not idempotent: fixing the fixed file changes it again' };
  // No lost bytes: only the lines the applied fixes' edits span may change.
  // Fix edits are offsets into the checked text: their lines, as reporters position them.
  const allowed = res.diagnostics
    .filter((d) => d.fix && d.fix.edits.length)
    .map((d) => {
      const es = c.positions.positionEdits(res.text, d.fix.edits);
      if (!es) throw new Error(`fix edits outside the text: ${JSON.stringify(d.fix.edits)}`);
      return [Math.min(...es.map((e) => e.line)), Math.max(...es.map((e) => e.endLine))];
    });
  const lost = lostLines(before, after, allowed);
  if (lost.length) return { ...out, lostBytes: `input lines ${lost.slice(0, 5).join(', ')} lost outside the fixes' edits` };
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf && !(ff.bytes[0] === 0xef && ff.bytes[1] === 0xbb))
    return { ...out, lostBytes: 'the BOM was lost' };
  out.pair = [bytes.toString('base64'), ff.bytes.toString('base64')];
  return out;
}

function recordsCase(c, r) {
  const out = { kind: 'records' };
  const text = recordsText(r, c.baseRecords);
  const file = join(c.dir, 'recs', `r${r.int(1e9)}.jsonl`);
  mkdirSync(join(c.dir, 'recs'), { recursive: true });
  writeFileSync(file, text);
  try {
    try {
      c.records.loadDataset(file);
    } catch (e) {
      if (e instanceof c.records.DatasetError && !/[\x00-\x1f]/.test(e.describe())) return out;
      return { ...out, crash: `loadDataset: ${e?.constructor?.name}: ${String(e?.message).slice(0, 200)}` };
    }
    return c.rules.loadRules({ bundled: false, records: [file] }).then((set) => {
      const msg = r.pick(['a'.repeat(3000) + '!', 'Agent save_state is not yet implemented.', 'x'.repeat(100), '']);
      c.lookup.matchRuntimeError(set.rules, { errorClass: r.pick([undefined, 'NotImplementedError']), message: msg, frames: [] });
      return out;
    });
  } finally {
    setTimeout(() => rmSync(file, { force: true }), 0);
  }
}

function configCase(c, r) {
  const out = { kind: 'config' };
  const text = configText(r);
  try {
    const cfg = c.schema.parseConfigText(text, r.pick(['raiselint.toml', 'pyproject.toml']));
    return out && cfg !== null ? out : out;
  } catch (e) {
    if (e instanceof c.schema.ConfigError) {
      const line = e.describe();
      if (line.includes('\n') || line.length > 2000) return { ...out, crash: `config error is not one short line (${line.length} chars)` };
      return out;
    }
    return { ...out, crash: `parseConfigText: ${e?.constructor?.name}: ${String(e?.message).slice(0, 200)}` };
  }
}

function lspCase(c, r) {
  const out = { kind: 'lsp' };
  const sent = [];
  const parts = [];
  for (let k = 1 + r.int(6); k > 0; k--) {
    if (r.chance(0.5)) parts.push(framingGarbage(r));
    const body = JSON.stringify(rpcMessage(r, sent.length + 1));
    sent.push(body);
    parts.push(frame(body, r.chance(0.2)));
  }
  const all = Buffer.concat(parts);
  const got = [];
  const t = new c.framing.LspFraming(() => {});
  t.on('data', (b) => got.push(b));
  let at = 0;
  while (at < all.length) {
    const n = r.chance(0.3) ? 1 + r.int(3) : 1 + r.int(4096);
    t.write(all.subarray(at, at + n));
    at += n;
  }
  t.end();
  const stream = Buffer.concat(got);
  const bodies = [];
  for (let p = 0; p < stream.length; ) {
    const m = /^Content-Length: (\d+)\r\n\r\n/.exec(stream.subarray(p, p + 64).toString('latin1'));
    if (!m) return { ...out, crash: 'the framing emitted a malformed frame' };
    const n = Number(m[1]);
    bodies.push(stream.subarray(p + m[0].length, p + m[0].length + n).toString('utf8'));
    p += m[0].length + n;
  }
  for (const b of bodies) {
    const v = JSON.parse(b);
    if (typeof v !== 'object' || !v || Array.isArray(v)) return { ...out, crash: 'the framing passed on a non-object body' };
  }
  if (bodies.length !== sent.length || bodies.some((b, i) => b !== sent[i]))
    return { ...out, lostBytes: `${sent.length} messages sent, ${bodies.filter((b, i) => b === sent[i]).length} delivered intact` };
  return out;
}

let fsRun = 0;
async function fsCase(c, r) {
  const out = { kind: 'fs' };
  const root = join(c.dir, `fs${fsRun++}`);
  mkdirSync(join(root, 'pkg', 'sub'), { recursive: true });
  const made = [];
  const file = (rel, text) => {
    writeFileSync(join(root, rel), text);
    made.push(rel);
  };
  for (let k = 1 + r.int(5); k > 0; k--)
    file(r.pick(['a.py', 'pkg/b.py', 'pkg/sub/c.py', 'd.pyi', 'pkg/e.py']), r.chance(0.5) ? r.pick(PY_SEEDS) : pythonSource(r));
  const oddities = [
    () => symlinkSync('..', join(root, 'pkg', 'sub', 'up')),
    () => symlinkSync('../..', join(root, 'pkg', 'sub', 'up2')),
    () => symlinkSync('.', join(root, 'self')),
    () => spawnSync('mkfifo', [join(root, 'pipe.py')]),
    () => {
      spawnSync('mkfifo', [join(root, 'fifo')]);
      symlinkSync('fifo', join(root, 'tofifo.py'));
    },
    () => symlinkSync('/dev/zero', join(root, 'zero.py')),
    () => symlinkSync('missing.py', join(root, 'dangling.py')),
    () => symlinkSync('loop.py', join(root, 'loop.py')),
    () => writeFileSync(Buffer.from(`${root}/bad\xff.py`, 'latin1'), 'x = 1\n'),
    () => writeFileSync(join(root, 'nl\nname.py'), r.pick(PY_SEEDS)),
    () => writeFileSync(join(root, 'pyproject.toml'), configText(r)),
    () => writeFileSync(join(root, 'pkg', 'raiselint.toml'), configText(r)),
    () => writeFileSync(join(root, 'big.py'), Buffer.alloc(2048, 0x20)),
    () => writeFileSync(join(root, 'bin.py'), Buffer.from(Array.from({ length: 500 }, () => r.int(256)))),
  ];
  for (let k = 1 + r.int(5); k > 0; k--) {
    try {
      r.pick(oddities)();
    } catch {
      // already there
    }
  }
  // A corrupt cache now and then.
  if (r.chance(0.1)) {
    try {
      for (const f of readdirSync(join(c.cacheDir, 'rules'))) if (f.endsWith('.snap') && r.chance(0.5)) truncateSync(join(c.cacheDir, 'rules', f), r.int(3000));
    } catch {
      // no cache yet
    }
  }
  // Deletions and creations while the run goes on.
  const churn = setInterval(() => {
    try {
      if (made.length && r.chance(0.5)) unlinkSync(join(root, made.splice(r.int(made.length), 1)[0]));
      else file('late.py', r.pick(PY_SEEDS));
    } catch {
      // gone already
    }
  }, 1);
  try {
    const res = await c.project.runProject([root], {
      cacheDir: c.cacheDir,
      cache: r.chance(0.5),
      jobs: 1,
      followLinks: r.chance(0.5),
      maxFileSize: r.chance(0.2) ? 1000 : undefined,
      config: r.chance(0.8),
    });
    const bad = internal(res.errors);
    if (bad) return { ...out, crash: bad.message };
    const files = res.diagnostics.map((d) => d.file);
    if (files.some((f) => f.includes('/up/') || f.includes('/self/self/'))) return { ...out, crash: 'a directory link was followed into a cycle' };
    return out;
  } catch (e) {
    if (e instanceof c.schema.ConfigError || e?.constructor?.name === 'ConfigError') return out; // a broken raiselint config: exit 2 by design
    return { ...out, crash: `runProject: ${e?.constructor?.name}: ${String(e?.message).slice(0, 200)}` };
  } finally {
    clearInterval(churn);
    rmSync(root, { recursive: true, force: true });
  }
}

/** The pid of a process that has ended (a temporary file named with it is stale). */
let deadPid;
function stalePid() {
  deadPid ??= Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
  return deadPid;
}

let edgeRun = 0;
/**
 * The edges that once went wrong (issue: bounded cost at the edges), so that they stay fixed:
 *  - many statements on one line: each finding's fix reason stays short (it quoted the line: a
 *    string over V8's limit), positions stay on that line, the fix keeps every byte;
 *  - a record with bytes that are not UTF-8: a DatasetError naming the byte offset, never U+FFFD;
 *  - a damaged results cache (a flipped byte): the report is the one of a cold run;
 *  - temporary files a killed --fix left: removed by the next run, other files kept;
 *  - a file over --max-file-size: a raiselint/too-large finding, the others checked.
 */
async function edgesCase(c, r) {
  const out = { kind: 'edges' };
  const which = r.int(5);
  if (which === 0) {
    const n = 50 + r.int(3000);
    const call = () => r.pick(['s = await r.agent_save_state(a)', 'await r.agent_load_state(a, s)', 'x = 1', 'pass', 'print(s)']);
    const src = `from autogen_ext.runtimes.grpc import GrpcWorkerAgentRuntime\nasync def f(a): r = GrpcWorkerAgentRuntime(host_address="x"); ${Array.from({ length: n }, call).join('; ')}\n`;
    const res = c.check.checkBytes(Buffer.from(src), 'one.py', c.ruleSet, { fixStrategy: r.pick([undefined, 'try-except', 'type-guard']) });
    if (internal(res.errors)) return { ...out, crash: internal(res.errors).message };
    for (const d of res.diagnostics) {
      if (d.line !== 2 || d.endLine !== 2) return { ...out, crash: `a finding of line 2 at ${d.line}-${d.endLine}` };
      if ((d.fix?.reason ?? '').length > 400) return { ...out, crash: `a fix reason of ${d.fix.reason.length} characters (it quotes the line)` };
    }
    return { ...pythonCase(c, r, Buffer.from(src)), kind: 'edges' };
  }
  const root = join(c.dir, `edge${edgeRun++}`);
  mkdirSync(root, { recursive: true });
  try {
    if (which === 1) {
      const text = Buffer.from(
        c.baseRecords
          .trim()
          .split('\n')
          .slice(0, 1 + r.int(5))
          .join('\n') + '\n',
      );
      const at = r.int(text.length);
      const bad = Buffer.concat([text.subarray(0, at), Buffer.from([r.pick([0xff, 0xc3, 0xe2, 0x80, 0xed])]), text.subarray(at)]);
      const file = join(root, 'r.jsonl');
      writeFileSync(file, bad);
      try {
        const res = c.records.loadDataset(file);
        if (JSON.stringify(res.records.map((x) => x.record)).includes('\ufffd')) return { ...out, lostBytes: 'invalid UTF-8 became U+FFFD in a record' };
        return { ...out, crash: 'a records file with invalid UTF-8 loaded' };
      } catch (e) {
        if (e instanceof c.records.DatasetError && /invalid UTF-8 at byte offset \d+/.test(e.describe())) return out;
        return { ...out, crash: `invalid UTF-8 in a record: ${String(e?.message).slice(0, 200)}` };
      }
    }
    for (let k = 1 + r.int(4); k > 0; k--) writeFileSync(join(root, `m${k}.py`), r.pick(PY_SEEDS));
    const cacheDir = join(root, '.cache');
    const run = (extra = {}) => c.project.runProject([root], { cacheDir, cache: true, jobs: 1, ...extra });
    const shown = (res) => JSON.stringify(res.diagnostics.map((d) => [d.file, d.line, d.column, d.ruleId, d.message]));
    if (which === 2) {
      const cold = await run({ cache: false });
      await run();
      const buckets = readdirSync(cacheDir).filter((n) => n.startsWith('results-'));
      for (const b of buckets) {
        const p = join(cacheDir, b);
        const bytes = readFileSync(p);
        if (!bytes.length) continue;
        bytes[r.int(bytes.length)] ^= 1 << r.int(8);
        writeFileSync(p, bytes);
      }
      const warm = await run();
      if (shown(warm) !== shown(cold)) return { ...out, crash: 'a damaged results cache changed the report' };
      return out;
    }
    if (which === 3) {
      const stale = `.m1.py.${stalePid()}-${r.int(0xffffffff).toString(16).padStart(8, '0')}.raiselint.tmp`;
      const other = '.m1.py.keep-me.raiselint.tmp';
      writeFileSync(join(root, stale), 'half a file');
      writeFileSync(join(root, other), 'not of our shape');
      await run({ cache: r.chance(0.5) });
      const names = readdirSync(root);
      if (names.includes(stale)) return { ...out, crash: 'a stale temporary file of a dead process survived a run' };
      if (!names.includes(other)) return { ...out, lostBytes: 'a file that is not a stale temporary file was removed' };
      return out;
    }
    writeFileSync(join(root, 'huge.py'), `${r.pick(PY_SEEDS)}\n${'x = 1\n'.repeat(400 + r.int(400))}`);
    const res = await run({ maxFileSize: 2000, cache: false });
    if (internal(res.errors)) return { ...out, crash: internal(res.errors).message };
    const big = res.diagnostics.filter((d) => d.file.endsWith('huge.py'));
    if (big.length !== 1 || big[0].ruleId !== 'raiselint/too-large')
      return { ...out, crash: `a file over --max-file-size gave ${JSON.stringify(big.map((d) => d.ruleId))}` };
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Runs input `i` of `seed`. */
export async function runOne(c, seed, i) {
  const r = rngFor(seed, i);
  const pick = r.next();
  try {
    if (pick < 0.5) return pythonCase(c, r, Buffer.from(pythonSource(r), 'utf8'));
    if (pick < 0.6) return { ...pythonCase(c, r, encodedSource(r)), kind: 'encoding' };
    if (pick < 0.7) return await recordsCase(c, r);
    if (pick < 0.78) return configCase(c, r);
    if (pick < 0.88) return lspCase(c, r);
    if (pick < 0.95) return await fsCase(c, r);
    return await edgesCase(c, r);
  } catch (e) {
    return { kind: 'unknown', crash: `${e?.constructor?.name}: ${String(e?.stack ?? e).slice(0, 400)}` };
  }
}
