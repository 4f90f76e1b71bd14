// What the row families of a strategy's model share while it is built: the builder, the problem, the
// columns declared so far, and the rows under construction. Route columns are added to the rows last,
// through the leg rows (LegRow): a route's coefficient in such a row is the sum over its legs of
// legCoefficient, the one definition the model builder and the pricing problem (pricing.ts) share.
import type { Aircraft, Flight, Schedule } from '../../../domain/schedule.ts';
import type { Route } from '../aircraft-routes.ts';
import type { ModelBuilder, Term } from '../../model/linear-model.ts';
import type { Journey, JourneySearch } from '../../passengers/journeys.ts';
import type { ItineraryHub, PassengerGroup, PassengerGroups } from '../../passengers/passengers.ts';
import type { TimedLeg } from '../../../domain/plan.ts';
import type { RecoveryScope } from '../../model/scope.ts';
import type { SolverConfig, Strategy } from '../../model/solver-config.ts';

/** A route column that flies a flight, with the leg (its times) on that route. */
export interface RouteUse { column: string; route: Route; leg: TimedLeg }

/**
 * A row in which the legs of a flight have a coefficient, by kind:
 * - cover: the flight is flown (1);
 * - seats: the flight offers its aircraft's free seats to re-accommodated passengers (−free seats);
 * - late: the flight (the first of a connection) lands too late for a departure at `atMinutes` (−1);
 * - departs_by: the flight (the second of a connection) leaves by `atMinutes` (−1);
 * - reaches: the flight (the first of a connection, or a flight of a re-accommodation journey) lands
 *   in time for a flight leaving at `atMinutes` (−passengers), which may then take the passengers;
 * - departure_in / arrival_in: the flight leaves / lands at `airport` in the clock hour starting at
 *   `atMinutes` (1).
 */
export interface LegRow {
  row: string;
  kind: 'cover' | 'seats' | 'late' | 'departs_by' | 'reaches' | 'departure_in' | 'arrival_in';
  atMinutes: number;
  connectionMinutes: number;
  passengers: number;
  airport: string;
}

/** The coefficient of one leg (aircraft `aircraft` flying `leg`) in the leg row `spec`. */
export function legCoefficient(spec: LegRow, aircraft: Aircraft, leg: TimedLeg): number {
  switch (spec.kind) {
    case 'cover': return 1;
    case 'seats': {
      const free = aircraft.seats - leg.flight.bookedPassengers;
      return free > 0 ? -free : 0;
    }
    case 'late': return leg.arrMinutes + spec.connectionMinutes > spec.atMinutes ? -1 : 0;
    case 'departs_by': return leg.depMinutes <= spec.atMinutes ? -1 : 0;
    case 'reaches': return leg.arrMinutes + spec.connectionMinutes <= spec.atMinutes ? -spec.passengers : 0;
    case 'departure_in': return leg.flight.origin === spec.airport && leg.depMinutes >= spec.atMinutes && leg.depMinutes < spec.atMinutes + 60 ? 1 : 0;
    case 'arrival_in': return leg.flight.dest === spec.airport && leg.arrMinutes >= spec.atMinutes && leg.arrMinutes < spec.atMinutes + 60 ? 1 : 0;
  }
}

/** Passengers of a group moved onto a journey; for an itinerary's, from where they leave it (`from`). */
export interface RebookColumn { group: PassengerGroup; journey: Journey; from: ItineraryHub | null }

/**
 * Where one group's journeys of several flights from one place come from, for the column generation
 * to search (docs/model.md 3.3): `key` names their columns (`rebook__<key>__to__<flights>`), `rows`
 * are the rows other than its flights' seat rows that price such a column (+1: the group's passengers
 * row first, a hub's `from` row), `usable` says which flights a journey may take (as its first, or a
 * later one). A journey's reach and journey_seats rows come with its column.
 */
export interface JourneySource {
  key: string;
  group: PassengerGroup;
  search: JourneySearch;
  rows: string[];
  usable: (flight: Flight, first: boolean) => boolean;
}

/** A row under construction: its terms other than route columns, sense and right-hand side. */
export interface PendingRow { name: string; terms: Term[]; sense: '=' | '<=' | '>='; rhs: number }

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
  /** Column name -> cancelled flight, and flight id -> its cancel column (flight rows). */
  cancelColumns: Map<string, Flight>;
  cancelColumnOf: Map<string, string>;
  /** Column name -> passengers of a group moved to a journey, from where they leave their itinerary for an itinerary's (passenger rows). */
  rebookColumns: Map<string, RebookColumn>;
  /** Column name -> passengers of a group not re-accommodated (passenger rows). */
  strandedColumns: Map<string, PassengerGroup>;
  /** The journeys of several flights that get a column, by their source's key (direct flights always do). */
  journeys: ReadonlyMap<string, readonly Journey[]>;
  /** Where the journeys of several flights come from, for the column generation to search. */
  journeySources: JourneySource[];
  /** Flight id -> the seat row of a flight that takes re-accommodated passengers (declared last, in first-use order). */
  seatRowOf: Map<string, PendingRow>;
  /** Rows in the order they are declared; route terms are added from legRows when the model is built. */
  rows: PendingRow[];
  /** Flight id -> the leg rows of its legs. */
  legRows: Map<string, LegRow[]>;
  /**
   * Itineraries whose rows the model holds although no route breaks them, for a leg the plan may
   * cancel: null for every such itinerary; else those whose leg a master cancelled (the column
   * generation adds them as it goes: docs/model.md 3.3) or a disruption cancels.
   */
  cancelledItineraries: ReadonlySet<string> | null;
  /** Itinerary ids whose rows the model holds (filled by addMisconnectionRows). */
  itineraryRows: Set<string>;
}
