/**
 * The worker's half of a split compile (./compilesplit.ts): it takes records from the back of
 * the list (./compileclaim.ts) and compiles each on its own (a fresh exception hierarchy and class
 * registry), as the per-record cache would have it (../rules/compile/cached.ts). Each entry is
 * posted as it is made; the main thread replays it only where every answer it read still holds.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { initParser } from '../parse/parser.js';
import type { LoadedRecord } from '../records/types.js';
import { ClassRegistry } from '../rules/classes.js';
import { compileFresh, recordKey, type RecordCache } from '../rules/compile/cached.js';
import { loadDataset } from '../records/load.js';
import { ExceptionHierarchy } from '../rules/exceptions.js';
import { Claims, WORKER_DONE, WORKER_FAILED } from './compileclaim.js';

export interface CompileThreadData {
  kind: 'compile';
  records: LoadedRecord[];
  /** Read fix patterns as the rule set does (MAX_RULES_WITH_PATTERNS). */
  patterns: boolean;
  salt: string;
  claims: SharedArrayBuffer;
  port: MessagePort;
}

/** An early worker's records: those of the dataset files it was started with (./compileworker.ts). */
export interface CompileOwnData {
  kind: 'compile-own';
  patterns: boolean;
  claims: SharedArrayBuffer;
  port: MessagePort;
}

/** What an early worker is started with: the compiler's identity, and the dataset files when it is to read its own copy. */
export interface CompileWaitData {
  kind: 'compile-wait';
  files?: string[];
  salt: string;
}

/**
 * What the worker posts per record: its index and cache entry (null: none, the main thread
 * compiles it); from its own records, their key too.
 */
export interface CompiledEntry {
  i: number;
  v: string | null;
  k?: string;
}

/** The cache entry a fresh compile of `lr` writes (undefined when the compile cannot be replayed). */
export function entryOf(lr: LoadedRecord, patterns: boolean, salt: string): string | undefined {
  let entry: string | undefined;
  const sink: RecordCache = { salt, get: () => undefined, put: (_k, v) => void (entry = v) };
  compileFresh(lr, new ExceptionHierarchy(), new ClassRegistry(), patterns, sink);
  return entry;
}

export async function runCompile(data: CompileThreadData, keyOf?: (lr: LoadedRecord) => string): Promise<void> {
  const claims = new Claims(data.claims);
  try {
    await initParser();
    for (let i = claims.takeBack(); i !== undefined; i = claims.takeBack()) {
      const lr = data.records[i];
      const v = lr ? (entryOf(lr, data.patterns, data.salt) ?? null) : null;
      data.port.postMessage({ i, v, ...(keyOf ? { k: lr ? keyOf(lr) : '' } : {}) } satisfies CompiledEntry);
      claims.posted();
    }
    claims.finish(WORKER_DONE);
  } catch {
    claims.finish(WORKER_FAILED);
  } finally {
    data.port.close();
  }
}

/** The early worker's own copy of the records, read from the dataset files as the main thread reads them (none without files). */
async function ownRecords(wait: CompileWaitData): Promise<LoadedRecord[] | undefined> {
  try {
    // The grammar compiles in the background while the datasets are read.
    const parser = initParser();
    const records: LoadedRecord[] = [];
    for (const f of wait.files ?? []) for (const lr of loadDataset(f).records) records.push(lr);
    await parser;
    return wait.files ? records : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An early worker (./compileworker.ts): the parser loads, and the datasets are read, while it
 * waits to be told what to compile: the records it is sent, or (`compile-own`, every record of
 * the datasets to compile) its own copy of them, each entry posted with its record's key so that
 * the main thread uses it only for the same record. A worker that cannot get ready reports its
 * failure through the claims before it takes any record.
 */
export async function waitCompile(wait: CompileWaitData): Promise<void> {
  const ready = ownRecords(wait);
  const data = await new Promise<CompileThreadData | CompileOwnData>((resolve) => parentPort!.once('message', resolve));
  const own = await ready;
  // Sent its records: runCompile loads the parser (again, if it failed to: then it reports the failure).
  if (data.kind === 'compile') return runCompile(data);
  if (own) return runCompile({ kind: 'compile', records: own, patterns: data.patterns, salt: wait.salt, claims: data.claims, port: data.port }, (lr) => recordKey(wait.salt, lr));
  new Claims(data.claims).finish(WORKER_FAILED);
  data.port.close();
}
