// The pool of solver worker threads. Solves run here and never on the HTTP thread (glpk.js solve()
// is synchronous). GLPK's own time limit is not a wall-clock bound (it restarts after the root LP),
// so a worker still busy `hardStopGraceMs` after its limit is terminated and replaced by piscina. A
// caller's deadline ends the caller's wait (the solve is answered as time_limit), not the solve.
//
// Admission is ours, not piscina's: a solve is handed to piscina only when a worker that has loaded
// GLPK is free, the rest wait in a bounded FIFO queue here. That tells a waiting solve from a running
// one, which matters four ways: the hard-stop clock starts when the solve really starts (not while a
// replacement worker is still loading); a waiting solve can be dropped (its caller went away) without
// terminating a worker; a solve that waited too long fails as "busy" (503) instead of being reported
// as a solver time limit; and the metrics can say how many solves wait and how many run.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { RecoveryError } from '../src/recovery/model/failure.ts';
import type { SolveOutcome, Solver, SolverStats, SolveTask } from '../src/recovery/model/solver-port.ts';
import { packModel, packedBuffers, packTask, unpackOutcome, type PackedOutcome, type PackedTask } from './packed-model.ts';

export interface SolverPoolOptions {
  /** Worker threads; default: the machine's cores. */
  threads?: number;
  /** Solves that may wait for a worker; beyond it solve() fails at once as busy. Default 16 per thread. */
  maxQueue?: number;
  /**
   * Longest an interactive solve waits for a worker, milliseconds; past it the solve fails as busy. A
   * solve with a later deadline, and a background (job's) solve with a deadline, wait until the
   * deadline and are then answered as time_limit without a plan. Default 15000.
   */
  queueTimeoutMs?: number;
  /**
   * Extra wall-clock time after a solve's limit before its worker is terminated, milliseconds; with a
   * deadline, GLPK's limit ends this much before it (at most a quarter of the time left), and the
   * caller stops waiting at the deadline. Default 500.
   */
  hardStopGraceMs?: number;
  /**
   * Called when a worker fails outside any solve (piscina replaces it). Without a listener piscina's
   * 'error' event would be unhandled and end the process.
   */
  onWorkerError?: (error: Error) => void;
}

/** The worker pool: a Solver (solver-port.ts) whose failures are RecoveryError busy, crashed or aborted. */
export interface SolverPool extends Solver {
  /** Resolves when every worker has loaded and warmed GLPK. */
  ready(): Promise<void>;
  readonly threads: number;
  /** Solves waiting for a worker. */
  readonly queued: number;
  stats(): SolverStats;
  /**
   * FAULT INJECTION FOR TESTS ONLY (test/hardening): the live worker threads, so that a test can
   * terminate one mid-solve the way a crash would. Production code never calls it.
   */
  workerThreadsForTesting(): readonly Worker[];
  /** Refuses new solves, fails the waiting ones as busy, and terminates the workers. */
  close(): Promise<void>;
}

const WORKER_FILE = fileURLToPath(new URL('./worker-entry.mjs', import.meta.url));

interface Waiting {
  task: SolveTask;
  deadline: number | undefined;
  resolve: (outcome: SolveOutcome) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  background: boolean;
}

/**
 * `setTimeout`, its callback deferred to the loop's check phase (`setImmediate`): a loop turn runs its
 * due timers before it reads the workers' messages, so a solve's answer already waiting when its
 * deadline or hard stop came due was lost (the solve answered time_limit, or its worker stopped after
 * answering) whenever the thread was busy past that instant (docs/model.md 3.9, "The flight bound's
 * LP, heard late"). Deferred, the turn reads the answer first; `clearTimeout` still cancels it until
 * it fires, and a callback that runs after its solve has ended does nothing (a settled race, an
 * abort of a finished task).
 */
function afterTimer(callback: () => void, ms: number): NodeJS.Timeout {
  return setTimeout(() => setImmediate(callback), ms);
}

/** The worker threads and the queue's length of a pool with `options` (their defaults: SolverPoolOptions). */
export function poolSize(options: Pick<SolverPoolOptions, 'threads' | 'maxQueue'>): { threads: number; maxQueue: number } {
  const threads = options.threads ?? Math.max(1, availableParallelism());
  return { threads, maxQueue: options.maxQueue ?? threads * 16 };
}

