// The cost of a plan under the engine's cost model (model/cost-model.ts): the operating plan (flights
// flown, swapped, delayed, cancelled or added, and aircraft out of position at the end of the window),
// which does not depend on where the passengers go, and every passenger line. The search compares
// plans by it; the ROADEF calibration test holds it to the published totals (the scorer, which must
// stay independent, computes its own).
import type { AircraftCostFacts, CostModel, MissingPositions } from '../model/cost-model.ts';
import { CANCELLED, aircraftFacts, disruptionDelays, flightPassengers, legClass, tripFacts } from './bookings.ts';
import type { NetworkPlan, NetworkProblem, PlanLeg } from './problem.ts';

/**
 * The aircraft-side cost of `legs` under `cost`: every planned flight flown (by its aircraft or
 * another, its delay) or cancelled (by the plan or a disruption), every new flight, and the end positions.
 */
export function operatingCost(problem: NetworkProblem, legs: readonly PlanLeg[], cost: CostModel): number {
  const delays = disruptionDelays(problem);
  const booked = flightPassengers(problem);
  const recorded = new Map(legs.map((r) => [r.flightId, r]));
  const facts = new Map<string, AircraftCostFacts>();
  const of = (tail: string) => facts.get(tail) ?? facts.set(tail, aircraftFacts(problem, tail)).get(tail)!;
  let total = 0;
  for (const f of problem.flights) {
    const r = recorded.get(f.id);
    if (!r) continue;
    const blockMinutes = f.arrMinutes - f.depMinutes;
    const bookedPassengers = booked.get(f.id) ?? 0;
    if (r.tail === null || delays.get(f.id) === CANCELLED) total += cost.cancelledLeg({ blockMinutes, bookedPassengers, planned: of(f.tail) });
    else total += cost.flownLeg({ blockMinutes, bookedPassengers, delayMinutes: Math.max(0, r.depMinutes - f.depMinutes), planned: of(f.tail), flownBy: of(r.tail) });
  }
  for (const r of legs) {
    if (r.tail !== null && r.isNew) total += cost.newLeg(of(r.tail), r.arrMinutes - r.depMinutes) ?? Number.POSITIVE_INFINITY;
  }
  return total + cost.positions(missingPositions(problem, endAirports(problem, legs)));
}

/** Each aircraft's last flown leg (the latest departure), by aircraft. */
export function lastFlownLegs(legs: readonly PlanLeg[]): Map<string, PlanLeg> {
  const last = new Map<string, PlanLeg>();
  for (const r of legs) {
    if (r.tail === null) continue;
    const seen = last.get(r.tail);
    if (!seen || r.depMinutes > seen.depMinutes) last.set(r.tail, r);
  }
  return last;
}

/** Where each aircraft stands at the end of the window: its last flown leg's destination (null when it lands after the end), its base when it flies none. */
export function endAirports(problem: NetworkProblem, legs: readonly PlanLeg[]): Map<string, string | null> {
  const E = problem.window.endMinutes;
  const lastLeg = lastFlownLegs(legs);
  return new Map([...problem.aircraft.values()].map((a) => {
    const last = lastLeg.get(a.tail);
    return [a.tail, last ? (last.arrMinutes <= E ? last.dest : null) : a.base];
  }));
}

/**
 * Spec 5.4: per airport, required aircraft matched to present ones by family, then fleet, then
 * configuration, the aircraft standing at `ends` (endAirports); only at the airports of `only` when given (the
 * count is a sum over airports, so a search compares two ends at the airports they differ in).
 */
export function missingPositions(problem: NetworkProblem, ends: ReadonlyMap<string, string | null>, only?: ReadonlySet<string>): MissingPositions {
  const have = new Map<string, number>(); // `${airport}|${level key}` -> aircraft present
  const add = (key: string) => have.set(key, (have.get(key) ?? 0) + 1);
  for (const a of problem.aircraft.values()) {
    const at = ends.get(a.tail) ?? null;
    if (at === null || (only && !only.has(at))) continue;
    add(`${at}|${a.family}`);
    add(`${at}|${a.family}|${a.fleet}`);
    add(`${at}|${a.family}|${a.fleet}|${a.configuration}`);
  }
  const familyOfFleet = new Map([...problem.aircraft.values()].map((a) => [a.fleet, a.family]));
  const need = new Map<string, number>();
  const airports = new Set<string>();
  for (const p of problem.requiredPositions) {
    if (only && !only.has(p.airport)) continue;
    const family = familyOfFleet.get(p.fleet) ?? '';
    airports.add(p.airport);
    for (const key of [`${p.airport}|${family}`, `${p.airport}|${family}|${p.fleet}`, `${p.airport}|${family}|${p.fleet}|${p.configuration}`]) need.set(key, (need.get(key) ?? 0) + p.count);
  }
  const missing = (airport: string, depth: number) => {
    let sum = 0;
    for (const [key, n] of need) if (key.startsWith(`${airport}|`) && key.split('|').length === depth + 1) sum += Math.max(0, n - (have.get(key) ?? 0));
    return sum;
  };
  const total: MissingPositions = { family: 0, model: 0, configuration: 0 };
  for (const airport of airports) {
    total.family += missing(airport, 1);
    total.model += missing(airport, 2);
    total.configuration += missing(airport, 3);
  }
  return total;
}

/**
 * The whole cost of a plan under `cost`: its operating plan (operatingCost) and every passenger line
 * (a line not landing at its booking's destination is a cancelled trip; one that does pays its arrival
 * delay and each flight travelled below its cabin). What the search reports for a plan is this figure.
 */
export function planCost(problem: NetworkProblem, plan: NetworkPlan, cost: CostModel): number {
  const flown = new Map(plan.legs.filter((r) => r.tail !== null).map((r) => [r.flightId, r]));
  const bookings = new Map(problem.bookings.map((b) => [b.id, b]));
  let total = operatingCost(problem, plan.legs, cost);
  for (const line of plan.passengers) {
    const booking = bookings.get(line.booking);
    if (!booking) continue;
    const last = problem.flightsById.get(booking.flights.at(-1)!.flightId)!;
    const records = line.flights.map((l) => flown.get(l.flightId));
    const trip = tripFacts(problem, booking, line.flights.length > 0);
    if (line.cancelled || records.length === 0 || records.some((r) => r === undefined) || records.at(-1)!.dest !== last.dest) {
      total += line.passengers * cost.tripCancellation(trip);
      continue;
    }
    total += line.passengers * cost.arrival(trip, records.at(-1)!.arrMinutes - last.arrMinutes, false);
    line.flights.forEach((l, i) => {
      const booked = booking.flights.find((b) => b.flightId === l.flightId)?.cabin ?? null;
      total += line.passengers * cost.downgrade(trip, legClass(problem, records[i]!.origin, records[i]!.dest), l.cabin, booked);
    });
  }
  return total;
}
