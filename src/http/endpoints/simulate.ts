// POST /simulate: ranked recovery options for a disrupted flight. The endpoint only translates: it
// validates the request and the operator's bounds, starts the simulation's one Budget (its time limit
// and one signal, aborted when the client goes away), awaits the simulation runner (the one job
// workers use), and presents the result. Failures are RecoveryError, mapped to HTTP in errors.ts.
import type { SimulationLimits } from '../../config.ts';
import { contradiction, type Disruption } from '../../domain/disruption.ts';
import { parseZonedInstant } from '../../domain/time.ts';
import { unpricedTrips } from '../../domain/schedule.ts';
import { checkReferences, type SimulationRequest } from '../../recovery/pipeline.ts';
import { Budget } from '../../recovery/model/budget.ts';
import { DEFAULT_SOLVER_CONFIG, type SolverConfig } from '../../recovery/model/solver-config.ts';
import type { ApiBuilder } from '../api-builder.ts';
import type { EndpointDeps } from '../deps.ts';
import { HttpError, quote } from '../errors.ts';
import { scheduleOr404 } from '../lookups.ts';
import { presentSimulation } from '../recovery-presenter.ts';
import { SimulationRequestDocumented, SimulationRequestSchema, SimulationResponseSchema } from '../recovery-schemas.ts';
import type { z } from '../openapi-zod.ts';

type SimulationRequestBody = z.infer<typeof SimulationRequestSchema>;

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

/** A flight id carries its departure: an impossible date there is malformed input (400), not an unknown flight. */
function checkFlightStamp(flightId: string, field: string): void {
  const stamp = /_(\d{4}-\d{2}-\d{2}T[^_]*)$/.exec(flightId)?.[1];
  if (stamp !== undefined && parseZonedInstant(stamp) === null) {
    throw new HttpError(400, `Field ${quote(field)} must end with a real UTC departure such as 2026-11-21T08:30:00Z; ${quote(stamp)} is not one.`);
  }
}

/** The request's disruptions in the domain's terms: the single-delay body as one flight_delay. */
function disruptionsOf(body: SimulationRequestBody): Disruption[] {
  if (body.disruptions === undefined) {
    checkFlightStamp(body.disrupted_flight!, 'disrupted_flight');
    return [{ type: 'flight_delay', flightId: body.disrupted_flight!, minDelayMinutes: body.min_delay_minutes! }];
  }
  return body.disruptions.map((d, i): Disruption => {
    switch (d.type) {
      case 'flight_delay':
        checkFlightStamp(d.flight, `disruptions.${i}.flight`);
        return { type: d.type, flightId: d.flight, minDelayMinutes: d.min_delay_minutes };
      case 'flight_cancellation':
        checkFlightStamp(d.flight, `disruptions.${i}.flight`);
        return { type: d.type, flightId: d.flight };
      case 'aircraft_unavailable':
        return { type: d.type, tail: d.tail, fromMinutes: parseZonedInstant(d.from)!, toMinutes: parseZonedInstant(d.to)! };
      case 'airport_capacity':
        return {
          type: d.type, airport: d.airport, fromMinutes: parseZonedInstant(d.from)!, toMinutes: parseZonedInstant(d.to)!,
          maxDeparturesPerHour: d.max_departures_per_hour, maxArrivalsPerHour: d.max_arrivals_per_hour,
        };
    }
  });
}

/**
 * The simulation a request body asks for, checked the way every simulation route checks it: the
 * schedule (404), compensation distances, contradicting disruptions (400), unknown flights, aircraft or airports
 * (404). Operator bounds are the caller's to check (they differ between /simulate and jobs).
 */
export function simulationRequestOf(deps: EndpointDeps, body: SimulationRequestBody, config: SolverConfig): SimulationRequest {
  const entry = scheduleOr404(deps.schedules, body.schedule_file);
  const unpriced = unpricedTrips(entry.schedule);
  if (unpriced) {
    throw new HttpError(400, `Schedule ${quote(entry.name)} cannot be simulated: airport ${unpriced.airport.code} has no coordinates and flight ${unpriced.flight.id} no haul class, so a passenger's compensation has no distance to go by (docs/model.md 1.6). Give every airport lat and lon, or every flight a haul (as npm run roadef -- import does).`);
  }
  const disruptions = disruptionsOf(body);
  const contradicting = contradiction(disruptions);
  if (contradicting) throw new HttpError(400, `Field 'disruptions': ${contradicting}`);
  const airline = body.airline ?? deps.config.defaultAirline;
  checkReferences(entry.schedule, airline, disruptions);
  // A schedule that states its aircraft's own ground times (an imported ROADEF one) is simulated by them.
  const own = entry.schedule.ownTurnaround;
  return {
    scenarioId: body.scenario_id, disruptions, disruptedFlightId: body.disrupted_flight ?? null, airline, scheduleName: entry.name,
    config: own ? { ...config, turnaround: own } : config,
  };
}

export function simulateEndpoints(api: ApiBuilder, deps: EndpointDeps): void {
  api.route({
    method: 'post',
    path: '/simulate',
    operationId: 'simulate',
    tags: ['Simulation'],
    summary: 'Ranked recovery options for one or several disruptions',
    description: 'Takes a delayed flight (disrupted_flight + min_delay_minutes) or a list of disruptions (delays, cancellations, aircraft out of service, airport capacity caps), solves one model per strategy (delay propagation only, aircraft swaps, cancellations, the integrated optimum) over the full route space of the scope by column generation with GLPK, and returns the options ranked by cost, each with the lower bound proven for it. The model is documented in docs/model.md.',
    request: { body: SimulationRequestSchema, documentedBody: SimulationRequestDocumented },
    response: { description: 'The ranked options.', schema: SimulationResponseSchema },
    errors: {
      400: 'Malformed request, contradictory disruptions (the same flight delayed twice, delayed and cancelled, overlapping periods), a config asking for more work than the operator allows (SIMULATION_MAX_TIME_LIMIT_MS, SIMULATION_MAX_MODEL_ROUTES), or a schedule whose compensation distances are unknown (an airport without coordinates and a flight without a haul class); the detail names the field and the rule.',
      404: 'Unknown schedule, or a flight, aircraft or airport the airline\'s schedule does not have.',
      429: 'Rate limit of this API key exceeded (requests or simulations per minute); retry after the Retry-After seconds.',
      503: 'Solver capacity saturated (queue full or waited too long), or a solver worker failed; retry after the Retry-After seconds.',
    },
    handler: async ({ body }, _req, res) => {
      const config = body.config ?? DEFAULT_SOLVER_CONFIG;
      const request = simulationRequestOf(deps, body, config);
      const runner = deps.simulations;
      if (!runner) throw new Error('POST /simulate needs a simulation runner in the app dependencies');
      checkSimulationLimits(config, deps.config.simulation);
      // The one cancellation signal of this simulation: the client closing the connection first.
      const cancel = new AbortController();
      // The one budget: from here (the request has arrived) to GLPK.
      const budget = Budget.start(config.solver.time_limit_ms, cancel.signal);
      const onClose = () => { if (!res.writableFinished) cancel.abort(); };
      res.once('close', onClose);
      deps.metrics.simulationsInFlight.inc();
      try {
        // Run now (503 when the solvers are saturated), no queue.
        return presentSimulation(deps.schedules.resolve(request.scheduleName)!.schedule, await runner.run(request, budget));
      } finally {
        res.off('close', onClose);
        deps.metrics.simulationsInFlight.dec();
      }
    },
  });
}
