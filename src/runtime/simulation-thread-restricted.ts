// The restricted thread: a worker thread of the simulation thread (simulation-thread-worker.ts) that
// solves a single delay's cancellation and delay propagation strategies (recovery/pipeline.ts,
// SolveElsewhere) while the simulation thread solves the integrated and swap strategies.
//
// Why: all of a simulation's strategies on one thread share its JavaScript, and on a slow single
// delay the integrated proof (the answer's critical path) waited for the restricted strategies'
// pricing and model building between its own GLPK solves: with a 30 s limit (nothing cut), the eight
// slowest single delays of `--against` twice each, the simulation thread's CPU until the integrated
// solve was done summed 4,060 ms with every strategy on it and 3,370 ms with the integrated one alone
// (docs/model.md 3.6, request path, seventh round). On two cores the integrated proof and its GLPK
// solves then have one core, the restricted strategies and theirs the other.
//
// It has its own solver pool of one GLPK worker (RESTRICTED_SOLVER_THREADS): a restricted strategy's
// solves are small, and the integrated strategy's solves never wait behind them in one queue.
// Plain data crosses: the request, its budget (BudgetData), a cut instant (epoch milliseconds), the
// options read there (RecoveryOption, a few kilobytes).
import { Worker } from 'node:worker_threads';
import type { Budget, BudgetData } from '../recovery/model/budget.ts';
import { RecoveryError, type RecoveryFailure } from '../recovery/model/failure.ts';
import type { ReadOptions, RestrictedSolves, SimulationRequest } from '../recovery/pipeline.ts';
import { poolSize } from '../../solver-wasm/pool.ts';
import { SIMULATION_THREAD_HEAP_MB, SIMULATION_THREAD_YOUNG_MB } from './simulation-thread.ts';
import type { ThreadStartData } from './thread-start.ts';

/** The restricted thread's GLPK workers: its strategies' solves are small and one at a time each. */
const RESTRICTED_SOLVER_THREADS = 1;

const ENTRY = new URL('./simulation-thread-restricted-entry.mjs', import.meta.url);

export interface RestrictedThreadData extends ThreadStartData {
  /** The simulation thread's warm-up simulations, whose restricted part it runs before it is ready (its JavaScript is cold until then: warm-up.ts). */
  warmUp: SimulationRequest[];
}

export type ToRestricted =
  | { type: 'run'; id: number; request: SimulationRequest; budget: BudgetData }
  | { type: 'cut'; id: number; atEpochMs: number }
  | { type: 'cancel'; id: number }
  | { type: 'close' };

export type FromRestricted =
  | { type: 'ready' }
  | { type: 'start-failed'; message: string }
  | { type: 'result'; id: number; read: ReadOptions }
  | { type: 'failure'; id: number; failure: RecoveryFailure }
  | { type: 'error'; id: number; message: string }
  | { type: 'worker-error'; message: string };

export interface RestrictedThread {
  /** Solves the request's strategies there, or null while the thread is (re)starting: the caller solves them itself. */
  solve(request: SimulationRequest, budget: Budget): RestrictedSolves | null;
  /**
   * FAULT INJECTION FOR TESTS ONLY (test/hardening): the thread while it is up, so that a test can
   * terminate it mid-simulation the way a crash would. Production code never calls it.
   */
  threadForTesting(): Worker | null;
  close(): Promise<void>;
}

interface Pending { resolve: (read: ReadOptions) => void; reject: (error: Error) => void }

/**
 * Starts the restricted thread; resolves when it is ready (its warm-up simulations run). A thread that stops fails what it was
 * solving (RecoveryError 'crashed') and is started again; until it is ready, `solve` says null.
 */
export async function startRestrictedThread(data: RestrictedThreadData, onError: (error: Error) => void): Promise<RestrictedThread> {
  // Its queue as long as the simulation thread's pool's: admission counts there, and each simulation
  // it admits puts at most one solve per restricted strategy here at a time, so this queue does not
  // refuse what that one took.
  const threadData: RestrictedThreadData = { ...data, pool: { ...data.pool, threads: RESTRICTED_SOLVER_THREADS, maxQueue: poolSize(data.pool).maxQueue } };
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let worker: Worker | null = null;
  let closing = false;

  function spawn(): Promise<void> {
    const current = new Worker(ENTRY, { workerData: threadData, resourceLimits: { maxOldGenerationSizeMb: SIMULATION_THREAD_HEAP_MB, maxYoungGenerationSizeMb: SIMULATION_THREAD_YOUNG_MB } });
    return new Promise<void>((resolve, reject) => {
      let started = false;
      current.on('message', (message: FromRestricted) => {
        switch (message.type) {
          case 'ready': started = true; worker = current; resolve(); break;
          case 'start-failed': reject(new Error(message.message)); break;
          case 'result': settle(message.id, { read: message.read }); break;
          case 'failure': settle(message.id, { error: new RecoveryError(message.failure) }); break;
          case 'error': settle(message.id, { error: new Error(`Restricted thread: ${message.message}`) }); break;
          case 'worker-error': onError(new Error(`a solver worker of the restricted thread failed outside a solve: ${message.message}`)); break;
        }
      });
      current.on('error', (error) => { if (!started) reject(error); else onError(error); });
      current.on('exit', (code) => {
        if (!started) { reject(new Error(`The restricted thread exited with code ${code} while starting.`)); return; }
        worker = null;
        for (const id of [...pending.keys()]) settle(id, { error: new RecoveryError({ kind: 'crashed', message: `The restricted thread stopped (exit code ${code}).` }) });
        if (closing) return;
        onError(new Error(`The restricted thread stopped (exit code ${code}); starting a new one.`));
        spawn().catch((error: Error) => onError(new Error(`The restricted thread could not be restarted: ${error.message}`)));
      });
    });
  }

  function settle(id: number, outcome: { read: ReadOptions } | { error: Error }): void {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    if ('error' in outcome) waiting.reject(outcome.error);
    else waiting.resolve(outcome.read);
  }

  await spawn();

  return {
    solve(request, budget) {
      const current = worker;
      if (!current || closing) return null;
      const id = nextId++;
      const send = (message: ToRestricted) => current.postMessage(message);
      const onAbort = () => send({ type: 'cancel', id });
      const done = new Promise<ReadOptions>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        budget.signal.addEventListener('abort', onAbort, { once: true });
        send({ type: 'run', id, request, budget: budget.toData() });
      }).finally(() => budget.signal.removeEventListener('abort', onAbort));
      return { done, cutTo: (at) => send({ type: 'cut', id, atEpochMs: performance.timeOrigin + at }) };
    },
    threadForTesting: () => worker,
    async close() {
      if (closing) return;
      closing = true;
      const current = worker;
      if (!current) return;
      const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
      current.postMessage({ type: 'close' } satisfies ToRestricted);
      const timer = setTimeout(() => void current.terminate(), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
