// What POST /simulate does around the use case, kept out of the route so that it stays a translation:
// the operator's bound on the work one simulation may ask for (checked before any model is built, as
// models are built on the HTTP thread), and a solver scoped to the request that drops its waiting
// solves when the client goes away or the simulation fails early.
import type { Response } from 'express';
import type { SimulationLimits } from '../config.ts';
import type { SolverPort } from '../recovery/simulate.ts';
import type { SolverConfig } from '../recovery/solver-config.ts';
import { SolverBusyError } from '../../solver-wasm/pool.ts';
import type { AppSolver } from './app.ts';
import { HttpError } from './errors.ts';
import type { Metrics } from './metrics.ts';

/**
 * 400 naming the field and the operator's limit when a simulation asks for more work than
 * SIMULATION_MAX_TIME_LIMIT_MS or SIMULATION_MAX_MODEL_ROUTES allow. `config` is the complete
 * configuration (defaults applied).
 */
export function checkSimulationLimits(config: SolverConfig, limits: SimulationLimits): void {
  const { time_limit_ms: timeLimitMs, max_candidate_aircraft: aircraft, max_routes_per_aircraft: routes } = config.solver;
  if (timeLimitMs > limits.maxTimeLimitMs) {
    throw new HttpError(400, `Field 'config.solver.time_limit_ms' must be at most ${limits.maxTimeLimitMs} on this service (the operator's SIMULATION_MAX_TIME_LIMIT_MS); got ${timeLimitMs}.`);
  }
  const modelRoutes = (aircraft + 1) * routes;
  if (modelRoutes > limits.maxModelRoutes) {
    throw new HttpError(400, `Fields 'config.solver.max_candidate_aircraft' and 'config.solver.max_routes_per_aircraft' ask for (${aircraft} + 1) × ${routes} = ${modelRoutes} routes per model; this service allows at most ${limits.maxModelRoutes} (the operator's SIMULATION_MAX_MODEL_ROUTES).`);
  }
}

/**
 * Throws SolverBusyError (the route's 503 + Retry-After) when the pool cannot take the simulation's
 * solves (one per strategy) right now, before any model is built: a refusal must be cheap, since it
 * comes when the service is busiest. The pool still refuses solves that find the queue full later.
 */
export function admitSimulation(solver: AppSolver, config: SolverConfig): void {
  const stats = solver.stats?.();
  if (!stats) return;
  const solves = config.strategies.evaluate.length;
  const mustWait = Math.max(0, solves - Math.max(0, stats.workersReady - stats.running));
  if (stats.queued + mustWait > stats.maxQueue) throw new SolverBusyError('All solver workers are busy and the queue is full.');
}

export interface ScopedSolver {
  solver: SolverPort;
  /** Call once the simulation has ended, whatever the outcome: drops solves still waiting. */
  release(): void;
}

/**
 * A solver for one request: solves still waiting for a worker are dropped when the client closes the
 * connection, or when the simulation has ended (a failed strategy makes the others pointless).
 * Counts the simulation in `simulations_in_flight` until released.
 */
export function scopedSolver(solver: AppSolver, res: Response, metrics: Metrics | undefined): ScopedSolver {
  const controller = new AbortController();
  const onClose = () => { if (!res.writableFinished) controller.abort(); };
  res.once('close', onClose);
  metrics?.simulationsInFlight.inc();
  let released = false;
  return {
    solver: { solve: (task) => solver.solve(task, { signal: controller.signal }) },
    release: () => {
      if (released) return;
      released = true;
      res.off('close', onClose);
      controller.abort();
      metrics?.simulationsInFlight.dec();
    },
  };
}
