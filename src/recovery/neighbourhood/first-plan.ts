// A first plan for the column generation to start from: every aircraft keeps its planned sequence
// (less the flights a disruption cancels), each flight leaves at the first minute of its departure
// grid that its aircraft, its disruption, the aircraft's unavailability and the airport capacities
// allow, the capacities given out first come, first served in order of departure. It is only a
// start (a feasible plan when one of this shape exists, so that a time limit still ends with a plan);
// the column generation improves on it and proves how far it is from the optimum.
import { afterUnavailability, performPlannedChecks, type Route, type RouteEvaluator } from './aircraft-routes.ts';
import type { TimedLeg } from '../../domain/plan.ts';
import { brokenLegRule } from '../model/rules.ts';
import type { AircraftInScope, CapacityLimit } from '../model/scope.ts';

interface Progress { a: AircraftInScope; next: number; station: string; arrival: number; ready: number; legs: TimedLeg[]; points: (number | null)[]; failed: boolean }

/** Per aircraft of the scope, its planned sequence timed as above; null where that breaks a rule. */
export function firstPlan(ev: RouteEvaluator, stepMinutes: number): Map<string, Route | null> {
  const { scope } = ev;
  const used = new Map<string, number>();
  const keyOf = (airport: string, kind: CapacityLimit['kind'], minutes: number) => `${airport}|${kind}|${Math.floor(minutes / 60) * 60}`;
  const limits = new Map(scope.capacities.map((c) => [`${c.airport}|${c.kind}|${c.hourStartMinutes}`, c]));
  for (const c of scope.capacities) used.set(`${c.airport}|${c.kind}|${c.hourStartMinutes}`, c.fixed);
  const fits = (airport: string, kind: CapacityLimit['kind'], minutes: number) => {
    const key = keyOf(airport, kind, minutes);
    const limit = limits.get(key);
    return !limit || (used.get(key) ?? 0) < limit.max;
  };
  const take = (airport: string, kind: CapacityLimit['kind'], minutes: number) => {
    const key = keyOf(airport, kind, minutes);
    if (limits.has(key)) used.set(key, (used.get(key) ?? 0) + 1);
  };

  const states: Progress[] = scope.aircraft.map((a) => ({
    a, next: 0, station: a.station, arrival: a.arrivalMinutes, ready: a.readyMinutes, legs: [], points: a.checks.map(() => null), failed: false,
  }));
  const flightsOf = (a: AircraftInScope) => a.plannedFlights.filter((f) => !scope.cancelledFlights.has(f.id));
  for (const s of states) performPlannedChecks(s, -1);
  // The earliest grid departure of the state's next flight, before capacities.
  const earliest = (s: Progress) => {
    const flight = flightsOf(s.a)[s.next]!;
    const e = ev.earliestDeparture(flight);
    const onGrid = (minutes: number) => e + Math.ceil(Math.max(0, minutes - e) / stepMinutes) * stepMinutes;
    return afterUnavailability(s.a, onGrid(s.ready), flight.arrMinutes - flight.depMinutes, onGrid);
  };
  for (;;) {
    const open = states.filter((s) => !s.failed && s.next < flightsOf(s.a).length);
    if (open.length === 0) break;
    const s = open.reduce((best, t) => (earliest(t) < earliest(best) ? t : best));
    const flight = flightsOf(s.a)[s.next]!;
    const block = flight.arrMinutes - flight.depMinutes;
    const latest = flight.depMinutes + ev.delayLimit(flight);
    let dep = earliest(s);
    while (dep <= latest && !(fits(flight.origin, 'departures', dep) && fits(flight.dest, 'arrivals', dep + block))) dep += stepMinutes;
    const pending = s.a.checks.filter((_, i) => s.points[i] === null);
    if (dep > latest || brokenLegRule(ev.legContext(s.a, s.station, flight, dep, flight.tail === s.a.aircraft.tail ? 0 : 1, pending)) !== null) {
      s.failed = true;
      continue;
    }
    take(flight.origin, 'departures', dep);
    take(flight.dest, 'arrivals', dep + block);
    s.legs.push({ flight, depMinutes: dep, arrMinutes: dep + block, delayMinutes: dep - flight.depMinutes });
    s.station = flight.dest;
    s.arrival = dep + block;
    s.ready = dep + block + ev.turnaround(s.a, flight.dest);
    performPlannedChecks(s, s.a.plannedFlights.indexOf(flight));
    s.next++;
  }
  return new Map(states.map((s) => [s.a.aircraft.tail, s.failed ? null : ev.finish(s.a, s.legs, s.points, false)]));
}
