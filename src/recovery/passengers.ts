// Passenger groups that a plan may disrupt, and the flights that may take them (docs/model.md 1.6).
import { pushTo } from '../domain/collections.ts';
import { eu261CompensationEur, greatCircleKm } from '../domain/passenger-rights.ts';
import type { Flight, Itinerary, Schedule } from '../domain/schedule.ts';
import type { RecoveryScope } from './scope.ts';
import type { SolverConfig } from './solver-config.ts';

export interface CancellationGroup {
  kind: 'cancellation';
  flight: Flight;
  passengers: number;
  /** Eligible new flights, departure order. */
  targets: Flight[];
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
  /** Flights from the hub to the itinerary's final destination; each is eligible only if the passengers reach it (see model). */
  targets: Flight[];
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

export interface PassengerGroups { cancellations: CancellationGroup[]; misconnections: MisconnectionGroup[] }

function compensation(schedule: Schedule, config: SolverConfig, origin: string, dest: string): number {
  const a = schedule.airports.get(origin)!;
  const b = schedule.airports.get(dest)!;
  // Schedules without coordinates (imported ROADEF ones) are refused before simulation (src/http/endpoints/simulate.ts).
  return config.cost_weights.compensation_multiplier * eu261CompensationEur(greatCircleKm(a.lat!, a.lon!, b.lat!, b.lon!));
}

/** Cost of re-accommodating one passenger of a group on `target`. */
export function reaccommodationCost(config: SolverConfig, group: PassengerGroup, target: Flight): number {
  const w = config.cost_weights;
  return w.reaccommodation_per_passenger
    + w.reaccommodation_delay_per_passenger_minute * Math.max(0, target.arrMinutes - group.originalArrivalMinutes);
}

export function passengerGroups(schedule: Schedule, scope: RecoveryScope, config: SolverConfig): PassengerGroups {
  const byRoute = new Map<string, Flight[]>();
  for (const f of schedule.flightsByAirline.get(scope.airline) ?? []) {
    pushTo(byRoute, `${f.origin}-${f.dest}`, f);
  }
  const cancellations = scope.flights.map((flight): CancellationGroup => ({
    kind: 'cancellation',
    flight,
    passengers: flight.bookedPassengers,
    targets: (byRoute.get(`${flight.origin}-${flight.dest}`) ?? []).filter((g) => g !== flight && g.depMinutes >= flight.depMinutes),
    originalArrivalMinutes: flight.arrMinutes,
    compensationPerPassenger: compensation(schedule, config, flight.origin, flight.dest),
  })).filter((g) => g.passengers > 0);

  const misconnections: MisconnectionGroup[] = [];
  const seen = new Set<string>();
  for (const flight of scope.flights) {
    for (const itinerary of schedule.itinerariesByFlight.get(flight.id) ?? []) {
      if (seen.has(itinerary.id) || itinerary.flightIds.length < 2) continue;
      seen.add(itinerary.id);
      const legs = itinerary.flightIds.map((id) => schedule.flightsById.get(id)!);
      const last = legs[legs.length - 1]!;
      const own = new Set(legs);
      const connections = legs.slice(0, -1).map((arriving, index): Connection => ({
        index, arriving, missed: legs[index + 1]!,
        connectionMinutes: schedule.airports.get(arriving.dest)!.minConnectionMinutes,
        targets: (byRoute.get(`${arriving.dest}-${last.dest}`) ?? []).filter((g) => !own.has(g)),
      }));
      misconnections.push({
        kind: 'misconnection', itinerary, legs, connections,
        passengers: itinerary.passengers,
        originalArrivalMinutes: last.arrMinutes,
        compensationPerPassenger: compensation(schedule, config, legs[0]!.origin, last.dest),
      });
    }
  }
  misconnections.sort((x, y) => (x.itinerary.id < y.itinerary.id ? -1 : x.itinerary.id > y.itinerary.id ? 1 : 0));
  return { cancellations, misconnections };
}
