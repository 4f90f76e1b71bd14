// The pool of solver worker threads. Solves run here and never on the HTTP thread (glpk.js solve()
// is synchronous). GLPK's own time limit is not a wall-clock bound (it restarts after the root LP),
// so a worker still busy `hardStopGraceMs` after its limit is terminated and replaced by piscina.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { SolveOutcome, SolveTask } from './protocol.ts';

export interface SolverPoolOptions {
  /** Worker threads; default: the machine's cores. */
  threads?: number;
  /** Solves that may wait for a worker; beyond it solve() fails at once with SolverBusyError. */
  maxQueue?: number;
  /** Extra wall-clock time after a solve's limit before its worker is terminated, milliseconds. */
  hardStopGraceMs?: number;
}

/** Thrown when the queue is full: an operational limit, answered with 503 and Retry-After. */
export class SolverBusyError extends Error {}
/** Thrown when a worker died for another reason than our hard stop (it is replaced). */
export class SolverCrashError extends Error {}

export interface SolverPool {
  solve(task: SolveTask): Promise<SolveOutcome>;
  /** Resolves when every worker has loaded and warmed GLPK. */
  ready(): Promise<void>;
  readonly threads: number;
  readonly queued: number;
  close(): Promise<void>;
}

const WORKER_FILE = fileURLToPath(new URL('./worker-entry.mjs', import.meta.url));

export function createSolverPool(options: SolverPoolOptions = {}): SolverPool {
  const threads = options.threads ?? Math.max(1, availableParallelism());
  const grace = options.hardStopGraceMs ?? 500;
  const piscina = new Piscina({
    filename: WORKER_FILE,
    minThreads: threads,
    maxThreads: threads,
    maxQueue: options.maxQueue ?? threads * 16,
    idleTimeout: Number.POSITIVE_INFINITY,
  });

  async function solve(task: SolveTask): Promise<SolveOutcome> {
    if (piscina.queueSize >= piscina.options.maxQueue) throw new SolverBusyError('All solver workers are busy and the queue is full.');
    const controller = new AbortController();
    const started = performance.now();
    const timer = setTimeout(() => controller.abort(), task.timeLimitMs + grace);
    try {
      return (await piscina.run(task, { signal: controller.signal })) as SolveOutcome;
    } catch (error) {
      if (controller.signal.aborted) {
        return {
          status: 'time_limit', objective: null, values: {}, lowerBound: null, solveMs: performance.now() - started,
          detail: `The solve overran its ${task.timeLimitMs} ms limit and its worker was stopped.`,
        };
      }
      if ((error as Error).message?.includes('queue is at limit')) throw new SolverBusyError('All solver workers are busy and the queue is full.');
      throw new SolverCrashError(`A solver worker failed: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  const tiny: SolveTask = {
    model: { name: 'ready', variables: [{ name: 'x', kind: 'binary', lb: 0, ub: 1, cost: 1 }], constraints: [{ name: 'r', terms: [{ variable: 'x', coef: 1 }], sense: '>=', rhs: 1 }] },
    timeLimitMs: 5000, mipGap: 0,
  };

  return {
    solve,
    ready: async () => { await Promise.all(Array.from({ length: threads }, () => piscina.run(tiny))); },
    threads,
    get queued() { return piscina.queueSize; },
    close: () => piscina.destroy(),
  };
}
