// The legs the disruptions may force a plan to cancel (ROADEF 2009 spec 4.3-4.6), engine side: the
// keeps-flights problem cancels no planned leg outside them and the disruptions' own cancellations, and
// its lower bound (bounds/roadef-bound.ts, argued in docs/model.md 3.9) holds for the plans of that
// problem (keepsFlights says whether a plan is one).
import { groundMinutes } from '../model/roadef-rules.ts';
import { CANCELLED, disruptionDelays, pinned } from './bookings.ts';
import { capacityCuts, cutHolding } from './operating-plan.ts';
import type { NetworkFlight, NetworkPlan, NetworkProblem } from './problem.ts';

/** Each aircraft's planned legs in departure order (the source's order breaks ties). */
export function rotations(problem: NetworkProblem): Map<string, NetworkFlight[]> {
  const byTail = new Map<string, NetworkFlight[]>();
  for (const f of problem.flights) (byTail.get(f.tail) ?? byTail.set(f.tail, []).get(f.tail)!).push(f);
  for (const legs of byTail.values()) legs.sort((a, b) => a.depMinutes - b.depMinutes);
  return byTail;
}

/** The departure of a planned leg after its disruption (its planned one when not delayed). */
export function disruptedDeparture(f: NetworkFlight, delays: ReadonlyMap<string, number>): number {
  const d = delays.get(f.id);
  return f.depMinutes + (d === undefined || d === CANCELLED ? 0 : d);
}

/**
 * The legs a plan of the keeps-flights problem may cancel: walk each rotation as planned with the
 * disruption delays propagated (turnaround, or transit after the flight a leg continues) and every leg
 * whose departure or arrival falls in a clock hour of a capacity cut held until the cut is over; from
 * the first leg that then lands after the window, meets its aircraft's unavailability, breaks its
 * check (landing after its start, flying time, a departure during it) or does not start where the
 * aircraft is, that leg and the rest of the rotation; and every leg of an aircraft that would not be at
 * its check's station when the check starts.
 */
export function legsTheDisruptionsMayCancel(problem: NetworkProblem): Set<string> {
  const delays = disruptionDelays(problem);
  const byTail = rotations(problem);
  const E = problem.window.endMinutes;
  const cuts = capacityCuts(problem);
  const outOfService = problem.disruptions.flatMap((d) => (d.type === 'aircraft_unavailable' ? [d] : []));
  // The end of the cut whose clock hours hold `minute` at `airport`, else null.
  const cutEnd = (airport: string, minute: number) => {
    const cut = cutHolding(cuts, airport, Math.floor(minute / 60));
    return cut ? Math.ceil(cut.endMinutes / 60) * 60 : null;
  };
  const mayCancel = new Set<string>();
  for (const [tail, legs] of byTail) {
    const aircraft = problem.aircraft.get(tail);
    if (!aircraft || aircraft.shuttle) continue;
    const check = aircraft.check;
    let previousArr = Number.NEGATIVE_INFINITY;
    let previous: NetworkFlight | null = null;
    let location = aircraft.base;
    let flyingBeforeCheck = 0;
    let broken = false;
    for (const f of legs) {
      if (delays.get(f.id) === CANCELLED) continue;
      const fixed = pinned(problem, delays, f);
      const ground = groundMinutes(aircraft, previous?.flightNumber ?? null, f);
      const block = f.arrMinutes - f.depMinutes;
      let dep = fixed ? disruptedDeparture(f, delays) : Math.max(f.depMinutes, previousArr + ground);
      for (let held = !fixed; held;) {
        const leave = cutEnd(f.origin, dep);
        const land = cutEnd(f.dest, dep + block);
        held = leave !== null || land !== null;
        if (leave !== null) dep = Math.max(dep, leave);
        if (land !== null) dep = Math.max(dep, land - block);
      }
      const arr = dep + block;
      if (!fixed && !broken) {
        broken = arr > E || f.origin !== location
          || outOfService.some((u) => u.tail === tail && dep < u.toMinutes && arr > u.fromMinutes)
          || (check !== null && ((dep < check.startMinutes && (arr > check.startMinutes || flyingBeforeCheck + block > check.maxFlyingMinutes))
            || (check.startMinutes <= dep && dep < check.endMinutes)));
      }
      if (!fixed && broken) mayCancel.add(f.id);
      if (check !== null && dep < check.startMinutes) flyingBeforeCheck += block;
      previousArr = arr;
      previous = f;
      location = f.dest;
    }
    // A rotation that leaves the aircraft away from its check's station when the check starts: every leg of it may go.
    if (check !== null && !broken) {
      const before = legs.filter((f) => delays.get(f.id) !== CANCELLED && disruptedDeparture(f, delays) < check.startMinutes);
      const at = before.at(-1)?.dest ?? aircraft.base;
      if (at !== check.station) for (const f of legs) if (!pinned(problem, delays, f)) mayCancel.add(f.id);
    }
  }
  return mayCancel;
}

/** Whether `plan` cancels no planned leg outside `mayCancel` (legsTheDisruptionsMayCancel) and the disruptions' cancellations. */
export function keepsFlights(problem: NetworkProblem, plan: Pick<NetworkPlan, 'legs'>, mayCancel: ReadonlySet<string>): boolean {
  const delays = disruptionDelays(problem);
  return plan.legs.every((l) => l.isNew || l.tail !== null || delays.get(l.flightId) === CANCELLED || mayCancel.has(l.flightId));
}
