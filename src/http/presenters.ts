// Turn domain records (instants in epoch minutes) into the JSON of the interface (timestamps with
// numeric offsets). No Express here, and no query logic either (the snapshot's is in
// src/domain/snapshot.ts): plain formatting functions over a Schedule, tested through HTTP.
//
// Schedules are immutable once loaded, so the view of each record is computed once and kept beside
// the record (a WeakMap keyed by the record object: bounded by the schedules, never by what callers
// ask). Formatting a local timestamp goes through Intl and costs microseconds; a day's snapshot has
// thousands of them, which would otherwise be tens of milliseconds of the HTTP thread per request.
import type { CrewDuty, Flight, MaintenanceCheck, Schedule } from '../domain/schedule.ts';
import { snapshotOf } from '../domain/snapshot.ts';
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

/** Airlines with flights in the schedule, sorted (a schedule may declare an airline it has no flight of). */
function scheduleAirlines(schedule: Schedule): string[] {
  return [...schedule.flightsByAirline.entries()].filter(([, flights]) => flights.length > 0).map(([code]) => code).sort();
}

/**
 * The snapshot of contract.md (src/domain/snapshot.ts decides what is in it) in the interface's JSON:
 * window in UTC with +00:00, everything else in the local time of its airport.
 */
export function snapshotView(
  schedule: Schedule, scheduleName: string, airline: string, fromMinutes: number, toMinutes: number,
): SnapshotResponse {
  const snapshot = snapshotOf(schedule, airline, fromMinutes, toMinutes);
  return {
    airline,
    schedule_file: scheduleName,
    schedule_airlines: scheduleAirlines(schedule),
    window: { from: formatUtcOffset(fromMinutes), to: formatUtcOffset(toMinutes) },
    flights: snapshot.flights.map((f) => {
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
    aircraft: snapshot.aircraft.map(({ aircraft: plane, inMaintenance, position, nextCheck }) => {
      const nextView = nextCheck ? maintenanceView(schedule, nextCheck) : null;
      return {
        tail: plane.tail,
        fleet: plane.fleet,
        seats: plane.seats,
        base: plane.base,
        status: inMaintenance ? 'in_maintenance' as const : 'in_service' as const,
        location: position.location,
        airborne_flight: position.airborneFlight,
        next_maintenance: nextView && { type: nextView.type, station: nextView.station, start: nextView.start, end: nextView.end },
      };
    }),
    crew: snapshot.crew.map((c) => crewView(schedule, c)),
    maintenance: snapshot.maintenance.map((m) => maintenanceView(schedule, m)),
  };
}
