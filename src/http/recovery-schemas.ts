// Request and response schemas of POST /simulate, GET /config and POST /config/validate: they
// validate requests and generate the OpenAPI document (docs of otp and nps live here).
import { SOLVE_STATUSES } from '../recovery/model/result.ts';
import { ENGINE_REASONS, ENGINES } from '../recovery/model/engine-choice.ts';
import { LOWER_BOUND_SOURCES } from '../recovery/model/solve-facts.ts';
import { SolverConfigSchema, STRATEGIES } from '../recovery/model/solver-config.ts';
import { answeredSchema, z } from './openapi-zod.ts';
import { AirlineCodeSchema, NextPageTokenSchema, ZonedTimestampSchema } from './schemas.ts';

const Zoned = z.string().describe('ISO 8601 timestamp with its zone: local time of the airport concerned with a numeric offset, or UTC with Z.');

/** A configuration a request may carry: any subset of SolverConfig, the rest taken from the defaults. */
// Cloned first: zod 4 copies prototype methods such as `.openapi` onto a schema when it is built, and
// SolverConfigSchema may be built before openapi-zod.ts installs the method (whoever imports
// recovery/model/solver-config.ts first decides).
const SolverConfigPatchSchema = SolverConfigSchema.clone().openapi('SolverConfigPatch', {
  description: 'Any subset of SolverConfig, at any depth; omitted fields take their defaults (GET /config).',
});

const MinDelaySchema = z.number().int().min(0).max(2880);
const FlightReference = z.string().min(1).max(128).describe('A flight id as listed by GET /flights, e.g. NV146_2026-11-21T07:50:00Z.');

export const DisruptionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('flight_delay'),
    flight: FlightReference,
    min_delay_minutes: MinDelaySchema.describe('The flight cannot leave earlier than its scheduled departure plus this, in any option (or it is cancelled).'),
  }).describe('A flight that cannot leave on time.'),
  z.strictObject({ type: z.literal('flight_cancellation'), flight: FlightReference }).describe('A flight cancelled in every option.'),
  z.strictObject({
    type: z.literal('aircraft_unavailable'),
    tail: z.string().min(1).max(32).describe('Registration of an aircraft of the airline.'),
    from: ZonedTimestampSchema, to: ZonedTimestampSchema,
  }).describe('The aircraft flies nothing that overlaps [from, to) and stays where it is at `from`.'),
  z.strictObject({
    type: z.literal('airport_capacity'),
    airport: z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter airport code').describe('An airport of the schedule.'),
    from: ZonedTimestampSchema, to: ZonedTimestampSchema,
    max_departures_per_hour: z.number().int().min(0).max(1000),
    max_arrivals_per_hour: z.number().int().min(0).max(1000),
  }).describe('In every clock hour (UTC) that overlaps [from, to), at most that many of the airline\'s departures and arrivals at the airport, counted by the times of the option.'),
]).openapi('Disruption');

// The fields of a simulation request, shared by POST /simulate, POST /simulations and POST /days/{day_id}/simulate.
export const simulationRequestFields = {
  scenario_id: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1-128 characters of A-Z, a-z, 0-9, . _ : -')
    .describe('Caller-chosen identifier of the scenario, echoed in the response.'),
  disrupted_flight: FlightReference.optional().describe('The single delayed flight (with min_delay_minutes); give this or `disruptions`.'),
  min_delay_minutes: MinDelaySchema.optional()
    .describe('The delay that has happened: the disrupted flight cannot leave earlier than its scheduled departure plus this, in any option.'),
  disruptions: z.array(DisruptionSchema).min(1).max(500).optional()
    .describe('Several disruptions at once (1-500), instead of disrupted_flight + min_delay_minutes.'),
  airline: AirlineCodeSchema.optional()
    .describe('Airline of the disrupted flights, aircraft and capacities; default DEFAULT_AIRLINE.'),
  schedule_file: z.string().min(1).max(128).optional().describe('Bundled schedule; default DEFAULT_SCHEDULE.'),
  config: SolverConfigPatchSchema.optional().describe('Partial solver configuration; omitted fields take the defaults of GET /config.'),
};

/**
 * A simulation body as a schema can say it: `oneOf` a single delay (disrupted_flight with
 * min_delay_minutes) or a list of disruptions, each with the other fields of `fields` beside it. It
 * accepts exactly what `fields` with oneKindOfDisruption accepts; the route validates with that one,
 * whose sentences say which of the two is missing.
 */
