// Passenger groups that a plan may disrupt, and the flights that may take them (docs/model.md 1.6).
import { keptRecently, pushTo } from '../../domain/collections.ts';
import { tripDistanceKm } from '../../domain/passenger-rights.ts';
import type { Flight, Itinerary, Schedule } from '../../domain/schedule.ts';
import { directJourneys, journeyEnd, type Journey, type JourneyNetwork, type JourneySearch } from './journeys.ts';
import { serviceCostModel, serviceTrip } from '../model/cost-model.ts';
import type { RecoveryScope } from '../model/scope.ts';
import type { SolverConfig } from '../model/solver-config.ts';

/**
 * The passengers of a cancelled flight who were going no further (its booked passengers less those of
 * itineraries of several flights through it, who are their itinerary's group).
 */
export interface CancellationGroup {
  kind: 'cancellation';
  flight: Flight;
  passengers: number;
  /** Eligible direct flights, by departure; journeys of several flights are searched for (journeys.ts). */
  targets: Journey[];
  /** What a journey of these passengers must be. */
  search: JourneySearch;
  originalArrivalMinutes: number;
  compensationPerPassenger: number;
}

/**
 * A connection of an itinerary: its passengers land at the hub on `arriving` (the itinerary's leg
 * `index`) and leave on `missed` (leg `index + 1`). When the itinerary breaks at this connection or a
 * later one (a connection too short, or a leg cancelled), they may be re-accommodated from this hub
 * (docs/model.md 1.6).
 */
export interface Connection {
  index: number;
  arriving: Flight;
  missed: Flight;
  connectionMinutes: number;
  /** Direct flights from the hub to the itinerary's final destination; each is eligible only if the passengers reach it (see model). */
  targets: Journey[];
  /** What a journey from the hub must be (journeys of several flights are searched for: journeys.ts). */
  search: JourneySearch;
}

/**
 * The itinerary's origin, where its passengers still are when its first leg is cancelled: they are
 * re-accommodated from there to the final destination. Only then: once they have flown the first
 * leg they have left it.
 */
export interface ItineraryStart {
  /** The itinerary's first leg: the flight the passengers do not take. */
  missed: Flight;
  /** Direct flights from the origin to the final destination, leaving at or after the first leg's scheduled departure. */
  targets: Journey[];
  search: JourneySearch;
}

/**
 * The passengers of an itinerary of two or more flights (docs/model.md 1.6), disrupted when its journey
 * breaks: at its first leg they cannot take, a connection too short for them or a cancelled leg. They
 * are re-accommodated from where they are to the itinerary's final destination.
 */
export interface MisconnectionGroup {
  kind: 'misconnection';
  itinerary: Itinerary;
  /** The itinerary's flights, in order. */
  legs: Flight[];
  /** Its connections, in order (one fewer than its legs). */
  connections: Connection[];
  /** Its origin as a place to leave from when the first leg is cancelled; null when that leg is outside the scope (it flies). */
  start: ItineraryStart | null;
  passengers: number;
  originalArrivalMinutes: number;
  compensationPerPassenger: number;
}

/** Where a disrupted itinerary's passengers may leave their journey: its origin, or a connection's hub. */
export type ItineraryHub = Connection | ItineraryStart;

export type PassengerGroup = CancellationGroup | MisconnectionGroup;

export interface PassengerGroups { cancellations: CancellationGroup[]; misconnections: MisconnectionGroup[]; network: JourneyNetwork }

/** The legal compensation per passenger not carried on a trip over `legs` (docs/model.md 1.6). */
function compensation(schedule: Schedule, config: SolverConfig, legs: readonly Flight[]): number {
  return serviceCostModel(config).compensation(tripDistanceKm(schedule.airports, legs));
}

/** Cost of re-accommodating one passenger of a group on `journey`: it counts from the scheduled arrival of the journey's last flight. */
export function reaccommodationCost(config: SolverConfig, group: PassengerGroup, journey: Journey): number {
  const trip = serviceTrip(group.passengers, group.compensationPerPassenger);
  return serviceCostModel(config).arrival(trip, journeyEnd(journey).arrMinutes - group.originalArrivalMinutes, true);
}

/** The network journeys are searched on: `flights` (in scheduled departure order), by origin, and the schedule's connection times. */
export function journeyNetwork(schedule: Schedule, flights: readonly Flight[]): JourneyNetwork {
  const fromAirport = new Map<string, Flight[]>();
  // The flights are in scheduled departure order, and so is each airport's list.
  for (const f of flights) pushTo(fromAirport, f.origin, f);
  return { flights, fromAirport, connectionMinutes: (airport) => schedule.airports.get(airport)!.minConnectionMinutes };
}

/**
 * The airline's network less the departed flights, one object per schedule, airline and departed
 * flights: the journey finders keep what they derive from it by it (journeys.ts, SEARCHES), so the
 * requests on one schedule share that. A schedule replaced is another object (and its networks go
 * with it); beyond NETWORKS_PER_SCHEDULE sets of departed flights the least recently used go first.
 */
function airlineNetwork(schedule: Schedule, airline: string, departed: ReadonlySet<string> | undefined): JourneyNetwork {
  let known = NETWORKS.get(schedule);
  if (!known) NETWORKS.set(schedule, known = new Map());
  return keptRecently(known, [airline, ...[...departed ?? []].sort()].join('|'), NETWORKS_PER_SCHEDULE, () => {
    const airlineFlights = schedule.flightsByAirline.get(airline) ?? [];
    return journeyNetwork(schedule, departed && departed.size > 0 ? airlineFlights.filter((f) => !departed.has(f.id)) : airlineFlights);
  });
}
const NETWORKS = new WeakMap<Schedule, Map<string, JourneyNetwork>>();
const NETWORKS_PER_SCHEDULE = 4;

