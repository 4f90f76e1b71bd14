// One yardstick for two engines' plans (`npm run bench -- --against`): a plan's aircraft decisions
// (delays with their tails, swaps, cancellations) priced under THIS tree's docs/model.md section 1,
// whichever engine found them and however it priced them. Its passengers are re-accommodated at the
// cheapest under this model (1.6: the cheapest for the plan's aircraft decisions, which a proven plan
// of this tree carries; an older engine's, made under an older passenger model, is not what it costs
// now), and each aircraft performs every check its route lets it perform (performing one costs
// nothing): how far a reported cost may differ from that price is judgePlan's rule, below. It is the oracle's reading of section 1 (test/oracle/model.ts, which shares no code with
// src/recovery); nothing here comes from the engine but its response types.
//
// One limit the model does not have: the oracle enumerates every journey, and on the large schedule
// journeys of any number of flights do not finish (minutes on one scenario), so a configuration
// without max_reaccommodation_legs is re-priced over journeys of at most JOURNEY_LEGS flights. A
// re-accommodation so restricted is still one the plan may make: the re-price is then the plan's
// cost or above it, never below; a plan whose own re-accommodation takes a longer journey is said
// so (`longJourneys`), as its re-price may then be above its cost.
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { CostBreakdownView, RecoveryOptionView } from '../../src/http/recovery-schemas.ts';
import type { OracleConfig } from '../../test/oracle/config.ts';
// benchmarks/ reads test/oracle/ on purpose (here, and its types in against.ts): the oracle is the
// reading of docs/model.md section 1 written apart from src/recovery (it shares no code with the
// engine), which is what a yardstick of two engines must be; a copy here would be a third reading of
// the model to keep in step; the rules that bind a plan's aircraft are the checker's own
// (aircraft-rules.ts), worded here. The scorer adds only the reading of a plan's actions.
import { aircraftRuleBreaks } from '../../test/oracle/aircraft-rules.ts';
import {
  baseOutcome, buildProblem, capacityExcess, cheapestReaccommodation, crewViolations, delayPropagationRoute, disruptedGroups, earliestDep, evaluatePlan,
  isoMinutes, isoOf, maxDelayOf, onGrid, performableChecks, routeOf, unavailabilityHit,
  type OracleDisruption, type Problem,
} from '../../test/oracle/model.ts';

/** The aircraft decisions of a plan, as any engine's /simulate answer writes them. */
/** The longest journey the scorer re-accommodates passengers on when the configuration sets no limit. */
export const JOURNEY_LEGS = 3;

export interface PlanActions {
  reaccommodations?: Pick<RecoveryOptionView['action_set']['reaccommodations'][number], 'to_flights'>[];
  delays: Pick<RecoveryOptionView['action_set']['delays'][number], 'flight' | 'tail' | 'new_dep' | 'new_arr'>[];
  swaps: Pick<RecoveryOptionView['action_set']['swaps'][number], 'flight' | 'to_tail'>[];
  cancellations: Pick<RecoveryOptionView['action_set']['cancellations'][number], 'flight'>[];
}

export interface ScoreInput {
  schedule: ScheduleFile;
  disruptions: OracleDisruption[];
  /** The complete configuration (every field): this tree's, e.g. POST /config/validate's answer. */
  config: OracleConfig;
  airline: string;
  actions: PlanActions;
}

export interface PlanScore {
  /** The plan's cost under this tree's model; null when the actions cannot be applied at all. */
  cost: number | null;
  breakdown: CostBreakdownView | null;
  /** Rules of section 1.3 and the constraints the plan breaks, one sentence each. */
  infeasible: string[];
  /** Changes this tree's scope (1.2: its aircraft and window) would not make, one sentence each. */
  outOfScope: string[];
  /** Journeys of the plan's own re-accommodation longer than the scorer's limit (JOURNEY_LEGS). */
  longJourneys: number;
}

