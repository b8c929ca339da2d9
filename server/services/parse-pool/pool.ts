import { Worker } from 'node:worker_threads';
import { DEFAULT_PARSE_LIMITS, type ParsePoolLimits } from './limits.js';
import { ParseRefused } from './refusal.js';
import type { TaskInput, TaskName, TaskOutput } from './tasks.js';

// Every parse of input a stranger controls (a fetched page, an uploaded copy, a bookmark export)
// runs here, in worker threads, so the request thread keeps answering whatever a page costs. A
// task runs under a time limit and a heap limit, and is cancelled when its caller goes away: its
// worker is ended, so the work really stops, and a fresh one is started when next needed.
//
// Fairness: waiting tasks are kept per user and started round-robin across users (the user served
// longest ago goes next), and one user holds at most `perUser` workers, so however much one person
// sends, somebody else's task waits for at most one running task rather than for the whole queue.

export interface RunOptions {
  /** aborting it drops a waiting task and ends a running one (ParseRefused 'cancelled') */
  signal?: AbortSignal;
  /** buffers moved into the worker rather than copied (the caller must not use them again) */
  transfer?: ArrayBuffer[];
}

/** Who a task is charged to: a user id, or a name for work no user asked for. */
type Owner = number | string;

interface Task {
  owner: Owner;
  name: TaskName;
  input: unknown;
  transfer: ArrayBuffer[];
  signal?: AbortSignal;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** set once a worker has it */
  slot?: Slot;
  detach(): void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  idleTimer?: NodeJS.Timeout;
  task?: Task;
  /** set when the pool ended this worker on purpose (time limit, cancel, close) */
  ended?: boolean;
}

interface WorkerAnswer {
  ok: boolean;
  value?: unknown;
  refusal?: { code: ParseRefused['code']; message: string };
  message?: string;
  stack?: string;
  heapUsed: number;
}

/** How tasks ended: done, failed (a fault in the task), or refused for one of RefusalCode's reasons. */
type Outcome = 'done' | 'failed' | ParseRefused['code'];

export interface ParsePoolStats {
  workers: number;
  /** workers started since the pool started */
  workersStarted: number;
  running: number;
  waiting: number;
  /** tasks ended since the pool started, by how they ended */
  ended: Partial<Record<Outcome, number>>;
}

export class ParsePool {
  readonly limits: ParsePoolLimits;
  /** waiting tasks per owner */
  private readonly waiting = new Map<Owner, Task[]>();
  /** when each owner with work was last given a worker (a serial number): the longest unserved goes next */
  private readonly lastServed = new Map<Owner, number>();
  private serial = 0;
  private readonly runningBy = new Map<Owner, number>();
  private readonly slots = new Set<Slot>();
  private readonly idle: Slot[] = [];
  private closed = false;
  private workersStarted = 0;
  /** the last worker started ended before it was ready */
  private startFailed = false;
  private readonly ended: Partial<Record<Outcome, number>> = {};

  constructor(limits: Partial<ParsePoolLimits> = {}) {
    this.limits = { ...DEFAULT_PARSE_LIMITS, ...limits, timeoutMs: { ...DEFAULT_PARSE_LIMITS.timeoutMs, ...limits.timeoutMs } };
  }

