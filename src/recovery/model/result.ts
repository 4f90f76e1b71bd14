// What a simulation returns, in the engine's own terms: instants in epoch minutes, domain records
// (flights, checks, crew duties, and the plan's parts from src/domain/plan.ts) and plain numbers. Nothing here knows the wire: the HTTP layer's
// presenter (src/http/recovery-presenter.ts) names the fields, formats local times and words the
// sentences. The result crosses the simulation thread's boundary by structured clone, so it holds
// data only (no functions, no class instances).
import type { Disruption } from '../../domain/disruption.ts';
import type { AircraftRotation, Cancellation, Delay, Reaccommodation, Swap, Violation } from '../../domain/plan.ts';
import type { EngineName, EngineReason } from './engine-choice.ts';
import type { ModelSize } from './linear-model.ts';
import type { Strategy } from './solver-config.ts';
import type { LowerBoundSource, SolverFacts } from './solve-facts.ts';

/** What a solve proved: `optimal` (for the model solved), a plan without proof, a limit without a plan, or no plan exists. */
export const SOLVE_STATUSES = ['optimal', 'feasible', 'time_limit', 'infeasible'] as const;
export type SolveStatus = (typeof SOLVE_STATUSES)[number];

/** Cost per component, in solver units; they add up to the option's cost. */
export interface CostBreakdown {
  delay: number;
  cancellation: number;
  swap: number;
  spill: number;
  reaccommodation: number;
  compensation: number;
  crewDuty: number;
  maintenance: number;
  aircraftPosition: number;
}

export interface OptionKpis {
  /** Share of the airline's flights that are flown and arrive at most 15 minutes late. */
  otp: number;
  /** Passenger-satisfaction proxy in [0, 1] (see the response schema for its definition). */
  nps: number;
  cost: number;
  passengersDisrupted: number;
  passengersReaccommodated: number;
  passengersNotReaccommodated: number;
}

export interface SolverReport {
  status: SolveStatus;
  /** GLPK's objective value (equals the option's cost up to rounding when the plan came from this solve). */
  objective: number | null;
  /** A lower bound of every plan of the strategy, proven over the full route space of the scope; null when none is known. */
  lowerBound: number | null;
  /** Relative gap proven for the plan: 0 when optimal, (objective − lowerBound) / max(1, |objective|) otherwise, null when unknown. */
  mipGap: number | null;
  solveMs: number;
  /** Size of the final integer model (the generated and enumerated routes). */
  size: ModelSize;
  candidateRoutes: number;
  /** Rounds of column generation (0 for delay propagation, whose routes are fixed). */
  iterations: number;
  /** Which proof `lowerBound` comes from; null when there is no bound. */
  lowerBoundSource: LowerBoundSource | null;
  /** What the solve found out, as numbers and codes (the presenter words them as the option's note). */
  facts: SolverFacts;
  /** The engine that answered for this option (recovery/model/engine-choice.ts) and why, as codes the presenter words. */
  engine: EngineName;
  engineReasons: EngineReason[];
}

export interface RecoveryOption {
  strategy: Strategy;
  /** 1 = best, by cost (ties: the order of strategies.evaluate). */
  rank: number;
  kpis: OptionKpis;
  costs: CostBreakdown;
  /** Every aircraft of the scope with its timed rotation in this plan (the others fly as planned). */
  rotations: AircraftRotation[];
  delays: Delay[];
  swaps: Swap[];
  cancellations: Cancellation[];
  reaccommodations: Reaccommodation[];
  violations: Violation[];
  solver: SolverReport;
}

export interface UnsolvedStrategy { strategy: Strategy; status: SolveStatus; detail: string }

export interface SimulationResult {
  scenarioId: string;
  airline: string;
  scheduleName: string;
  /** The delayed flight of a single-delay request, null for a list of disruptions. */
  disruptedFlightId: string | null;
  disruptions: Disruption[];
  disruptionMinutes: number;
  windowEndMinutes: number | null;
  scope: { tails: string[]; flights: number; itineraries: number };
  /** Ranked, best first. */
  options: RecoveryOption[];
  /** What the disruption breaks if only the minimum delay is propagated (soft rules). */
  violations: Violation[];
  unsolved: UnsolvedStrategy[];
  timingsMs: { total: number; build: number; solve: number };
}
