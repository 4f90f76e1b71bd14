// Turn domain records (instants in epoch minutes) into the JSON of the interface (timestamps with
// numeric offsets). No Express here: these are plain functions over a Schedule, tested through HTTP.
//
// Schedules are immutable once loaded, so the view of each record is computed once and kept beside
// the record (a WeakMap keyed by the record object: bounded by the schedules, never by what callers
// ask). Formatting a local timestamp goes through Intl and costs microseconds; a day's snapshot has
// thousands of them, which would otherwise be tens of milliseconds of the HTTP thread per request.
import type { CrewDuty, Flight, MaintenanceCheck, Schedule } from '../domain/schedule.ts';
import { formatLocal } from '../domain/time.ts';
import type { FlightSummary, SnapshotResponse } from './schemas.ts';

function zoneOf(schedule: Schedule, airport: string): string {
  return schedule.airports.get(airport)?.timeZone ?? 'UTC';
}

/** UTC with `+00:00`, the form of timestamps that belong to no airport (health, snapshot window). */
export function formatUtcOffset(minutes: number): string {
  return formatLocal(minutes, 'UTC');
}

/** `compute(record)` once per record object; later calls return the same (frozen) view. */
function memoized<K extends object, V extends object>(compute: (record: K) => V): (record: K) => V {
  const views = new WeakMap<K, V>();
  return (record) => {
    let view = views.get(record);
    if (!view) {
      view = Object.freeze(compute(record));
      views.set(record, view);
    }
    return view;
  };
}

// A record belongs to exactly one schedule, so the record alone keys its view; the schedule is
// needed only to find airport time zones.
const summaries = new WeakMap<Schedule, (flight: Flight) => FlightSummary>();

export function flightSummary(schedule: Schedule, flight: Flight): FlightSummary {
  let summarise = summaries.get(schedule);
  if (!summarise) {
    summarise = memoized((f: Flight) => ({
      id: f.id,
      tail: f.tail,
      origin: f.origin,
      dest: f.dest,
      dep: formatLocal(f.depMinutes, zoneOf(schedule, f.origin)),
      arr: formatLocal(f.arrMinutes, zoneOf(schedule, f.dest)),
    }));
    summaries.set(schedule, summarise);
  }
  return summarise(flight);
}

type MaintenanceView = { tail: string; type: MaintenanceCheck['type']; station: string; start: string; end: string };
const maintenanceViews = new WeakMap<Schedule, (check: MaintenanceCheck) => MaintenanceView>();

function maintenanceView(schedule: Schedule, check: MaintenanceCheck): MaintenanceView {
  let view = maintenanceViews.get(schedule);
  if (!view) {
    view = memoized((c: MaintenanceCheck) => {
      const zone = zoneOf(schedule, c.station);
      return { tail: c.tail, type: c.type, station: c.station, start: formatLocal(c.startMinutes, zone), end: formatLocal(c.endMinutes, zone) };
    });
    maintenanceViews.set(schedule, view);
  }
  return view(check);
}

type CrewView = ReturnType<typeof computeCrewView>;
const crewViews = new WeakMap<Schedule, (duty: CrewDuty) => CrewView>();

function computeCrewView(schedule: Schedule, duty: CrewDuty) {
  const first = schedule.flightsById.get(duty.flightIds[0]!);
  const last = schedule.flightsById.get(duty.flightIds[duty.flightIds.length - 1]!);
  return {
    crew_id: duty.crewId,
    role: duty.role,
    base: duty.base,
    duty_start: formatLocal(duty.dutyStartMinutes, zoneOf(schedule, first?.origin ?? duty.base)),
    duty_end: formatLocal(duty.dutyEndMinutes, zoneOf(schedule, last?.dest ?? duty.base)),
    flights: Object.freeze([...duty.flightIds]) as string[],
    max_duty_minutes: duty.maxDutyMinutes,
  };
}

function crewView(schedule: Schedule, duty: CrewDuty): CrewView {
  let view = crewViews.get(schedule);
  if (!view) {
    view = memoized((d: CrewDuty) => computeCrewView(schedule, d));
    crewViews.set(schedule, view);
  }
  return view(duty);
}

/** Half-open intervals [start, end) and [from, to) overlap. */
function overlaps(start: number, end: number, from: number, to: number): boolean {
  return start < to && end > from;
}

interface Position { location: string; airborneFlight: string | null }

