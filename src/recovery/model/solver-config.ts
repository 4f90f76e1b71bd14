// The solver configuration: operational constraints, cost weights, strategies, turnaround and solver
// settings. One zod schema gives the defaults (GET /config), validates partial configurations
// (POST /config/validate and the `config` of /simulate) and documents every field in OpenAPI.
import { z } from 'zod';
import { DEFAULT_TURNAROUND } from '../../domain/turnaround.ts';

export const STRATEGIES = ['delay_propagation', 'aircraft_swap', 'cancellation', 'integrated'] as const;
export type Strategy = (typeof STRATEGIES)[number];

const minutes = (max: number) => z.number().int().min(0).max(max);
const weight = (description: string) => z.number().min(0).max(1e7).describe(description);
const turnaroundMinutes = z.number().int().min(0).max(600);

export const ConstraintsSchema = z.strictObject({
  max_delay_minutes: minutes(2880).default(360)
    .describe('Largest delay any flight other than the disrupted one may take, minutes. The disrupted flight may take max(min_delay_minutes, this).'),
  max_swaps: z.number().int().min(0).max(1000).default(20)
    .describe('Most flights that may be flown by another aircraft than planned, over the whole plan.'),
  allow_cancellations: z.boolean().default(true)
    .describe('Whether any strategy may cancel flights (false also empties the cancellation strategy of cancellations).'),
  max_cancellations: z.number().int().min(0).max(1000).nullable().default(null)
    .describe('Most flights a plan may cancel; null means no limit.'),
  crew_duty: z.enum(['soft', 'hard']).default('soft')
    .describe('hard: no flight may end after its crew\'s maximum flight-duty period; soft: allowed at cost_weights.crew_duty_violation each, and reported.'),
  maintenance: z.enum(['soft', 'hard']).default('soft')
    .describe('hard: every maintenance check is met; soft: a missed check costs cost_weights.maintenance_violation and is reported.'),
  recovery_window_hours: z.number().min(1).max(48).nullable().default(null)
    .describe('Hours after the disruption in which flights may be re-planned; null means to the end of the schedule day. Aircraft with later flights must be back in position for them.'),
  max_reaccommodation_legs: z.number().int().min(1).max(100).nullable().default(null)
    .describe('Most flights of the new journey of a re-accommodated passenger; null means any number, 1 direct flights only. A journey of several flights connects at each airport in at least its minimum connection time, at the next flight\'s scheduled departure, and visits no airport twice. Journeys of several flights are found by a search over the network as their columns are needed (docs/model.md 3.3).'),
  swap_fleet_policy: z.enum(['same_family', 'same_fleet', 'any']).default('same_family')
    .describe('Which aircraft may fly a flight planned for another: same type-rating family (A319/A320/A321), same fleet, or any.'),
});

export const CostWeightsSchema = z.strictObject({
  delay_per_minute: weight('Cost units per minute of departure delay of a flight.').default(100),
  delay_per_passenger_minute: weight('Cost units per booked passenger per minute of departure delay.').default(0.5),
  cancellation_per_flight: weight('Cost units per cancelled flight, before passenger costs.').default(8000),
  swap_per_flight: weight('Cost units per flight flown by another aircraft than planned.').default(400),
  spill_per_passenger: weight('Cost units per booked passenger who does not fit a smaller aircraft.').default(400),
  reaccommodation_per_passenger: weight('Cost units per passenger moved to another flight.').default(120),
  reaccommodation_delay_per_passenger_minute: weight('Cost units per re-accommodated passenger per minute of later scheduled arrival.').default(0.5),
  compensation_multiplier: weight('Multiplier on the EU261 compensation (250/400/600 by distance) of a passenger not re-accommodated.').default(1),
  crew_duty_violation: weight('Cost units per flight and crew ending beyond the maximum flight-duty period (soft crew_duty).').default(15000),
  maintenance_violation: weight('Cost units per maintenance check missed (soft maintenance).').default(50000),
  aircraft_out_of_position: weight('Cost units per aircraft ending the day elsewhere than the next day\'s plan needs it.').default(20000),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 currency code such as EUR').default('EUR')
    .describe('ISO 4217 code of the cost unit: every weight above and every cost a simulation returns is counted in it (clients label costs with it). It converts nothing: the EU261 compensation is counted in euros times compensation_multiplier, so with another currency set compensation_multiplier to its amount per euro.'),
});

