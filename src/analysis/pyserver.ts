/**
 * One interpreter for the literal runs of a thread (./probe.ts), kept for the run: starting Python
 * and importing the runner's modules costs ~60 ms, and a cold run over the standard library ran it
 * for some 70 files (4-5 s of a 22 s run). The check is synchronous, the interpreter is not: a
 * small worker thread owns the child process, and the caller waits for its answer on a shared flag
 * (Atomics.wait, with the batch's time limit), then takes it from the port. An interpreter that
 * does not answer in time is killed; the next batch starts another. When the process exits, the
 * interpreter's input closes and it ends.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/** The worker's code (evaluated; a script or a module alike): lines in, lines out; `dead` when the interpreter cannot serve. */
const WORKER = `
Promise.all([import('node:worker_threads'), import('node:child_process')]).then(([{ workerData }, { spawn }]) => {
  const { executable, args, port, flag } = workerData;
  const ready = new Int32Array(flag);
  const answer = (m) => {
    port.postMessage(m);
    Atomics.store(ready, 0, 1);
    Atomics.notify(ready, 0);
  };
  let child;
  try {
    child = spawn(executable, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  } catch {
    return answer({ dead: true });
  }
  // Its pid, for the caller to kill it when it does not answer in time.
  if (child.pid) Atomics.store(ready, 1, child.pid);
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buffered += d;
    for (let nl = buffered.indexOf('\\n'); nl >= 0; nl = buffered.indexOf('\\n')) {
      answer({ line: buffered.slice(0, nl) });
      buffered = buffered.slice(nl + 1);
    }
  });
  child.on('error', () => answer({ dead: true }));
  child.on('exit', () => answer({ dead: true }));
  child.stdin.on('error', () => {});
  port.on('message', (line) => child.stdin.write(line + '\\n'));
});
`;

interface Answer {
  line?: string;
  dead?: true;
}

class Server {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** [0]: an answer is ready; [1]: the interpreter's pid. */
  private readonly ready = new Int32Array(new SharedArrayBuffer(8));
  dead = false;

  constructor(executable: string, args: string[]) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: { executable, args, port: port2, flag: this.ready.buffer },
      transferList: [port2],
      // Not the process's flags (`--input-type`, `--cpu-prof`): the thread is plain.
      execArgv: [],
    });
    // A thread that fails has no answer: the batch waits out its time and is decided by nothing.
    this.worker.on('error', () => undefined);
    // Neither the thread nor the interpreter keeps the process alive.
    this.worker.unref();
    this.port.unref();
  }

  /** The interpreter's answer to one line, or undefined (it died, or did not answer within `timeoutMs`). */
  ask(line: string, timeoutMs: number): string | undefined {
    // An answer left from before (the interpreter's exit) is read first.
    if (this.drain()) return undefined;
    Atomics.store(this.ready, 0, 0);
    this.port.postMessage(line);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(this.ready, 0, 0, left) === 'timed-out') {
        this.close();
        return undefined;
      }
      const m = receiveMessageOnPort(this.port)?.message as Answer | undefined;
      if (m?.line !== undefined) return m.line;
      if (m?.dead) {
        this.close();
        return undefined;
      }
      // Woken before the message could be read: wait again.
      Atomics.store(this.ready, 0, 0);
    }
  }

  /** Reads what is queued: true when the interpreter is gone. */
  private drain(): boolean {
    for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) if ((m.message as Answer).dead) this.close();
    return this.dead;
  }

  close(): void {
    if (this.dead) return;
    this.dead = true;
    this.port.close();
    // An interpreter that did not answer may be busy: killed, not only left without input.
    const pid = Atomics.load(this.ready, 1);
    if (pid)
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    void this.worker.terminate();
  }
}

const servers = new Map<string, Server>();

/** One line of `executable args` (a script that answers each input line with one line), from the thread's interpreter; undefined when it cannot answer. */
export function askPython(executable: string, args: string[], line: string, timeoutMs: number): string | undefined {
  const key = JSON.stringify([executable, args]);
  let s = servers.get(key);
  if (!s || s.dead) servers.set(key, (s = new Server(executable, args)));
  return s.ask(line, timeoutMs);
}
