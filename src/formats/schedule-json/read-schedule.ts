// Reads a schedule file of our JSON format (schedule-file.ts) into the domain's Schedule: validation by
// zod, then the checks zod cannot make (references, unique ids, continuous rotations), then indexing.
import { readFileSync } from 'node:fs';
import { pushTo } from '../../domain/collections.ts';
import { compareFlights, flightId, type Aircraft, type Airport, type CrewDuty, type Fleet, type Flight, type Itinerary, type MaintenanceCheck, type Schedule } from '../../domain/schedule.ts';
import { parseInstantMinutes } from '../../domain/time.ts';
import { DEFAULT_TURNAROUND, minTurnaroundMinutes, type TurnaroundRule } from '../../domain/turnaround.ts';
import { checkScheduleExtensions, minuteOfDay, ownGroundMinutes } from './schedule-extensions.ts';
import { ScheduleFileSchema, type ScheduleFile } from './schedule-file.ts';

/** A schedule file that cannot be served; the message names the file and the first problem. */
export class ScheduleError extends Error {}

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
    hourlyCapacity: (a.hourly_capacity ?? []).map((w) => ({
      fromMinuteOfDay: minuteOfDay(w.from), toMinuteOfDay: minuteOfDay(w.to), maxDeparturesPerHour: w.max_departures_per_hour, maxArrivalsPerHour: w.max_arrivals_per_hour,
    })),
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
    // The format writes an unlimited cabin as null (schedule-file-extensions.ts).
    const groundShuttle = a.cabin_seats !== undefined && Object.values(a.cabin_seats).some((seats) => seats === null);
    aircraft.set(a.tail, { tail: a.tail, airline: a.airline, fleet: a.fleet, family: fleet.family, seats: a.seats, base: a.base, groundShuttle });
  }

  const flights: Flight[] = [];
  const flightsById = new Map<string, Flight>();
  const pairHaul = new Map((file.airport_pairs ?? []).map((p) => [`${p.origin}-${p.dest}`, p.haul]));
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
      depMinutes, arrMinutes, distanceKm: f.distance_km ?? null,
      haul: f.haul ?? pairHaul.get(`${f.origin}-${f.dest}`) ?? null, bookedPassengers: f.booked_passengers, crewIds: [],
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
    maintenance, maintenanceByTail, crew, crewById, itineraries, itinerariesByFlight, ownTurnaround: ownTurnaroundRule(file),
  };
}

/**
 * The turnaround rule of a file whose every aircraft states its minimum ground times (an imported
 * ROADEF schedule: turn-round, and transit before a leg that continues the previous one), else null.
 * The service's rule is one time per fleet, with no transit: each fleet gets the shortest time any of
 * its aircraft may take on the ground, transit included, so that the schedule as planned keeps it (in
 * A01 the turn-round and transit of a fleet's aircraft are all alike, and 4 of 523 planned turns are
 * transits shorter than the fleet's turn-round). No airport lengthens it.
 */
function ownTurnaroundRule(file: ScheduleFile): TurnaroundRule | null {
  if (file.aircraft.length === 0 || file.aircraft.some((a) => a.min_turnaround_minutes === undefined)) return null;
  const byFleet: Record<string, number> = {};
  for (const a of file.aircraft) {
    const shortest = Math.min(a.min_turnaround_minutes!, a.min_transit_minutes ?? Number.POSITIVE_INFINITY);
    byFleet[a.fleet] = Math.min(byFleet[a.fleet] ?? Number.POSITIVE_INFINITY, shortest);
  }
  return { default_minutes: DEFAULT_TURNAROUND.default_minutes, by_fleet: byFleet, by_airport: {}, by_airport_fleet: {} };
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
