// What a strategy's solve found out, as facts: numbers and reasons as codes. The engine returns
// them; the presenter (src/http/solver-notes.ts) words them for the API's `solver.note`. Plain data:
// they cross the simulation thread and are kept with a job's or a day's result as they are.
import type { SolveStatus } from './result.ts';
import type { Strategy } from './solver-config.ts';

/**
 * Which proof a lower bound comes from (docs/model.md 3.3-3.6): the column generation's LP at
 * convergence, its best Lagrangian bound (the generation stopped earlier), the flight bound (the
 * aircraft relaxed away), the integrated strategy's bound (every plan of the swap strategy is one of
 * its plans), or 0 (no cost is negative). Never the restricted master's LP value, which bounds nothing.
 */
export const LOWER_BOUND_SOURCES = ['converged_lp', 'lagrangian', 'flight_bound', 'network_bound', 'integrated_strategy', 'no_negative_cost'] as const;
export type LowerBoundSource = (typeof LOWER_BOUND_SOURCES)[number];

/** A lower bound of every plan of a simulation computed beside its strategies: the flight bound or the network bound (docs/model.md 3.3, 3.9). */
export interface SimulationBound {
  value: number;
  source: 'flight_bound' | 'network_bound';
}

/**
 * How the optimality proof of a plan ended: proven, proven because the plan costs the flight bound,
 * or why not: GLPK stopped before proving the plan optimal over the priced routes, a route or journey
 * cap (solver.max_routes_per_aircraft), the time limit, the restricted strategy's part of the budget
 * ended once the integrated strategy was proven (cut_short), or no bound before the time limit.
 */
export type ProofOutcome = 'proven' | 'proven_by_bound' | 'glpk_stopped' | 'routes_capped' | 'journeys_capped' | 'time_limit' | 'cut_short' | 'no_bound';

/** Why the column generation stopped: no negative route left, the bound close enough to the LP, or the budget. */
export type GenerationStop = 'converged' | 'close' | 'time';

export type StrategyFacts =
  /** Flights outside the scope already exceed a capacity: no plan of any strategy exists. */
  | { kind: 'capacity_exceeded'; airport: string; movement: 'departures' | 'arrivals'; hourStartMinutes: number; fixed: number; max: number }
  /** Delay propagation: the planned routes with propagated delays break a rule or a disruption. */
  | { kind: 'planned_routes_break_rules' }
  /** The generation over every route of the scope proved that no plan of this strategy exists. */
  | { kind: 'no_plan_exists'; rounds: number }
  /** The swap strategy: a plan over the integrated strategy's routes costs its bound, so no generation was needed. */
  | { kind: 'at_integrated_bound'; routes: number; bound: number }
  /** The swap strategy: the time ran out before a generation could start. */
  | { kind: 'no_time_for_generation'; routes: number; bound: number | null; noPlanAmongThem: boolean }
  /** A plan found by a column generation (and, unless proven already, an optimality proof). */
  | {
    kind: 'generated';
    /** Delay propagation: only the passengers' journeys were generated. */
    fixedRoutes: boolean;
    rounds: number;
    routes: number;
    /** The integrated strategy's routes this solve started from, null when it did not. */
    inheritedRoutes: number | null;
    stop: GenerationStop;
    /** With stop 'close': how close (relative) the Lagrangian bound came to the LP value. */
    closeWithin: number;
    /** The best bound of the generation (or inherited), null when none is known. */
    generationBound: number | null;
    /** The best Lagrangian bound when it is below 0 and the bound reported is 0 (no cost is negative), else null. */
    negativeLagrangian: number | null;
    /** The simulation's bound (flight or network) when it is above the generation's and is the bound reported, else null. */
    floorBound: SimulationBound | null;
    proof: ProofOutcome;
    /** solver.max_routes_per_aircraft, which a capped proof needed more than. */
    maxRoutesPerAircraft: number;
    /** No integer plan over the routes priced, although one over every route may exist: that none exists is not proven. */
    noPlanAmongPriced: boolean;
  }
  /**
   * The integrated strategy under the network engine: the network search's plan, cheaper than the
   * column generation's (`generationObjective`, null without a plan), whose facts are `generation`.
   * `passengers`: how its passengers are re-accommodated (network/service-search.ts, SearchPassengers:
   * exactly for its routes, over direct flights only, or without a solver).
   */
  | { kind: 'network_search_plan'; generationObjective: number | null; generation: StrategyFacts; passengers: 'exact' | 'direct_flights' | 'without_solver' }
  /** The best plan so far of a solve still running (progress). */
  | { kind: 'running' };

/** What a strategy's option reports: its own solve's facts, or the integrated option standing in for a cheaper restricted plan. */
export type SolverFacts =
  | StrategyFacts
  | { kind: 'restricted_plan_used'; plan: Strategy; ownStatus: SolveStatus; ownObjective: number | null; own: StrategyFacts };
