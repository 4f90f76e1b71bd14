// What a simulation returns, in the engine's own terms: instants in epoch minutes, domain records
// (flights, checks, crew duties) and plain numbers. Nothing here knows the wire: the HTTP layer's
// presenter (src/http/recovery-presenter.ts) names the fields, formats local times and words the
// sentences. The result crosses the simulation thread's boundary by structured clone, so it holds
// data only (no functions, no class instances).
import type { Disruption } from '../domain/disruption.ts';
import type { CrewDuty, Flight, MaintenanceCheck } from '../domain/schedule.ts';
import type { ModelSize } from './linear-model.ts';
import type { Strategy } from './solver-config.ts';

/** What a solve proved: `optimal` (for the model solved), a plan without proof, a limit without a plan, or no plan exists. */
export const SOLVE_STATUSES = ['optimal', 'feasible', 'time_limit', 'infeasible'] as const;
export type SolveStatus = (typeof SOLVE_STATUSES)[number];

/** One flight as an aircraft flies it in a plan. */
export interface TimedLeg { flight: Flight; depMinutes: number; arrMinutes: number; delayMinutes: number }

/** An aircraft's timed rotation in a plan (the whole re-planned part of its day). */
export interface AircraftRotation {
  tail: string;
  legs: TimedLeg[];
  /** Checks performed, each after leg `afterLeg` (-1: before the first leg). */
  checks: { check: MaintenanceCheck; afterLeg: number }[];
  /** Where the aircraft is at the end of the plan, and where the rest of the schedule needs it. */
  endStation: string;
  requiredEndStation: string;
  /** True when the plan charges aircraft_position for it (it ends the day elsewhere than required). */
  outOfPosition: boolean;
}

export interface Delay { flight: Flight; tail: string; delayMinutes: number; depMinutes: number; arrMinutes: number }
export interface Swap { flight: Flight; fromTail: string; toTail: string }
export interface Cancellation { flight: Flight; passengers: number }
export interface Reaccommodation {
  /**
   * The cancelled flight, or for a misconnection the flight the passengers do not take: the first one
   * they miss, or, when they are re-accommodated from an earlier hub of their itinerary, the flight
   * they would have taken from there.
   */
  fromFlight: Flight;
  /** The new journey, in order; empty when the passengers could not be re-accommodated. */
  toFlights: Flight[];
  passengers: number;
  reason: 'cancellation' | 'misconnection';
  /** For a misconnection, the itinerary whose connection broke. */
  itineraryId: string | null;
}

/**
 * A maintenance check the plan misses. `flight` is the flight whose arrival at the check's station
 * comes after the check's start (`arrivalMinutes`); when the aircraft never reaches the station
 * after that start, `flight` is the last flight it leaves on before the check (or null when it flies
 * none) and `arrivalMinutes` is null.
 */
export interface MaintenanceViolation {
  type: 'maintenance';
  tail: string;
  check: MaintenanceCheck;
  flight: Flight | null;
  arrivalMinutes: number | null;
}

/** A flight arriving after its crew's maximum flight-duty period ends. */
export interface CrewDutyViolation {
  type: 'crew_duty';
  flight: Flight;
  crew: CrewDuty;
  limitMinutes: number;
  arrMinutes: number;
}

export type Violation = MaintenanceViolation | CrewDutyViolation;

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
  /** Set when the plan was not found by this strategy's own solve (e.g. integrated fell back to a restricted plan). */
  note: string | null;
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
