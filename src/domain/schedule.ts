// The operational schedule as the rest of the service sees it: plain data, indexed once at load.
// Instants are minutes since the Unix epoch (UTC); see time.ts.
import { readFileSync } from 'node:fs';
import { checkScheduleExtensions, ownGroundMinutes } from './schedule-extensions.ts';
import { ScheduleFileSchema, type ScheduleFile } from './schedule-file.ts';
import { formatUtc, parseInstantMinutes } from './time.ts';
import { DEFAULT_TURNAROUND, minTurnaroundMinutes, type TurnaroundRule } from './turnaround.ts';

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
}

export interface Fleet { code: string; family: string; seats: number; cruiseSpeedKmh: number | null }

export interface Aircraft { tail: string; airline: string; fleet: string; family: string; seats: number; base: string }

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
}

export class ScheduleError extends Error {}

export function flightId(flightNumber: string, depMinutes: number): string {
  return `${flightNumber}_${formatUtc(depMinutes)}`;
}

/** Departure order used everywhere a list of flights is shown: UTC departure, then flight number. */
export function compareFlights(a: Flight, b: Flight): number {
  return a.depMinutes - b.depMinutes || (a.flightNumber < b.flightNumber ? -1 : a.flightNumber > b.flightNumber ? 1 : 0);
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value); else map.set(key, [value]);
}

/**
 * Index a parsed schedule file and check what zod cannot: references between records, unique ids,
 * and that every rotation is continuous in space and keeps the minimum turnaround of `turnaround`.
 * Throws ScheduleError with a sentence naming the first problem found.
 */