/**
 * Where an aircraft is at `at`: airborne on a flight with dep < at < arr; else at the station of a check
 * covering `at`; else where its latest flight arriving at or before `at` landed; else where its next
 * flight departs or next check is; else its base. Rotations are continuous (checked at load), so the
 * rules agree wherever several apply.
 */
function positionAt(rotation: readonly Flight[], checks: readonly MaintenanceCheck[], base: string, at: number): Position {
  const airborne = rotation.find((f) => f.depMinutes < at && at < f.arrMinutes);
  if (airborne) return { location: 'airborne', airborneFlight: airborne.id };
  const inCheck = checks.find((c) => c.startMinutes <= at && at < c.endMinutes);
  if (inCheck) return { location: inCheck.station, airborneFlight: null };
  const landed = rotation.filter((f) => f.arrMinutes <= at).at(-1);
  const lastCheck = checks.filter((c) => c.endMinutes <= at).at(-1);
  if (landed && (!lastCheck || landed.arrMinutes >= lastCheck.endMinutes)) return { location: landed.dest, airborneFlight: null };
  if (lastCheck) return { location: lastCheck.station, airborneFlight: null };
  const nextFlight = rotation.find((f) => f.depMinutes >= at);
  const nextCheck = checks.find((c) => c.startMinutes >= at);
  if (nextFlight && (!nextCheck || nextFlight.depMinutes <= nextCheck.startMinutes)) return { location: nextFlight.origin, airborneFlight: null };
  if (nextCheck) return { location: nextCheck.station, airborneFlight: null };
  return { location: base, airborneFlight: null };
}

/**
 * Everything of `airline` that overlaps the window [fromMinutes, toMinutes): flights, the aircraft
 * that fly them or are in a check, crew duties and checks. No truncation.
 */
export function snapshotView(
  schedule: Schedule, scheduleName: string, airline: string, fromMinutes: number, toMinutes: number,
): SnapshotResponse {
  const flights = (schedule.flightsByAirline.get(airline) ?? [])
    .filter((f) => overlaps(f.depMinutes, f.arrMinutes, fromMinutes, toMinutes));
  const maintenance = schedule.maintenance
    .filter((m) => schedule.aircraft.get(m.tail)?.airline === airline && overlaps(m.startMinutes, m.endMinutes, fromMinutes, toMinutes))
    .sort((a, b) => a.startMinutes - b.startMinutes || (a.tail < b.tail ? -1 : a.tail > b.tail ? 1 : 0));
  const tails = [...new Set([...flights.map((f) => f.tail), ...maintenance.map((m) => m.tail)])].sort();
  const crew = schedule.crew
    .filter((c) => c.airline === airline && overlaps(c.dutyStartMinutes, c.dutyEndMinutes, fromMinutes, toMinutes))
    .sort((a, b) => a.dutyStartMinutes - b.dutyStartMinutes || (a.crewId < b.crewId ? -1 : a.crewId > b.crewId ? 1 : 0));

  return {
    airline,
    schedule_file: scheduleName,
    window: { from: formatUtcOffset(fromMinutes), to: formatUtcOffset(toMinutes) },
    flights: flights.map((f) => {
      const plane = schedule.aircraft.get(f.tail)!;
      return {
        ...flightSummary(schedule, f),
        flight_number: f.flightNumber,
        fleet: plane.fleet,
        seats: plane.seats,
        booked_passengers: f.bookedPassengers,
        crew_ids: [...f.crewIds],
        status: 'scheduled' as const,
      };
    }),
    aircraft: tails.map((tail) => {
      const plane = schedule.aircraft.get(tail)!;
      const checks = schedule.maintenanceByTail.get(tail) ?? [];
      const position = positionAt(schedule.rotations.get(tail) ?? [], checks, plane.base, fromMinutes);
      const inCheck = checks.some((c) => c.startMinutes <= fromMinutes && fromMinutes < c.endMinutes);
      const next = checks.find((c) => c.startMinutes >= fromMinutes);
      const nextView = next ? maintenanceView(schedule, next) : null;
      return {
        tail,
        fleet: plane.fleet,
        seats: plane.seats,
        base: plane.base,
        status: inCheck ? 'in_maintenance' as const : 'in_service' as const,
        location: position.location,
        airborne_flight: position.airborneFlight,
        next_maintenance: nextView && { type: nextView.type, station: nextView.station, start: nextView.start, end: nextView.end },
      };
    }),
    crew: crew.map((c) => crewView(schedule, c)),
    maintenance: maintenance.map((m) => maintenanceView(schedule, m)),
  };
}
