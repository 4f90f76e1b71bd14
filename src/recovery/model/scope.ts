// Scope of a recovery: which aircraft and flights the model may re-plan, and the facts of the
// disruptions it must respect (docs/model.md 1.2), with the schedule's standing airport capacities
// (1.3). Everything outside the scope flies as planned.
import { pushTo } from '../../domain/collections.ts';
import { clockHoursOverlapping, disruptionStart, type AirportCapacity, type Disruption } from '../../domain/disruption.ts';
import { compareFlights, standingCapacity, type Aircraft, type Flight, type MaintenanceCheck, type Schedule } from '../../domain/schedule.ts';
import { minTurnaroundMinutes } from '../../domain/turnaround.ts';
import { mayFly } from './rules.ts';
import type { SolverConfig } from './solver-config.ts';

export interface AircraftInScope {
  aircraft: Aircraft;
  /** Where the aircraft is at the disruption time (or will be after its airborne flight). */
  station: string;
  /** Arrival of its last departed flight, or -Infinity. */
  arrivalMinutes: number;
  /** Earliest next departure: that arrival plus the minimum turnaround, or -Infinity. */
  readyMinutes: number;
  /** Its scheduled flights in the window, in order. */
  plannedFlights: Flight[];
  /** Checks not yet over at the disruption time. */
  checks: MaintenanceCheck[];
  /** For each check, the point where the schedule performs it: index in plannedFlights after which (-1: before the first); null if nowhere. */
  plannedCheckPoints: (number | null)[];
  /** Where the route must end (L(a)). */
  requiredEndStation: string;
  /** Scheduled departure of the first flight after the window (a hard deadline), or null. */
  nextDepartureAfterWindow: number | null;
  /** Periods [from, to) in which the aircraft flies nothing (aircraft_unavailable). */
  unavailable: { fromMinutes: number; toMinutes: number }[];
}

/** One capacity row: at most `max` movements of one kind at an airport in one clock hour, `fixed` of them by flights outside the scope. */
export interface CapacityLimit {
  airport: string;
  kind: 'departures' | 'arrivals';
  hourStartMinutes: number;
  max: number;
  /** Movements in that hour of the airline's flights that the scope cannot change (a standing capacity's row: ground shuttles' not counted). */
  fixed: number;
}

export interface RecoveryScope {
  airline: string;
  /** Flights that have left (actual off-block on an operational day): never re-planned, never a seat for a rebooking. */
  departedFlightIds: ReadonlySet<string>;
  /** The disruptions, as given (validated against the schedule). */
  disruptions: Disruption[];
  /** A short readable name for the models (the delayed flight of a single delay, else `network`). */
  label: string;
  /** The earliest instant any disruption takes effect. */
  disruptionMinutes: number;
  windowEndMinutes: number | null;
  /** The directly disrupted aircraft first (in disruption order), then the candidates in selection order. */
  aircraft: AircraftInScope[];
  /** Flights that may be re-planned, in departure order. */
  flights: Flight[];
  flightIds: Set<string>;
  /** Minimum delay per flight (flight_delay), minutes. */
  minDelayMinutes: Map<string, number>;
  /** Flights cancelled by a disruption: cancelled in every option. */
  cancelledFlights: Set<string>;
  /** The capacity cuts' rows, then the rows of the schedule's standing capacities a plan could break (standingCapacityRows). */
  capacities: CapacityLimit[];
}

