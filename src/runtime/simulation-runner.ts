// The port POST /simulate talks to: "run this simulation on that schedule". Two implementations:
//   - in process (createInProcessSimulator): builds the models here and solves them on a solver pool;
//     what tests use, and what the simulation thread runs inside itself;
//   - on the simulation thread (simulation-thread.ts): the same, on a thread of its own, so that model
//     building (tens of milliseconds per simulation, synchronous) and the cloning of models to the
//     solver workers never hold up the HTTP event loop. main.ts uses it.
// Both admit a simulation only when the solver pool can take its solves (else SolverBusyError before
// any model is built), and drop its waiting solves when the signal aborts (the client went away).
import type { ScheduleCatalog } from '../formats/schedule-json/schedule-catalog.ts';
import type { SimulationResult } from '../recovery/result.ts';
import { FlightNotFoundError, simulate, type SimulationRequest, type SolverPort } from '../recovery/pipeline.ts';
import type { SolverConfig } from '../recovery/solver-config.ts';
import type { SolveOutcome, SolveTask } from '../recovery/solver-port.ts';
import { SolveAbortedError, SolverBusyError, SolverCrashError, type SolveOptions, type SolverPoolStats } from '../../solver-wasm/pool.ts';

/** A solver POST /simulate can use: the worker pool (SolverPool fits), or anything with solve() in tests. */
export interface SimulationSolver extends SolverPort {
  /** `options.signal` drops solves still waiting for a worker. */
  solve(task: SolveTask, options?: SolveOptions): Promise<SolveOutcome>;
  /** Levels and counters, for admission and /metrics, when the solver has them. */
  stats?(): SolverPoolStats;
}

export interface Simulator {
  /**
   * Rejects with FlightNotFoundError (unknown flight for the airline), SolverBusyError (no capacity),
   * SolverCrashError (a solver worker died), SolveAbortedError (the signal aborted while solves waited).
   * `request.scheduleName` must be a canonical name of the catalog.
   */
  simulate(request: SimulationRequest, signal: AbortSignal): Promise<SimulationResult>;
  /** The solver pool's levels and counters, when known. */
  stats?(): SolverPoolStats | Promise<SolverPoolStats>;
}

/**
 * SolverBusyError when the pool cannot take the simulation's solves (one per strategy) right now, so
 * that a refusal is cheap when the service is busiest. The pool still refuses solves that find the
 * queue full later (it filled while the models were built).
 */
export function admitSimulation(solver: SimulationSolver, config: SolverConfig): void {
  const stats = solver.stats?.();
  if (!stats) return;
  const solves = config.strategies.evaluate.length;
  const mustWait = Math.max(0, solves - Math.max(0, stats.workersReady - stats.running));
  if (stats.queued + mustWait > stats.maxQueue) throw new SolverBusyError('All solver workers are busy and the queue is full.');
}

export function createInProcessSimulator(schedules: ScheduleCatalog, solver: SimulationSolver): Simulator {
  return {
    async simulate(request, signal) {
      const entry = schedules.resolve(request.scheduleName);
      if (!entry) throw new Error(`Schedule '${request.scheduleName}' is not loaded`);
      admitSimulation(solver, request.config);
      // One controller per simulation: the caller's signal, or the simulation ending early (a failed
      // strategy makes the others pointless), drops the solves still waiting.
      const controller = new AbortController();
      const forward = () => controller.abort();
      signal.addEventListener('abort', forward, { once: true });
      try {
        return await simulate(entry.schedule, request, { solve: (task) => solver.solve(task, { signal: controller.signal }) });
      } finally {
        signal.removeEventListener('abort', forward);
        controller.abort();
      }
    },
    ...(solver.stats ? { stats: () => solver.stats!() } : {}),
  };
}

// ---- errors across a thread boundary -------------------------------------------------------------

export type SimulationFailure =
  | { kind: 'flight_not_found'; flightId: string; airline: string }
  | { kind: 'busy' | 'crash' | 'aborted' | 'internal'; message: string };

export function describeFailure(error: unknown): SimulationFailure {
  if (error instanceof FlightNotFoundError) return { kind: 'flight_not_found', flightId: error.flightId, airline: error.airline };
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof SolverBusyError) return { kind: 'busy', message };
  if (error instanceof SolverCrashError) return { kind: 'crash', message };
  if (error instanceof SolveAbortedError) return { kind: 'aborted', message };
  return { kind: 'internal', message };
}

/** The error describeFailure described, as the same class, so the route maps it as if in process. */
export function failureError(failure: SimulationFailure): Error {
  switch (failure.kind) {
    case 'flight_not_found': return new FlightNotFoundError(failure.flightId, failure.airline);
    case 'busy': return new SolverBusyError(failure.message);
    case 'crash': return new SolverCrashError(failure.message);
    case 'aborted': return new SolveAbortedError(failure.message);
    default: return new Error(`Simulation thread: ${failure.message}`);
  }
}