export function createSolverPool(options: SolverPoolOptions = {}): SolverPool {
  const { threads, maxQueue } = poolSize(options);
  const grace = options.hardStopGraceMs ?? 500;
  const queueTimeoutMs = options.queueTimeoutMs ?? 15_000;
  const piscina = new Piscina({
    filename: WORKER_FILE,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  piscina.on('error', (error: Error) => options.onWorkerError?.(error));
  const waiting: Waiting[] = [];
  let running = 0;
  // piscina announces a worker once it has loaded its module (GLPK, warmed up); a replacement for a
  // terminated worker takes a moment, during which one worker fewer takes solves.
  let workersReady = 0;
  piscina.on('workerCreate', () => { workersReady++; dispatch(); });
  piscina.on('workerDestroy', () => { workersReady--; });
  const capacity = () => Math.min(threads, workersReady);
  let closed = false;
  const counters = { completed: 0, rejectedQueueFull: 0, queueTimeouts: 0, hardStops: 0, crashes: 0, aborted: 0 };

  /**
   * Runs on a worker (called only when a ready worker is free). With a `deadline`, the time limit is
   * what is left of it when the solve starts, not when it was asked for (a solve that waited behind
   * others does not run past its caller's budget), less the hard-stop grace (at most a quarter of what
   * is left): GLPK may overrun its limit, and the solve returns by the deadline even when its worker
   * has to be stopped.
   */
  async function run(asked: SolveTask, deadline: number | undefined, signal: AbortSignal | undefined): Promise<SolveOutcome> {
    const untilDeadline = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - performance.now();
    const left = Math.min(asked.timeLimitMs, Math.floor(untilDeadline - Math.min(grace, untilDeadline / 4)));
    if (left < 1) {
      counters.completed++;
      return { status: 'time_limit', objective: null, values: {}, lowerBound: null, solveMs: 0, detail: 'No time was left for this solve when a worker became free.' };
    }
    const task = left === asked.timeLimitMs ? asked : { ...asked, timeLimitMs: left };
    // Packed before the solve counts as running: packing fails only on a programmer error, which must
    // not leave a worker counted busy for ever.
    const packed = packTask(task);
    running++;
    const controller = new AbortController();
    const started = performance.now();
    // The worker is terminated (and replaced) only when GLPK is `grace` past its own limit, as on a
    // solve without a deadline. A caller's deadline ends its wait, not the solve: GLPK stops near its
    // limit, which is before the deadline, and a solve started just before a deadline (the restricted
    // strategies' after an integrated proof: RESTRICTED_AFTER_SHARE in pipeline.ts, 40 ms at 2 s) often
    // overran it by a few milliseconds; terminating it then cost a replacement worker 0.2 s of CPU
    // and 0.5-0.7 s without that worker, under the next request (docs/model.md 3.6, request path).
    const stopTimer = afterTimer(() => controller.abort(), task.timeLimitMs + grace);
    // A caller that gives up (a cancelled job) must not leave its solve running for the rest of a long
    // time limit: its worker is terminated and replaced, as on a hard stop.
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const solving = piscina.run(packed, { signal: controller.signal, transferList: packedBuffers(packed) }) as Promise<PackedOutcome>;
    // The worker takes no other solve until this one has ended, waited for or not.
    const ended = () => {
      clearTimeout(stopTimer);
      signal?.removeEventListener('abort', onAbort);
      running--;
      dispatch();
    };
    solving.then(ended, ended);
    let lateTimer: NodeJS.Timeout | undefined;
    const late = untilDeadline < task.timeLimitMs + grace
      ? new Promise<'late'>((resolve) => { lateTimer = afterTimer(() => resolve('late'), untilDeadline); })
      : null;
    try {
      const outcome = late ? await Promise.race([solving, late]) : await solving;
      counters.completed++;
      if (outcome !== 'late') return unpackOutcome(outcome, task.model);
      // No longer waited for: its caller cannot cancel it any more; the stop timer bounds it.
      signal?.removeEventListener('abort', onAbort);
      counters.hardStops++;
      return {
        status: 'time_limit', objective: null, values: {}, lowerBound: null, solveMs: performance.now() - started,
        detail: `The solve had not ended by its caller's deadline (its limit ${task.timeLimitMs} ms); its answer was not waited for.`,
      };
    } catch (error) {
      if (signal?.aborted) {
        counters.aborted++;
        throw new RecoveryError({ kind: 'aborted', message: 'The solve was cancelled while it ran; its worker was stopped.' });
      }
      if (controller.signal.aborted) {
        counters.hardStops++;
        counters.completed++;
        return {
          status: 'time_limit', objective: null, values: {}, lowerBound: null, solveMs: performance.now() - started,
          detail: `The solve overran its ${task.timeLimitMs} ms limit and its worker was stopped.`,
        };
      }
      counters.crashes++;
      throw new RecoveryError({ kind: 'crashed', message: `A solver worker failed: ${(error as Error).message}` });
    } finally {
      clearTimeout(lateTimer);
    }
  }

  function leave(entry: Waiting): void {
    const index = waiting.indexOf(entry);
    if (index >= 0) waiting.splice(index, 1);
    clearTimeout(entry.timer);
    entry.signal?.removeEventListener('abort', entry.onAbort);
  }

  /** Hands waiting solves to free workers, oldest first (the interactive ones before the background ones: `solve`). */
  function dispatch(): void {
    while (!closed && running < capacity() && waiting.length > 0) {
      const entry = waiting[0]!;
      leave(entry);
      run(entry.task, entry.deadline, entry.signal).then(entry.resolve, entry.reject);
    }
  }

  function solve(task: SolveTask, solveOptions: { signal?: AbortSignal; deadline?: number; background?: boolean } = {}): Promise<SolveOutcome> {
    const { signal, deadline, background = false } = solveOptions;
    if (closed) return Promise.reject(new RecoveryError({ kind: 'busy', message: 'The solver pool is shutting down.' }));
    if (signal?.aborted) return Promise.reject(new RecoveryError({ kind: 'aborted', message: 'The solve was cancelled before it started.' }));
    if (running < capacity() && waiting.length === 0) return run(task, deadline, signal);
    if (waiting.length >= maxQueue) {
      counters.rejectedQueueFull++;
      return Promise.reject(new RecoveryError({ kind: 'busy', message: 'All solver workers are busy and the queue is full.' }));
    }
    // A job's solve may wait behind its own simulation's other strategies until its deadline, no
    // longer; the queue timeout bounds the wait of an interactive solve (a longer deadline extends it).
    // A wait that its deadline ends gives the solve no time: a time limit, the value `run` answers when
    // a worker frees just after the deadline, not 'busy', which fails the whole simulation. Only an
    // interactive solve's wait that the queue timeout ends is busy (503, retry). With one solver thread
    // (the jobs' tests) a 20 s job's restricted solves waited from its start until its deadline in every
    // run, and whether the worker freed first or their timers fired first decided between an answer and
    // a failed job (docs/model.md 4.6, "The rounds before the bound round").
    const untilDeadline = deadline === undefined ? null : Math.max(0, deadline - performance.now());
    const outOfTime = untilDeadline !== null && (background || untilDeadline >= queueTimeoutMs);
    const waitMs = outOfTime && untilDeadline !== null ? untilDeadline : queueTimeoutMs;
    return new Promise<SolveOutcome>((resolve, reject) => {
      const entry: Waiting = {
        task, deadline, resolve, reject, signal, background,
        timer: setTimeout(() => {
          leave(entry);
          if (outOfTime) {
            counters.completed++;
            resolve({ status: 'time_limit', objective: null, values: {}, lowerBound: null, solveMs: 0, detail: `No solver worker became free before the caller's deadline (waited ${Math.round(waitMs)} ms).` });
          } else {
            counters.queueTimeouts++;
            reject(new RecoveryError({ kind: 'busy', message: `No solver worker became free within ${Math.round(waitMs)} ms.` }));
          }
        }, waitMs),
        onAbort: () => {
          leave(entry);
          counters.aborted++;
          reject(new RecoveryError({ kind: 'aborted', message: 'The solve was cancelled while waiting for a worker.' }));
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      // An interactive solve (a POST /simulate) waits only behind other interactive ones: a job's
      // solves, which may take minutes of the pool, let it pass (issue 24: the interactive path first).
      const firstBackground = background ? -1 : waiting.findIndex((w) => w.background);
      if (firstBackground < 0) waiting.push(entry);
      else waiting.splice(firstBackground, 0, entry);
    });
  }

  const tiny: PackedTask = {
    model: packModel({ name: 'ready', variables: [{ name: 'x', kind: 'binary', lb: 0, ub: 1, cost: 1 }], constraints: [{ name: 'r', terms: [{ variable: 'x', coef: 1 }], sense: '>=', rhs: 1 }] }),
    timeLimitMs: 5000, mipGap: 0,
  };

  return {
    solve,
    ready: async () => { await Promise.all(Array.from({ length: threads }, () => piscina.run(tiny))); },
    threads,
    get queued() { return waiting.length; },
    stats: () => ({ threads, workersReady, running, queued: waiting.length, maxQueue, ...counters }),
    workerThreadsForTesting: () => piscina.threads,
    close: async () => {
      closed = true;
      for (const entry of [...waiting]) {
        leave(entry);
        entry.reject(new RecoveryError({ kind: 'busy', message: 'The solver pool is shutting down.' }));
      }
      await piscina.destroy();
    },
  };
}
