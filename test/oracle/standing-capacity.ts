// Independent check of a schedule's standing airport capacities (docs/model.md 1.3): read from the raw
// schedule file (airports' hourly_capacity, aircraft's cabin_seats), never from the service's Schedule,
// and counted over every flight the option flies, all day. Shares no code with the engine.
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { Outcome, Problem } from './model.ts';

export interface StandingExcess { airport: string; kind: 'departures' | 'arrivals'; hourStartMinutes: number; count: number; limit: number }

/** `HH:MM` of the instant `minutes` (epoch minutes) on the clock of `timeZone`. */
function clockOf(minutes: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(minutes * 60_000));
  const part = (type: string) => parts.find((x) => x.type === type)!.value;
  return `${part('hour')}:${part('minute')}`;
}

/**
 * Every airport, movement kind and UTC clock hour where the flights the outcome flies (by the aircraft
 * it gives them; ground shuttles, an aircraft with an unlimited cabin, not counted) exceed the
 * standing capacity of the window that holds the hour's start on the airport's clock.
 */
export function standingCapacityExcess(file: ScheduleFile, p: Problem, o: Outcome): StandingExcess[] {
  const shuttles = new Set(file.aircraft.filter((a) => a.cabin_seats && Object.values(a.cabin_seats).includes(null)).map((a) => a.tail));
  const airports = new Map(file.airports.filter((a) => (a.hourly_capacity ?? []).length > 0).map((a) => [a.code, a]));
  const counts = new Map<string, StandingExcess>();
  const count = (airport: string, kind: StandingExcess['kind'], minutes: number) => {
    if (!airports.has(airport)) return;
    const hourStartMinutes = Math.floor(minutes / 60) * 60;
    const key = `${airport}|${kind}|${hourStartMinutes}`;
    const entry = counts.get(key) ?? { airport, kind, hourStartMinutes, count: 0, limit: Number.POSITIVE_INFINITY };
    entry.count++;
    counts.set(key, entry);
  };
  for (const f of p.airlineFlights) {
    const a = o.get(f.id)!;
    if (!a.flown || shuttles.has(a.tail)) continue;
    count(f.origin, 'departures', a.dep);
    count(f.dest, 'arrivals', a.arr);
  }
  const excess: StandingExcess[] = [];
  for (const c of counts.values()) {
    const airport = airports.get(c.airport)!;
    // Text comparison of HH:MM is time order; a window's `to` of 24:00 is after every clock time.
    const clock = clockOf(c.hourStartMinutes, airport.time_zone);
    const window = airport.hourly_capacity!.find((w) => w.from <= clock && clock < w.to);
    if (!window) continue;
    const limit = c.kind === 'departures' ? window.max_departures_per_hour : window.max_arrivals_per_hour;
    if (c.count > limit) excess.push({ ...c, limit });
  }
  return excess;
}
