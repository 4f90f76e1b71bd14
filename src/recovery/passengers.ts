// Passenger groups that a plan may disrupt, and the flights that may take them (docs/model.md 1.6).
import { pushTo } from '../domain/collections.ts';
import { eu261CompensationEur, greatCircleKm } from '../domain/passenger-rights.ts';
import type { Flight, Itinerary, Schedule } from '../domain/schedule.ts';
import type { RecoveryScope } from './scope.ts';
import type { SolverConfig } from './solver-config.ts';

/**
 * A new journey for re-accommodated passengers: one or more flights of the airline, each leaving from
 * where the one before lands, in the order flown (docs/model.md 1.6).
 */
export type Journey = readonly Flight[];

export const journeyEnd = (journey: Journey): Flight => journey[journey.length - 1]!;

export interface CancellationGroup {
  kind: 'cancellation';
  flight: Flight;
  passengers: number;
  /** Eligible journeys, by departure of their first flight. */
  targets: Journey[];
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
  /** Journeys from the hub to the itinerary's final destination; each is eligible only if the passengers reach it (see model). */
  targets: Journey[];
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

/** Cost of re-accommodating one passenger of a group on `journey`: it counts from the scheduled arrival of the journey's last flight. */
export function reaccommodationCost(config: SolverConfig, group: PassengerGroup, journey: Journey): number {
  return journeyCost(config, group.originalArrivalMinutes, journeyEnd(journey).arrMinutes);
}

function journeyCost(config: SolverConfig, originalArrivalMinutes: number, arrivalMinutes: number): number {
  const w = config.cost_weights;
  return w.reaccommodation_per_passenger + w.reaccommodation_delay_per_passenger_minute * Math.max(0, arrivalMinutes - originalArrivalMinutes);
}

/** Where passengers leave from, where they must go, and what no journey of theirs may use. */
interface JourneyRequest {
  origin: string;
  dest: string;
  /** The first flight leaves (scheduled) at or after this instant. */
  earliestMinutes: number;
  originalArrivalMinutes: number;
  compensationPerPassenger: number;
  excluded: ReadonlySet<Flight>;
}

/**
 * The airline's flights from each airport, by scheduled departure, and every airport's minimum
 * connection time: what the journey search walks.
 */
interface Network { fromAirport: Map<string, Flight[]>; connectionMinutes: (airport: string) => number }

/**
 * Every journey of at most constraints.max_reaccommodation_legs flights from `origin` to `dest`: the
 * first flight leaves at or after `earliestMinutes`, each next one at least the connection time after
 * the one before lands (scheduled times; a flight the plan delays is held to this by the model's
 * reach rows), no airport is visited twice, no flight of `excluded` is used. A journey whose cost per
 * passenger is not below the compensation is left out: leaving the passengers unaccommodated costs no
 * more and takes no seat, so no plan is made cheaper by it (docs/model.md 1.6). Scheduled departures
 * and arrivals only grow along a journey, so the search stops at the first flight landing too late.
 */
function journeysFor(network: Network, config: SolverConfig, request: JourneyRequest): Journey[] {
  const w = config.cost_weights;
  const slack = request.compensationPerPassenger - w.reaccommodation_per_passenger;
  if (slack <= 0) return [];
  const deadline = w.reaccommodation_delay_per_passenger_minute > 0
    ? request.originalArrivalMinutes + slack / w.reaccommodation_delay_per_passenger_minute
    : Number.POSITIVE_INFINITY;
  const maxLegs = config.constraints.max_reaccommodation_legs;
  const found: Journey[] = [];
  const visited = new Set([request.origin]);
  const path: Flight[] = [];
  const extend = (airport: string, readyMinutes: number) => {
    for (const f of network.fromAirport.get(airport) ?? []) {
      if (f.depMinutes < readyMinutes) continue;
      if (f.depMinutes >= deadline) break;
      // A later arrival than the deadline costs at least the compensation (journeyCost grows with it).
      if (request.excluded.has(f) || visited.has(f.dest) || journeyCost(config, request.originalArrivalMinutes, f.arrMinutes) >= request.compensationPerPassenger) continue;
      path.push(f);
      if (f.dest === request.dest) found.push([...path]);
      else if (path.length < maxLegs) {
        visited.add(f.dest);
        extend(f.dest, f.arrMinutes + network.connectionMinutes(f.dest));
        visited.delete(f.dest);
      }
      path.pop();
    }
  };
  extend(request.origin, request.earliestMinutes);
  return found.sort((p, q) => p[0]!.depMinutes - q[0]!.depMinutes || journeyEnd(p).arrMinutes - journeyEnd(q).arrMinutes || p.length - q.length);
}

export function passengerGroups(schedule: Schedule, scope: Pick<RecoveryScope, 'airline' | 'flights'>, config: SolverConfig): PassengerGroups {
  const fromAirport = new Map<string, Flight[]>();
  // flightsByAirline is in scheduled departure order, and so is each airport's list.
  for (const f of schedule.flightsByAirline.get(scope.airline) ?? []) pushTo(fromAirport, f.origin, f);
  const network: Network = { fromAirport, connectionMinutes: (airport) => schedule.airports.get(airport)!.minConnectionMinutes };

  const cancellations = scope.flights.filter((flight) => flight.bookedPassengers > 0).map((flight): CancellationGroup => {
    const compensationPerPassenger = compensation(schedule, config, flight.origin, flight.dest);
    return {
      kind: 'cancellation',
      flight,
      passengers: flight.bookedPassengers,
      targets: journeysFor(network, config, {
        origin: flight.origin, dest: flight.dest, earliestMinutes: flight.depMinutes, originalArrivalMinutes: flight.arrMinutes,
        compensationPerPassenger, excluded: new Set([flight]),
      }),
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
        return {
          index, arriving, missed: legs[index + 1]!, connectionMinutes,
          // A flight is never flown earlier than scheduled, so no journey from the hub leaves before this.
          targets: journeysFor(network, config, {
            origin: arriving.dest, dest: last.dest, earliestMinutes: arriving.arrMinutes + connectionMinutes,
            originalArrivalMinutes: last.arrMinutes, compensationPerPassenger, excluded: own,
          }),
        };
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
  return { cancellations, misconnections };
}
