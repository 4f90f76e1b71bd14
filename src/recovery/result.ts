// The protocol-agnostic result of a simulation. Field names are those of the HTTP response
// (contract.md fixes them), so the HTTP layer serialises this as it is.
import type { Strategy } from './solver-config.ts';

export type SolveStatus = 'optimal' | 'feasible' | 'time_limit' | 'infeasible';

export interface DelayAction { flight: string; tail: string; delay_minutes: number; new_dep: string; new_arr: string }
export interface SwapAction { flight: string; from_tail: string; to_tail: string }
export interface CancellationAction { flight: string; passengers: number }
export interface ReaccommodationAction {
  /** The cancelled flight, or for a misconnection the flight the passengers missed. */
  from_flight: string;
  /** The new journey, in order; empty when the passengers could not be re-accommodated. */
  to_flights: string[];
  passengers: number;
  reason: 'cancellation' | 'misconnection';
  /** For a misconnection, the itinerary whose connection broke. */
  itinerary_id: string | null;
}

export interface ActionSet {
  delays: DelayAction[];
  swaps: SwapAction[];
  cancellations: CancellationAction[];
  reaccommodations: ReaccommodationAction[];
}

export interface Violation {
  type: 'crew_duty' | 'maintenance';
  /** The flight that breaks the rule (null for a check missed without any flight before it). */
  flight: string | null;
  tail?: string;
  crew_id?: string;
  /** The latest allowed instant: end of the maximum flight-duty period, or the check's start. */
  limit: string;
  /** What the plan does instead: the flight's arrival, or null when the aircraft never reaches the check's station in time. */
  actual: string | null;
  excess_minutes: number | null;
  detail: string;
}

export interface CostBreakdown {
  delay: number;
  cancellation: number;
  swap: number;
  spill: number;
  reaccommodation: number;
  compensation: number;
  crew_duty: number;
  maintenance: number;
  aircraft_position: number;
}

export interface OptionSummary {
  otp: number;
  nps: number;
  cost: number;
  flights_delayed: number;
  flights_cancelled: number;
  flights_swapped: number;
  passengers_disrupted: number;
  passengers_reaccommodated: number;
  passengers_not_reaccommodated: number;
  total_delay_minutes: number;
}

export interface SolverReport {
  status: SolveStatus;
  /** GLPK's objective value (equals summary.cost up to rounding when the plan came from this solve). */
  objective: number | null;
  /** Relative gap proven for the plan: 0 when optimal; from the LP relaxation bound otherwise; null if unknown. */
  mip_gap: number | null;
  solve_ms: number;
  rows: number;
  columns: number;
  nonzeros: number;
  integers: number;
  candidate_routes: number;
  /** Set when the plan was not found by this strategy's own solve (e.g. integrated fell back to a restricted plan). */
  note: string | null;
}

export interface RecoveryOption {
  option_id: string;
  strategy: Strategy;
  rank: number;
  summary: OptionSummary;
  cost_breakdown: CostBreakdown;
  action_set: ActionSet;
  violations: Violation[];
  solver: SolverReport;
}

export interface UnsolvedStrategy { strategy: Strategy; status: SolveStatus; detail: string }

export interface SimulationResult {
  scenario_id: string;
  disrupted_flight: string;
  airline: string;
  schedule_file: string;
  disruption: { min_delay_minutes: number; disruption_time: string; window_end: string | null };
  scope: { aircraft: string[]; flights: number; itineraries: number };
  options: RecoveryOption[];
  best_option_id: string | null;
  violations: Violation[];
  unsolved_strategies: UnsolvedStrategy[];
  timings_ms: { total: number; build: number; solve: number };
}