export function eitherOrDocumented(fields: typeof simulationRequestFields | Omit<typeof simulationRequestFields, 'schedule_file'>, extra: Record<string, z.ZodType>, name: string, description: string) {
  const { disrupted_flight: flight, min_delay_minutes: delay, disruptions, ...common } = fields;
  const required = (optional: z.ZodOptional) => {
    const inner = optional.unwrap() as z.ZodType;
    return optional.description ? inner.describe(optional.description) : inner;
  };
  return z.union([
    z.strictObject({ ...common, ...extra, disrupted_flight: required(flight), min_delay_minutes: required(delay) })
      .describe('One delayed flight.'),
    z.strictObject({ ...common, ...extra, disruptions: required(disruptions) }).describe('A list of disruptions.'),
  ]).openapi(name, { description }, { unionPreferredType: 'oneOf' });
}

/** A request names one delayed flight or a list of disruptions, exactly one of the two. */
export function oneKindOfDisruption(body: { disrupted_flight?: unknown; min_delay_minutes?: unknown; disruptions?: unknown }, ctx: z.RefinementCtx): void {
  const single = body.disrupted_flight !== undefined || body.min_delay_minutes !== undefined;
  if (single && body.disruptions !== undefined) {
    ctx.addIssue({ code: 'custom', path: [], message: "must give either 'disrupted_flight' with 'min_delay_minutes', or 'disruptions', not both" });
  } else if (!single && body.disruptions === undefined) {
    ctx.addIssue({ code: 'custom', path: [], message: "must give 'disrupted_flight' with 'min_delay_minutes', or 'disruptions'" });
  } else if (single && body.disrupted_flight === undefined) {
    ctx.addIssue({ code: 'custom', path: ['disrupted_flight'], message: "is required with 'min_delay_minutes'" });
  } else if (single && body.min_delay_minutes === undefined) {
    ctx.addIssue({ code: 'custom', path: ['min_delay_minutes'], message: 'is required' });
  }
}

export const SimulationRequestSchema = z.strictObject(simulationRequestFields).superRefine(oneKindOfDisruption);
export const SimulationRequestDocumented = eitherOrDocumented(simulationRequestFields, {}, 'SimulationRequest',
  'A disruption to recover from: one delayed flight (disrupted_flight with min_delay_minutes) or a list of disruptions.');

const jobFields = {
  day: z.uuid().optional()
    .describe('Solve on the current revision of this operational day (POST /days) instead of a schedule as planned; schedule_file must then be left out. The job\'s result can be applied to the day with POST /days/{day_id}/apply, its job_id as the simulation_id.'),
  now: ZonedTimestampSchema.optional().describe('With `day`: the instant the day is solved at (default: the time of the submission); see POST /days/{day_id}/simulate.'),
  time_limit_ms: z.number().int().min(50).optional()
    .describe('Time budget of the whole solve, milliseconds, up to the operator\'s JOB_MAX_TIME_LIMIT_MS (default 600000); it replaces config.solver.time_limit_ms. Default: config.solver.time_limit_ms.'),
};

export const JobRequestSchema = z.strictObject({ ...simulationRequestFields, ...jobFields }).superRefine(oneKindOfDisruption);
export const JobRequestDocumented = eitherOrDocumented(simulationRequestFields, jobFields, 'SimulationJobRequest',
  'The body of POST /simulate, plus the job\'s own time limit, or an operational day to solve on.');

const ViolationSchema = z.object({
  type: z.enum(['crew_duty', 'maintenance']),
  flight: z.string().nullable().describe('The flight whose arrival breaks the rule: for maintenance, the first flight reaching the check\'s station after the check\'s start; when the aircraft never gets there, the last flight it leaves on before the check (null if none), and `detail` says so.'),
  tail: z.string().optional().describe('For maintenance: the aircraft.'),
  crew_id: z.string().optional().describe('For crew duty: the crew.'),
  limit: Zoned.describe('Latest allowed instant: end of the maximum flight-duty period, or the check\'s start.'),
  actual: Zoned.nullable().describe('What the plan does instead: the arrival of `flight`; null when the aircraft never reaches the check\'s station.'),
  excess_minutes: z.number().nullable().describe('actual − limit, minutes; null only when actual is null.'),
  detail: z.string(),
}).openapi('Violation');

