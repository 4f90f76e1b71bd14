// The operational snapshot of contract.md as a domain query: what of one airline overlaps a time
// window, and where each aircraft is at its start. Pure: instants are epoch minutes, records are the
// schedule's own; formatting (local timestamps, field names) is the HTTP layer's (presenters.ts).

import type { Aircraft, CrewDuty, Flight, MaintenanceCheck, Schedule } from './schedule.ts';

/** Half-open intervals [start, end) and [from, to) overlap. */
export function overlaps(start: number, end: number, from: number, to: number): boolean {
  return start < to && end > from;
}

/** Where an aircraft is at an instant: an airport code, or `airborne` with the flight in the air. */
export interface AircraftPosition { location: string; airborneFlight: string | null }

/**
 * Where an aircraft is at `at`: airborne on a flight with dep < at < arr; else at the station of a check
 * covering `at`; else where its latest flight arriving at or before `at` landed; else where its next
 * flight departs or next check is; else its base. Rotations are continuous (checked at load), so the
 * rules agree wherever several apply.
 */
export function positionAt(rotation: readonly Flight[], checks: readonly MaintenanceCheck[], base: string, at: number): AircraftPosition {
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

export interface AircraftAtWindowStart {
  aircraft: Aircraft;
  /** A check covers the window start (start ≤ from < end). */
  inMaintenance: boolean;
  position: AircraftPosition;
  /** The first check starting at or after the window start, or null. */
  nextCheck: MaintenanceCheck | null;
}

export interface Snapshot {
  airline: string;
  fromMinutes: number;
  toMinutes: number;
  /** Flights of the airline overlapping the window, in the schedule's order (departure, then flight number). */
  flights: Flight[];
  /** Aircraft with a flight or a check in the window, ordered by tail. */
  aircraft: AircraftAtWindowStart[];
  /** Duties of the airline overlapping the window, ordered by duty start then crew id. */
  crew: CrewDuty[];
  /** Checks of the airline's aircraft overlapping the window, ordered by start then tail. */
  maintenance: MaintenanceCheck[];
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Everything of `airline` that overlaps the window [fromMinutes, toMinutes): flights, the aircraft
 * that fly them or are in a check, crew duties and checks. No truncation; no validation of the window
 * (the caller bounds it).
 */
export function snapshotOf(schedule: Schedule, airline: string, fromMinutes: number, toMinutes: number): Snapshot {
  const flights = (schedule.flightsByAirline.get(airline) ?? [])
    .filter((f) => overlaps(f.depMinutes, f.arrMinutes, fromMinutes, toMinutes));
  const maintenance = schedule.maintenance
    .filter((m) => schedule.aircraft.get(m.tail)?.airline === airline && overlaps(m.startMinutes, m.endMinutes, fromMinutes, toMinutes))
    .sort((a, b) => a.startMinutes - b.startMinutes || byText(a.tail, b.tail));
  const tails = [...new Set([...flights.map((f) => f.tail), ...maintenance.map((m) => m.tail)])].sort();
  const crew = schedule.crew
    .filter((c) => c.airline === airline && overlaps(c.dutyStartMinutes, c.dutyEndMinutes, fromMinutes, toMinutes))
    .sort((a, b) => a.dutyStartMinutes - b.dutyStartMinutes || byText(a.crewId, b.crewId));
  const aircraft = tails.map((tail): AircraftAtWindowStart => {
    const plane = schedule.aircraft.get(tail)!;
    const checks = schedule.maintenanceByTail.get(tail) ?? [];
    return {
      aircraft: plane,
      inMaintenance: checks.some((c) => c.startMinutes <= fromMinutes && fromMinutes < c.endMinutes),
      position: positionAt(schedule.rotations.get(tail) ?? [], checks, plane.base, fromMinutes),
      nextCheck: checks.find((c) => c.startMinutes >= fromMinutes) ?? null,
    };
  });
  return { airline, fromMinutes, toMinutes, flights, aircraft, crew, maintenance };
}