export function buildSchedule(file: ScheduleFile, turnaround: TurnaroundRule = DEFAULT_TURNAROUND): Schedule {
  const fail = (message: string): never => { throw new ScheduleError(message); };
  const airlines = new Map(file.airlines.map((a) => [a.code, { code: a.code, name: a.name }]));
  const airports = new Map<string, Airport>(file.airports.map((a) => [a.code, {
    code: a.code, name: a.name, timeZone: a.time_zone, lat: a.lat ?? null, lon: a.lon ?? null, hub: a.hub,
    maintenanceStation: a.maintenance_station, minConnectionMinutes: a.min_connection_minutes,
  }]));
  const fleets = new Map<string, Fleet>(file.fleets.map((f) => [f.code, {
    code: f.code, family: f.family, seats: f.seats, cruiseSpeedKmh: f.cruise_speed_kmh ?? null,
  }]));
  const aircraft = new Map<string, Aircraft>();
  for (const a of file.aircraft) {
    const fleet = fleets.get(a.fleet) ?? fail(`aircraft ${a.tail} names unknown fleet '${a.fleet}'`);
    if (!airlines.has(a.airline)) fail(`aircraft ${a.tail} names unknown airline '${a.airline}'`);
    if (!airports.has(a.base)) fail(`aircraft ${a.tail} names unknown base '${a.base}'`);
    if (aircraft.has(a.tail)) fail(`aircraft ${a.tail} appears twice`);
    aircraft.set(a.tail, { tail: a.tail, airline: a.airline, fleet: a.fleet, family: fleet.family, seats: a.seats, base: a.base });
  }

  const flights: Flight[] = [];
  const flightsById = new Map<string, Flight>();
  for (const f of file.flights) {
    const depMinutes = parseInstantMinutes(f.dep);
    const arrMinutes = parseInstantMinutes(f.arr);
    const id = flightId(f.flight_number, depMinutes);
    if (!f.flight_number.startsWith(f.airline)) fail(`flight ${id} does not start with its airline code ${f.airline}`);
    if (!airlines.has(f.airline)) fail(`flight ${id} names unknown airline '${f.airline}'`);
    const plane = aircraft.get(f.tail) ?? fail(`flight ${id} names unknown tail '${f.tail}'`);
    if (plane.airline !== f.airline) fail(`flight ${id} is flown by ${f.tail} of another airline`);
    if (!airports.has(f.origin) || !airports.has(f.dest)) fail(`flight ${id} names an unknown airport`);
    if (f.origin === f.dest) fail(`flight ${id} departs and arrives at ${f.origin}`);
    if (!(arrMinutes > depMinutes)) fail(`flight ${id} arrives before it departs`);
    if (flightsById.has(id)) fail(`flight id ${id} appears twice`);
    const flight: Flight = {
      id, flightNumber: f.flight_number, airline: f.airline, tail: f.tail, origin: f.origin, dest: f.dest,
      depMinutes, arrMinutes, distanceKm: f.distance_km ?? null, bookedPassengers: f.booked_passengers, crewIds: [],
    };
    flights.push(flight);
    flightsById.set(id, flight);
  }
  flights.sort(compareFlights);

  const flightsByAirline = new Map<string, Flight[]>();
  const rotations = new Map<string, Flight[]>();
  for (const f of flights) {
    pushTo(flightsByAirline, f.airline, f);
    pushTo(rotations, f.tail, f);
  }
  const ownGround = ownGroundMinutes(file);
  for (const [tail, rotation] of rotations) {
    const plane = aircraft.get(tail)!;
    for (let i = 1; i < rotation.length; i++) {
      const prev = rotation[i - 1]!;
      const next = rotation[i]!;
      if (prev.dest !== next.origin) fail(`rotation of ${tail} jumps from ${prev.dest} (${prev.id}) to ${next.origin} (${next.id})`);
      const ground = next.depMinutes - prev.arrMinutes;
      const needed = ownGround(tail, prev.flightNumber, next.id) ?? minTurnaroundMinutes(turnaround, plane.fleet, prev.dest);
      if (ground < needed) fail(`rotation of ${tail} turns ${prev.id} into ${next.id} in ${ground} min at ${prev.dest}, below the ${needed} min minimum`);
    }
  }

  const maintenance = file.maintenance.map((m) => ({
    tail: m.tail, type: m.type, station: m.station,
    startMinutes: parseInstantMinutes(m.start), endMinutes: parseInstantMinutes(m.end),
  }));
  const maintenanceByTail = new Map<string, MaintenanceCheck[]>();
  for (const m of maintenance) {
    if (!aircraft.has(m.tail)) fail(`maintenance names unknown tail '${m.tail}'`);
    if (!airports.get(m.station)?.maintenanceStation) fail(`maintenance of ${m.tail} is at ${m.station}, which is not a maintenance station`);
    if (!(m.endMinutes > m.startMinutes)) fail(`maintenance of ${m.tail} at ${m.station} ends before it starts`);
    pushTo(maintenanceByTail, m.tail, m);
  }
  for (const list of maintenanceByTail.values()) list.sort((a, b) => a.startMinutes - b.startMinutes);

  const crew: CrewDuty[] = [];
  const crewById = new Map<string, CrewDuty>();
  for (const c of file.crew) {
    if (crewById.has(c.crew_id)) fail(`crew ${c.crew_id} appears twice`);
    const duty: CrewDuty = {
      crewId: c.crew_id, airline: c.airline, role: c.role, base: c.base,
      dutyStartMinutes: parseInstantMinutes(c.duty_start), dutyEndMinutes: parseInstantMinutes(c.duty_end),
      maxDutyMinutes: c.max_duty_minutes, flightIds: c.flights,
    };
    for (const id of c.flights) {
      const flight = flightsById.get(id) ?? fail(`crew ${c.crew_id} names unknown flight '${id}'`);
      flight.crewIds.push(c.crew_id);
    }
    crew.push(duty);
    crewById.set(duty.crewId, duty);
  }

  const itineraries: Itinerary[] = [];
  const itinerariesByFlight = new Map<string, Itinerary[]>();
  for (const it of file.itineraries) {
    const legs = it.flights.map((id) => flightsById.get(id) ?? fail(`itinerary ${it.itinerary_id} names unknown flight '${id}'`));
    for (let i = 1; i < legs.length; i++) if (legs[i - 1]!.dest !== legs[i]!.origin) fail(`itinerary ${it.itinerary_id} does not connect at one airport`);
    const itinerary: Itinerary = { id: it.itinerary_id, passengers: it.passengers, flightIds: legs.map((f) => f.id) };
    itineraries.push(itinerary);
    for (const f of legs) pushTo(itinerariesByFlight, f.id, itinerary);
  }

  checkScheduleExtensions(file, new Set(flightsById.keys()), fail);

  return {
    name: file.name, description: file.description, operatingDate: file.operating_date,
    airlines, airports, fleets, aircraft, flights, flightsById, flightsByAirline, rotations,
    maintenance, maintenanceByTail, crew, crewById, itineraries, itinerariesByFlight,
  };
}

/** Read, validate and index one schedule file; the error names the file and the problem. */
export function loadScheduleFile(path: string, turnaround: TurnaroundRule = DEFAULT_TURNAROUND): Schedule {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ScheduleError(`Schedule file ${path} cannot be read as JSON: ${(error as Error).message}`);
  }
  const parsed = ScheduleFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ScheduleError(`Schedule file ${path} is invalid at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  try {
    return buildSchedule(parsed.data, turnaround);
  } catch (error) {
    if (error instanceof ScheduleError) throw new ScheduleError(`Schedule file ${path} is invalid: ${error.message}`);
    throw error;
  }
}
