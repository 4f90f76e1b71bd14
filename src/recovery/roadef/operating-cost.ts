// The costs of an operating plan that do not depend on where the passengers go (spec 5.3 and 5.4),
// weighted: flights cancelled, swapped or added, and aircraft out of position at the end of the
// window. With the passenger plan's objective it is the whole cost, so the solver can compare plans
// without the scorer (which must stay independent of the engine).
import type { RoadefInstance } from '../../formats/roadef-2009/instance.ts';
import type { SolutionLeg } from '../../formats/roadef-2009/solution.ts';
import { legKey } from '../../formats/roadef-2009/text.ts';
import { disruptionDelays } from './bookings.ts';

/** Whole started hours of a flight of `minutes` (operating costs bill them). */
const hours = (minutes: number) => Math.ceil(minutes / 60);

export function operatingCost(instance: RoadefInstance, rotations: readonly SolutionLeg[]): number {
  const { alpha, gamma } = instance.config.weights;
  const delays = disruptionDelays(instance);
  const recorded = new Map(rotations.map((r) => [legKey(r.flight, r.day), r]));
  const costOf = (id: string) => instance.aircraft.get(id)?.costPerHour ?? 0;
  let operating = 0;
  for (const leg of instance.legs) {
    const r = recorded.get(leg.key);
    if (!r) continue;
    const h = hours(leg.arrMinutes - leg.depMinutes);
    if (r.aircraft === null || delays.get(leg.key) === -1) operating -= h * costOf(leg.aircraft);
    else if (r.aircraft !== leg.aircraft) operating += h * (costOf(r.aircraft) - costOf(leg.aircraft));
  }
  for (const r of rotations) {
    if (r.aircraft !== null && !instance.legsByKey.has(legKey(r.flight, r.day))) operating += hours(r.arrMinutes - r.depMinutes) * costOf(r.aircraft);
  }
  return alpha * operating + gamma * positionPenalty(instance, rotations);
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
function positionPenalty(instance: RoadefInstance, rotations: readonly SolutionLeg[]): number {
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
  const { family, model, configuration } = instance.config.positionPenalty;
  let penalty = 0;
  for (const airport of airports) {
    const f = missing(airport, 1);
    const m = missing(airport, 2);
    const c = missing(airport, 3);
    penalty += f * family + (m - f) * model + (c - m) * configuration;
  }
  return penalty;
}
