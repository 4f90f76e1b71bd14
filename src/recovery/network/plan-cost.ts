// The costs of an operating plan that do not depend on where the passengers go: flights flown
// (swapped, delayed), cancelled or added, and aircraft out of position at the end of the window, each
// priced by the engine's cost model (model/cost-model.ts). With the passenger plan's objective it is
// the whole cost, so the search compares plans without the scorer (which must stay independent).
import type { RoadefInstance } from '../../formats/roadef-2009/instance.ts';
import type { RoadefSolution, SolutionLeg } from '../../formats/roadef-2009/solution.ts';
import { legKey } from '../../formats/roadef-2009/text.ts';
import type { AircraftCostFacts, CostModel, MissingPositions } from '../model/cost-model.ts';
import { aircraftFacts, disruptionDelays, legClass, legPassengers, tripFacts } from './bookings.ts';

/**
 * The aircraft-side cost of `rotations` under `cost`: every planned leg flown (by its aircraft or
 * another, its delay) or cancelled (by the plan or a disruption), every new leg, and the end positions.
 */
export function operatingCost(instance: RoadefInstance, rotations: readonly SolutionLeg[], cost: CostModel): number {
  const delays = disruptionDelays(instance);
  const booked = legPassengers(instance);
  const recorded = new Map(rotations.map((r) => [legKey(r.flight, r.day), r]));
  const facts = new Map<string, AircraftCostFacts>();
  const of = (id: string) => facts.get(id) ?? facts.set(id, aircraftFacts(instance, id)).get(id)!;
  let total = 0;
  for (const leg of instance.legs) {
    const r = recorded.get(leg.key);
    if (!r) continue;
    const blockMinutes = leg.arrMinutes - leg.depMinutes;
    const bookedPassengers = booked.get(leg.key) ?? 0;
    if (r.aircraft === null || delays.get(leg.key) === -1) total += cost.cancelledLeg({ blockMinutes, bookedPassengers, planned: of(leg.aircraft) });
    else total += cost.flownLeg({ blockMinutes, bookedPassengers, delayMinutes: Math.max(0, r.depMinutes - leg.depMinutes), planned: of(leg.aircraft), flownBy: of(r.aircraft) });
  }
  for (const r of rotations) {
    if (r.aircraft !== null && !instance.legsByKey.has(legKey(r.flight, r.day))) total += cost.newLeg(of(r.aircraft), r.arrMinutes - r.depMinutes) ?? Number.POSITIVE_INFINITY;
  }
  return total + cost.positions(missingPositions(instance, rotations));
}

/** Each aircraft's last flown leg (in rotation order: the latest departure), by aircraft. */
export function lastFlownLegs(rotations: readonly SolutionLeg[]): Map<string, SolutionLeg> {
  const last = new Map<string, SolutionLeg>();
  for (const r of rotations) {
    if (r.aircraft === null) continue;
    const seen = last.get(r.aircraft);
    if (!seen || r.depMinutes > seen.depMinutes) last.set(r.aircraft, r);
  }
  return last;
}

/** Spec 5.4: per airport, required aircraft matched to present ones by family, then model, then configuration. */
function missingPositions(instance: RoadefInstance, rotations: readonly SolutionLeg[]): MissingPositions {
  const E = instance.config.windowEndMinutes;
  const lastLeg = lastFlownLegs(rotations);
  const have = new Map<string, number>(); // `${airport}|${level key}` -> aircraft present
  const add = (key: string) => have.set(key, (have.get(key) ?? 0) + 1);
  for (const a of instance.aircraft.values()) {
    const last = lastLeg.get(a.id);
    const at = last ? (last.arrMinutes <= E ? last.dest : null) : a.origin;
    if (at === null) continue;
    add(`${at}|${a.family}`);
    add(`${at}|${a.family}|${a.model}`);
    add(`${at}|${a.family}|${a.model}|${a.configuration}`);
  }
  const familyOfModel = new Map([...instance.aircraft.values()].map((a) => [a.model, a.family]));
  const need = new Map<string, number>();
  const airports = new Set<string>();
  for (const p of instance.positions) {
    const family = familyOfModel.get(p.model) ?? '';
    airports.add(p.airport);
    for (const key of [`${p.airport}|${family}`, `${p.airport}|${family}|${p.model}`, `${p.airport}|${family}|${p.model}|${p.configuration}`]) need.set(key, (need.get(key) ?? 0) + p.count);
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
 * The whole cost of a solution under `cost`: its operating plan (operatingCost) and every passenger
 * line (a line not landing at its booking's destination is a cancelled trip; one that does pays its
 * arrival delay and each leg travelled below its cabin). What the search reports for a plan is this
 * figure; the calibration test holds it to the published totals.
 */
export function solutionCost(instance: RoadefInstance, solution: RoadefSolution, cost: CostModel): number {
  const flown = new Map(solution.rotations.filter((r) => r.aircraft !== null).map((r) => [legKey(r.flight, r.day), r]));
  const bookings = new Map(instance.itineraries.map((it) => [it.id, it]));
  let total = operatingCost(instance, solution.rotations, cost);
  for (const line of solution.itineraries) {
    const itinerary = bookings.get(line.itinerary);
    if (!itinerary) continue;
    const last = itinerary.legs.at(-1)!;
    const dest = instance.flights.get(last.flight)!.dest;
    const records = line.legs.map((l) => flown.get(legKey(l.flight, l.day)));
    const trip = tripFacts(instance, itinerary, line.legs.length > 0);
    if (line.cancelled || records.length === 0 || records.some((r) => r === undefined) || records.at(-1)!.dest !== dest) {
      total += line.passengers * cost.tripCancellation(trip);
      continue;
    }
    const plannedArr = instance.legsByKey.get(legKey(last.flight, last.day))!.arrMinutes;
    total += line.passengers * cost.arrival(trip, records.at(-1)!.arrMinutes - plannedArr, false);
    line.legs.forEach((l, i) => {
      const booked = itinerary.legs.find((b) => b.flight === l.flight && b.day === l.day)?.cabin ?? null;
      total += line.passengers * cost.downgrade(trip, legClass(instance, records[i]!.origin, records[i]!.dest), l.cabin, booked);
    });
  }
  return total;
}
