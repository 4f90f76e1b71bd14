// The problem the network engine solves, in the domain's terms: the planned flights of a schedule
// (domain flight ids), the aircraft with their cabins, ground times, range, hourly cost and check, the
// airports' hourly capacities, the disruptions (the domain's four kinds), the bookings (journeys of
// any number of flights, a cabin each) and where the next day needs the aircraft. An adapter builds it
// (roadef-adapter.ts imports a ROADEF 2009 instance into it) and reads the engine's plan back
// (NetworkPlan) into its own format; the engine knows no format.
import type { Disruption } from '../../domain/disruption.ts';
import type { CabinCode, HaulCode } from '../model/cost-model.ts';

export const MINUTES_PER_DAY = 1440;

/** Seats per cabin; UNLIMITED_SEATS for a cabin without a limit (a ground shuttle). */
export type CabinSeats = Readonly<Record<CabinCode, number>>;
export const UNLIMITED_SEATS = -1;
/** Cabins from the highest: first, business, economy. */
export const CABIN_CODES: readonly CabinCode[] = ['F', 'B', 'E'];
/** Haul rank, D < C < I (a booking's class is its highest). */
export const HAUL_RANK: Readonly<Record<HaulCode, number>> = { D: 0, C: 1, I: 2 };

/** A check the aircraft must be on the ground for, at `station`, having flown at most `maxFlyingMinutes` since the plan's start. */
export interface NetworkCheck { station: string; startMinutes: number; endMinutes: number; maxFlyingMinutes: number }

export interface NetworkAircraft {
  tail: string;
  /** Its fleet (aircraft model) and family (aircraft of one family may fly each other's flights). */
  fleet: string;
  family: string;
  seats: CabinSeats;
  /** Its cabin layout as one label (F/B/E seats), which end positions may require. */
  configuration: string;
  /** Longest leg it may fly, block minutes. */
  rangeMinutes: number;
  costPerBlockHour: number;
  turnaroundMinutes: number;
  /** Ground time before a flight that continues the one it just flew. */
  transitMinutes: number;
  /** Where it stands at the start of the plan. */
  base: string;
  check: NetworkCheck | null;
  /** A ground shuttle: its flights run as planned, use no airport capacity, and are never given to another aircraft. */
  shuttle: boolean;
}

export interface NetworkFlight {
  /** The domain's flight id, `<flight number>_<scheduled departure UTC>`. */
  id: string;
  flightNumber: string;
  /** The flight number this flight continues on the same aircraft (transit time instead of turnaround), null if none. */
  continues: string | null;
  /** Its operating date, days since 1970-01-01: a departure pushed past its midnight keeps it. */
  day: number;
  tail: string;
  origin: string;
  dest: string;
  depMinutes: number;
  arrMinutes: number;
}

/** Hourly capacity of an airport during [fromMinute, toMinute) of each day (minutes of the day, UTC). */
export interface DailyCapacityWindow { fromMinute: number; toMinute: number; departures: number; arrivals: number }

/**
 * At most `max` movements of one kind at an airport in the clock hour starting at `hourStartMinutes`,
 * `outside` of them by flights outside the problem (a service scope's capacity rows).
 */
export interface HourlyLimit { airport: string; kind: 'departures' | 'arrivals'; hourStartMinutes: number; max: number; outside: number }

/** Block time of a new flight between two airports and the haul of any flight between them. */
export interface AirportPair { blockMinutes: number; haul: HaulCode }

export interface NetworkBooking {
  id: string;
  passengers: number;
  direction: 'outbound' | 'inbound';
  /** Ticket price per passenger. */
  fare: number;
  /** Its flights in travel order, each with the cabin booked on it. */
  flights: readonly { flightId: string; cabin: CabinCode }[];
}

/** So many aircraft of a fleet and configuration needed at an airport at the end of the window. */
export interface RequiredPosition { airport: string; fleet: string; configuration: string; count: number }

export interface NetworkProblem {
  name: string;
  /** What departs before `startMinutes` has happened; nothing lands after `endMinutes`. */
  window: { startMinutes: number; endMinutes: number };
  aircraft: ReadonlyMap<string, NetworkAircraft>;
  /** Planned flights, in the source's order (which breaks ties between equal departures). */
  flights: readonly NetworkFlight[];
  flightsById: ReadonlyMap<string, NetworkFlight>;
  /** Hourly capacities per airport (an airport not listed has none). */
  airportCapacity: ReadonlyMap<string, readonly DailyCapacityWindow[]>;
  /** When given, the capacities hour by hour instead (the airports' and the cuts' are then not read). */
  hourlyLimits?: readonly HourlyLimit[];
  /** By pairKey(origin, dest). */
  airportPairs: ReadonlyMap<string, AirportPair>;
  bookings: readonly NetworkBooking[];
  requiredPositions: readonly RequiredPosition[];
  /**
   * What went wrong. A delayed flight leaves exactly that late and a disrupted flight keeps its
   * aircraft (ROADEF 2009 spec 4.3); an aircraft out of service flies nothing overlapping its period;
   * a capacity cut replaces the airport's hourly capacities during its period.
   */
  disruptions: readonly Disruption[];
}

export function pairKey(origin: string, dest: string): string {
  return `${origin}-${dest}`;
}

/** A flight of a plan: a planned one (flown, moved or cancelled) or a new one (`isNew`). */
export interface PlanLeg {
  /** The planned flight's id, or an id of the plan's own for a new flight. */
  flightId: string;
  /** The planned flight's number; null for a new flight (its adapter numbers it). */
  flightNumber: string | null;
  day: number;
  origin: string;
  dest: string;
  depMinutes: number;
  arrMinutes: number;
  /** The aircraft that flies it; null when it is cancelled. */
  tail: string | null;
  isNew: boolean;
}

/** Passengers of a booking travelling on `flights` (each in a cabin), or stopped after them when `cancelled`. */
export interface PassengerLine {
  booking: string;
  passengers: number;
  flights: readonly { flightId: string; cabin: CabinCode }[];
  cancelled: boolean;
}

/** An operating plan (every planned flight and each new one) and where every passenger goes. */
export interface NetworkPlan {
  legs: PlanLeg[];
  passengers: PassengerLine[];
}