  /**
   * Runs `task` on `input` in a worker, charged to `owner` (the user whose request or job it is).
   * Rejects with ParseRefused when the input is refused (too deep), the task runs out of time or
   * memory, the signal aborts, or the pool closes; with an Error for a fault in the task itself.
   */
  run<K extends TaskName>(owner: Owner, name: K, input: TaskInput<K>, options: RunOptions = {}): Promise<TaskOutput<K>> {
    if (this.closed) return Promise.reject(new ParseRefused('closed', 'The server is shutting down. Try again in a moment.'));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(cancelled());
    return new Promise((resolve, reject) => {
      const onAbort = () => this.cancel(task);
      const task: Task = {
        owner,
        name,
        input,
        transfer: options.transfer ?? [],
        signal,
        resolve: resolve as (value: unknown) => void,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = this.waiting.get(owner);
      if (queue) queue.push(task);
      else this.waiting.set(owner, [task]);
      this.pump();
    });
  }

  stats(): ParsePoolStats {
    let waiting = 0;
    for (const queue of this.waiting.values()) waiting += queue.length;
    let running = 0;
    for (const slot of this.slots) if (slot.task) running++;
    return { workers: this.slots.size, workersStarted: this.workersStarted, running, waiting, ended: { ...this.ended } };
  }

  /** Ends every worker; waiting and running tasks are refused as 'closed'. */
  async close(): Promise<void> {
    this.closed = true;
    const refusal = () => new ParseRefused('closed', 'The server is shutting down. Try again in a moment.');
    for (const queue of this.waiting.values()) for (const task of queue) this.settle(task, refusal());
    this.waiting.clear();
    await Promise.all([...this.slots].map((slot) => this.end(slot, slot.task ? refusal() : undefined)));
  }

  /** Starts waiting tasks while there are workers to run them. */
  private pump(): void {
    while (!this.closed && (this.idle.length > 0 || this.slots.size < this.limits.workers)) {
      const task = this.next();
      if (!task) break;
      const slot = this.idle.pop() ?? this.spawn();
      void this.start(slot, task);
    }
    this.keepSpare();
  }

  /**
   * Once the pool is in use, one worker is kept ready beside the busy ones (within the limit): while
   * one user's long parse runs, or after a worker was ended at its limit, the next person's parse
   * starts at once instead of waiting about a second for a worker to load its parsers. Not while
   * workers fail to start, which would only start more.
   */
  private keepSpare(): void {
    if (this.closed || this.serial === 0 || this.startFailed || this.idle.length > 0 || this.slots.size >= this.limits.workers) return;
    this.park(this.spawn());
  }

  /**
   * Round-robin: of the owners under their share, the one served longest ago (a newcomer first),
   * and their oldest task.
   */
  private next(): Task | undefined {
    let chosen: Owner | undefined;
    let chosenServed = Infinity;
    for (const owner of this.waiting.keys()) {
      if ((this.runningBy.get(owner) ?? 0) >= this.limits.perUser) continue;
      const served = this.lastServed.get(owner) ?? 0;
      if (served < chosenServed) {
        chosen = owner;
        chosenServed = served;
      }
    }
    if (chosen === undefined) return undefined;
    const queue = this.waiting.get(chosen)!;
    const task = queue.shift()!;
    if (!queue.length) this.waiting.delete(chosen);
    this.runningBy.set(chosen, (this.runningBy.get(chosen) ?? 0) + 1);
    this.lastServed.set(chosen, ++this.serial);
    return task;
  }

  private spawn(): Slot {
    this.workersStarted++;
    const worker = new Worker(new URL('./worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb },
    });
    let started = false;
    const slot: Slot = {
      worker,
      ready: new Promise<void>((resolve) => {
        const onReady = (message: { ready?: boolean }) => {
          if (!message.ready) return;
          worker.off('message', onReady);
          started = true;
          this.startFailed = false;
          resolve();
        };
        worker.on('message', onReady);
        // A worker that fails to start ends; the task given to it is refused by onExit below.
        worker.once('exit', () => {
          if (!started && !slot.ended) this.startFailed = true;
          resolve();
        });
      }),
    };
    worker.on('message', (answer: WorkerAnswer & { ready?: boolean }) => {
      if (!answer.ready) this.answered(slot, answer);
    });
    worker.on('error', (error: Error & { code?: string }) => this.failed(slot, error));
    worker.on('exit', () => this.exited(slot));
    this.slots.add(slot);
    return slot;
  }

  private async start(slot: Slot, task: Task): Promise<void> {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    slot.task = task;
    task.slot = slot;
    slot.worker.ref();
    await slot.ready;
    if (slot.task !== task || slot.ended) return;
    // The clock starts when the worker can start: loading the parsers is not the page's cost.
    const limit = this.limits.timeoutMs[task.name];
    slot.idleTimer = setTimeout(() => {
      void this.end(slot, new ParseRefused('too_slow', `Reading this ${what(task.name)} took longer than ${seconds(limit)}, the limit for one ${what(task.name)}.`));
    }, limit);
    try {
      slot.worker.postMessage({ task: task.name, input: task.input }, task.transfer);
    } catch (error) {
      // An input that cannot be sent (a function, a closed buffer) is the caller's fault.
      this.finish(slot, task, error as Error);
      this.release(slot, 0);
    }
  }

  private answered(slot: Slot, answer: WorkerAnswer): void {
    const task = slot.task;
    if (!task) return;
    if (answer.ok) this.finish(slot, task, undefined, answer.value);
    else if (answer.refusal) this.finish(slot, task, new ParseRefused(answer.refusal.code, answer.refusal.message));
    else {
      const error = new Error(`parse task ${task.name} failed in its worker: ${answer.message}`);
      if (answer.stack) error.stack = `${error.message}\n(in the worker) ${answer.stack}`;
      this.finish(slot, task, error);
    }
    this.release(slot, answer.heapUsed);
  }

  /** The worker died (out of memory, a crash): its task fails, and it is replaced when next needed. */
  private failed(slot: Slot, error: Error & { code?: string }): void {
    const task = slot.task;
    if (!task) return;
    const refusal =
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new ParseRefused('too_much_memory', `This ${what(task.name)} needs more memory to read than the ${this.limits.heapMb} MB one ${what(task.name)} may use.`)
        : error;
    this.finish(slot, task, refusal);
  }

  private exited(slot: Slot): void {
    if (slot.task) this.finish(slot, slot.task, new Error(`the parse worker stopped before answering (task ${slot.task.name})`));
    this.forget(slot);
    this.pump();
  }

  private cancel(task: Task): void {
    if (task.slot) {
      void this.end(task.slot, cancelled());
      return;
    }
    const queue = this.waiting.get(task.owner);
    const at = queue?.indexOf(task) ?? -1;
    if (at < 0) return;
    queue!.splice(at, 1);
    if (!queue!.length) this.waiting.delete(task.owner);
    this.settle(task, cancelled());
  }

  /** Ends a worker on purpose, refusing its task with `reason`. */
  private async end(slot: Slot, reason?: Error): Promise<void> {
    if (slot.task && reason) this.finish(slot, slot.task, reason);
    slot.ended = true;
    this.forget(slot);
    await slot.worker.terminate();
    this.pump();
  }

  /** Settles the task a worker was running and gives its owner's share back. */
  private finish(slot: Slot, task: Task, error?: Error, value?: unknown): void {
    if (slot.task !== task) return;
    slot.task = undefined;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    const running = (this.runningBy.get(task.owner) ?? 1) - 1;
    if (running > 0) this.runningBy.set(task.owner, running);
    else this.runningBy.delete(task.owner);
    // An owner with nothing running or waiting is forgotten, and comes back as a newcomer.
    if (running <= 0 && !this.waiting.has(task.owner)) this.lastServed.delete(task.owner);
    this.settle(task, error, value);
  }

  private settle(task: Task, error?: Error, value?: unknown): void {
    task.detach();
    const outcome: Outcome = error instanceof ParseRefused ? error.code : error ? 'failed' : 'done';
    this.ended[outcome] = (this.ended[outcome] ?? 0) + 1;
    if (error) task.reject(error);
    else task.resolve(value);
  }

  /** A worker back from a task: kept for the next one unless its heap grew large, then more work is started. */
  private release(slot: Slot, heapUsed: number): void {
    if (slot.ended) return;
    if (heapUsed > this.limits.retireHeapMb * 1024 * 1024) {
      void this.end(slot);
      return;
    }
    this.park(slot);
    this.pump();
  }

  /** Puts a worker among the idle ones, ready for the next task. */
  private park(slot: Slot): void {
    slot.worker.unref();
    // One idle worker stays for good (it keeps no process alive): starting one costs about a second
    // of loading the parsers, which the next page read should not wait for, nor somebody else's
    // while one user's long parse holds the other worker. Extra idle ones end.
    const retireWhenIdle = () => {
      if (this.idle.length > 1) void this.end(slot);
      else slot.idleTimer = setTimeout(retireWhenIdle, this.limits.idleMs).unref();
    };
    slot.idleTimer = setTimeout(retireWhenIdle, this.limits.idleMs);
    slot.idleTimer.unref();
    this.idle.push(slot);
  }

  private forget(slot: Slot): void {
    this.slots.delete(slot);
    const at = this.idle.indexOf(slot);
    if (at >= 0) this.idle.splice(at, 1);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
  }
}

function cancelled(): ParseRefused {
  return new ParseRefused('cancelled', 'The request was cancelled before its page or file was read.');
}

function what(name: TaskName): string {
  return name === 'import-convert' ? 'file' : 'page';
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
