// What the Gantt draws, made from the API's answers and nothing else: the day's rows from GET /snapshot,
// and for an option the rows again with that option's rotations (the engine's timed plan for every
// aircraft of the scope) laid under them. The page re-plans nothing: every "after" bar is a leg of a
// rotation the response lists, every ghost a cancellation it lists.
import type { DayResponse, RecoveryOption, SimulationResponse, SnapshotResponse } from '../api/wire.ts';
import { HOUR_MS, offsetOf, parseInstant } from './time-axis.ts';

/** How a bar is drawn and labelled (patterns and text, not colour alone). */
export type BarKind = 'planned' | 'delayed' | 'swapped' | 'cancelled' | 'new';

export interface FlightBar {
  flight: string;
  origin: string;
  dest: string;
  depMs: number;
  arrMs: number;
  kind: BarKind;
  /** Minutes after the scheduled departure (0 when on time). */
  delayMinutes: number;
  /** For a swapped flight: the aircraft the schedule planned. */
  plannedTail: string | null;
  passengers: number | null;
  crew: readonly string[];
  /** On a live day: the schedule's times and what movement messages reported (absent elsewhere). */
  live?: LiveTimes;
}

/** A live day's flight beyond its bar: its status, the schedule's times, the actual times reported. */
export interface LiveTimes {
  status: DayResponse['flights'][number]['status'];
  scheduledDepMs: number;
  scheduledArrMs: number;
  /** The current plan's times (the schedule's, or the last applied option's). */
  plannedDepMs: number;
  plannedArrMs: number;
  offBlockMs: number | null;
  airborneMs: number | null;
  landedMs: number | null;
  onBlockMs: number | null;
}

export interface MaintenanceBlock { type: string; station: string; startMs: number; endMs: number }

export interface GanttRow {
  tail: string;
  fleet: string;
  base: string;
  airline: string;
  /** The schedule as planned. */
  before: FlightBar[];
  maintenance: MaintenanceBlock[];
  /** The option's plan for this aircraft; null in the day view (one lane). */
  after: FlightBar[] | null;
  maintenanceAfter: MaintenanceBlock[] | null;
  /** Sentences of what the option leaves wrong on this row (violations, out of position). */
  flags: string[];
}

