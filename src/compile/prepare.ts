/**
 * Rules for a batch run, through the compiled-rules snapshot (src/compile/snapshot.ts).
 *
 * The snapshot key is a hash of raiselint's code and of every dataset and curated file (path and
 * content, in load order). Content hashes of those files are remembered with their stat
 * signatures (`rules/inputs.json` in the cache directory), so an unchanged 30 MB dataset is not
 * even read. When no snapshot matches, the rules are compiled (loadRules) and the snapshot is
 * written; if it cannot be written it is kept in memory and shared with the workers.
 */
import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../io/atomic.js';
import { pruneFiles } from '../io/prune.js';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { hashParts, sameSig, sha256, statSig, trustedSig, type StatSig } from '../io/fingerprint.js';
import { encodeSnapshot, joinPieces, Snapshot, writeSnapshot } from './snapshot.js';
import { ensureCacheDir } from '../io/cachedir.js';
import { codeId } from './codeid.js';
import { nodeModulesFingerprint } from '../records/groundjs.js';
import { envFingerprint, pythonEnv } from '../workspace/pyenv.js';
import { ruleInputs, type RuleOptions } from './inputs.js';

export interface PreparedRules {
  key: string;
  /** The snapshot, opened in this thread. */
  snapshot: Snapshot;
  /** Where workers open it... */
  path?: string;
  /** ...or its bytes, when it could not be written. */
  bytes?: SharedArrayBuffer;
  /** Milliseconds spent compiling (0 when a snapshot was reused). */
  compileMs: number;
}

const MAX_SNAPSHOTS = 4;

interface InputIndex {
  [abs: string]: { s: StatSig; h: string };
}

function loadIndex(path: string): InputIndex {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return v && typeof v === 'object' ? (v as InputIndex) : {};
  } catch {
    return {};
  }
}

/** Content hash of a rule input, without reading it when its trusted signature is known. */
function inputHash(abs: string, index: InputIndex, now: number): { hash: string; changed: boolean } {
  const st = statSync(abs);
  const known = index[abs];
  if (known && sameSig(known.s, statSig(st))) return { hash: known.h, changed: false };
  const hash = sha256(readFileSync(abs));
  const sig = trustedSig(st, now);
  if (sig) index[abs] = { s: sig, h: hash };
  else delete index[abs];
  return { hash, changed: true };
}

export async function prepareRules(opts: RuleOptions, cacheDir: string): Promise<PreparedRules> {
  const { records, curated } = ruleInputs(opts);
  const dir = join(cacheDir, 'rules');
  const indexPath = join(dir, 'inputs.json');
  const index = loadIndex(indexPath);
  const now = Date.now();
  let changed = false;
  const parts: string[] = [codeId()];
  for (const [kind, list] of [
    ['records', records],
    ['curated', curated],
  ] as const) {
    for (const f of list) {
      const abs = resolve(f);
      const r = inputHash(abs, index, now);
      changed ||= r.changed;
      parts.push(kind, abs, r.hash);
    }
  }
  // The environment whose installed libraries ground the records (src/workspace/pyenv.ts): an install or upgrade makes a new snapshot.
  parts.push('python', envFingerprint(pythonEnv(opts.python, cacheDir, opts.projectDir)));
  // The npm packages that ground the JS/TS records (src/records/groundjs.ts): an `npm install` makes a new snapshot.
  parts.push('node_modules', nodeModulesFingerprint(opts.projectDir ?? process.cwd()));
  const key = hashParts(parts);
  const path = join(dir, `${key.slice(0, 32)}.snap`);
  if (changed) writeIndex(cacheDir, indexPath, index);

  const found = Snapshot.open(path, key);
  if (found) return { key, snapshot: found, path, compileMs: 0 };

  const t0 = performance.now();
  const { loadRules } = await import('./load.js');
  const { prefilterSpec } = await import('../prefilter/index.js');
  // A compile allocates much that dies soon (each record's snippets, parsed and walked): V8 would let
  // the heap grow to a multiple of what lives before collecting it. Growing it by 20% at a time
  // keeps 20,000 records under 400 MB (456 MB with V8's default), at no measured cost in time; the
  // default comes back for the check that follows.
  setFlagsFromString('--heap-growing-percent=20');
  try {
    const rules = await loadRules(opts, cacheDir);
    const pieces = encodeSnapshot(rules, prefilterSpec(rules), key);
    const compileMs = performance.now() - t0;
    try {
      ensureCacheDir(cacheDir);
      writeSnapshot(path, pieces);
      pruneFiles(dir, /\.snap$/, path, MAX_SNAPSHOTS);
      const snap = Snapshot.open(path, key);
      if (snap) return { key, snapshot: snap, path, compileMs };
    } catch {
      // not writable: keep it in memory
    }
    const shared = joinPieces(pieces);
    return { key, snapshot: Snapshot.fromBytes(new Uint8Array(shared)), bytes: shared, compileMs };
  } finally {
    setFlagsFromString('--heap-growing-percent=0');
  }
}

function writeIndex(cacheDir: string, path: string, index: InputIndex): void {
  try {
    ensureCacheDir(cacheDir);
    writeFileAtomic(path, JSON.stringify(index), { mkdir: true });
  } catch {
    // the index is an optimisation
  }
}