const SummarySchema = z.object({
  otp: z.number().min(0).max(1).describe('On-time performance: (flights of the airline in the schedule that are flown and arrive at most 15 minutes after their scheduled arrival) / (flights of the airline in the schedule). A cancelled flight is not on time; flights outside the recovery scope count as on time.'),
  nps: z.number().min(0).max(1).describe('Passenger-satisfaction proxy: 1 − (Σ passenger disutility) / (booked passengers of the airline in the schedule), clamped to [0, 1]. Disutility per passenger: on a delayed flight min(1, arrival delay / 180 min); re-accommodated 0.5 + 0.5 × min(1, later actual arrival / 360 min); not re-accommodated or spilled 1. Each passenger\'s disutility grows with their own delay or disruption.'),
  cost: z.number().describe('Weighted cost in solver units, counted in the currency cost_weights.currency names: the sum of cost_breakdown.'),
  flights_delayed: z.number().int(),
  flights_cancelled: z.number().int(),
  flights_swapped: z.number().int(),
  passengers_disrupted: z.number().int().describe('Passengers of cancelled flights, of broken connections, and spilled by a smaller aircraft.'),
  passengers_reaccommodated: z.number().int(),
  passengers_not_reaccommodated: z.number().int().describe('Passengers who cost an EU261 compensation.'),
  total_delay_minutes: z.number().int(),
});

const CostBreakdownSchema = z.object({
  delay: z.number(), cancellation: z.number(), swap: z.number(), spill: z.number(), reaccommodation: z.number(),
  compensation: z.number(), crew_duty: z.number(), maintenance: z.number(), aircraft_position: z.number(),
}).describe('Cost per component in solver units (docs/model.md 1.4); the components sum to summary.cost.');

const ActionSetSchema = z.object({
  delays: z.array(z.object({
    flight: z.string(), tail: z.string().describe('The aircraft that flies the flight in this option.'),
    delay_minutes: z.number().int().describe('new_dep − scheduled dep.'), new_dep: Zoned, new_arr: Zoned,
  })),
  swaps: z.array(z.object({ flight: z.string(), from_tail: z.string(), to_tail: z.string() })),
  cancellations: z.array(z.object({ flight: z.string(), passengers: z.number().int() })),
  reaccommodations: z.array(z.object({
    from_flight: z.string().describe('The cancelled flight, or for a misconnection the flight the passengers do not take: the first one they miss, or, when they are re-accommodated from an earlier hub of their itinerary, the flight they would have taken from there.'),
    to_flights: z.array(z.string()).describe('The new journey in order; empty when the passengers could not be re-accommodated.'),
    passengers: z.number().int(),
    reason: z.enum(['cancellation', 'misconnection']),
    itinerary_id: z.string().nullable(),
  })),
  new_flights: z.array(z.object({ tail: z.string(), origin: z.string(), dest: z.string(), dep: Zoned, arr: Zoned }))
    .describe('Repositioning flights the option adds (always present; empty when none).'),
});

const SolverReportSchema = z.object({
  status: z.enum(SOLVE_STATUSES).describe('optimal: proven optimal for the stated problem (every route of the scope, docs/model.md); feasible: a plan whose gap to the proven lower bound could not be closed (see note); time_limit: the time limit stopped the solve (with or without a plan); infeasible: proven that no plan of this strategy exists.'),
  objective: z.number().nullable(),
  lower_bound: z.number().nullable().describe('A lower bound of every plan of this strategy, proven over the full route space of the scope (the LP bound of the column generation; never below 0, since no cost is negative); null when none is known.'),
  mip_gap: z.number().nullable().describe('0 when optimal; otherwise (objective − lower_bound) / max(1, |objective|), a proven upper bound on the true gap; null when no bound is known (the note says why).'),
  solve_ms: z.number(),
  rows: z.number().int(), columns: z.number().int(), nonzeros: z.number().int(), integers: z.number().int(),
  candidate_routes: z.number().int().describe('Route columns of the final integer model (generated by pricing and enumerated for the proof).'),
  iterations: z.number().int().describe('Rounds of column generation (for delay propagation, whose routes are fixed, rounds that generate its passengers\' journeys alone).'),
  lower_bound_source: z.enum(LOWER_BOUND_SOURCES).nullable().describe('Which proof lower_bound comes from (docs/model.md 3.3-3.9): converged_lp (the column generation\'s LP over every route, at convergence), lagrangian (the generation\'s best Lagrangian bound: it stopped before convergence), flight_bound (every flight at its own cheapest departure or cancelled, the aircraft relaxed away), network_bound (the Lagrangian relaxation of every aircraft\'s time-space network, computed beside the strategies on large scopes), integrated_strategy (the integrated strategy\'s bound: every plan of this strategy is one of its plans), no_negative_cost (0: no cost is negative). Null when there is no bound.'),
  note: z.string().nullable().describe('What the solve found, in words: which engine answered and why (network engine), the rounds and routes of the column generation, where the bound comes from, and why the proof ended where it did (the time limit; cut short because the integrated strategy was proven and the interactive answer waits for the restricted ones only a little longer; a route cap).'),
  engine: z.enum(ENGINES).describe('The engine that answered for this option: neighbourhood (column generation over the disrupted aircraft and a few candidates) or network (a search over whole-network operating plans beside the column generation over the whole scope; the integrated option of a storm). The note says why.'),
  engine_reasons: z.array(z.enum(ENGINE_REASONS)).describe('Why the network engine answered (empty for the neighbourhood engine): several_disruptions, capacity_cut, aircraft_out_of_service, large_scope (more aircraft than the neighbourhood engine proves within its budget).'),
});

