/**
 * Who compiles which record when a compile is split between the main thread and a worker
 * (./compilesplit.ts): the records to compile are numbered 0..n-1 in dataset order; the main
 * thread takes them from the front, in order, as it reaches them, and the worker from the back.
 * Both ends live in one 64-bit word changed by compare-and-swap, so no record is taken twice.
 * Beside it: the count of entries the worker has posted (what the main thread waits on) and the
 * worker's state.
 */

/** Bytes of the shared state: the claim word, then two 32-bit words (posted, state). */
export const CLAIM_BYTES = 16;
export const WORKER_RUNNING = 0;
export const WORKER_DONE = 1;
export const WORKER_FAILED = 2;

const LOW = 0xffffffffn;

export class Claims {
  private readonly word: BigInt64Array;
  /** [0]: entries posted by the worker; [1]: its state. */
  readonly signal: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.word = new BigInt64Array(buffer, 0, 1);
    this.signal = new Int32Array(buffer, 8, 2);
  }

  /** A fresh state for `n` records: none taken. */
  static create(n: number): Claims {
    const c = new Claims(new SharedArrayBuffer(CLAIM_BYTES));
    Atomics.store(c.word, 0, BigInt(n));
    return c;
  }

  private ends(): { lo: number; hi: number; s: bigint } {
    const s = Atomics.load(this.word, 0);
    return { lo: Number(s >> 32n), hi: Number(s & LOW), s };
  }

  /**
   * The main thread reaches record `j`: true when it is (now) the main thread's, false when the
   * worker has taken it. Records before `j` not yet taken become the main thread's too.
   */
  takeFront(j: number): boolean {
    for (;;) {
      const { lo, hi, s } = this.ends();
      if (j < lo) return true;
      if (j >= hi) return false;
      const next = (BigInt(j + 1) << 32n) | BigInt(hi);
      if (Atomics.compareExchange(this.word, 0, s, next) === s) return true;
    }
  }

  /** The worker takes the last record not taken; undefined when none is left. */
  takeBack(): number | undefined {
    for (;;) {
      const { lo, hi, s } = this.ends();
      if (lo >= hi) return undefined;
      const next = (BigInt(lo) << 32n) | BigInt(hi - 1);
      if (Atomics.compareExchange(this.word, 0, s, next) === s) return hi - 1;
    }
  }

  /** The worker has posted one more entry (wakes the main thread if it waits). */
  posted(): void {
    Atomics.add(this.signal, 0, 1);
    Atomics.notify(this.signal, 0);
  }

  finish(state: typeof WORKER_DONE | typeof WORKER_FAILED): void {
    Atomics.store(this.signal, 1, state);
    Atomics.add(this.signal, 0, 1);
    Atomics.notify(this.signal, 0);
  }
}
