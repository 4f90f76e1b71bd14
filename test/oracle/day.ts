// The oracle's reading of an operational day, independent of src/domain/day: it checks a day as GET
// /days/{day_id} shows it against the raw schedule file (every aircraft's day continuous and turned
// round, times never before the schedule, actual times in order, every passenger accounted for and on
// flown flights of a connected journey), against the revision before it (departed flights never move,
// cancelled flights stay cancelled), and writes the schedule file the engine should have read for a
// simulation on it, so that checkOption (checker.ts) can check that simulation's options. Shares no
// code with the engine; only the response TYPES are imported.
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { DayResponse } from '../../src/http/day-schemas.ts';
import { defaultOracleConfig } from './config.ts';
import { flightIdOf, isoMinutes, isoOf, turnaroundMinutes } from './model.ts';

type DayFlightView = DayResponse['flights'][number];

const turnaround = (s: ScheduleFile, tail: string, airport: string) => {
  const fleet = s.aircraft.find((a) => a.tail === tail)?.fleet ?? '';
  return turnaroundMinutes(defaultOracleConfig().turnaround, fleet, airport);
};

/** Passengers a day starts with: every booked passenger once (a connecting passenger is booked on each leg). */
export function passengersOfSchedule(s: ScheduleFile, flightIds: ReadonlySet<string>): number {
  const id = (f: ScheduleFile['flights'][number]) => flightIdOf(f.flight_number, isoMinutes(f.dep));
  let total = s.flights.filter((f) => flightIds.has(id(f))).reduce((sum, f) => sum + f.booked_passengers, 0);
  for (const it of s.itineraries) if (it.flights.every((f) => flightIds.has(f))) total -= it.passengers * (it.flights.length - 1);
  return total;
}

/** Broken connections of the day by its estimated times: `booking|arriving|departing`. */
export function brokenConnections(s: ScheduleFile, day: DayResponse): string[] {
  const flights = new Map(day.flights.map((f) => [f.id, f]));
  const mct = new Map(s.airports.map((a) => [a.code, a.min_connection_minutes]));
  const broken: string[] = [];
  for (const b of day.passengers) {
    for (let i = 1; i < b.flights.length; i++) {
      const a = flights.get(b.flights[i - 1]!)!;
      const d = flights.get(b.flights[i]!)!;
      if (!a.estimated || !d.estimated) continue;
      if (isoMinutes(a.estimated.arr) + mct.get(d.origin)! > isoMinutes(d.estimated.dep)) broken.push(`${b.booking_id}|${a.id}|${d.id}`);
    }
  }
  return broken.sort();
}