export const StrategiesSchema = z.strictObject({
  evaluate: z.array(z.enum(STRATEGIES)).min(1).max(STRATEGIES.length)
    .refine((list) => new Set(list).size === list.length, 'must not name a strategy twice')
    .default([...STRATEGIES])
    .describe('Strategies to evaluate, each its own solve. The order breaks ties in the ranking (earlier wins).'),
});

export const TurnaroundSchema = z.strictObject({
  default_minutes: turnaroundMinutes.default(DEFAULT_TURNAROUND.default_minutes)
    .describe('Minimum turnaround when nothing more specific applies, minutes.'),
  by_fleet: z.record(z.string().regex(/^[A-Z0-9]{3,4}$/), turnaroundMinutes).default(DEFAULT_TURNAROUND.by_fleet)
    .describe('Minimum turnaround per fleet code, minutes.'),
  by_airport: z.record(z.string().regex(/^[A-Z]{3}$/), turnaroundMinutes).default(DEFAULT_TURNAROUND.by_airport)
    .describe('Minimum turnaround per airport, minutes (used for fleets without a fleet value).'),
  by_airport_fleet: z.record(z.string().regex(/^[A-Z]{3}$/), z.record(z.string().regex(/^[A-Z0-9]{3,4}$/), turnaroundMinutes))
    .default(DEFAULT_TURNAROUND.by_airport_fleet)
    .describe('Minimum turnaround per airport and fleet, minutes. Precedence: airport+fleet, then fleet, then airport, then default.'),
});

export const SolverSettingsSchema = z.strictObject({
  time_limit_ms: z.number().int().min(50).max(120_000).default(2000)
    .describe('Time budget of the simulation, milliseconds: its strategies (column generation, integer plan and optimality proof each) run at once and all answer within it, less min(400 ms, 5 %) kept for reading the plans back and answering. At the limit each returns the best plan it found with status time_limit and its proven gap; a solver worker still busy then is terminated.'),
  mip_gap: z.number().min(0).max(1).default(0)
    .describe('Relative gap at which GLPK may stop its branch and bound early (0 = prove optimality). A plan not proven optimal has status feasible or time_limit with its gap.'),
  max_candidate_aircraft: z.number().int().min(0).max(60).default(6)
    .describe('Aircraft besides the disrupted ones that the model may use, chosen by how close in time they meet the disrupted aircraft\'s routes.'),
  swap_window_hours: z.number().min(0).max(24).default(6)
    .describe('An aircraft is a swap candidate when it is on the ground at an airport a disrupted aircraft leaves from within this many hours of that departure.'),
  max_routes_per_aircraft: z.number().int().min(1).max(20_000).default(500)
    .describe('Most route columns per aircraft the model may hold (generated by pricing, or enumerated for the optimality proof). When the proof needs more, the plan is returned with status feasible and its proven gap.'),
  time_step_minutes: z.number().int().min(1).max(60).default(5)
    .describe('Grid of departure times the model may choose from: every flight may leave at its earliest allowed minute plus a multiple of this step, up to its delay limit. The bundled schedules keep every time on a 5-minute grid, so with 5 a delay propagated through turnarounds is exact.'),
  max_route_deviations: z.number().int().min(0).max(50).optional()
    .describe('Deprecated and ignored: routes are no longer enumerated with caps but priced over the whole route space. Accepted so that older configurations still validate (with a warning).'),
  max_branching: z.number().int().min(1).max(200).optional()
    .describe('Deprecated and ignored, as max_route_deviations.'),
});

export const SolverConfigSchema = z.strictObject({
  constraints: ConstraintsSchema.default(ConstraintsSchema.parse({})),
  cost_weights: CostWeightsSchema.default(CostWeightsSchema.parse({})),
  strategies: StrategiesSchema.default(StrategiesSchema.parse({})),
  turnaround: TurnaroundSchema.default(TurnaroundSchema.parse({})),
  solver: SolverSettingsSchema.default(SolverSettingsSchema.parse({})),
});

export type SolverConfig = z.infer<typeof SolverConfigSchema>;
export type CostWeights = SolverConfig['cost_weights'];

export const DEFAULT_SOLVER_CONFIG: SolverConfig = SolverConfigSchema.parse({});

export interface ConfigWarning { code: string; field: string; message: string }
export interface ConfigError { field: string; message: string }

export type ConfigResolution =
  | { valid: true; config: SolverConfig; errors: []; warnings: ConfigWarning[] }
  | { valid: false; config: null; errors: ConfigError[]; warnings: [] };

