// A ROADEF/EURO 2009 instance as plain data (spec section 2), every instant in absolute minutes
// (days since 1970-01-01 × 1440 + minute of the day; the format has one clock and no time zones).
// Amounts are kept as written (currency units with at most two decimals); whoever sums them decides
// how to stay exact.

export type Cabin = 'F' | 'B' | 'E';
export type HaulClass = 'D' | 'C' | 'I';
/** `A` outbound (one-way or first half of a return), `R` inbound (second half). */
export type Direction = 'A' | 'R';

/** Cabins in the order of an aircraft's `SEATS` field `F/B/E`. */
export const CABINS: readonly Cabin[] = ['F', 'B', 'E'];
export const HAUL_CLASSES: readonly HaulClass[] = ['D', 'C', 'I'];
/** Cabin rank, E < B < F (the reference cabin of a booking is its highest). */
export const CABIN_RANK: Readonly<Record<Cabin, number>> = { E: 0, B: 1, F: 2 };
/** Haul class rank, D < C < I (the class of a booking is its highest). */
export const HAUL_RANK: Readonly<Record<HaulClass, number>> = { D: 0, C: 1, I: 2 };

export type ByCabinAndClass = Readonly<Record<Cabin, Readonly<Record<HaulClass, number>>>>;
/** Downgrading from one cabin to a lower one: `FB` is F to B, `FE` F to E, `BE` B to E. */
export type Downgrade = 'FB' | 'FE' | 'BE';

/** config.csv (spec 2.2). */
export interface RoadefConfig {
  /** Recovery window [S, E], absolute minutes. */
  windowStartMinutes: number;
  windowEndMinutes: number;
  /** Cost per passenger per minute of arrival delay, by reference cabin and class. */
  delayCost: ByCabinAndClass;
  /** Cost per passenger of an outbound / inbound trip cancellation. */
  outboundCancellationCost: ByCabinAndClass;
  inboundCancellationCost: ByCabinAndClass;
  /** Cost per passenger per leg travelled in a lower cabin, by downgrade and the leg's class. */
  downgradingCost: Readonly<Record<Downgrade, Readonly<Record<HaulClass, number>>>>;
  /** Per required aircraft missing at the end of the window: no aircraft of the family, model, configuration. */
  positionPenalty: { family: number; model: number; configuration: number };
  /** Weights of the operating, passenger and position cost groups. */
  weights: { alpha: number; beta: number; gamma: number };
}

/** One window of airports.csv: at most `departures`/`arrivals` movements per clock hour in [from, to) of each day. */
export interface CapacityWindow {
  departures: number;
  arrivals: number;
  /** Minutes of the day; `toMinute` 1440 is midnight at the end of the day. */
  fromMinute: number;
  toMinute: number;
}

/** dist.csv: a new flight's block time and the haul class of any leg between two airports. */
export interface RouteInfo { durationMinutes: number; haulClass: HaulClass }

/** flights.csv: a daily service. Times are minutes after midnight of the date it is flown on (+N included). */
export interface RoadefFlight {
  number: number;
  origin: string;
  dest: string;
  depOffsetMinutes: number;
  arrOffsetMinutes: number;
  /** The flight this one continues (transit time instead of turn-round), 0 if none. */
  previous: number;
}

/** Seats per cabin; -1 means unlimited (the TranspCom ground shuttles). */
export type Seats = Readonly<Record<Cabin, number>>;

export interface Maintenance {
  airport: string;
  startMinutes: number;
  endMinutes: number;
  /** Most minutes the aircraft may fly before the maintenance starts, counted from the start of the plan. */
  maxFlyingMinutes: number;
}

export interface RoadefAircraft {
  id: string;
  model: string;
  family: string;
  seats: Seats;
  /** The `SEATS` field as written, e.g. `0/28/51`: the aircraft's configuration. */
  configuration: string;
  rangeMinutes: number;
  costPerHour: number;
  turnRoundMinutes: number;
  transitMinutes: number;
  origin: string;
  maintenance: Maintenance | null;
}

/** The family of the ground shuttles (spec 2.6): their legs run as planned and use no airport capacity. */
export const SHUTTLE_FAMILY = 'TranspCom';

/** A line of rotations.csv: a flight flown on a date by its planned aircraft. */
export interface PlannedLeg {
  key: string;
  flight: number;
  /** The leg's date (day number); its times are relative to it. */
  day: number;
  aircraft: string;
  depMinutes: number;
  arrMinutes: number;
  /** 1-based line in rotations.csv, for messages. */
  line: number;
}

export interface BookedLeg { flight: number; day: number; cabin: Cabin }

export interface Itinerary {
  id: number;
  direction: Direction;
  price: number;
  passengers: number;
  legs: readonly BookedLeg[];
}

/** position.csv: how many aircraft of a model and configuration an airport needs at the end of the window. */
export interface PositionRequirement { airport: string; model: string; configuration: string; count: number }

/** alt_flights.csv: a leg delayed by `delayMinutes` (departure and arrival), or cancelled when it is -1. */
export interface FlightDisruption { flight: number; day: number; delayMinutes: number }

/** alt_aircraft.csv: the aircraft may not be in the air during [start, end). */
export interface AircraftUnavailability { aircraft: string; startMinutes: number; endMinutes: number }

/** alt_airports.csv: during [start, end) these hourly capacities replace the airports.csv ones. */
export interface CapacityReduction { airport: string; startMinutes: number; endMinutes: number; departures: number; arrivals: number }

export interface RoadefInstance {
  /** The folder's base name, e.g. `A01`. */
  name: string;
  config: RoadefConfig;
  /** airports.csv: capacity windows per airport (an airport not listed has unlimited capacity). */
  airportCapacity: ReadonlyMap<string, readonly CapacityWindow[]>;
  /** dist.csv by `ORIG-DEST`. */
  routes: ReadonlyMap<string, RouteInfo>;
  flights: ReadonlyMap<number, RoadefFlight>;
  aircraft: ReadonlyMap<string, RoadefAircraft>;
  /** rotations.csv in file order. */
  legs: readonly PlannedLeg[];
  legsByKey: ReadonlyMap<string, PlannedLeg>;
  itineraries: readonly Itinerary[];
  positions: readonly PositionRequirement[];
  flightDisruptions: readonly FlightDisruption[];
  aircraftUnavailability: readonly AircraftUnavailability[];
  capacityReductions: readonly CapacityReduction[];
}

export function routeKey(origin: string, dest: string): string {
  return `${origin}-${dest}`;
}
