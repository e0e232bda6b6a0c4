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
import { compileFresh, type RecordCache } from '../rules/compile/cached.js';
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

/** What the worker posts per record: its index and cache entry (null: none, the main thread compiles it). */
export interface CompiledEntry {
  i: number;
  v: string | null;
}

/** The cache entry a fresh compile of `lr` writes (undefined when the compile cannot be replayed). */
export function entryOf(lr: LoadedRecord, patterns: boolean, salt: string): string | undefined {
  let entry: string | undefined;
  const sink: RecordCache = { salt, get: () => undefined, put: (_k, v) => void (entry = v) };
  compileFresh(lr, new ExceptionHierarchy(), new ClassRegistry(), patterns, sink);
  return entry;
}

export async function runCompile(data: CompileThreadData): Promise<void> {
  const claims = new Claims(data.claims);
  try {
    await initParser();
    for (let i = claims.takeBack(); i !== undefined; i = claims.takeBack()) {
      data.port.postMessage({ i, v: entryOf(data.records[i]!, data.patterns, data.salt) ?? null } satisfies CompiledEntry);
      claims.posted();
    }
    claims.finish(WORKER_DONE);
  } catch {
    claims.finish(WORKER_FAILED);
  } finally {
    data.port.close();
  }
}

/**
 * An early worker (./compileworker.ts): the parser loads while it waits for its records; a
 * parser that fails to load is the worker's failure, reported through the claims before it takes
 * any record.
 */
export async function waitCompile(): Promise<void> {
  const ready = initParser().then(
    () => true,
    () => false,
  );
  const data = await new Promise<CompileThreadData>((resolve) => parentPort!.once('message', resolve));
  if (await ready) return runCompile(data);
  new Claims(data.claims).finish(WORKER_FAILED);
  data.port.close();
}