/** Validate a partial configuration and apply defaults; never throws for bad input. */
export function resolveSolverConfig(input: unknown): ConfigResolution {
  const parsed = SolverConfigSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({
      field: issue.path.map(String).join('.') || '(root)',
      message: issue.message,
    }));
    return { valid: false, config: null, errors, warnings: [] };
  }
  return { valid: true, config: parsed.data, errors: [], warnings: configWarnings(parsed.data) };
}

/**
 * The catalogue of legal but suspicious values. Each warning has a stable code so clients can
 * react to it; the README lists them.
 */
export function configWarnings(config: SolverConfig): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  const warn = (code: string, field: string, message: string) => warnings.push({ code, field, message });
  const { constraints: c, cost_weights: w, strategies: s, turnaround: t, solver } = config;

  if (w.cancellation_per_flight < w.delay_per_minute * 30) {
    warn('cancellation_cheaper_than_short_delay', 'cost_weights.cancellation_per_flight',
      `A cancellation (${w.cancellation_per_flight}) costs less than a 30-minute delay (${w.delay_per_minute * 30}); plans will cancel rather than delay.`);
  }
  const turns = [t.default_minutes, ...Object.values(t.by_fleet), ...Object.values(t.by_airport),
    ...Object.values(t.by_airport_fleet).flatMap((byFleet) => Object.values(byFleet))];
  if (Math.min(...turns) < 20) {
    warn('turnaround_unrealistically_short', 'turnaround',
      `A minimum turnaround of ${Math.min(...turns)} minutes is shorter than any real narrow-body turnaround (about 20 minutes at best).`);
  }
  if (solver.time_limit_ms > 10_000) {
    warn('time_limit_too_long_for_interactive_use', 'solver.time_limit_ms',
      `A ${solver.time_limit_ms} ms time limit per strategy is long for an interactive call; controllers expect an answer within seconds.`);
  }
  if (solver.mip_gap > 0.05) {
    warn('mip_gap_large', 'solver.mip_gap', `A MIP gap of ${solver.mip_gap * 100}% lets the solver stop with plans far from the optimum.`);
  }
  if (c.max_delay_minutes < 30) {
    warn('max_delay_too_small', 'constraints.max_delay_minutes',
      `A maximum delay of ${c.max_delay_minutes} minutes leaves almost no room to absorb a disruption; most plans will cancel or be infeasible.`);
  }
  if (c.max_delay_minutes > 720) {
    warn('max_delay_very_large', 'constraints.max_delay_minutes',
      `A maximum delay of ${c.max_delay_minutes} minutes allows delays past half a day, beyond any crew's duty period.`);
  }
  if (w.swap_per_flight === 0) {
    warn('free_swaps', 'cost_weights.swap_per_flight', 'Swaps cost nothing: plans may swap aircraft for no benefit, churning the operation.');
  }
  if (c.crew_duty === 'soft' && w.crew_duty_violation < w.cancellation_per_flight) {
    warn('crew_violation_cheaper_than_cancellation', 'cost_weights.crew_duty_violation',
      'Breaking a crew duty limit costs less than a cancellation, so plans will prefer illegal duties.');
  }
  if (c.maintenance === 'soft' && w.maintenance_violation < w.cancellation_per_flight) {
    warn('maintenance_violation_cheaper_than_cancellation', 'cost_weights.maintenance_violation',
      'Missing a maintenance check costs less than a cancellation, so plans will prefer to miss checks.');
  }
  if (s.evaluate.includes('aircraft_swap') && (solver.max_candidate_aircraft === 0 || c.max_swaps === 0)) {
    warn('swap_strategy_cannot_swap', 'strategies.evaluate',
      'The aircraft_swap strategy is evaluated but no swap is possible (max_candidate_aircraft or max_swaps is 0).');
  }
  if (s.evaluate.includes('cancellation') && (!c.allow_cancellations || c.max_cancellations === 0)) {
    warn('cancellation_strategy_cannot_cancel', 'strategies.evaluate',
      'The cancellation strategy is evaluated but cancellations are not allowed.');
  }
  for (const field of ['max_route_deviations', 'max_branching'] as const) {
    if (solver[field] !== undefined) {
      warn('deprecated_field', `solver.${field}`, `solver.${field} no longer has any effect: every route of the scope is priced by column generation.`);
    }
  }
  if (!s.evaluate.includes('integrated')) {
    warn('integrated_not_evaluated', 'strategies.evaluate',
      'The integrated strategy is not evaluated, so the best option may not be the optimum over all actions.');
  }
  return warnings;
}