export function scorePlan(input: ScoreInput): PlanScore {
  const infeasible: string[] = [];
  const outOfScope: string[] = [];
  let p: Problem;
  try {
    const legs = input.config.constraints.max_reaccommodation_legs ?? JOURNEY_LEGS;
    const config = { ...input.config, constraints: { ...input.config.constraints, max_reaccommodation_legs: legs } };
    p = buildProblem({ schedule: input.schedule, disruptions: input.disruptions, config, airline: input.airline });
  } catch (error) {
    return { cost: null, breakdown: null, infeasible: [`the instance cannot be read: ${(error as Error).message}`], outOfScope, longJourneys: 0 };
  }
  const o = baseOutcome(p);
  const unknown: string[] = [];
  const flight = (id: string) => {
    const f = p.flights.get(id);
    if (!f || f.airline !== p.airline) unknown.push(id);
    return f && f.airline === p.airline ? f : null;
  };
  for (const c of input.actions.cancellations) if (flight(c.flight)) o.get(c.flight)!.flown = false;
  for (const s of input.actions.swaps) if (flight(s.flight)) o.get(s.flight)!.tail = s.to_tail;
  for (const d of input.actions.delays) {
    if (!flight(d.flight)) continue;
    const a = o.get(d.flight)!;
    a.dep = isoMinutes(d.new_dep);
    a.arr = isoMinutes(d.new_arr);
    a.tail = d.tail;
  }
  if (unknown.length > 0) return { cost: null, breakdown: null, infeasible: [`unknown flights ${unknown.join(', ')}`], outOfScope, longJourneys: 0 };

  const inK = new Set(p.K);
  // A flight given to an aircraft the schedule does not have: the plan has no day to check or price.
  const unknownTails: string[] = [];
  for (const f of p.airlineFlights) {
    const a = o.get(f.id)!;
    if (p.disruptedCancelled.has(f.id)) {
      if (a.flown) infeasible.push(`${f.id} is cancelled by a disruption but flown`);
      continue;
    }
    const changed = !a.flown || a.tail !== f.tail || a.dep !== f.sdep;
    if (!changed) continue;
    if (a.flown && !p.aircraft.has(a.tail)) { unknownTails.push(`${f.id} is flown by unknown aircraft ${a.tail}`); continue; }
    if (a.flown && a.arr - a.dep !== f.block) infeasible.push(`${f.id} is flown in ${a.arr - a.dep} min, not its block time ${f.block} min`);
    if (a.flown && a.dep < f.sdep) infeasible.push(`${f.id} departs before its scheduled departure`);
    if (f.sdep < p.t0) infeasible.push(`${f.id} departed before the disruption time but is changed`);
    else if (!p.inF.has(f.id)) outOfScope.push(`${f.id} is outside this tree's window or aircraft but is changed`);
    else if (a.flown && !inK.has(a.tail)) outOfScope.push(`${f.id} is flown by ${a.tail}, not an aircraft of this tree's scope (${p.K.join(', ')})`);
  }
  if (unknownTails.length > 0) return { cost: null, breakdown: null, infeasible: [...unknownTails, ...infeasible], outOfScope, longJourneys: 0 };

  // Every aircraft's day (1.3): continuity, turnarounds, unavailability, grid, delay limit, fleet policy.
  const dp = new Map(p.K.map((tail) => [tail, delayPropagationRoute(p, tail)]));
  const routes = new Map(p.K.map((tail) => [tail, routeOf(p, o, tail)]));
  // The integrated plan may be the propagated plan itself, whose times are off the grid (1.8).
  const propagated = p.K.every((tail) => {
    const a = routes.get(tail)!;
    const b = dp.get(tail)!;
    return !b.broken && a.length === b.legs.length && a.every((l, i) => l.f.id === b.legs[i]!.f.id && l.dep === b.legs[i]!.dep);
  });
  const rules = aircraftRuleBreaks(p, o, routes);
  for (const b of rules.days) {
    if (b.kind === 'start') { infeasible.push(`${b.tail} starts with ${b.first.id} from ${b.first.origin} but is at ${b.station}`); continue; }
    const { tail, prev, next } = b;
    if (!b.continuous) infeasible.push(`${tail} lands ${prev.id} at ${prev.dest} but flies ${next.id} from ${next.origin}`);
    else infeasible.push(`${tail} turns ${prev.id} into ${next.id} in ${b.turn} min, below ${b.need} min`);
  }
  for (const tail of p.K) {
    for (const l of routes.get(tail)!) {
      const delay = l.dep - l.f.sdep;
      if (delay > maxDelayOf(p, l.f)) infeasible.push(`${l.f.id} is ${delay} min late, above the ${maxDelayOf(p, l.f)} min allowed`);
      const hit = unavailabilityHit(p, tail, l.dep, l.arr);
      if (hit) infeasible.push(`${tail} flies ${l.f.id} during its unavailability from ${isoOf(hit.from)}`);
      if (propagated) continue;
      if (l.dep < earliestDep(p, l.f)) infeasible.push(`${l.f.id} departs at ${isoOf(l.dep)}, before its earliest departure ${isoOf(earliestDep(p, l.f))}`);
      else if (!onGrid(p, l.f, l.dep)) infeasible.push(`${l.f.id} departs at ${isoOf(l.dep)}, off its grid`);
    }
    const end = rules.ends.get(tail);
    if (end) infeasible.push(`${tail} is not at ${end.after.origin} in time for ${end.after.id}`);
  }

  // Constraints 3-8 (docs/model.md 1.3).
  const c = p.cfg.constraints;
  const { swaps, cancelled } = rules;
  for (const [id, x] of rules.policy) infeasible.push(`${x.tail} (${x.fleet}) may not fly ${id} under the ${c.swap_fleet_policy} policy`);
  if (swaps > c.max_swaps) infeasible.push(`${swaps} swaps, above max_swaps ${c.max_swaps}`);
  if (cancelled > 0 && !c.allow_cancellations) infeasible.push(`${cancelled} cancellations, not allowed`);
  if (c.max_cancellations !== null && cancelled > c.max_cancellations) infeasible.push(`${cancelled} cancellations, above max_cancellations ${c.max_cancellations}`);
  for (const x of capacityExcess(p, o)) infeasible.push(`${x.count} movements in capacity slot ${x.slot}, above ${x.limit}`);
  if (c.crew_duty === 'hard') for (const v of crewViolations(p, o)) infeasible.push(`crew ${v.crew.id} ends ${v.flight.id} beyond its duty limit (hard)`);

  const performed = new Map(p.K.map((tail) => [tail, propagated ? dp.get(tail)!.performed : performableChecks(p, tail, routes.get(tail)!)]));
  const ev = evaluatePlan(p, o, cheapestReaccommodation(p, o, disruptedGroups(p, o)).moves, performed);
  if (c.maintenance === 'hard') for (const m of ev.missed) infeasible.push(`the ${m.check.type} of ${m.check.tail} is missed (hard)`);
  const legs = p.cfg.constraints.max_reaccommodation_legs!;
  const longJourneys = (input.actions.reaccommodations ?? []).filter((r) => r.to_flights.length > legs).length;
  return { cost: ev.cost, breakdown: ev.breakdown, infeasible, outOfScope, longJourneys };
}

