// Scope of a recovery: which aircraft and flights the model may re-plan (docs/model.md 1.2).
// Keeping the scope small is what lets the model solve in milliseconds on the largest schedule.
import { compareFlights, type Aircraft, type Flight, type MaintenanceCheck, type Schedule } from '../domain/schedule.ts';
import { minTurnaroundMinutes } from '../domain/turnaround.ts';
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
}

export interface RecoveryScope {
  disrupted: Flight;
  minDelayMinutes: number;
  airline: string;
  disruptionMinutes: number;
  windowEndMinutes: number | null;
  /** The disrupted aircraft first, then the candidates in selection order. */
  aircraft: AircraftInScope[];
  /** Flights that may be re-planned, in departure order. */
  flights: Flight[];
  flightIds: Set<string>;
}

function aircraftState(schedule: Schedule, config: SolverConfig, aircraft: Aircraft, t0: number, windowEnd: number | null): AircraftInScope {
  const rotation = schedule.rotations.get(aircraft.tail) ?? [];
  const departed = rotation.filter((f) => f.depMinutes < t0);
  const inWindow = rotation.filter((f) => f.depMinutes >= t0 && (windowEnd === null || f.depMinutes < windowEnd));
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
  return {
    aircraft, station, arrivalMinutes, readyMinutes, plannedFlights: inWindow, checks, plannedCheckPoints,
    requiredEndStation, nextDepartureAfterWindow: after[0]?.depMinutes ?? null,
  };
}

/**
 * Minutes between an aircraft being on the ground somewhere on the disrupted aircraft's route and
 * that aircraft leaving from there; Infinity when they never meet.
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

/** Select the scope for a disruption of `disrupted` (docs/model.md 1.2). */
export function selectScope(schedule: Schedule, disrupted: Flight, minDelayMinutes: number, config: SolverConfig): RecoveryScope {
  const t0 = disrupted.depMinutes;
  const windowEnd = config.constraints.recovery_window_hours === null ? null : t0 + Math.round(config.constraints.recovery_window_hours * 60);
  const a0 = schedule.aircraft.get(disrupted.tail)!;
  const first = aircraftState(schedule, config, a0, t0, windowEnd);
  const departures = first.plannedFlights.map((f) => ({ station: f.origin, minutes: f.depMinutes }));
  const windowMinutes = config.solver.swap_window_hours * 60;
  const candidates: { state: AircraftInScope; distance: number }[] = [];
  for (const aircraft of schedule.aircraft.values()) {
    if (aircraft.airline !== disrupted.airline || aircraft.tail === a0.tail) continue;
    if (!mayFly(config.constraints.swap_fleet_policy, aircraft, a0)) continue;
    const state = aircraftState(schedule, config, aircraft, t0, windowEnd);
    const distance = meetingDistance(state, departures);
    if (distance <= windowMinutes) candidates.push({ state, distance });
  }
  candidates.sort((x, y) => x.distance - y.distance || (x.state.aircraft.tail < y.state.aircraft.tail ? -1 : 1));
  const aircraft = [first, ...candidates.slice(0, config.solver.max_candidate_aircraft).map((c) => c.state)];
  const flights = aircraft.flatMap((a) => a.plannedFlights).sort(compareFlights);
  return {
    disrupted, minDelayMinutes, airline: disrupted.airline, disruptionMinutes: t0, windowEndMinutes: windowEnd,
    aircraft, flights, flightIds: new Set(flights.map((f) => f.id)),
  };
}
