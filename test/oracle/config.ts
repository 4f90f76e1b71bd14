// The oracle's view of the solver configuration: a plain JSON object with the fields of
// src/recovery/model/solver-config.ts. The defaults are COPIED here (not imported) so the oracle shares
// no code with the engine; a full SolverConfig value is structurally assignable to OracleConfig.

export type OracleStrategy = 'delay_propagation' | 'aircraft_swap' | 'cancellation' | 'integrated';
export const ORACLE_STRATEGIES: readonly OracleStrategy[] = ['delay_propagation', 'aircraft_swap', 'cancellation', 'integrated'];

export interface OracleConfig {
  constraints: {
    max_delay_minutes: number;
    max_swaps: number;
    allow_cancellations: boolean;
    max_cancellations: number | null;
    crew_duty: 'soft' | 'hard';
    maintenance: 'soft' | 'hard';
    recovery_window_hours: number | null;
    swap_fleet_policy: 'same_family' | 'same_fleet' | 'any';
    max_reaccommodation_legs: number | null;
  };
  cost_weights: {
    delay_per_minute: number;
    delay_per_passenger_minute: number;
    cancellation_per_flight: number;
    swap_per_flight: number;
    spill_per_passenger: number;
    reaccommodation_per_passenger: number;
    reaccommodation_delay_per_passenger_minute: number;
    compensation_multiplier: number;
    crew_duty_violation: number;
    maintenance_violation: number;
    aircraft_out_of_position: number;
  };
  strategies: { evaluate: OracleStrategy[] };
  turnaround: {
    default_minutes: number;
    by_fleet: Record<string, number>;
    by_airport: Record<string, number>;
    by_airport_fleet: Record<string, Record<string, number>>;
  };
  solver: {
    time_limit_ms: number;
    mip_gap: number;
    max_candidate_aircraft: number;
    swap_window_hours: number;
    max_routes_per_aircraft: number;
    /** Grid of chosen departure times (docs/model.md 1.3): e(g) + k x this, minutes. */
    time_step_minutes: number;
    /** Deprecated and ignored by the problem definition; accepted so an engine configuration is an OracleConfig. */
    max_route_deviations?: number;
    max_branching?: number;
  };
}

/** The documented defaults (copied from solver-config.ts and domain/turnaround.ts). */
export function defaultOracleConfig(): OracleConfig {
  return {
    constraints: {
      max_delay_minutes: 360,
      max_swaps: 20,
      allow_cancellations: true,
      max_cancellations: null,
      crew_duty: 'soft',
      maintenance: 'soft',
      recovery_window_hours: null,
      swap_fleet_policy: 'same_family',
      max_reaccommodation_legs: null,
    },
    cost_weights: {
      delay_per_minute: 100,
      delay_per_passenger_minute: 0.5,
      cancellation_per_flight: 8000,
      swap_per_flight: 400,
      spill_per_passenger: 400,
      reaccommodation_per_passenger: 120,
      reaccommodation_delay_per_passenger_minute: 0.5,
      compensation_multiplier: 1,
      crew_duty_violation: 15000,
      maintenance_violation: 50000,
      aircraft_out_of_position: 20000,
    },
    strategies: { evaluate: ['delay_propagation', 'aircraft_swap', 'cancellation', 'integrated'] },
    turnaround: {
      default_minutes: 35,
      by_fleet: { E190: 30, E195: 30, A319: 35, A320: 40, A321: 45 },
      by_airport: { LHR: 50, CDG: 45 },
      by_airport_fleet: { LHR: { A319: 45, A320: 50, A321: 55 }, CDG: { A320: 45, A321: 50 } },
    },
    solver: {
      time_limit_ms: 2000,
      mip_gap: 0,
      max_candidate_aircraft: 6,
      swap_window_hours: 6,
      max_routes_per_aircraft: 500,
      time_step_minutes: 5,
    },
  };
}

export interface OracleConfigPatch {
  constraints?: Partial<OracleConfig['constraints']>;
  cost_weights?: Partial<OracleConfig['cost_weights']>;
  strategies?: Partial<OracleConfig['strategies']>;
  turnaround?: Partial<OracleConfig['turnaround']>;
  solver?: Partial<OracleConfig['solver']>;
}

/** Defaults with some sections overridden field by field (objects of the turnaround section are replaced). */
export function oracleConfig(patch: OracleConfigPatch = {}): OracleConfig {
  const d = defaultOracleConfig();
  return {
    constraints: { ...d.constraints, ...patch.constraints },
    cost_weights: { ...d.cost_weights, ...patch.cost_weights },
    strategies: { ...d.strategies, ...patch.strategies },
    turnaround: { ...d.turnaround, ...patch.turnaround },
    solver: { ...d.solver, ...patch.solver },
  };
}
