// The simulation thread: one worker thread that hosts the use case (model building, reading plans
// back) and the solver pool (whose workers are nested threads of it). The HTTP thread sends it a
// request and gets a SimulationResult back: plain data both ways, a few kilobytes. The schedules are
// the ones main.ts loaded, cloned into the thread once at start (never read from disk twice).
//
// Why: building a simulation's models takes tens of milliseconds of synchronous JavaScript (up to
// ~0.4 s at SIMULATION_MAX_MODEL_ROUTES), and copying them to the solver workers as much again. On the
// HTTP thread that stalls every other request; here it stalls only other simulations, which wait for
// the solvers anyway. Its heap is capped (SIMULATION_THREAD_HEAP_MB), so even a model that exhausts
// memory ends this thread, not the process: the simulations in flight fail with 503 and a new thread
// is started.
import { Worker } from 'node:worker_threads';
import type { ScheduleCatalog } from '../formats/schedule-json/schedule-catalog.ts';
import type { Budget, BudgetData } from '../recovery/model/budget.ts';
import { RecoveryError, type RecoveryFailure } from '../recovery/model/failure.ts';
import type { SimulationProgress, SimulationRequest } from '../recovery/pipeline.ts';
import type { SimulationResult } from '../recovery/model/result.ts';
import type { SolverStats } from '../recovery/model/solver-port.ts';
import type { SolverPoolOptions } from '../../solver-wasm/pool.ts';
import type { SimulationRunner } from './simulation-runner.ts';
import type { ThreadStartData } from './thread-start.ts';

/** Old-generation heap of the simulation thread, MiB: far above any model the default limits allow. */
export const SIMULATION_THREAD_HEAP_MB = 2048;
/**
 * Young generation of the simulation thread, MiB (V8's default is 16-32). Every pricing round builds
 * a model and thousands of labels that die with the round; a larger nursery collects them less often
 * and promotes less: measured on the default schedule's single delays, 7-9 % less busy time on this
 * thread (V8 --max-semi-space-size=64, the same size).
 */
export const SIMULATION_THREAD_YOUNG_MB = 192;

const ENTRY = new URL('./simulation-thread-entry.mjs', import.meta.url);

export interface SimulationThreadOptions {
  /** The loaded schedules; the thread gets a copy of each. */
  schedules: ScheduleCatalog;
  pool: Omit<SolverPoolOptions, 'onWorkerError'>;
  /** Told about failures that no request sees: a solver worker failing while idle, the thread dying. */
  onError?: (error: Error) => void;
  /**
   * Safety net, milliseconds: a simulation not answered in this time fails as 'deadline' (503) and is
   * cancelled, so that no client waits forever even if the thread were stuck. main.ts sets it
   * above the longest legitimate simulation; a function of the request when that depends on its time
   * limit (a job may run for minutes, /simulate for seconds). Default: none.
   */
  deadlineMs?: number | ((request: SimulationRequest) => number);
  /**
   * Simulations the thread runs on itself, answers dropped, before it says it is ready (each start,
   * also after a restart): its JavaScript is cold until then (warm-up.ts). Default: none.
   */
  warmUp?: SimulationRequest[];
  /**
   * Whether a single delay's cancellation and delay propagation strategies are solved on a thread of
   * their own beside the integrated one (simulation-thread-restricted.ts), with one GLPK worker of
   * its own. Default: false (SIMULATION_RESTRICTED_THREAD, src/config.ts: it did not pay on 2 cores).
   */
  restrictedThread?: boolean;
}

/** `schedules`: canonical name -> schedule; structured cloning keeps the shared records of each schedule shared. */
export interface SimulationThreadData extends ThreadStartData {
  warmUp: SimulationRequest[];
  restrictedThread: boolean;
}

export type ToThread =
  | { type: 'run'; id: number; request: SimulationRequest; budget: BudgetData; progress: boolean }
  | { type: 'cancel'; id: number }
  | { type: 'stats'; id: number }
  | { type: 'close' };

export type FromThread =
  | { type: 'ready' }
  | { type: 'start-failed'; message: string }
  | { type: 'progress'; id: number; progress: SimulationProgress }
  | { type: 'result'; id: number; result: SimulationResult }
  | { type: 'failure'; id: number; failure: RecoveryFailure }
  | { type: 'error'; id: number; message: string }
  | { type: 'stats'; id: number; stats: SolverStats }
  | { type: 'worker-error'; message: string }
  | { type: 'restricted-thread-error'; message: string }
  | { type: 'warm-up-failed'; message: string }
  | { type: 'closed' };

export interface SimulationThread extends SimulationRunner {
  stats(): Promise<SolverStats>;
  /**
   * FAULT INJECTION FOR TESTS ONLY (test/hardening): the thread itself, so that a test can terminate
   * it mid-simulation the way a crash would. Production code never calls it.
   */
  threadForTesting(): Worker;
  /** Closes the solver pool and ends the thread; simulations still running fail. */
  close(): Promise<void>;
}

interface Pending { resolve: (value: unknown) => void; reject: (error: Error) => void; progress?: (progress: SimulationProgress) => void }

/**
 * Starts the thread and resolves once its schedules are loaded, every solver worker is warm and the
 * warm-up simulations have run.
 * Rejects with the thread's own sentence when it cannot start (e.g. a schedule it cannot read).
 */