export interface DaySchedule {
  scheduleFile: string;
  /** The airlines loaded (one snapshot each). */
  airlines: string[];
  /** Every airline with flights in the schedule file (the snapshots' schedule_airlines). */
  scheduleAirlines: string[];
  /** Seats of every aircraft, by tail. */
  seatsByTail: Map<string, number>;
  rows: GanttRow[];
  flightsById: Map<string, { flight: FlightBar; tail: string; airline: string }>;
  /** Offsets (minutes east of UTC) of every airport, read from the API's timestamps there. */
  airportOffsets: Map<string, number>;
  /** The whole day on the axis: the first departure to the last arrival and the start of every check (hours). */
  startMs: number;
  endMs: number;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The day's rows from one snapshot per airline of the same schedule file. */
export function daySchedule(snapshots: readonly SnapshotResponse[]): DaySchedule {
  const rows = new Map<string, GanttRow>();
  const seatsByTail = new Map<string, number>();
  const flightsById: DaySchedule['flightsById'] = new Map();
  const airportOffsets = new Map<string, number>();
  let startMs = Infinity;
  let endMs = -Infinity;
  for (const snapshot of snapshots) {
    for (const plane of snapshot.aircraft) {
      rows.set(plane.tail, { tail: plane.tail, fleet: plane.fleet, base: plane.base, airline: snapshot.airline, before: [], maintenance: [], after: null, maintenanceAfter: null, flags: [] });
      seatsByTail.set(plane.tail, plane.seats);
    }
    for (const f of snapshot.flights) {
      const bar: FlightBar = {
        flight: f.id, origin: f.origin, dest: f.dest, depMs: parseInstant(f.dep), arrMs: parseInstant(f.arr),
        kind: 'planned', delayMinutes: 0, plannedTail: null, passengers: f.booked_passengers, crew: f.crew_ids,
      };
      rows.get(f.tail)?.before.push(bar);
      flightsById.set(f.id, { flight: bar, tail: f.tail, airline: snapshot.airline });
      airportOffsets.set(f.origin, offsetOf(f.dep));
      airportOffsets.set(f.dest, offsetOf(f.arr));
      startMs = Math.min(startMs, bar.depMs);
      endMs = Math.max(endMs, bar.arrMs);
    }
    for (const m of snapshot.maintenance) {
      rows.get(m.tail)?.maintenance.push({ type: m.type, station: m.station, startMs: parseInstant(m.start), endMs: parseInstant(m.end) });
    }
  }
  const sorted = [...rows.values()].sort((a, b) => byText(a.airline, b.airline) || byText(a.fleet, b.fleet) || byText(a.tail, b.tail));
  for (const row of sorted) row.before.sort((a, b) => a.depMs - b.depMs);
  const [start, end] = wholeDay(sorted, [startMs, endMs]);
  return {
    scheduleFile: snapshots[0]?.schedule_file ?? '',
    airlines: snapshots.map((s) => s.airline),
    scheduleAirlines: [...new Set(snapshots.flatMap((s) => s.schedule_airlines))].sort(),
    seatsByTail,
    rows: sorted,
    flightsById,
    airportOffsets,
    startMs: start,
    endMs: end,
  };
}

/**
 * The rows of a live day's revision (GET /days/{day_id}): the aircraft, their checks and seats from the
 * schedule's snapshots, the flights as the revision has them, each on the aircraft that flies it now.
 * A bar runs from the actual off-block (else the estimated departure) to the actual on-block (else the
 * estimated arrival): what was flown is drawn as flown, the rest as now expected. It is `swapped` when
 * another aircraft than the schedule's flies it, `delayed` when it leaves after the schedule's time,
 * `cancelled` (a ghost at its planned times) when an applied option cancelled it. Only the day's
 * flights are rows' bars (a day may cover part of the schedule).
 */
export function liveDaySchedule(snapshots: readonly SnapshotResponse[], revision: DayResponse): DaySchedule {
  const schedule = daySchedule(snapshots);
  const crewById = new Map([...schedule.flightsById].map(([id, f]) => [id, f.flight.crew]));
  const rows = new Map(schedule.rows.map((row) => [row.tail, { ...row, before: [] as FlightBar[] }]));
  const flightsById: DaySchedule['flightsById'] = new Map();
  const at = (text: string | null) => (text === null ? null : parseInstant(text));
  let startMs = Infinity;
  let endMs = -Infinity;
  for (const f of revision.flights) {
    const live: LiveTimes = {
      status: f.status,
      scheduledDepMs: parseInstant(f.scheduled.dep), scheduledArrMs: parseInstant(f.scheduled.arr),
      plannedDepMs: parseInstant(f.planned.dep), plannedArrMs: parseInstant(f.planned.arr),
      offBlockMs: at(f.actual.off_block), airborneMs: at(f.actual.airborne), landedMs: at(f.actual.landed), onBlockMs: at(f.actual.on_block),
    };
    const cancelled = f.status === 'cancelled';
    const depMs = cancelled ? live.plannedDepMs : live.offBlockMs ?? at(f.estimated?.dep ?? null) ?? live.plannedDepMs;
    const arrMs = cancelled ? live.plannedArrMs : live.onBlockMs ?? at(f.estimated?.arr ?? null) ?? live.plannedArrMs;
    const delayMinutes = Math.max(0, Math.round((depMs - live.scheduledDepMs) / 60_000));
    const swapped = f.tail !== f.scheduled_tail;
    const bar: FlightBar = {
      flight: f.id, origin: f.origin, dest: f.dest, depMs, arrMs,
      kind: cancelled ? 'cancelled' : swapped ? 'swapped' : delayMinutes > 0 ? 'delayed' : 'planned',
      delayMinutes: cancelled ? 0 : delayMinutes, plannedTail: swapped ? f.scheduled_tail : null,
      passengers: f.passengers, crew: crewById.get(f.id) ?? [], live,
    };
    rows.get(f.tail)?.before.push(bar);
    flightsById.set(f.id, { flight: bar, tail: f.tail, airline: f.airline });
    startMs = Math.min(startMs, depMs);
    endMs = Math.max(endMs, arrMs);
  }
  const sorted = schedule.rows.map((row) => rows.get(row.tail)!);
  for (const row of sorted) row.before.sort((a, b) => a.depMs - b.depMs);
  const [start, end] = wholeDay(sorted, [startMs, endMs]);
  return { ...schedule, rows: sorted, flightsById, startMs: start, endMs: end };
}

/** How much of a check the whole day shows after its start (its label and the arrival that misses it). */
const CHECK_SHOWN_MS = HOUR_MS;

/**
 * The whole day of some rows on the axis, in whole hours: from `atLeast`'s start to its end, widened to
 * every bar of both lanes (a delayed last arrival lands after the planned day) and to the start of
 * every check plus an hour (the check a late arrival breaks is on screen with it).
 */
export function wholeDay(rows: readonly GanttRow[], atLeast: [number, number]): [number, number] {
  let [startMs, endMs] = atLeast;
  for (const row of rows) {
    for (const bar of row.after ?? []) { startMs = Math.min(startMs, bar.depMs); endMs = Math.max(endMs, bar.arrMs); }
    for (const check of [...row.maintenance, ...(row.maintenanceAfter ?? [])]) {
      if (check.startMs < atLeast[0]) continue;
      endMs = Math.max(endMs, Math.min(check.endMs, check.startMs + CHECK_SHOWN_MS));
    }
  }
  return [Math.floor(startMs / HOUR_MS) * HOUR_MS, Math.ceil(endMs / HOUR_MS) * HOUR_MS];
}

/**
 * The rows with `option` laid under them. Aircraft of the scope fly their rotation (the legs of the
 * window) after their flights before the window; other aircraft fly as planned. A flight the option
 * cancels stays in its planned row as a ghost.
 */
export function optionRows(day: DaySchedule, response: SimulationResponse, option: RecoveryOption): GanttRow[] {
  const cancelled = new Set(option.action_set.cancellations.map((c) => c.flight));
  const inWindow = new Set<string>(cancelled);
  for (const rotation of option.rotations) for (const leg of rotation.legs) inWindow.add(leg.flight);
  const rotationByTail = new Map(option.rotations.map((r) => [r.tail, r]));
  const flags = new Map<string, string[]>();
  const flag = (tail: string | undefined, text: string) => { if (tail) flags.set(tail, [...(flags.get(tail) ?? []), text]); };
  for (const v of option.violations) flag(v.tail ?? (v.flight ? tailFlying(option, v.flight) ?? day.flightsById.get(v.flight)?.tail : undefined), v.detail);
  for (const o of option.aircraft_out_of_position) flag(o.tail, `${o.tail} ends the day at ${o.ends_at}; the next day's plan needs it at ${o.required_at}.`);
  const newFlights = option.action_set.new_flights;
  const windowStart = parseInstant(response.disruption.disruption_time);
  const windowEnd = response.disruption.window_end === null ? Infinity : parseInstant(response.disruption.window_end);

  return day.rows.map((row) => {
    const rotation = rotationByTail.get(row.tail);
    const after: FlightBar[] = [];
    for (const bar of row.before) {
      // A flight of the window is drawn where its rotation leg says (possibly another row), or as a ghost.
      if (cancelled.has(bar.flight)) after.push({ ...bar, kind: 'cancelled' });
      else if (!inWindow.has(bar.flight)) after.push(bar);
    }
    for (const leg of rotation?.legs ?? []) {
      const planned = day.flightsById.get(leg.flight)?.flight;
      // A leg the option leaves where it is keeps the day's bar (on a live day it may already be
      // delayed or swapped by an earlier revision: that is not this option's change).
      if (planned && day.flightsById.get(leg.flight)?.tail === row.tail && planned.depMs === parseInstant(leg.dep) && planned.arrMs === parseInstant(leg.arr)) {
        after.push(planned);
        continue;
      }
      const swapped = leg.planned_tail !== row.tail;
      after.push({
        flight: leg.flight, origin: leg.origin, dest: leg.dest, depMs: parseInstant(leg.dep), arrMs: parseInstant(leg.arr),
        kind: swapped ? 'swapped' : leg.delay_minutes > 0 ? 'delayed' : 'planned',
        delayMinutes: leg.delay_minutes, plannedTail: swapped ? leg.planned_tail : null,
        passengers: planned?.passengers ?? null, crew: planned?.crew ?? [],
      });
    }
    for (const n of newFlights.filter((f) => f.tail === row.tail)) {
      after.push({ flight: `${n.origin}-${n.dest} ferry`, origin: n.origin, dest: n.dest, depMs: parseInstant(n.dep), arrMs: parseInstant(n.arr), kind: 'new', delayMinutes: 0, plannedTail: null, passengers: 0, crew: [] });
    }
    after.sort((a, b) => a.depMs - b.depMs);
    // A rotation lists the checks of the recovery window; those before and after it stay as planned.
    const maintenanceAfter = rotation
      ? [...row.maintenance.filter((m) => m.endMs <= windowStart || m.startMs >= windowEnd), ...rotation.maintenance.map((m) => ({ type: m.type, station: m.station, startMs: parseInstant(m.start), endMs: parseInstant(m.end) }))]
      : row.maintenance;
    return { ...row, after, maintenanceAfter, flags: flags.get(row.tail) ?? [] };
  });
}

function tailFlying(option: RecoveryOption, flight: string): string | undefined {
  return option.rotations.find((r) => r.legs.some((l) => l.flight === flight))?.tail;
}

export interface RowFilter { fleet: string; base: string; airport: string }

/** Rows of the fleet and base, with a flight from or to the airport ('' = any). */
export function filterRows(rows: readonly GanttRow[], filter: RowFilter): GanttRow[] {
  return rows.filter((row) => (filter.fleet === '' || row.fleet === filter.fleet)
    && (filter.base === '' || row.base === filter.base)
    && (filter.airport === '' || row.before.some((b) => b.origin === filter.airport || b.dest === filter.airport)
      || (row.after ?? []).some((b) => b.origin === filter.airport || b.dest === filter.airport)));
}