function aircraftState(
  schedule: Schedule, config: SolverConfig, aircraft: Aircraft, t0: number, windowEnd: number | null, disruptions: readonly Disruption[], left: ReadonlySet<string>,
): AircraftInScope {
  const rotation = schedule.rotations.get(aircraft.tail) ?? [];
  // Flights that have left (on an operational day: an actual off-block), even after t0, fly as they are.
  const hasLeft = (f: Flight) => f.depMinutes < t0 || left.has(f.id);
  const departed = rotation.filter(hasLeft);
  const inWindow = rotation.filter((f) => !hasLeft(f) && (windowEnd === null || f.depMinutes < windowEnd));
  const after = windowEnd === null ? [] : rotation.filter((f) => f.depMinutes >= windowEnd);
  const last = departed.at(-1);
  const station = last ? last.dest : rotation[0]?.origin ?? aircraft.base;
  const arrivalMinutes = last ? last.arrMinutes : Number.NEGATIVE_INFINITY;
  const readyMinutes = last ? last.arrMinutes + minTurnaroundMinutes(config.turnaround, aircraft.fleet, last.dest) : Number.NEGATIVE_INFINITY;
  // Checks after the first flight beyond the window belong to the part of the day that flies as planned.
  const checks = (schedule.maintenanceByTail.get(aircraft.tail) ?? [])
    .filter((m) => m.endMinutes > t0 && (after[0] === undefined || m.startMinutes < after[0].depMinutes));
  const plannedCheckPoints = checks.map((check) => {
    // The schedule performs a check after the last flight that reaches its station by its start.
    const before = rotation.filter((f) => f.arrMinutes <= check.startMinutes).at(-1);
    if (!before) return station === check.station ? -1 : null;
    if (before.dest !== check.station) return null;
    const index = inWindow.indexOf(before);
    return index >= 0 ? index : -1;
  });
  const requiredEndStation = after[0]?.origin ?? rotation.at(-1)?.dest ?? station;
  const unavailable = disruptions.flatMap((d) => (d.type === 'aircraft_unavailable' && d.tail === aircraft.tail ? [{ fromMinutes: d.fromMinutes, toMinutes: d.toMinutes }] : []));
  return {
    aircraft, station, arrivalMinutes, readyMinutes, plannedFlights: inWindow, checks, plannedCheckPoints,
    requiredEndStation, nextDepartureAfterWindow: after[0]?.depMinutes ?? null, unavailable,
  };
}

/**
 * Minutes between an aircraft being on the ground somewhere a disrupted aircraft leaves from and that
 * departure; Infinity when they never meet.
 */
function meetingDistance(candidate: AircraftInScope, departures: { station: string; minutes: number }[]): number {
  const grounds: { station: string; from: number; to: number }[] = [];
  let from = candidate.arrivalMinutes;
  let station = candidate.station;
  for (const f of candidate.plannedFlights) {
    grounds.push({ station, from, to: f.depMinutes });
    station = f.dest;
    from = f.arrMinutes;
  }
  grounds.push({ station, from, to: Number.POSITIVE_INFINITY });
  let best = Number.POSITIVE_INFINITY;
  for (const g of grounds) {
    for (const d of departures) {
      if (g.station !== d.station) continue;
      const distance = d.minutes < g.from ? g.from - d.minutes : d.minutes > g.to ? d.minutes - g.to : 0;
      best = Math.min(best, distance);
    }
  }
  return best;
}

/** Tails whose planned flights (leaving at or after t0) move at `capacity.airport` in an hour the capacity caps. */
function tailsUnderCapacity(schedule: Schedule, airline: string, capacity: AirportCapacity, t0: number): string[] {
  const hours = clockHoursOverlapping(capacity.fromMinutes, capacity.toMinutes);
  const capped = (minutes: number) => hours.some((h) => minutes >= h && minutes < h + 60);
  const tails = new Set<string>();
  for (const f of schedule.flightsByAirline.get(airline) ?? []) {
    if (f.depMinutes < t0) continue;
    if ((f.origin === capacity.airport && capped(f.depMinutes)) || (f.dest === capacity.airport && capped(f.arrMinutes))) tails.add(f.tail);
  }
  return [...tails];
}

/** A movement's key: departures or arrivals at an airport in the clock hour from `hourStartMinutes`. */
function movementKey(airport: string, kind: CapacityLimit['kind'], hourStartMinutes: number): string {
  return `${airport} ${kind} ${hourStartMinutes}`;
}

