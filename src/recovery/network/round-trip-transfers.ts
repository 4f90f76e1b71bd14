// Round-trip transfers, a move of the network search (search.ts): two or three consecutive legs that
// bring an aircraft back where they started are given to another aircraft of the same family (spec
// R20) that stands idle at that airport for the whole trip, when it is cheaper to fly (operating cost
// per block hour) or has more seats where the plan leaves booked passengers behind. The giver stays
// on the ground there and goes on with the rest of its rotation; the taker is back before its own
// next leg, so neither rotation loses a leg: the move cancels nothing. The walk (operating-plan.ts)
// keeps every rule around it (airport capacity, checks, the taker's range leg by leg) and the
// passenger plan prices what the seats change, so only transfers that pay are kept.
import { passengersLeftBehind } from './bookings.ts';
import type { PlanChanges } from './operating-plan.ts';
import { CABIN_CODES, type NetworkPlan, type NetworkProblem, type PlanLeg } from './problem.ts';

/** Longest round trip tried, legs. */
const MAX_TRIP_LEGS = 3;
/** Operating cost a transfer must save to count like one passenger it may seat, in the cost model's money. */
const SAVING_PER_PRIORITY = 1000;

/** A round trip given to another aircraft: `apply` gives its legs to the taker (PlanChanges.aircraft). */
export interface RoundTripTransfer { key: string; giver: string; taker: string; priority: number; apply: (changes: Required<PlanChanges>) => Required<PlanChanges> }

/**
 * Transfers of the round trips `plan` flies whose legs the search may move (`movable`), to each
 * aircraft of the giver's family that is on the ground at the trip's airport from a turnaround before
 * its first departure to a turnaround after its last arrival, in service all that time, with the range
 * for each leg, and either cheaper per block hour or larger where the plan leaves booked passengers
 * behind on the trip's legs (the bookings of its cancelled passenger lines).
 */
export function roundTripTransfers(problem: NetworkProblem, plan: NetworkPlan, movable: (key: string) => boolean): RoundTripTransfer[] {
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
  const moves: RoundTripTransfer[] = [];
  for (const [giver, rotation] of byAircraft) {
    const from = problem.aircraft.get(giver)!;
    if (from.shuttle) continue;
    for (let i = 0; i < rotation.length; i++) {
      if (!movable(rotation[i]!.flightId)) continue;
      for (let j = i + 1; j < Math.min(rotation.length, i + MAX_TRIP_LEGS); j++) {
        if (!movable(rotation[j]!.flightId) || rotation[j]!.origin !== rotation[j - 1]!.dest) break;
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
          const start = trip[0]!.depMinutes - to.turnaroundMinutes;
          const end = trip.at(-1)!.arrMinutes + to.turnaroundMinutes;
          if (trip.some((r) => r.arrMinutes - r.depMinutes > to.rangeMinutes)) continue;
          // Idle there: its last leg before the trip landed there in time, its next leaves after the trip is back.
          const before = theirs.filter((r) => r.depMinutes < trip[0]!.depMinutes).at(-1);
          if ((before ? before.dest : to.base) !== airport || (before && before.arrMinutes > start)) continue;
          const after = theirs.find((r) => r.depMinutes >= trip[0]!.depMinutes);
          if (after ? after.depMinutes < end : trip.at(-1)!.arrMinutes > problem.window.endMinutes) continue;
          if (outOfService.some((d) => d.tail === taker && d.fromMinutes < end && start < d.toMinutes)) continue;
          if (to.check && to.check.startMinutes < end && start < to.check.endMinutes) continue;
          const keys = trip.map((r) => r.flightId);
          moves.push({
            key: `transfer ${keys.join(' ')} ${taker}`,
            giver, taker,
            priority: seated + Math.max(0, saving) / SAVING_PER_PRIORITY,
            apply: (changes) => {
              const aircraft = new Map(changes.aircraft);
              for (const k of keys) aircraft.set(k, taker);
              return { ...changes, aircraft };
            },
          });
        }
      }
    }
  }
  return moves;
}
