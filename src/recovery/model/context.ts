// What the row families of a strategy's model share while it is built: the builder, the problem, and
// the columns declared so far (each family reads the columns of the families before it).
import type { Flight, Schedule } from '../../domain/schedule.ts';
import type { Route } from '../aircraft-routes.ts';
import type { ModelBuilder } from '../linear-model.ts';
import type { PassengerGroup, PassengerGroups } from '../passengers.ts';
import type { TimedLeg } from '../result.ts';
import type { RecoveryScope } from '../scope.ts';
import type { SolverConfig, Strategy } from '../solver-config.ts';

/** A route column that flies a flight, with the leg (its times) on that route. */
export interface RouteUse { column: string; route: Route; leg: TimedLeg }

/** A flight's offer of seats to re-accommodated passengers: a fixed number, or the free seats of whichever route flies it. */
export type SeatOffer = { fixed: number } | { byRoute: { variable: string; coef: number }[] };

export interface ModelContext {
  b: ModelBuilder;
  schedule: Schedule;
  scope: RecoveryScope;
  config: SolverConfig;
  strategy: Strategy;
  /** Passengers the plan may disrupt (passenger rows). */
  groups: PassengerGroups;
  /** Column name -> route (aircraft rows). */
  routeColumns: Map<string, Route>;
  /** Flight id -> the route columns that fly it (aircraft rows). */
  routesWith: Map<string, RouteUse[]>;
  /** Column name -> cancelled flight, and flight id -> its cancel column (flight rows, when the strategy cancels). */
  cancelColumns: Map<string, Flight>;
  cancelColumnOf: Map<string, string>;
  /** Column name -> passengers of a group moved to a flight (passenger rows). */
  rebookColumns: Map<string, { group: PassengerGroup; target: Flight }>;
  /** Column name -> passengers of a group not re-accommodated (passenger rows). */
  strandedColumns: Map<string, PassengerGroup>;
  /** Flight id -> seat offer (computed once) and the rebook columns that use its seats (seat rows). */
  seatOffers: Map<string, SeatOffer | null>;
  seatUses: Map<string, { variable: string; coef: number }[]>;
}
