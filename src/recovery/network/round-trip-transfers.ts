// Round-trip transfers, a move of the network search (search.ts): two or three consecutive legs that
// bring an aircraft back where they started are given to another aircraft of the same family (spec
// R20) that is on the ground at that airport in a gap of its rotation long enough for the trip, when
// it is cheaper to fly (operating cost per block hour) or has more seats where the plan leaves booked
// passengers behind. The giver stays on the ground there and goes on with the rest of its rotation;
// the taker is back before its own next leg, so neither rotation loses a leg: the move cancels
// nothing. A taker idle there for the whole trip flies it at its times; one that lands there only
// later flies it late (a late transfer: the trip held until the taker is ready after its turnaround,
// placed in that gap of its rotation, PlanChanges.placeAt). The walk (operating-plan.ts) keeps every
// rule around it (airport capacity, checks, the taker's range leg by leg) and the passenger plan
// prices what the seats and the hold change, so only transfers that pay are kept.
import { passengersLeftBehind } from './bookings.ts';
import { legPlace, type PlanChanges } from './operating-plan.ts';
import { CABIN_CODES, type NetworkPlan, type NetworkProblem, type PlanLeg } from './problem.ts';

/** Longest round trip tried, legs. */
const MAX_TRIP_LEGS = 3;
/** Operating cost a transfer must save to count like one passenger it may seat, in the cost model's money. */
const SAVING_PER_PRIORITY = 1000;

/**
 * Moves whose priorities are below this one are tried after every other move of the search, in
 * batches of their own (search.ts): the holds for re-routed passengers in -2..-1, then the late
 * transfers below -2. Every other move's priority is above it.
 */
export const LAST_MOVES_PRIORITY = -1;

/** A round trip given to another aircraft: `apply` gives its legs to the taker (PlanChanges.aircraft), held `heldMinutes` when late. */
export interface RoundTripTransfer {
  key: string; giver: string; taker: string; heldMinutes: number; priority: number;
  apply: (changes: Required<PlanChanges>) => Required<PlanChanges>;
}

/**
 * Transfers of the round trips `plan` flies whose legs the search may move (`movable`), to each
 * aircraft of the giver's family, either cheaper per block hour or larger where the plan leaves booked
 * passengers behind on the trip's legs (the bookings of its cancelled passenger lines), with the range
 * for each leg, in the first gap of its rotation at the trip's airport that holds the trip: from its
 * landing there plus a turnaround (or the window's start at its base, before its first leg), the trip
 * leaving at its time in the plan or when the taker is ready, each leg a turnaround after the one
 * before, back a turnaround before the taker's next leg (or by the window's end), the taker in service
 * and clear of its check all that time. `placeAt` is where the plan's changes place legs among their
 * aircraft's (PlanChanges.placeAt); a late trip must sort before the taker's next leg.
 * Priorities: the passengers it may seat plus the operating cost it saves / 1,000 when the taker is
 * idle for the trip at its times (hold 0); a late transfer is tried after every other move of the
 * search and the holds for re-routed passengers (in -3..-2, the most saved first, then the shortest hold).
 */
