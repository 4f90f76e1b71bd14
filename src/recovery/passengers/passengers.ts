// Passenger groups that a plan may disrupt, and the flights that may take them (docs/model.md 1.6).
import { pushTo } from '../../domain/collections.ts';
import { eu261CompensationEur, greatCircleKm } from '../../domain/passenger-rights.ts';
import type { Flight, Itinerary, Schedule } from '../../domain/schedule.ts';
import { directJourneys, journeyCost, journeyEnd, type Journey, type JourneyNetwork, type JourneySearch } from './journeys.ts';
import type { RecoveryScope } from '../model/scope.ts';
import type { SolverConfig } from '../model/solver-config.ts';

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
 * later one, they may be re-accommodated from this hub (docs/model.md 1.6).
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

/** The passengers of an itinerary of two or more flights, disrupted when one of its connections breaks. */
export interface MisconnectionGroup {
  kind: 'misconnection';
  itinerary: Itinerary;
  /** The itinerary's flights, in order. */
  legs: Flight[];
  /** Its connections, in order (one fewer than its legs). */
  connections: Connection[];
  passengers: number;
  originalArrivalMinutes: number;
  compensationPerPassenger: number;
}

export type PassengerGroup = CancellationGroup | MisconnectionGroup;

export interface PassengerGroups { cancellations: CancellationGroup[]; misconnections: MisconnectionGroup[]; network: JourneyNetwork }

function compensation(schedule: Schedule, config: SolverConfig, origin: string, dest: string): number {
  const a = schedule.airports.get(origin)!;
  const b = schedule.airports.get(dest)!;
  // Schedules without coordinates (imported ROADEF ones) are refused before simulation (src/http/endpoints/simulate.ts).
  return config.cost_weights.compensation_multiplier * eu261CompensationEur(greatCircleKm(a.lat!, a.lon!, b.lat!, b.lon!));
}

/** Cost of re-accommodating one passenger of a group on `journey`: it counts from the scheduled arrival of the journey's last flight. */
export function reaccommodationCost(config: SolverConfig, group: PassengerGroup, journey: Journey): number {
  return journeyCost(config, group.originalArrivalMinutes, journeyEnd(journey).arrMinutes);
}

/** The network journeys are searched on: `flights` (in scheduled departure order), by origin, and the schedule's connection times. */
export function journeyNetwork(schedule: Schedule, flights: readonly Flight[]): JourneyNetwork {
  const fromAirport = new Map<string, Flight[]>();
  // The flights are in scheduled departure order, and so is each airport's list.
  for (const f of flights) pushTo(fromAirport, f.origin, f);
  return { flights, fromAirport, connectionMinutes: (airport) => schedule.airports.get(airport)!.minConnectionMinutes };
}

/**
 * The groups a plan of `scope` may disrupt and the network their journeys are searched on: the
 * airline's flights, less those that have left (scope.departedFlightIds: no seat on them any more).
 */
export function passengerGroups(schedule: Schedule, scope: Pick<RecoveryScope, 'airline' | 'flights'> & Partial<Pick<RecoveryScope, 'departedFlightIds'>>, config: SolverConfig): PassengerGroups {
  const departed = scope.departedFlightIds;
  const airlineFlights = schedule.flightsByAirline.get(scope.airline) ?? [];
  const flights = departed && departed.size > 0 ? airlineFlights.filter((f) => !departed.has(f.id)) : airlineFlights;
  const network = journeyNetwork(schedule, flights);

  const cancellations = scope.flights.filter((flight) => flight.bookedPassengers > 0).map((flight): CancellationGroup => {
    const compensationPerPassenger = compensation(schedule, config, flight.origin, flight.dest);
    const search: JourneySearch = {
      origin: flight.origin, dest: flight.dest, earliestMinutes: flight.depMinutes, originalArrivalMinutes: flight.arrMinutes,
      compensationPerPassenger, excluded: new Set([flight]),
    };
    return {
      kind: 'cancellation',
      flight,
      passengers: flight.bookedPassengers,
      targets: directJourneys(network, config, search),
      search,
      originalArrivalMinutes: flight.arrMinutes,
      compensationPerPassenger,
    };
  });

  const misconnections: MisconnectionGroup[] = [];
  const seen = new Set<string>();
  for (const flight of scope.flights) {
    for (const itinerary of schedule.itinerariesByFlight.get(flight.id) ?? []) {
      if (seen.has(itinerary.id) || itinerary.flightIds.length < 2) continue;
      seen.add(itinerary.id);
      const legs = itinerary.flightIds.map((id) => schedule.flightsById.get(id)!);
      const last = legs[legs.length - 1]!;
      const own = new Set(legs);
      const compensationPerPassenger = compensation(schedule, config, legs[0]!.origin, last.dest);
      const connections = legs.slice(0, -1).map((arriving, index): Connection => {
        const connectionMinutes = network.connectionMinutes(arriving.dest);
        const search: JourneySearch = {
          // A flight is never flown earlier than scheduled, so no journey from the hub leaves before this.
          origin: arriving.dest, dest: last.dest, earliestMinutes: arriving.arrMinutes + connectionMinutes,
          originalArrivalMinutes: last.arrMinutes, compensationPerPassenger, excluded: own,
        };
        return { index, arriving, missed: legs[index + 1]!, connectionMinutes, targets: directJourneys(network, config, search), search };
      });
      misconnections.push({
        kind: 'misconnection', itinerary, legs, connections,
        passengers: itinerary.passengers,
        originalArrivalMinutes: last.arrMinutes,
        compensationPerPassenger,
      });
    }
  }
  misconnections.sort((x, y) => (x.itinerary.id < y.itinerary.id ? -1 : x.itinerary.id > y.itinerary.id ? 1 : 0));
  return { cancellations, misconnections, network };
}
