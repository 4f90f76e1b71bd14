// An airport's movements per clock hour against a capacity cap, counted as the service counts them
// (contract.md: the airline's departures and arrivals at the airport in every UTC clock hour that
// overlaps the cap's period, by the times of the plan), and the part of that demand no plan can move.
import type { Disruption, SimulationResponse } from '../api/wire.ts';
import type { GanttRow } from './gantt-model.ts';
import { HOUR_MS, parseInstant } from './time-axis.ts';

export type CapacityDisruption = Extract<Disruption, { type: 'airport_capacity' }>;

export interface HourDemand {
  startMs: number;
  departures: number;
  arrivals: number;
}

/** Start of every UTC clock hour that overlaps [fromMs, toMs). */
export function clockHours(fromMs: number, toMs: number): number[] {
  const hours: number[] = [];
  for (let hour = Math.floor(fromMs / HOUR_MS) * HOUR_MS; hour < toMs; hour += HOUR_MS) hours.push(hour);
  return hours;
}

/**
 * Departures and arrivals at `airport` in each hour, flown by the rows of `airline` (their after lane
 * when they have one: an option's times, cancelled flights left out), optionally only those `counted`.
 */
export function hourlyDemand(rows: readonly GanttRow[], airline: string, airport: string, hours: readonly number[], counted: (flight: string, tail: string, depMs: number) => boolean = () => true): HourDemand[] {
  const demand = hours.map((startMs) => ({ startMs, departures: 0, arrivals: 0 }));
  const at = (ms: number) => demand[hours.indexOf(Math.floor(ms / HOUR_MS) * HOUR_MS)];
  for (const row of rows) {
    if (row.airline !== airline) continue;
    for (const bar of row.after ?? row.before) {
      if (bar.kind === 'cancelled' || !counted(bar.flight, row.tail, bar.depMs)) continue;
      if (bar.origin === airport) { const hour = at(bar.depMs); if (hour) hour.departures++; }
      if (bar.dest === airport) { const hour = at(bar.arrMs); if (hour) hour.arrivals++; }
    }
  }
  return demand;
}

export interface CapacityHint {
  airport: string;
  hourStartMs: number;
  kind: 'departures' | 'arrivals';
  fixed: number;
  cap: number;
}

/**
 * The hours of each cap that the movements no plan can change already exceed: those of aircraft outside
 * the response's scope, and those before the disruption or after the recovery window. Such a cap cannot
 * be met by any plan; its hint names the least cap that could be (a necessary condition, not a promise).
 */
export function capacityHints(rows: readonly GanttRow[], response: SimulationResponse): CapacityHint[] {
  const scope = new Set(response.scope.aircraft);
  const startMs = parseInstant(response.disruption.disruption_time);
  const endMs = response.disruption.window_end === null ? Infinity : parseInstant(response.disruption.window_end);
  const fixed = (_flight: string, tail: string, depMs: number) => !scope.has(tail) || depMs < startMs || depMs >= endMs;
  const hints: CapacityHint[] = [];
  for (const d of response.disruptions) {
    if (d.type !== 'airport_capacity') continue;
    const hours = clockHours(parseInstant(d.from), parseInstant(d.to));
    // The day as planned: outside the scope and the window every aircraft flies its schedule.
    const planned = rows.map((row) => ({ ...row, after: null }));
    for (const hour of hourlyDemand(planned, response.airline, d.airport, hours, fixed)) {
      if (hour.departures > d.max_departures_per_hour) hints.push({ airport: d.airport, hourStartMs: hour.startMs, kind: 'departures', fixed: hour.departures, cap: d.max_departures_per_hour });
      if (hour.arrivals > d.max_arrivals_per_hour) hints.push({ airport: d.airport, hourStartMs: hour.startMs, kind: 'arrivals', fixed: hour.arrivals, cap: d.max_arrivals_per_hour });
    }
  }
  return hints;
}