const RotationSchema = z.object({
  tail: z.string(),
  end_station: z.string().describe('Where the aircraft is at the end of the plan.'),
  required_end_station: z.string().describe('Where the rest of the schedule needs it (the origin of its next flight after the recovery window, or where its day was planned to end).'),
  legs: z.array(z.object({
    flight: z.string(),
    origin: z.string(),
    dest: z.string(),
    dep: Zoned.describe('Departure in this plan, local time of the origin.'),
    arr: Zoned.describe('Arrival in this plan, local time of the destination.'),
    delay_minutes: z.number().int().describe('dep − scheduled dep.'),
    planned_tail: z.string().describe('The aircraft the schedule planned for the flight; differs from `tail` when the flight is swapped.'),
  })),
  maintenance: z.array(z.object({ type: z.string(), station: z.string(), start: Zoned, end: Zoned }))
    .describe('Checks the aircraft performs in this plan.'),
}).describe('An aircraft of the scope and its timed rotation in this plan; aircraft outside the scope fly as planned.');

const OptionSchema = z.object({
  option_id: z.string(),
  strategy: z.enum(STRATEGIES),
  rank: z.number().int().min(1),
  summary: SummarySchema,
  cost_breakdown: CostBreakdownSchema,
  action_set: ActionSetSchema,
  rotations: z.array(RotationSchema).describe('Every aircraft of the scope (scope.aircraft order) with its flights in this plan.'),
  aircraft_out_of_position: z.array(z.object({ tail: z.string(), ends_at: z.string(), required_at: z.string() }))
    .describe('Each aircraft that cost_breakdown.aircraft_position charges: where it ends and where the next day\'s plan needs it (empty when none).'),
  violations: z.array(ViolationSchema).describe('Violations that remain in this option.'),
  solver: SolverReportSchema,
}).openapi('RecoveryOption');

export const SimulationResponseSchema = z.object({
  scenario_id: z.string(),
  disrupted_flight: z.string().nullable().describe('The delayed flight of a single-delay request; null when `disruptions` was given.'),
  airline: z.string(),
  schedule_file: z.string(),
  disruptions: z.array(DisruptionSchema).describe('The disruptions, normalised (a single-delay request as one flight_delay; timestamps in UTC).'),
  disruption: z.object({ min_delay_minutes: z.number().int().nullable().describe('The delay of a single-delay request; null for a list.'), disruption_time: Zoned, window_end: Zoned.nullable() }),
  scope: z.object({ aircraft: z.array(z.string()), flights: z.number().int(), itineraries: z.number().int() })
    .describe('What the model could re-plan: aircraft (the disrupted one first), flights and connections.'),
  options: z.array(OptionSchema).describe('One per strategy that found a plan, ranked by cost (ties: the order of strategies.evaluate).'),
  best_option_id: z.string().nullable().describe('option_id of rank 1; null only if no strategy found a plan.'),
  violations: z.array(ViolationSchema).describe('Violations the disruption causes if only delays are propagated (soft rules).'),
  unsolved_strategies: z.array(z.object({ strategy: z.enum(STRATEGIES), status: z.enum(SOLVE_STATUSES), detail: z.string() }))
    .describe('Strategies that found no plan (infeasible under hard rules, or no plan within the time limit).'),
  timings_ms: z.object({ total: z.number(), build: z.number(), solve: z.number() }),
}).openapi('SimulationResponse');