export async function startSimulationThread(options: SimulationThreadOptions): Promise<SimulationThread> {
  const { schedules } = options;
  const data: SimulationThreadData = {
    schedules: new Map(schedules.names().map((name) => [name, schedules.resolve(name)!.schedule])),
    defaultSchedule: schedules.defaultName,
    pool: options.pool,
    warmUp: options.warmUp ?? [],
    restrictedThread: options.restrictedThread ?? false,
  };
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let closing = false;
  let worker: Worker;
  let ready: Promise<void>;

  const send = (message: ToThread) => worker.postMessage(message);
  const settle = (id: number, outcome: { value: unknown } | { error: Error }) => {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    if ('error' in outcome) waiting.reject(outcome.error);
    else waiting.resolve(outcome.value);
  };

  function spawn(): Promise<void> {
    worker = new Worker(ENTRY, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: SIMULATION_THREAD_HEAP_MB, maxYoungGenerationSizeMb: SIMULATION_THREAD_YOUNG_MB } });
    const current = worker;
    return new Promise<void>((resolve, reject) => {
      let started = false;
      current.on('message', (message: FromThread) => {
        switch (message.type) {
          case 'ready': started = true; resolve(); break;
          case 'start-failed': reject(new Error(message.message)); break;
          case 'progress': pending.get(message.id)?.progress?.(message.progress); break;
          case 'result': settle(message.id, { value: message.result }); break;
          case 'failure': settle(message.id, { error: new RecoveryError(message.failure) }); break;
          case 'error': settle(message.id, { error: new Error(`Simulation thread: ${message.message}`) }); break;
          case 'stats': settle(message.id, { value: message.stats }); break;
          case 'worker-error': options.onError?.(new Error(`a solver worker failed outside a solve: ${message.message}`)); break;
          case 'restricted-thread-error': options.onError?.(new Error(`restricted thread: ${message.message}`)); break;
          case 'warm-up-failed': options.onError?.(new Error(`a warm-up simulation failed (the thread serves anyway): ${message.message}`)); break;
          case 'closed': break;
        }
      });
      current.on('error', (error) => {
        if (!started) reject(error);
        else options.onError?.(error);
      });
      current.on('exit', (code) => {
        if (!started) { reject(new Error(`The simulation thread exited with code ${code} while starting.`)); return; }
        // Everything in flight on the thread is lost with it.
        for (const id of [...pending.keys()]) settle(id, { error: new RecoveryError({ kind: 'crashed', message: `The simulation thread stopped (exit code ${code}).` }) });
        if (closing) return;
        options.onError?.(new Error(`The simulation thread stopped (exit code ${code}); starting a new one.`));
        ready = spawn();
        ready.catch((error: Error) => options.onError?.(new Error(`The simulation thread could not be restarted: ${error.message}`)));
      });
    });
  }

  ready = spawn();
  await ready;

  /**
   * Sends a message expecting one answer. When `signal` aborts, the thread is asked to cancel it; an
   * abort whose reason is a RecoveryError (the deadline) fails the call at once, since the thread
   * may be the thing that is stuck.
   */
  const request = <T>(message: (id: number) => ToThread, signal?: AbortSignal, progress?: (progress: SimulationProgress) => void): Promise<T> => {
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        send({ type: 'cancel', id });
        if (signal!.reason instanceof RecoveryError) settle(id, { error: signal!.reason });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => signal?.removeEventListener('abort', onAbort);
      pending.set(id, {
        resolve: (value) => { cleanup(); resolve(value as T); },
        reject: (error) => { cleanup(); reject(error); },
        ...(progress ? { progress } : {}),
      });
      send(message(id));
    });
  };

  return {
    async run(simulation: SimulationRequest, budget: Budget, onProgress?: (progress: SimulationProgress) => void): Promise<SimulationResult> {
      const { signal } = budget;
      if (closing) throw new RecoveryError({ kind: 'aborted', message: 'The service is shutting down.' });
      await ready;
      if (signal.aborted) throw new RecoveryError({ kind: 'aborted', message: 'The simulation was cancelled before it started.' });
      const deadlineMs = typeof options.deadlineMs === 'function' ? options.deadlineMs(simulation) : options.deadlineMs;
      const deadline = deadlineMs === undefined ? null : AbortSignal.timeout(deadlineMs);
      // The deadline's abort carries the failure to report, so that request() can tell it from the caller's.
      const overdue = deadline === null ? null : new AbortController();
      deadline?.addEventListener('abort', () => overdue!.abort(new RecoveryError({ kind: 'deadline', message: `The simulation did not finish within ${deadlineMs} ms.` })), { once: true });
      return request<SimulationResult>((id) => ({ type: 'run', id, request: simulation, budget: budget.toData(), progress: onProgress !== undefined }), overdue ? AbortSignal.any([signal, overdue.signal]) : signal, onProgress);
    },
    threadForTesting: () => worker,
    async stats(): Promise<SolverStats> {
      await ready;
      return request<SolverStats>((id) => ({ type: 'stats', id }));
    },
    async close(): Promise<void> {
      if (closing) return;
      closing = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      await ready.catch(() => undefined);
      send({ type: 'close' });
      // The thread closes its pool and exits; a thread stuck in a build is terminated after 10 s.
      const timer = setTimeout(() => void worker.terminate(), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
