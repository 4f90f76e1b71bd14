// What POST /simulate does around the use case, kept out of the route so that it stays a translation:
// the operator's bound on the work one simulation may ask for (checked before anything is built), and
// the link between the request and the simulation (a client that goes away cancels the solves still
// waiting; the simulation counts in simulations_in_flight meanwhile).
import type { Response } from 'express';
import type { SimulationLimits } from '../config.ts';
import type { SimulationResult } from '../recovery/result.ts';
import type { SimulationRequest } from '../recovery/pipeline.ts';
import type { SolverConfig } from '../recovery/solver-config.ts';
import { HttpError } from '../http/errors.ts';
import type { Metrics } from '../http/metrics.ts';
import type { Simulator } from './simulation-runner.ts';

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
 * Runs `request` on `simulator` for the HTTP response `res`: when the client closes the connection
 * first, the simulation's waiting solves are dropped (it then rejects with SolveAbortedError).
 */
export async function runSimulation(simulator: Simulator, request: SimulationRequest, res: Response, metrics: Metrics | undefined): Promise<SimulationResult> {
  const controller = new AbortController();
  const onClose = () => { if (!res.writableFinished) controller.abort(); };
  res.once('close', onClose);
  metrics?.simulationsInFlight.inc();
  try {
    return await simulator.simulate(request, controller.signal);
  } finally {
    res.off('close', onClose);
    metrics?.simulationsInFlight.dec();
  }
}