export type SimulationResponse = z.infer<typeof SimulationResponseSchema>;
export type RecoveryOptionView = SimulationResponse['options'][number];
export type ViolationView = z.infer<typeof ViolationSchema>;
export type CostBreakdownView = z.infer<typeof CostBreakdownSchema>;
export type SummaryView = z.infer<typeof SummarySchema>;

/** The complete configuration the service answers with: every field present. */
export const SolverConfigResponseSchema = answeredSchema(SolverConfigSchema).openapi('SolverConfig', {
  description: 'A complete solver configuration: every field with its value (GET /config gives the defaults).',
});

export const ConfigValidateRequestSchema = z.looseObject({})
  .describe('A complete or partial solver configuration (see SolverConfig); it is validated in the response, never rejected for its content.')
  .openapi('SolverConfigCandidate');

export const ConfigValidateResponseSchema = z.object({
  valid: z.boolean(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })),
  warnings: z.array(z.object({ code: z.string(), field: z.string(), message: z.string() }))
    .describe('Legal but suspicious values; codes: cancellation_cheaper_than_short_delay, turnaround_unrealistically_short, time_limit_too_long_for_interactive_use, mip_gap_large, max_delay_too_small, max_delay_very_large, free_swaps, crew_violation_cheaper_than_cancellation, maintenance_violation_cheaper_than_cancellation, swap_strategy_cannot_swap, cancellation_strategy_cannot_cancel, integrated_not_evaluated.'),
  config: SolverConfigResponseSchema.nullable().describe('The complete configuration after defaults, or null when invalid.'),
}).openapi('SolverConfigValidation');

const JobStatusSchema = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
const Utc = z.string().describe('UTC timestamp, ISO 8601 with Z.');

export const JobAcceptedSchema = z.object({
  job_id: z.string().describe('The job\'s id; GET /simulations/{job_id} reads it (with the same API key only).'),
  status: JobStatusSchema,
  created_at: Utc,
}).openapi('SimulationJobAccepted');

export const JobProgressSchema = z.object({
  phase: z.enum(['preparing', 'generating_columns', 'integer_plan', 'proving', 'done'])
    .describe('The least advanced phase of the strategies: preparing (scope and groups), generating_columns (pricing rounds of the LP), integer_plan (integer solves), proving (the optimality proof), done.'),
  elapsed_ms: z.number().int().describe('Time since the simulation started, milliseconds.'),
  best_cost: z.number().nullable().describe('Cost of the cheapest plan found so far (solver units), null before one.'),
  lower_bound: z.number().nullable().describe('Proven lower bound of every plan (the integrated strategy\'s when it is evaluated), null before one is known.'),
  mip_gap: z.number().nullable().describe('(best_cost − lower_bound) / max(1, |best_cost|), null unless both are known.'),
  iterations: z.number().int().describe('Pricing rounds so far, summed over the strategies.'),
}).openapi('SimulationJobProgress');

export const JobSchema = z.object({
  job_id: z.string(),
  status: JobStatusSchema.describe('queued, running, then succeeded, failed or cancelled.'),
  created_at: Utc,
  started_at: Utc.nullable(),
  finished_at: Utc.nullable(),
  progress: JobProgressSchema.nullable().describe('Null until the job starts.'),
  result: SimulationResponseSchema.nullable().describe('The POST /simulate response once the job has succeeded; while it runs, and after a cancellation, the best plans found so far (strategies without a plan yet are left out); null before the first plan.'),
  error: z.object({ detail: z.string() }).nullable().describe('Why the job failed; null unless status is failed.'),
}).openapi('SimulationJob');

export const JobSummarySchema = JobSchema.omit({ result: true }).openapi('SimulationJobSummary', {
  description: 'A job without its result: GET /simulations/{job_id}/status, and the items of GET /simulations.',
});

export const JobListSchema = z.object({
  jobs: z.array(JobSummarySchema).describe('The caller\'s jobs, newest first, without their results (GET /simulations/{job_id} has them).'),
  next_page_token: NextPageTokenSchema,
}).openapi('SimulationJobList');

export type JobView = z.infer<typeof JobSchema>;
