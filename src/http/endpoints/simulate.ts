// POST /simulate: ranked recovery options for a disrupted flight. The endpoint only translates: it
// validates the request and the operator's bounds, runs it on the simulation runner with one signal
// (aborted when the client goes away), and presents the result. Failures are RecoveryError, mapped to
// HTTP in errors.ts.
import type { SimulationLimits } from '../../config.ts';
import { parseZonedInstant } from '../../domain/time.ts';
import { DEFAULT_SOLVER_CONFIG, type SolverConfig } from '../../recovery/solver-config.ts';
import type { ApiBuilder } from '../api-builder.ts';
import type { EndpointDeps } from '../deps.ts';
import { HttpError, quote } from '../errors.ts';
import { scheduleOr404 } from '../lookups.ts';
import { presentSimulation } from '../recovery-presenter.ts';
import { SimulationRequestSchema, SimulationResponseSchema } from '../recovery-schemas.ts';

/**
 * 400 naming the field and the operator's limit when a simulation asks for more work than
 * SIMULATION_MAX_TIME_LIMIT_MS or SIMULATION_MAX_MODEL_ROUTES allow. `config` is complete (defaults applied).
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

export function simulateEndpoints(api: ApiBuilder, deps: EndpointDeps): void {
  api.route({
    method: 'post',
    path: '/simulate',
    tags: ['Simulation'],
    summary: 'Ranked recovery options for a disrupted flight',
    description: 'Builds a recovery model per strategy (delay propagation only, aircraft swaps, cancellations, the integrated optimum), solves them with GLPK in parallel and returns the options ranked by cost. The model is documented in docs/model.md.',
    request: { body: SimulationRequestSchema },
    response: { description: 'The ranked options.', schema: SimulationResponseSchema },
    errors: {
      400: 'Malformed request, a config asking for more work than the operator allows (SIMULATION_MAX_TIME_LIMIT_MS, SIMULATION_MAX_MODEL_ROUTES; the detail names the field and the limit), or a schedule without airport coordinates (an imported ROADEF 2009 instance).',
      404: 'Unknown schedule, or unknown flight for the airline.',
      429: 'Rate limit of this API key exceeded (requests or simulations per minute); retry after the Retry-After seconds.',
      503: 'Solver capacity saturated (queue full or waited too long), or a solver worker failed; retry after the Retry-After seconds.',
    },
    handler: async ({ body }, _req, res) => {
      const entry = scheduleOr404(deps.schedules, body.schedule_file);
      // The model prices compensation by great-circle distance; imported ROADEF schedules have no coordinates.
      const unplaced = [...entry.schedule.airports.values()].find((a) => a.lat === null || a.lon === null);
      if (unplaced) {
        throw new HttpError(400, `Schedule ${quote(entry.name)} cannot be simulated: airport ${unplaced.code} has no coordinates, which this recovery model needs for compensation distances (an imported ROADEF 2009 schedule is solved with npm run roadef -- solve).`);
      }
      // A flight id carries its departure: an impossible date there is malformed input, not an unknown flight.
      const stamp = /_(\d{4}-\d{2}-\d{2}T[^_]*)$/.exec(body.disrupted_flight)?.[1];
      if (stamp !== undefined && parseZonedInstant(stamp) === null) {
        throw new HttpError(400, `Field 'disrupted_flight' must end with a real UTC departure such as 2026-11-21T08:30:00Z; ${quote(stamp)} is not one.`);
      }
      if (!deps.runner) throw new Error('POST /simulate needs a simulation runner in the app dependencies');
      const config = body.config ?? DEFAULT_SOLVER_CONFIG;
      checkSimulationLimits(config, deps.config.simulation);
      // The one cancellation signal of this simulation: the client closing the connection first.
      const cancel = new AbortController();
      const onClose = () => { if (!res.writableFinished) cancel.abort(); };
      res.once('close', onClose);
      deps.metrics.simulationsInFlight.inc();
      try {
        const result = await deps.runner.run({
          scenarioId: body.scenario_id,
          disruptedFlightId: body.disrupted_flight,
          minDelayMinutes: body.min_delay_minutes,
          airline: body.airline ?? deps.config.defaultAirline,
          scheduleName: entry.name,
          config,
        }, cancel.signal);
        return presentSimulation(entry.schedule, result);
      } finally {
        res.off('close', onClose);
        deps.metrics.simulationsInFlight.dec();
      }
    },
  });
}