/** Passengers of itineraries of several flights aboard each flight (the rest of its booked passengers go no further). */
function connectingPassengers(schedule: Schedule): Map<string, number> {
  const aboard = new Map<string, number>();
  for (const it of schedule.itineraries) {
    if (it.flightIds.length < 2) continue;
    for (const id of it.flightIds) aboard.set(id, (aboard.get(id) ?? 0) + it.passengers);
  }
  return aboard;
}

/**
 * The groups a plan of `scope` may disrupt and the network their journeys are searched on: the
 * airline's flights, less those that have left (scope.departedFlightIds: no seat on them any more).
 * A cancelled flight's group holds the passengers going no further; those of an itinerary of several
 * flights are its itinerary's group, re-accommodated to the itinerary's final destination whichever
 * leg breaks it (docs/model.md 1.6).
 */
export function passengerGroups(schedule: Schedule, scope: Pick<RecoveryScope, 'airline' | 'flights'> & Partial<Pick<RecoveryScope, 'departedFlightIds'>>, config: SolverConfig): PassengerGroups {
  const network = airlineNetwork(schedule, scope.airline, scope.departedFlightIds);
  const connecting = connectingPassengers(schedule);
  const inScope = new Set(scope.flights);

  const cancellations: CancellationGroup[] = [];
  for (const flight of scope.flights) {
    const passengers = Math.max(0, flight.bookedPassengers - (connecting.get(flight.id) ?? 0));
    if (passengers === 0) continue;
    const compensationPerPassenger = compensation(schedule, config, [flight]);
    const search: JourneySearch = {
      origin: flight.origin, dest: flight.dest, earliestMinutes: flight.depMinutes, originalArrivalMinutes: flight.arrMinutes,
      compensationPerPassenger, excluded: new Set([flight]),
    };
    cancellations.push({
      kind: 'cancellation', flight, passengers, targets: directJourneys(network, config, search), search,
      originalArrivalMinutes: flight.arrMinutes, compensationPerPassenger,
    });
  }

  const misconnections: MisconnectionGroup[] = [];
  const seen = new Set<string>();
  for (const flight of scope.flights) {
    for (const itinerary of schedule.itinerariesByFlight.get(flight.id) ?? []) {
      if (seen.has(itinerary.id) || itinerary.flightIds.length < 2) continue;
      seen.add(itinerary.id);
      const legs = itinerary.flightIds.map((id) => schedule.flightsById.get(id)!);
      const first = legs[0]!;
      const last = legs[legs.length - 1]!;
      const own = new Set(legs);
      const compensationPerPassenger = compensation(schedule, config, legs);
      const toDestination = (origin: string, earliestMinutes: number): JourneySearch => ({
        origin, dest: last.dest, earliestMinutes, originalArrivalMinutes: last.arrMinutes, compensationPerPassenger, excluded: own,
      });
      const connections = legs.slice(0, -1).map((arriving, index): Connection => {
        const connectionMinutes = network.connectionMinutes(arriving.dest);
        // A flight is never flown earlier than scheduled, so no journey from the hub leaves before this.
        const search = toDestination(arriving.dest, arriving.arrMinutes + connectionMinutes);
        return { index, arriving, missed: legs[index + 1]!, connectionMinutes, targets: directJourneys(network, config, search), search };
      });
      let start: ItineraryStart | null = null;
      if (inScope.has(first)) {
        const search = toDestination(first.origin, first.depMinutes);
        start = { missed: first, targets: directJourneys(network, config, search), search };
      }
      misconnections.push({
        kind: 'misconnection', itinerary, legs, connections, start,
        passengers: itinerary.passengers,
        originalArrivalMinutes: last.arrMinutes,
        compensationPerPassenger,
      });
    }
  }
  misconnections.sort((x, y) => (x.itinerary.id < y.itinerary.id ? -1 : x.itinerary.id > y.itinerary.id ? 1 : 0));
  return { cancellations, misconnections, network };
}

/**
 * For each flight of the scope, a lower bound of what its passengers cost when it is cancelled, that
 * may be summed over any set of cancelled flights (the flight bound: src/recovery/bounds/flight-bound.ts).
 * Its own group's passengers are each re-accommodated or compensated: at least the cheaper of the two
 * each. An itinerary's passengers are one group however many of its legs are cancelled, so each of
 * its n legs in the scope carries 1/n of that (k ≥ 1 legs cancelled carry k/n of it, never more).
 */
export function leastCancelledPassengerCost(groups: PassengerGroups, scopeFlightIds: ReadonlySet<string>, config: SolverConfig): Map<string, number> {
  const model = serviceCostModel(config);
  const perPassenger = (g: PassengerGroup) => {
    const trip = serviceTrip(g.passengers, g.compensationPerPassenger);
    return Math.min(model.arrival(trip, 0, true), model.tripCancellation(trip));
  };
  const least = new Map<string, number>();
  const add = (id: string, cost: number) => least.set(id, (least.get(id) ?? 0) + cost);
  for (const g of groups.cancellations) add(g.flight.id, g.passengers * perPassenger(g));
  for (const g of groups.misconnections) {
    const cancellable = g.legs.filter((f) => scopeFlightIds.has(f.id));
    for (const f of cancellable) add(f.id, (g.passengers * perPassenger(g)) / cancellable.length);
  }
  return least;
}
