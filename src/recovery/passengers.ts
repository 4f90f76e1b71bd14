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

export interface MisconnectionGroup {
  kind: 'misconnection';
  itinerary: Itinerary;
  first: Flight;
  second: Flight;
  connectionMinutes: number;
  passengers: number;
  /** Flights from the hub to the final destination; each is eligible only if the passengers reach it (see model). */
  targets: Flight[];
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
      // The model re-accommodates hub connections: itineraries of exactly two flights.
      if (seen.has(itinerary.id) || itinerary.flightIds.length !== 2) continue;
      seen.add(itinerary.id);
      const first = schedule.flightsById.get(itinerary.flightIds[0]!)!;
      const second = schedule.flightsById.get(itinerary.flightIds[1]!)!;
      misconnections.push({
        kind: 'misconnection', itinerary, first, second,
        connectionMinutes: schedule.airports.get(first.dest)!.minConnectionMinutes,
        passengers: itinerary.passengers,
        targets: (byRoute.get(`${first.dest}-${second.dest}`) ?? []).filter((g) => g !== second),
        originalArrivalMinutes: second.arrMinutes,
        compensationPerPassenger: compensation(schedule, config, first.origin, second.dest),
      });
    }
  }
  misconnections.sort((x, y) => (x.itinerary.id < y.itinerary.id ? -1 : x.itinerary.id > y.itinerary.id ? 1 : 0));
  return { cancellations, misconnections };
}