/** Relative difference of two costs below which they are the same plan cost. */
export const SAME_COST = 1e-6;

/** The two costs are the same beyond rounding. */
export const sameCost = (a: number, b: number) => Math.abs(a - b) <= SAME_COST * Math.max(1, Math.abs(a), Math.abs(b));

/** What the scorer's price of one integrated plan says, and whether it fails the run. */
export interface PlanFindings {
  /** Disagreements that are a bug of the engine or of the scorer (this tree's plans only). */
  failures: string[];
  /** Everything else worth printing. */
  notes: string[];
}

/**
 * The tool's rule (benchmarks/README.md): a plan's reported cost is what its own rebooking costs, and
 * the scorer prices the cheapest rebooking for its flight decisions, so the scorer above the reported
 * cost always fails (the plan is claimed cheaper than it can cost); below it fails an `optimal` plan
 * (its proof missed a cheaper plan) and is a note for an unproven one (`feasible`, `time_limit`: a plan
 * cut short before the exact re-accommodation of docs/model.md 3.4 may carry a dearer rebooking, and
 * says what it costs). An infeasible plan, one out of this tree's scope or one that cannot be re-priced
 * fails. `own` = false (the other engine's plan, its model, its scope): every finding is a note.
 */
export function judgePlan(reported: number, status: string | null, score: PlanScore | null, own: boolean): PlanFindings {
  const failures: string[] = [];
  const notes: string[] = [];
  const found = (fails: boolean, text: string) => (fails && own ? failures : notes).push(text);
  if (score === null || score.cost === null) {
    found(true, `could not be re-priced${score ? ` (${score.infeasible.join('; ')})` : ''}`);
    return { failures, notes };
  }
  if (score.infeasible.length > 0) found(true, `is infeasible under this tree's rules: ${score.infeasible.join('; ')}`);
  if (score.outOfScope.length > 0) found(true, `reaches outside this tree's scope: ${score.outOfScope.join('; ')}`);
  if (!sameCost(reported, score.cost)) {
    const priced = `(${status ?? 'no status'}) is reported at ${reported} but re-prices to ${score.cost}`;
    if (!own) notes.push(`${priced} (its engine's model)`);
    else if (score.cost > reported) failures.push(`${priced}: its cost is claimed below what its rebooking can cost${score.longJourneys > 0 ? ` (or the scorer's journey limit priced its ${score.longJourneys} longer journeys above their cost)` : ''}`);
    else if (status === 'optimal') failures.push(`${priced}: a cheaper rebooking for its flight decisions exists, which its proof missed`);
    else notes.push(`${priced}: unproven, its rebooking is not the cheapest for its flight decisions (${reported - score.cost} dearer; docs/model.md 1.6)`);
  }
  if (score.longJourneys > 0) notes.push(`re-accommodates on ${score.longJourneys} journeys of more than ${JOURNEY_LEGS} flights, beyond the scorer's limit (its re-price may be above its cost)`);
  return { failures, notes };
}
