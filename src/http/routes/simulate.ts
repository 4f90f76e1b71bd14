// POST /simulate: ranked recovery options for a disrupted flight. The route only translates: the
// use case is src/recovery/simulate.ts, the solver the worker pool given in the dependencies.
import type { ApiBuilder } from '../api-builder.ts';
import type { AppDeps } from '../app.ts';
import { HttpError, quote } from '../errors.ts';
import { scheduleOr404 } from '../lookups.ts';
import { SimulationRequestSchema, SimulationResponseSchema } from '../recovery-schemas.ts';
import { parseZonedInstant } from '../../domain/time.ts';
import { DEFAULT_SOLVER_CONFIG } from '../../recovery/solver-config.ts';
import { FlightNotFoundError } from '../../recovery/simulate.ts';
import { SolveAbortedError, SolverBusyError, SolverCrashError } from '../../../solver-wasm/pool.ts';
import { checkSimulationLimits, runSimulation } from '../simulation-guard.ts';

/** Seconds a client should wait before retrying when the solvers are saturated. */
const RETRY_AFTER_SECONDS = '2';

export function simulateRoutes(api: ApiBuilder, deps: AppDeps): void {
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
      const airline = body.airline ?? deps.config.defaultAirline;
      // A flight id carries its departure: an impossible date there is malformed input, not an unknown flight.
      const stamp = /_(\d{4}-\d{2}-\d{2}T[^_]*)$/.exec(body.disrupted_flight)?.[1];
      if (stamp !== undefined && parseZonedInstant(stamp) === null) {
        throw new HttpError(400, `Field 'disrupted_flight' must end with a real UTC departure such as 2026-11-21T08:30:00Z; ${quote(stamp)} is not one.`);
      }
      if (!deps.simulator) throw new Error('POST /simulate needs a simulator (or a solver) in the app dependencies');
      const config = body.config ?? DEFAULT_SOLVER_CONFIG;
      checkSimulationLimits(config, deps.config.simulation);
      try {
        return await runSimulation(deps.simulator, {
          scenarioId: body.scenario_id,
          disruptedFlightId: body.disrupted_flight,
          minDelayMinutes: body.min_delay_minutes,
          airline,
          scheduleName: entry.name,
          config,
        }, res, deps.metrics);
      } catch (error) {
        if (error instanceof FlightNotFoundError) throw new HttpError(404, `Flight ${quote(error.flightId)} not found for airline ${quote(error.airline)}`);
        if (error instanceof SolverBusyError) {
          throw new HttpError(503, 'All solvers are busy; retry after the Retry-After seconds.', { 'Retry-After': RETRY_AFTER_SECONDS });
        }
        if (error instanceof SolverCrashError) {
          throw new HttpError(503, 'A solver failed during this simulation; it has been replaced, retry.', { 'Retry-After': RETRY_AFTER_SECONDS });
        }
        // Only when the client has gone (its waiting solves were dropped): nobody reads this answer.
        if (error instanceof SolveAbortedError) throw new HttpError(499, 'The client closed the connection before the simulation finished.');
        throw error;
      }
    },
  });
}
