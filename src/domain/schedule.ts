// The operational schedule as the rest of the service sees it: plain data, indexed once at load.
// Instants are minutes since the Unix epoch (UTC); see time.ts.
import { formatUtc, localMinuteOfDay } from './time.ts';
import type { TurnaroundRule } from './turnaround.ts';

/** An airline code: two capital letters or digits (IATA style), e.g. NV. */
export const AIRLINE_CODE_PATTERN = /^[A-Z0-9]{2}$/;

export interface Airline { code: string; name: string }

export interface Airport {
  code: string;
  name: string;
  timeZone: string;
  /** Null when the source has no coordinates (imported ROADEF schedules). */
  lat: number | null;
  lon: number | null;
  hub: boolean;
  maintenanceStation: boolean;
  minConnectionMinutes: number;
  /** The airport's standing hourly capacities (an imported ROADEF schedule states them); empty when it has none. */
  hourlyCapacity: readonly HourlyCapacityWindow[];
}

/**
 * At most so many of the airline's departures and arrivals in each clock hour that starts in
 * [fromMinuteOfDay, toMinuteOfDay) on the airport's clock, every day: a standing limit, which holds in
 * every plan as an `airport_capacity` disruption does during its period (docs/model.md 1.3).
 */
export interface HourlyCapacityWindow { fromMinuteOfDay: number; toMinuteOfDay: number; maxDeparturesPerHour: number; maxArrivalsPerHour: number }

/** The standing capacity of `airport` in the clock hour that starts at `hourStartMinutes` (UTC), or undefined when none limits it. */
export function standingCapacity(airport: Airport, hourStartMinutes: number): HourlyCapacityWindow | undefined {
  if (airport.hourlyCapacity.length === 0) return undefined;
  const minute = localMinuteOfDay(hourStartMinutes, airport.timeZone);
  return airport.hourlyCapacity.find((w) => w.fromMinuteOfDay <= minute && minute < w.toMinuteOfDay);
}

export interface Fleet { code: string; family: string; seats: number; cruiseSpeedKmh: number | null }

export interface Aircraft {
  tail: string; airline: string; fleet: string; family: string; seats: number; base: string;
  /**
   * A ground shuttle (a cabin without a seat limit: ROADEF 2009's TranspCom coaches): its movements
   * use no standing airport capacity (ROADEF 2009 spec 4.6). A request's `airport_capacity` counts
   * them as it counts every flight of the airline (the contract's words).
   */
  groundShuttle: boolean;
}

/**
 * ROADEF 2009's haul classes of a flight (its dist.csv), shortest first: what an imported schedule
 * says of its distances where it has no coordinates.
 */
export const HAULS = ['domestic', 'continental', 'intercontinental'] as const;
export type Haul = (typeof HAULS)[number];

export interface Flight {
  /** `<flight_number>_<scheduled departure UTC, seconds, Z>`, e.g. NV101_2026-11-21T05:30:00Z. */
  id: string;
  flightNumber: string;
  airline: string;
  /** The aircraft the schedule plans for this flight. */
  tail: string;
  origin: string;
  dest: string;
  depMinutes: number;
  arrMinutes: number;
  distanceKm: number | null;
  /** The haul class the schedule states for the flight (imported ROADEF schedules), else null. */
  haul: Haul | null;
  bookedPassengers: number;
  crewIds: string[];
}

export type MaintenanceType = 'overnight_check' | 'daily_check' | 'a_check';

export interface MaintenanceCheck {
  tail: string;
  type: MaintenanceType;
  station: string;
  startMinutes: number;
  endMinutes: number;
}

export interface CrewDuty {
  crewId: string;
  airline: string;
  role: 'cockpit' | 'cabin';
  base: string;
  dutyStartMinutes: number;
  dutyEndMinutes: number;
  /** Maximum flight-duty period: duty must end by dutyStartMinutes + maxDutyMinutes. */
  maxDutyMinutes: number;
  flightIds: string[];
}

/** Flights in travel order: two (a hub connection) in the bundled schedules, any number when imported. */
export interface Itinerary { id: string; passengers: number; flightIds: string[] }

export interface Schedule {
  name: string;
  description: string;
  operatingDate: string;
  airlines: Map<string, Airline>;
  airports: Map<string, Airport>;
  fleets: Map<string, Fleet>;
  aircraft: Map<string, Aircraft>;
  /** Every flight, ordered by scheduled departure (UTC) then flight number. */
  flights: Flight[];
  flightsById: Map<string, Flight>;
  /** Per airline, in the same order as `flights`. */
  flightsByAirline: Map<string, Flight[]>;
  /** Per tail, the planned rotation in departure order. */
  rotations: Map<string, Flight[]>;
  maintenance: MaintenanceCheck[];
  maintenanceByTail: Map<string, MaintenanceCheck[]>;
  crew: CrewDuty[];
  crewById: Map<string, CrewDuty>;
  itineraries: Itinerary[];
  itinerariesByFlight: Map<string, Itinerary[]>;
  /**
   * The minimum ground times the schedule states for its own aircraft, as a turnaround rule (per
   * fleet), or null when it states none and a request's `config.turnaround` decides. Imported ROADEF
   * schedules state one for every aircraft; a simulation on them uses it (docs/model.md 1.6).
   */
  ownTurnaround: TurnaroundRule | null;
}

/**
 * Why `schedule` cannot be simulated, if it cannot: the recovery model prices a passenger not carried
 * by the distance of their trip (docs/model.md 1.6), from the airports' coordinates or, for a trip to
 * or from an airport without them, from the haul classes of its flights. So a schedule with an airport
 * without coordinates needs a haul class on every flight (an imported ROADEF 2009 schedule has one).
 * Undefined when it can be simulated.
 */
export function unpricedTrips(schedule: Schedule): { airport: Airport; flight: Flight } | undefined {
  let airport: Airport | undefined;
  for (const a of schedule.airports.values()) if (a.lat === null || a.lon === null) { airport = a; break; }
  if (!airport) return undefined;
  const flight = schedule.flights.find((f) => f.haul === null);
  return flight ? { airport, flight } : undefined;
}

export function flightId(flightNumber: string, depMinutes: number): string {
  return `${flightNumber}_${formatUtc(depMinutes)}`;
}

/** Departure order used everywhere a list of flights is shown: UTC departure, then flight number. */
export function compareFlights(a: Flight, b: Flight): number {
  return a.depMinutes - b.depMinutes || (a.flightNumber < b.flightNumber ? -1 : a.flightNumber > b.flightNumber ? 1 : 0);
}