export function roundTripTransfers(problem: NetworkProblem, plan: NetworkPlan, movable: (key: string) => boolean, placeAt: ReadonlyMap<string, number> = new Map()): RoundTripTransfer[] {
  const left = passengersLeftBehind(new Map(problem.bookings.map((b) => [b.id, b])), plan);
  const byAircraft = new Map<string, PlanLeg[]>();
  for (const r of plan.legs) {
    if (r.tail === null) continue;
    const list = byAircraft.get(r.tail) ?? byAircraft.set(r.tail, []).get(r.tail)!;
    list.push(r);
  }
  for (const list of byAircraft.values()) list.sort((a, b) => a.depMinutes - b.depMinutes);
  const seats = (tail: string) => { const a = problem.aircraft.get(tail)!; return CABIN_CODES.reduce((sum, c) => sum + a.seats[c], 0); };
  const outOfService = problem.disruptions.flatMap((d) => (d.type === 'aircraft_unavailable' ? [d] : []));
  const E = problem.window.endMinutes;
  const moves: RoundTripTransfer[] = [];
  for (const [giver, rotation] of byAircraft) {
    const from = problem.aircraft.get(giver)!;
    if (from.shuttle) continue;
    for (let i = 0; i < rotation.length; i++) {
      if (rotation[i]!.isNew || !movable(rotation[i]!.flightId)) continue;
      for (let j = i + 1; j < Math.min(rotation.length, i + MAX_TRIP_LEGS); j++) {
        if (rotation[j]!.isNew || !movable(rotation[j]!.flightId) || rotation[j]!.origin !== rotation[j - 1]!.dest) break;
        if (rotation[j]!.dest !== rotation[i]!.origin) continue;
        const trip = rotation.slice(i, j + 1);
        const airport = trip[0]!.origin;
        const blockMinutes = trip.reduce((sum, r) => sum + r.arrMinutes - r.depMinutes, 0);
        const behind = trip.reduce((sum, r) => sum + (left.get(r.flightId) ?? 0), 0);
        for (const [taker, theirs] of byAircraft) {
          const to = problem.aircraft.get(taker)!;
          if (taker === giver || to.family !== from.family || to.shuttle) continue;
          const saving = (from.costPerBlockHour - to.costPerBlockHour) * blockMinutes / 60;
          const seated = seats(taker) > seats(giver) ? behind : 0;
          if (saving <= 0 && seated === 0) continue;
          if (trip.some((r) => r.arrMinutes - r.depMinutes > to.rangeMinutes)) continue;
          const moved = firstGap(trip, airport, to.base, to.turnaroundMinutes, theirs, E);
          if (!moved) continue;
          const { deps, next } = moved;
          const heldMinutes = deps[0]! - trip[0]!.depMinutes;
          // A late trip is placed at its new departures: they must sort before the taker's next leg.
          if (heldMinutes > 0 && next && deps.at(-1)! >= legPlace(problem.flightsById.get(next.flightId), placeAt)) continue;
          const start = deps[0]! - to.turnaroundMinutes;
          const end = deps.at(-1)! + trip.at(-1)!.arrMinutes - trip.at(-1)!.depMinutes + to.turnaroundMinutes;
          if (outOfService.some((d) => d.tail === taker && d.fromMinutes < end && start < d.toMinutes)) continue;
          // Clear of the check from the trip's planned time on: the walk reads which legs come before a check by those times.
          const checkFrom = Math.min(start, problem.flightsById.get(trip[0]!.flightId)!.depMinutes - to.turnaroundMinutes);
          if (to.check && to.check.startMinutes < end && checkFrom < to.check.endMinutes) continue;
          const keys = trip.map((r) => r.flightId);
          const value = seated + Math.max(0, saving) / SAVING_PER_PRIORITY;
          moves.push({
            key: `transfer ${keys.join(' ')} ${taker}${heldMinutes > 0 ? ` at ${deps[0]}` : ''}`,
            giver, taker, heldMinutes,
            priority: heldMinutes > 0 ? LAST_MOVES_PRIORITY - 1 - 1 / (1 + value) - heldMinutes / 1e7 : value,
            apply: (changes) => {
              const aircraft = new Map(changes.aircraft);
              for (const k of keys) aircraft.set(k, taker);
              // A trip flown at its times keeps its place, unless an earlier late transfer moved it.
              if (heldMinutes === 0 && !keys.some((k) => changes.placeAt.has(k))) return { ...changes, aircraft };
              const notBefore = new Map(changes.notBefore);
              const placed = new Map(changes.placeAt);
              keys.forEach((k, n) => { notBefore.set(k, Math.max(notBefore.get(k) ?? 0, deps[n]!)); placed.set(k, deps[n]!); });
              return { ...changes, aircraft, notBefore, placeAt: placed };
            },
          });
        }
      }
    }
  }
  return moves;
}

/**
 * The departures of `trip` flown by an aircraft in the first gap of its rotation `theirs` at `airport`
 * that holds it (each leg at its time in the plan or a turnaround after the taker's landing before it),
 * and the taker's leg after that gap (null after its last); null when no gap holds it by `E`.
 */
function firstGap(trip: readonly PlanLeg[], airport: string, base: string, turnaround: number, theirs: readonly PlanLeg[], E: number): { deps: number[]; next: PlanLeg | null } | null {
  for (let k = -1; k < theirs.length; k++) {
    // k = -1: before its first leg, at its base.
    // After a new flight there is no gap: the walk flies new flights after every planned leg.
    if (k === -1 ? base !== airport : theirs[k]!.dest !== airport || theirs[k]!.isNew) continue;
    const next = theirs[k + 1] ?? null;
    const last = Math.min(E, next ? next.depMinutes - turnaround : E);
    let ready = k === -1 ? -Infinity : theirs[k]!.arrMinutes + turnaround;
    const deps: number[] = [];
    for (const r of trip) {
      const dep = Math.max(r.depMinutes, ready);
      deps.push(dep);
      ready = dep + r.arrMinutes - r.depMinutes + turnaround;
    }
    if (ready - turnaround <= last) return { deps, next };
  }
  return null;
}