/** The airline's flights outside the scope by movement (movementKey of their departure and of their arrival): the capacity rows' `fixed`. */
function movementsOutside(schedule: Schedule, airline: string, flightIds: ReadonlySet<string>): Map<string, Flight[]> {
  const byMovement = new Map<string, Flight[]>();
  for (const f of schedule.flightsByAirline.get(airline) ?? []) {
    if (flightIds.has(f.id)) continue;
    pushTo(byMovement, movementKey(f.origin, 'departures', Math.floor(f.depMinutes / 60) * 60), f);
    pushTo(byMovement, movementKey(f.dest, 'arrivals', Math.floor(f.arrMinutes / 60) * 60), f);
  }
  return byMovement;
}

/**
 * The rows of the schedule's standing hourly capacities (Airport.hourlyCapacity, docs/model.md 1.3)
 * that a plan of the scope could break: per airport, movement kind and clock hour that some flight of
 * the scope may move in (between its earliest departure and its delay limit; a plan never flies a
 * flight earlier), when the flights outside the scope (`fixed`, ground shuttles not counted) and those of
 * the scope that may move there together exceed the limit. A row no plan can break would only make
 * the models larger. The scope's own ground shuttles stay counted: stricter than the rule, never
 * looser (the service's engines count a row's movements by flight, not by aircraft).
 */
function standingCapacityRows(
  schedule: Schedule, flights: readonly Flight[], cancelled: ReadonlySet<string>, minDelayMinutes: ReadonlyMap<string, number>, config: SolverConfig,
  outside: (key: string) => readonly Flight[],
): CapacityLimit[] {
  const candidates = new Map<string, { airport: string; kind: CapacityLimit['kind']; hourStartMinutes: number; count: number }>();
  const reach = (airport: string, kind: CapacityLimit['kind'], fromMinutes: number, toMinutes: number) => {
    if (schedule.airports.get(airport)!.hourlyCapacity.length === 0) return;
    for (let hour = Math.floor(fromMinutes / 60) * 60; hour <= toMinutes; hour += 60) {
      const key = movementKey(airport, kind, hour);
      const entry = candidates.get(key);
      if (entry) entry.count++;
      else candidates.set(key, { airport, kind, hourStartMinutes: hour, count: 1 });
    }
  };
  for (const f of flights) {
    if (cancelled.has(f.id)) continue;
    // rules.ts: a flight leaves no earlier than its disruption's minimum delay and is delayed at most
    // max_delay_minutes, or that minimum delay if larger.
    const earliest = minDelayMinutes.get(f.id) ?? 0;
    const latest = Math.max(config.constraints.max_delay_minutes, earliest);
    reach(f.origin, 'departures', f.depMinutes + earliest, f.depMinutes + latest);
    reach(f.dest, 'arrivals', f.arrMinutes + earliest, f.arrMinutes + latest);
  }
  const rows: CapacityLimit[] = [];
  for (const [key, c] of candidates) {
    const airport = schedule.airports.get(c.airport)!;
    const window = standingCapacity(airport, c.hourStartMinutes);
    if (!window) continue;
    const max = c.kind === 'departures' ? window.maxDeparturesPerHour : window.maxArrivalsPerHour;
    const fixed = outside(key).filter((f) => !schedule.aircraft.get(f.tail)!.groundShuttle).length;
    if (fixed + c.count > max) rows.push({ airport: c.airport, kind: c.kind, hourStartMinutes: c.hourStartMinutes, max, fixed });
  }
  return rows.sort((x, y) => x.hourStartMinutes - y.hourStartMinutes || (x.airport < y.airport ? -1 : x.airport > y.airport ? 1 : 0) || (x.kind < y.kind ? -1 : 1));
}

/**
 * Select the scope of a recovery from `disruptions` (all of `airline`; flights, tails and airports
 * known to the schedule, checked by the caller). The directly disrupted aircraft, plus up to
 * solver.max_candidate_aircraft others of the airline that the fleet policy lets fly their flights
 * and that are on the ground where one of them leaves within solver.swap_window_hours. Flights in
 * `departedFlightIds` have left: they stay out of the scope wherever they are in time (their
 * aircraft starts after the last of them).
 */
