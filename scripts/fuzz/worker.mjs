// The fuzz worker thread: runs inputs [from, to) of a seed and reports each (see scripts/fuzz.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import { runOne, setup } from './cases.mjs';

const { seed, from, to, dir } = workerData;
const c = await setup(dir);
for (let i = from; i < to; i++) {
  parentPort.postMessage({ start: i });
  const o = await runOne(c, seed, i);
  parentPort.postMessage({ done: i, o });
}
parentPort.postMessage({ end: true });
