// What zod cannot check in the optional parts of a schedule file (schedule-file-extensions.ts): that
// they refer to airports, fleets, tails and flights of the same file, and that their periods are
// positive. The file is their store; this makes a broken one fail at load like any other schedule.
import type { ScheduleFile } from './schedule-file.ts';
import { parseInstantMinutes } from '../../domain/time.ts';

/** Minutes since midnight of a file's `HH:MM` time of day (`24:00` is 1440). */
export function minuteOfDay(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
}

/** Throws (via `fail`) with a sentence naming the first problem of the optional parts of `file`. */
export function checkScheduleExtensions(file: ScheduleFile, flightIds: ReadonlySet<string>, fail: (message: string) => never): void {
  const airports = new Set(file.airports.map((a) => a.code));
  const tails = new Set(file.aircraft.map((a) => a.tail));
  const fleets = new Set(file.fleets.map((f) => f.code));
  const flightNumbers = new Set(file.flights.map((f) => f.flight_number));
  const period = (what: string, from: string, to: string) => {
    if (!(parseInstantMinutes(to) > parseInstantMinutes(from))) fail(`${what} ends before it starts`);
  };

  for (const a of file.airports) {
    for (const w of a.hourly_capacity ?? []) if (minuteOfDay(w.to) <= minuteOfDay(w.from)) fail(`airport ${a.code} has a capacity window ${w.from}-${w.to} that ends before it starts`);
  }
  for (const a of file.aircraft) {
    // A passenger may sit in any cabin (ROADEF 2009: upgrading is free), so the service seats them by
    // the total (docs/model.md 1.6): it must be the cabins' total where every cabin has a limit.
    const cabins = a.cabin_seats ? Object.values(a.cabin_seats) : [];
    if (cabins.length > 0 && cabins.every((n) => n !== null)) {
      const total = cabins.reduce((sum: number, n) => sum + n!, 0);
      if (total !== a.seats) fail(`aircraft ${a.tail} has ${a.seats} seats but its cabin_seats add up to ${total}`);
    }
  }
  for (const f of file.flights) {
    if (f.linked_to !== undefined && !flightNumbers.has(f.linked_to)) fail(`flight ${f.flight_number} is linked to unknown flight number '${f.linked_to}'`);
  }
  for (const it of file.itineraries) {
    if (it.cabins && it.cabins.length !== it.flights.length) fail(`itinerary ${it.itinerary_id} has ${it.cabins.length} cabins for ${it.flights.length} flights`);
  }
  if (file.recovery_window) period('the recovery window', file.recovery_window.start, file.recovery_window.end);
  const disrupted = new Set<string>();
  for (const d of file.disruptions ?? []) {
    switch (d.type) {
      case 'flight_delay':
      case 'flight_cancellation':
        if (!flightIds.has(d.flight)) fail(`disruption ${d.type} names unknown flight '${d.flight}'`);
        if (disrupted.has(d.flight)) fail(`flight ${d.flight} is disrupted twice`);
        disrupted.add(d.flight);
        break;
      case 'aircraft_unavailable':
        if (!tails.has(d.tail)) fail(`disruption aircraft_unavailable names unknown tail '${d.tail}'`);
        period(`the unavailability of ${d.tail}`, d.from, d.to);
        break;
      case 'airport_capacity':
        if (!airports.has(d.airport)) fail(`disruption airport_capacity names unknown airport '${d.airport}'`);
        period(`the capacity reduction at ${d.airport}`, d.from, d.to);
        break;
    }
  }
  for (const p of file.required_positions ?? []) {
    if (!airports.has(p.airport)) fail(`a required position names unknown airport '${p.airport}'`);
    if (!fleets.has(p.fleet)) fail(`a required position at ${p.airport} names unknown fleet '${p.fleet}'`);
  }
  const pairs = new Set<string>();
  for (const p of file.airport_pairs ?? []) {
    if (!airports.has(p.origin) || !airports.has(p.dest)) fail(`airport pair ${p.origin}-${p.dest} names an unknown airport`);
    if (pairs.has(`${p.origin}-${p.dest}`)) fail(`airport pair ${p.origin}-${p.dest} appears twice`);
    pairs.add(`${p.origin}-${p.dest}`);
  }
}

/**
 * The minimum ground time an aircraft's own record gives between two of its flights (imported
 * schedules carry one per aircraft): its transit time before a flight linked to the previous one, else
 * its turnaround; undefined when the file gives none and the turnaround rule decides.
 */
export function ownGroundMinutes(file: ScheduleFile): (tail: string, previousFlightNumber: string, nextFlightId: string) => number | undefined {
  const aircraft = new Map(file.aircraft.map((a) => [a.tail, a]));
  // A flight id is `<flight_number>_<dep>`, and the schema admits `dep` only in that canonical form.
  const linkedTo = new Map(file.flights.filter((f) => f.linked_to !== undefined).map((f) => [`${f.flight_number}_${f.dep}`, f.linked_to]));
  return (tail, previousFlightNumber, nextFlightId) => {
    const own = aircraft.get(tail);
    if (own?.min_transit_minutes !== undefined && linkedTo.get(nextFlightId) === previousFlightNumber) return own.min_transit_minutes;
    return own?.min_turnaround_minutes;
  };
}