export function selectScope(schedule: Schedule, airline: string, disruptions: Disruption[], config: SolverConfig, departedFlightIds: ReadonlySet<string> = new Set()): RecoveryScope {
  const departureOf = (id: string) => schedule.flightsById.get(id)!.depMinutes;
  const t0 = Math.min(...disruptions.map((d) => disruptionStart(d, departureOf)));
  const windowEnd = config.constraints.recovery_window_hours === null ? null : t0 + Math.round(config.constraints.recovery_window_hours * 60);

  const affectedTails: string[] = [];
  const affect = (tail: string) => { if (!affectedTails.includes(tail)) affectedTails.push(tail); };
  for (const d of disruptions) {
    if (d.type === 'flight_delay' || d.type === 'flight_cancellation') affect(schedule.flightsById.get(d.flightId)!.tail);
    else if (d.type === 'aircraft_unavailable') affect(d.tail);
    else for (const tail of tailsUnderCapacity(schedule, airline, d, t0)) affect(tail);
  }
  const affected = affectedTails.map((tail) => aircraftState(schedule, config, schedule.aircraft.get(tail)!, t0, windowEnd, disruptions, departedFlightIds));
  const departures = affected.flatMap((a) => a.plannedFlights.map((f) => ({ station: f.origin, minutes: f.depMinutes })));
  const windowMinutes = config.solver.swap_window_hours * 60;
  const candidates: { state: AircraftInScope; distance: number }[] = [];
  for (const aircraft of schedule.aircraft.values()) {
    if (aircraft.airline !== airline || affectedTails.includes(aircraft.tail)) continue;
    if (!affected.some((a) => mayFly(config.constraints.swap_fleet_policy, aircraft, a.aircraft))) continue;
    const state = aircraftState(schedule, config, aircraft, t0, windowEnd, disruptions, departedFlightIds);
    const distance = meetingDistance(state, departures);
    if (distance <= windowMinutes) candidates.push({ state, distance });
  }
  candidates.sort((x, y) => x.distance - y.distance || (x.state.aircraft.tail < y.state.aircraft.tail ? -1 : 1));
  const aircraft = [...affected, ...candidates.slice(0, config.solver.max_candidate_aircraft).map((c) => c.state)];
  const flights = aircraft.flatMap((a) => a.plannedFlights).sort(compareFlights);
  const flightIds = new Set(flights.map((f) => f.id));

  const minDelayMinutes = new Map<string, number>();
  const cancelledFlights = new Set<string>();
  const capacities: CapacityLimit[] = [];
  // Indexed once, and only for a scope with capacity rows to count (a single delay on a schedule without
  // standing capacities has none).
  let byMovement: Map<string, Flight[]> | undefined;
  const outside = (key: string): readonly Flight[] => (byMovement ??= movementsOutside(schedule, airline, flightIds)).get(key) ?? [];
  for (const d of disruptions) {
    if (d.type === 'flight_delay') minDelayMinutes.set(d.flightId, d.minDelayMinutes);
    else if (d.type === 'flight_cancellation') cancelledFlights.add(d.flightId);
    else if (d.type === 'airport_capacity') {
      for (const hour of clockHoursOverlapping(d.fromMinutes, d.toMinutes)) {
        const fixed = (kind: CapacityLimit['kind']) => outside(movementKey(d.airport, kind, hour)).length;
        capacities.push({ airport: d.airport, kind: 'departures', hourStartMinutes: hour, max: d.maxDeparturesPerHour, fixed: fixed('departures') });
        capacities.push({ airport: d.airport, kind: 'arrivals', hourStartMinutes: hour, max: d.maxArrivalsPerHour, fixed: fixed('arrivals') });
      }
    }
  }
  capacities.push(...standingCapacityRows(schedule, flights, cancelledFlights, minDelayMinutes, config, outside));
  const single = disruptions.length === 1 && disruptions[0]!.type === 'flight_delay' ? disruptions[0]!.flightId : null;
  return {
    airline, departedFlightIds, disruptions, label: single ?? 'network', disruptionMinutes: t0, windowEndMinutes: windowEnd,
    aircraft, flights, flightIds, minDelayMinutes, cancelledFlights, capacities,
  };
}