/** Problems of a day (and of its change from `previous`), one sentence each; empty when it holds. */
export function checkDay(s: ScheduleFile, day: DayResponse, previous?: DayResponse, options: { revert?: boolean } = {}): string[] {
  const problems: string[] = [];
  const say = (text: string) => problems.push(text);
  const scheduled = new Map(s.flights.map((f) => [flightIdOf(f.flight_number, isoMinutes(f.dep)), f]));
  const flights = new Map(day.flights.map((f) => [f.id, f]));
  for (const f of day.flights) {
    const sf = scheduled.get(f.id);
    if (!sf) { say(`Flight ${f.id} is not a flight of the schedule.`); continue; }
    if (sf.origin !== f.origin || sf.dest !== f.dest || sf.tail !== f.scheduled_tail) say(`Flight ${f.id} is not the schedule's (airports or scheduled tail).`);
    if (isoMinutes(f.scheduled.dep) !== isoMinutes(sf.dep) || isoMinutes(f.scheduled.arr) !== isoMinutes(sf.arr)) say(`Flight ${f.id} shows scheduled times other than the schedule's.`);
    const a = f.actual;
    const times = [a.off_block, a.airborne, a.landed, a.on_block].filter((t): t is string => t !== null).map(isoMinutes);
    if (times.some((t, i) => i > 0 && t < times[i - 1]!)) say(`Flight ${f.id} has actual times out of order.`);
    if (f.status === 'cancelled') {
      if (f.estimated !== null) say(`Cancelled flight ${f.id} has an estimate.`);
      if (a.off_block !== null) say(`Cancelled flight ${f.id} has departed.`);
      continue;
    }
    if (!f.estimated) { say(`Flight ${f.id} is flown but has no estimate.`); continue; }
    const dep = isoMinutes(f.estimated.dep);
    const arr = isoMinutes(f.estimated.arr);
    if (a.off_block !== null) {
      if (dep !== isoMinutes(a.off_block)) say(`Flight ${f.id} left at ${a.off_block} but is estimated at ${f.estimated.dep}.`);
    } else {
      if (dep < isoMinutes(sf.dep)) say(`Flight ${f.id} is estimated at ${f.estimated.dep}, before its scheduled departure ${sf.dep}.`);
      if (arr - dep !== isoMinutes(sf.arr) - isoMinutes(sf.dep)) say(`Flight ${f.id} is estimated in ${arr - dep} minutes, not its block time.`);
    }
    if (a.on_block !== null && arr !== isoMinutes(a.on_block)) say(`Flight ${f.id} arrived at ${a.on_block} but is estimated at ${f.estimated.arr}.`);
    if (!s.aircraft.some((p) => p.tail === f.tail && p.airline === f.airline)) say(`Flight ${f.id} is flown by ${f.tail}, not an aircraft of ${f.airline}.`);
  }
  // Every aircraft's day: continuous, and turned round before every flight that has not left yet.
  const byTail = new Map<string, DayFlightView[]>();
  for (const f of day.flights) if (f.status !== 'cancelled' && f.estimated) byTail.set(f.tail, [...(byTail.get(f.tail) ?? []), f]);
  for (const [tail, rotation] of byTail) {
    rotation.sort((x, y) => isoMinutes(x.estimated!.dep) - isoMinutes(y.estimated!.dep));
    for (let i = 1; i < rotation.length; i++) {
      const prev = rotation[i - 1]!;
      const next = rotation[i]!;
      if (prev.dest !== next.origin) say(`The day of ${tail} jumps from ${prev.dest} (${prev.id}) to ${next.origin} (${next.id}).`);
      const ground = isoMinutes(next.estimated!.dep) - isoMinutes(prev.estimated!.arr);
      const need = turnaround(s, tail, prev.dest);
      if (next.actual.off_block === null && ground < need) say(`${tail} turns ${prev.id} into ${next.id} in ${ground} minutes, below ${need}.`);
    }
  }
  // Passengers: all there, on flown flights, on connected journeys, and counted on each flight.
  const total = day.passengers.reduce((sum, b) => sum + b.passengers, 0);
  const expected = passengersOfSchedule(s, new Set(day.flights.map((f) => f.id)));
  if (total !== expected) say(`The day has ${total} passengers in its bookings; its schedule booked ${expected}.`);
  const loads = new Map<string, number>();
  for (const b of day.passengers) {
    if (b.status === 'stranded') { if (b.flights.length > 0) say(`Stranded booking ${b.booking_id} still has flights.`); continue; }
    if (b.flights.length === 0) { say(`Booking ${b.booking_id} has no journey and is not stranded.`); continue; }
    const legs = b.flights.map((id) => flights.get(id));
    if (legs.some((l) => !l)) { say(`Booking ${b.booking_id} names a flight the day does not have.`); continue; }
    if (legs[0]!.origin !== b.origin || legs.at(-1)!.dest !== b.dest) say(`Booking ${b.booking_id} does not go from ${b.origin} to ${b.dest}.`);
    for (const [i, l] of legs.entries()) {
      if (l!.status === 'cancelled') say(`Booking ${b.booking_id} is on cancelled flight ${l!.id}.`);
      if (i > 0 && legs[i - 1]!.dest !== l!.origin) say(`Booking ${b.booking_id} does not connect at ${legs[i - 1]!.dest}.`);
      loads.set(l!.id, (loads.get(l!.id) ?? 0) + b.passengers);
    }
  }
  for (const f of day.flights) if ((loads.get(f.id) ?? 0) !== f.passengers) say(`Flight ${f.id} shows ${f.passengers} passengers; its bookings hold ${loads.get(f.id) ?? 0}.`);
  // Against the revision before: what has left never moves; what was cancelled stays cancelled (but for a revert).
  if (previous) {
    for (const p of previous.flights) {
      const f = flights.get(p.id)!;
      if (p.actual.off_block !== null && (f.tail !== p.tail || f.actual.off_block !== p.actual.off_block || f.status === 'cancelled')) say(`Departed flight ${p.id} moved between revisions ${previous.revision} and ${day.revision}.`);
      if (p.status === 'cancelled' && f.status !== 'cancelled' && !options.revert) say(`Cancelled flight ${p.id} flies again in revision ${day.revision}.`);
    }
  }
  return problems;
}

/**
 * The schedule file the engine reads for a simulation on `day` at `nowIso` (the oracle's reading of
 * docs/model.md on a day): flown flights at their estimated times (those that have not left no
 * earlier than now, pushed down their rotation by the turnaround), on their current tails, with the
 * passengers booked on them; itineraries from the bookings of several flights; crew duties keeping
 * their flights that still fly. Each flight carries its id.
 */
export function scheduleFileOfDay(s: ScheduleFile, day: DayResponse, nowIso: string): ScheduleFile {
  const now = isoMinutes(nowIso);
  const times = new Map<string, { dep: number; arr: number }>();
  const byTail = new Map<string, DayFlightView[]>();
  for (const f of day.flights) if (f.status !== 'cancelled') byTail.set(f.tail, [...(byTail.get(f.tail) ?? []), f]);
  for (const [tail, rotation] of byTail) {
    rotation.sort((x, y) => isoMinutes(x.estimated!.dep) - isoMinutes(y.estimated!.dep));
    let ready = Number.NEGATIVE_INFINITY;
    for (const f of rotation) {
      const est = { dep: isoMinutes(f.estimated!.dep), arr: isoMinutes(f.estimated!.arr) };
      const dep = f.actual.off_block !== null ? est.dep : Math.max(est.dep, now, ready);
      const arr = dep + (est.arr - est.dep);
      times.set(f.id, { dep, arr });
      ready = arr + turnaround(s, tail, f.dest);
    }
  }
  const flown = new Set(times.keys());
  const byId = new Map(day.flights.map((f) => [f.id, f]));
  return {
    ...s,
    flights: s.flights.flatMap((f) => {
      const id = flightIdOf(f.flight_number, isoMinutes(f.dep));
      const t = times.get(id);
      if (!t) return [];
      const view = byId.get(id)!;
      return [{ ...f, id, tail: view.tail, dep: isoOf(t.dep), arr: isoOf(t.arr), booked_passengers: view.passengers }];
    }),
    crew: s.crew.flatMap((c) => { const remaining = c.flights.filter((id) => flown.has(id)); return remaining.length ? [{ ...c, flights: remaining }] : []; }),
    itineraries: day.passengers.filter((b) => b.status !== 'stranded' && b.flights.length >= 2)
      .map((b) => ({ itinerary_id: b.booking_id, passengers: b.passengers, flights: [...b.flights] })),
  };
}
