// Independent checker of one recovery option against docs/model.md section 1. It applies the
// option's action set to the raw schedule, verifies feasibility (every rule of 1.3 and the strategy's
// restriction of 1.8), recomputes every reported figure, and checks the views of the same plan that the
// option carries (rotations, aircraft out of position, the solver report). Shares no code with the
// engine (only the result TYPES are imported).
import type { RecoveryOptionView } from '../../src/http/recovery-schemas.ts';
import { aircraftRuleBreaks } from './aircraft-rules.ts';
import { propagatedRouteBreaks } from './brute-force.ts';
import type { OracleStrategy } from './config.ts';
import {
  baseOutcome, buildProblem, capacityExcess, cheapestReaccommodation, close, delayPropagationRoute, disruptedGroups,
  earliestDep, evaluatePlan, firstGridDep, freeSeats, groupKey, isoMinutes, isoOf, journeyKey, maxDelayOf, onGrid, performableAt, plannedPoint,
  routeOf, routePoints, slotText, standingCapacityExcess, turnOf, unavailabilityHit, violationKey,
  type Outcome, type PaxMove, type Problem, type ProblemInput,
} from './model.ts';

/** The instance (with the full effective configuration: every field present) and one option to check. */
export interface CheckInput extends ProblemInput {
  option: RecoveryOptionView;
}

const hhmm = (m: number): string => (Number.isFinite(m) ? isoOf(m) : String(m));
const sameInstant = (a: string, b: number) => isoMinutes(a) === b;

/** Problems of the option, one sentence each; empty when the option is correct. */
export function checkOption(input: CheckInput): string[] {
  const problems: string[] = [];
  const say = (s: string) => problems.push(s);
  let p: Problem;
  try {
    p = buildProblem(input);
  } catch (error) {
    return [`The instance cannot be read: ${(error as Error).message}.`];
  }
  const opt = input.option;
  const strategy: OracleStrategy = opt.strategy;
  const actions = opt.action_set;
  const o: Outcome = baseOutcome(p);

  // ---------------------------------------------------------------- apply the action set
  const known = (fid: string, where: string): boolean => {
    const f = p.flights.get(fid);
    if (!f) { say(`The ${where} entry names unknown flight ${fid}.`); return false; }
    if (f.airline !== p.airline) { say(`The ${where} entry names flight ${fid} of airline ${f.airline}, not of the disrupted airline ${p.airline}.`); return false; }
    return true;
  };
  const cancelled = new Set<string>();
  const delayed = new Map<string, RecoveryOptionView['action_set']['delays'][number]>();
  const swapped = new Map<string, RecoveryOptionView['action_set']['swaps'][number]>();
  const touched = new Set<string>();

  if (actions.new_flights.length > 0) say(`The option adds ${actions.new_flights.length} new flights, but a plan of docs/model.md section 1 flies only flights of the schedule.`);
  for (const c of actions.cancellations) {
    if (!known(c.flight, 'cancellation')) continue;
    if (cancelled.has(c.flight)) { say(`Flight ${c.flight} is cancelled twice.`); continue; }
    cancelled.add(c.flight);
    touched.add(c.flight);
    const f = p.flights.get(c.flight)!;
    if (c.passengers !== f.booked) say(`The cancellation of ${c.flight} reports ${c.passengers} passengers but ${f.booked} are booked.`);
    o.get(c.flight)!.flown = false;
  }
  for (const fid of p.disruptedCancelled) if (!cancelled.has(fid)) say(`Flight ${fid} is cancelled by a disruption but the option does not list it among its cancellations.`);
  for (const d of actions.delays) {
    if (!known(d.flight, 'delay')) continue;
    if (delayed.has(d.flight)) { say(`Flight ${d.flight} appears twice among the delays (flown twice).`); continue; }
    delayed.set(d.flight, d);
    touched.add(d.flight);
    if (cancelled.has(d.flight)) say(`Flight ${d.flight} is both flown (delayed) and cancelled.`);
    const f = p.flights.get(d.flight)!;
    const dep = isoMinutes(d.new_dep);
    const arr = isoMinutes(d.new_arr);
    if (!Number.isFinite(dep) || !Number.isFinite(arr)) { say(`The delay of ${d.flight} has an unreadable new_dep or new_arr.`); continue; }
    const plane = p.aircraft.get(d.tail);
    if (!plane || plane.airline !== p.airline) { say(`The delay of ${d.flight} names tail ${d.tail}, which is not an aircraft of ${p.airline}.`); continue; }
    if (arr - dep !== f.block) say(`Flight ${d.flight} is flown in ${arr - dep} min but its scheduled block time is ${f.block} min.`);
    if (d.delay_minutes !== dep - f.sdep) say(`The delay of ${d.flight} reports ${d.delay_minutes} min but new_dep is ${dep - f.sdep} min after the scheduled departure.`);
    if (dep < f.sdep) say(`Flight ${d.flight} departs at ${hhmm(dep)}, before its scheduled departure ${hhmm(f.sdep)}.`);
    const a = o.get(d.flight)!;
    a.dep = dep;
    a.arr = arr;
    a.tail = d.tail;
  }
  for (const s of actions.swaps) {
    if (!known(s.flight, 'swap')) continue;
    if (swapped.has(s.flight)) { say(`Flight ${s.flight} appears twice among the swaps (flown twice).`); continue; }
    swapped.set(s.flight, s);
    touched.add(s.flight);
    const f = p.flights.get(s.flight)!;
    if (cancelled.has(s.flight)) say(`Flight ${s.flight} is both flown (swapped) and cancelled.`);
    if (s.from_tail !== f.tail) say(`The swap of ${s.flight} says it moves from ${s.from_tail} but its scheduled tail is ${f.tail}.`);
    if (s.to_tail === f.tail) say(`The swap of ${s.flight} gives it to its own scheduled tail ${f.tail}.`);
    const plane = p.aircraft.get(s.to_tail);
    if (!plane || plane.airline !== p.airline) { say(`The swap of ${s.flight} names tail ${s.to_tail}, which is not an aircraft of ${p.airline}.`); continue; }
    const d = delayed.get(s.flight);
    if (d && d.tail !== s.to_tail) say(`Flight ${s.flight} is delayed on ${d.tail} but swapped to ${s.to_tail}.`);
    o.get(s.flight)!.tail = s.to_tail;
  }
  for (const [fid, d] of delayed) {
    const f = p.flights.get(fid)!;
    if (d.tail !== f.tail && !swapped.has(fid)) say(`Flight ${fid} is delayed on ${d.tail}, not its scheduled tail ${f.tail}, but no swap entry says so.`);
  }

  // ---------------------------------------------------------------- scope
  const inK = new Set(p.K);
  for (const fid of touched) {
    const f = p.flights.get(fid)!;
    const a = o.get(fid)!;
    if (p.disruptedCancelled.has(fid)) continue;
    // An entry that leaves a flight exactly as scheduled changes nothing, wherever the flight is.
    if (!p.inF.has(fid) && a.flown && a.tail === f.tail && a.dep === f.sdep && a.arr === f.sarr) continue;
    if (f.sdep < p.t0) say(`Flight ${fid} departed before the disruption time ${hhmm(p.t0)} and must fly untouched, but the option changes it.`);
    else if (!p.inF.has(fid)) say(`Flight ${fid} is outside the recovery scope (window or aircraft) and must fly as scheduled, but the option changes it.`);
  }
  for (const f of p.F) {
    const a = o.get(f.id)!;
    if (a.flown && !inK.has(a.tail)) say(`Flight ${f.id} is flown by ${a.tail}, which is not among the aircraft in scope (${p.K.join(', ')}).`);
    if (a.flown && p.disruptedCancelled.has(f.id)) say(`Flight ${f.id} is cancelled by a disruption but the option flies it.`);
  }

  // ---------------------------------------------------------------- every tail's day: continuity and turnarounds
  const routes = new Map(p.K.map((tail) => [tail, routeOf(p, o, tail)]));
  const rules = aircraftRuleBreaks(p, o, routes);
  for (const b of rules.days) {
    if (b.kind === 'start') { say(`The day of ${b.tail} starts with ${b.first.id} from ${b.first.origin} but the aircraft is at ${b.station}.`); continue; }
    const { tail, prev, next } = b;
    if (!b.continuous) say(`The day of ${tail} is not continuous: ${prev.id} arrives at ${prev.dest} but the next flight ${next.id} departs from ${next.origin}.`);
    if (b.short) say(`The day of ${tail} turns ${prev.id} into ${next.id} at ${prev.dest} in ${b.turn} min, below the minimum turnaround of ${b.need} min.`);
  }

  // ---------------------------------------------------------------- departure times (1.3 and 1.8)
  const propagated = new Map(p.K.map((tail) => [tail, delayPropagationRoute(p, tail)]));
  const samePlan = (tail: string) => {
    const a = routes.get(tail)!;
    const b = propagated.get(tail)!;
    return !b.broken && a.length === b.legs.length && a.every((l, i) => l.f.id === b.legs[i]!.f.id && l.dep === b.legs[i]!.dep);
  };
  // The integrated option may be the propagated plan itself (1.8), whose times are off the grid.
  const isPropagatedPlan = strategy === 'delay_propagation' || (strategy === 'integrated' && p.K.every(samePlan) && p.K.some((tail) => routes.get(tail)!.some((l) => !onGrid(p, l.f, l.dep))));
  for (const tail of p.K) {
    const legs = routes.get(tail)!;
    if (isPropagatedPlan) {
      const dp = propagated.get(tail)!;
      const why = propagatedRouteBreaks(p, tail, dp);
      if (why !== null) { say(`Under delay_propagation ${tail} has no plan (${why}), but the option gives it one.`); continue; }
      if (!samePlan(tail)) {
        say(`Under delay_propagation ${tail} flies ${dp.legs.map((l) => `${l.f.id} at ${hhmm(l.dep)}`).join(', ') || 'nothing'}, but the option has ${legs.map((l) => `${l.f.id} at ${hhmm(l.dep)}`).join(', ') || 'nothing'}.`);
      }
      continue;
    }
    for (const l of legs) {
      const e = earliestDep(p, l.f);
      if (l.dep < e) say(`Flight ${l.f.id} departs at ${hhmm(l.dep)}, before its earliest departure ${hhmm(e)} (scheduled departure plus its minimum delay).`);
      else if (!onGrid(p, l.f, l.dep)) say(`Flight ${l.f.id} departs at ${hhmm(l.dep)}, off its departure grid ${hhmm(e)} + k x ${p.step} min.`);
      const hit = unavailabilityHit(p, tail, l.dep, l.arr);
      if (hit) say(`Flight ${l.f.id} is flown by ${tail} from ${hhmm(l.dep)} to ${hhmm(l.arr)}, overlapping its unavailability ${hhmm(hit.from)}-${hhmm(hit.to)}.`);
    }
  }
  if (isPropagatedPlan) for (const f of p.F) if (!o.get(f.id)!.flown && !p.disruptedCancelled.has(f.id)) say(`Under delay_propagation every flight but the disrupted-cancelled ones flies, but ${f.id} is cancelled.`);

  // ---------------------------------------------------------------- the rotations and the checks they perform
  const performed = new Map<string, Set<number>>(p.K.map((tail) => [tail, new Set<number>()]));
  const rotationTails = opt.rotations.map((r) => r.tail);
  if (new Set(rotationTails).size !== rotationTails.length) say(`The rotations list an aircraft twice.`);
  const missingRotation = p.K.filter((t) => !rotationTails.includes(t));
  const extraRotation = rotationTails.filter((t) => !inK.has(t));
  if (missingRotation.length > 0 || extraRotation.length > 0) say(`The rotations cover ${rotationTails.join(', ') || 'no aircraft'}, but the aircraft in scope are ${p.K.join(', ')}.`);
  else if (rotationTails.join() !== p.K.join()) say(`The rotations list the aircraft as ${rotationTails.join(', ')}, not in the scope's order ${p.K.join(', ')}.`);
  for (const rot of opt.rotations) {
    if (!inK.has(rot.tail)) continue;
    const legs = routes.get(rot.tail)!;
    const init = p.init.get(rot.tail)!;
    const endStation = legs.length > 0 ? legs[legs.length - 1]!.f.dest : init.station;
    if (rot.end_station !== endStation) say(`The rotation of ${rot.tail} ends at ${rot.end_station} but its route ends at ${endStation}.`);
    if (rot.required_end_station !== p.L.get(rot.tail)) say(`The rotation of ${rot.tail} says it is required at ${rot.required_end_station} but L(${rot.tail}) is ${p.L.get(rot.tail)}.`);
    const want = legs.map((l) => `${l.f.id} ${l.f.origin}-${l.f.dest} ${l.dep}-${l.arr} +${l.dep - l.f.sdep} ${l.f.tail}`).join(', ');
    const got = rot.legs.map((l) => `${l.flight} ${l.origin}-${l.dest} ${isoMinutes(l.dep)}-${isoMinutes(l.arr)} +${l.delay_minutes} ${l.planned_tail}`).join(', ');
    if (want !== got) say(`The rotation of ${rot.tail} lists ${rot.legs.map((l) => `${l.flight} at ${l.dep}`).join(', ') || 'no legs'}, but the action set flies ${legs.map((l) => `${l.f.id} at ${hhmm(l.dep)}`).join(', ') || 'nothing'} with it (or a leg's airports, delay or planned tail are wrong).`);
    const points = routePoints(p, rot.tail, legs);
    const checks = p.checks.get(rot.tail) ?? [];
    for (const m of rot.maintenance) {
      const check = checks.find((c) => c.type === m.type && c.station === m.station && sameInstant(m.start, c.ms) && sameInstant(m.end, c.me));
      if (!check) { say(`The rotation of ${rot.tail} performs a ${m.type} at ${m.station} from ${m.start} that is not a check of this aircraft to consider.`); continue; }
      if (performed.get(rot.tail)!.has(check.idx)) { say(`The rotation of ${rot.tail} performs its ${m.type} at ${m.station} twice.`); continue; }
      const planned = plannedPoint(p, check, points);
      const where = isPropagatedPlan ? (planned ? [planned] : []) : points;
      if (!where.some((q) => performableAt(check, q))) {
        say(`The rotation of ${rot.tail} performs its ${m.type} at ${m.station} (${hhmm(check.ms)}-${hhmm(check.me)}), but ${isPropagatedPlan ? 'not at the point the schedule plans it' : 'no point of its route is there by the start and stays until the end'}.`);
        continue;
      }
      performed.get(rot.tail)!.add(check.idx);
    }
    if (isPropagatedPlan) {
      const dp = propagated.get(rot.tail)!;
      for (const idx of dp.performed) if (!performed.get(rot.tail)!.has(idx)) say(`Under delay_propagation ${rot.tail} performs its ${checks[idx]!.type} at ${checks[idx]!.station} where the schedule plans it, but the rotation does not list it.`);
    }
  }

  // ---------------------------------------------------------------- constraints 3-8, fleet policy, strategy
  const c = p.cfg.constraints;
  const { swaps: nSwaps, cancelled: nCancelled } = rules;
  for (const f of p.airlineFlights) {
    const a = o.get(f.id)!;
    if (!a.flown) continue;
    const delay = a.dep - f.sdep;
    if (p.inF.has(f.id) && delay > maxDelayOf(p, f)) say(`Flight ${f.id} is delayed ${delay} min, more than the ${maxDelayOf(p, f)} min allowed.`);
    const x = rules.policy.get(f.id);
    if (x) say(`Flight ${f.id} is flown by ${x.tail} (${x.fleet}) instead of ${f.tail} (${x.plannedFleet}), which the ${c.swap_fleet_policy} fleet policy forbids.`);
  }
  if (nSwaps > c.max_swaps) say(`The option swaps ${nSwaps} flights, more than max_swaps = ${c.max_swaps}.`);
  if (nCancelled > 0 && !c.allow_cancellations) say(`The option cancels ${nCancelled} flights but cancellations are not allowed.`);
  if (c.max_cancellations !== null && nCancelled > c.max_cancellations) say(`The option cancels ${nCancelled} flights (besides the disrupted ones), more than max_cancellations = ${c.max_cancellations}.`);
  if ((strategy === 'delay_propagation' || strategy === 'cancellation') && nSwaps > 0) say(`The ${strategy} strategy allows no swaps but the option swaps ${nSwaps} flights.`);
  if ((strategy === 'delay_propagation' || strategy === 'aircraft_swap') && nCancelled > 0) say(`The ${strategy} strategy cancels only the flights a disruption cancels, but the option cancels ${nCancelled} more.`);
  if (strategy === 'delay_propagation' || strategy === 'cancellation') {
    for (const tail of p.K) {
      const legs = routes.get(tail)!;
      for (let i = 1; i < legs.length; i++) {
        if (legs[i]!.f.sdep < legs[i - 1]!.f.sdep) say(`Under ${strategy} ${tail} must fly its own flights in scheduled order, but flies ${legs[i]!.f.id} after ${legs[i - 1]!.f.id}.`);
      }
    }
  }
  // Constraint 6: with its checks done at the end, the aircraft is at L(a) by its first flight after the window.
  for (const [tail, x] of rules.ends) say(`${tail} ends its route at ${x.station}, ready ${hhmm(x.ready)}, but must be at ${x.after.origin} by ${hhmm(x.after.sdep)} for ${x.after.id}.`);
  for (const x of capacityExcess(p, o)) say(`The option has ${x.count} ${slotText(p, x.slot)}, above the capacity of ${x.limit}.`);
  for (const x of standingCapacityExcess(p, o)) {
    say(`The option has ${x.count} ${x.kind === 'departures' ? 'departures from' : 'arrivals at'} ${x.airport} in the hour from ${isoOf(x.hourStartMinutes)}, above its standing capacity of ${x.limit}.`);
  }

  // ---------------------------------------------------------------- passengers
  const groups = disruptedGroups(p, o);
  const byKey = new Map(groups.map((g) => [g.key, g]));
  const moves: PaxMove[] = [];
  const accounted = new Map<string, number>();
  const onto = new Map<string, number>();
  for (const r of actions.reaccommodations) {
    const key = groupKey(r.from_flight, r.itinerary_id);
    const g = byKey.get(key);
    const label = r.itinerary_id === null ? `cancelled flight ${r.from_flight}` : `itinerary ${r.itinerary_id} (missed ${r.from_flight})`;
    if (!g) { say(`The re-accommodation of ${label} is not a disrupted group of this plan.`); continue; }
    if (r.reason !== g.reason) say(`The re-accommodation of ${label} gives the reason ${r.reason}, but the group is disrupted by a ${g.reason}.`);
    const fromHere = g.leaveBefore.get(r.from_flight);
    if (!fromHere) say(`The re-accommodation of ${label} names from_flight ${r.from_flight}, but the missed flight is ${g.fromFlight}${g.leaveBefore.size > 1 ? ' (or an earlier one of the itinerary)' : ''}.`);
    if (!Number.isInteger(r.passengers) || r.passengers < 0) { say(`The re-accommodation of ${label} moves ${r.passengers} passengers, not a whole number.`); continue; }
    accounted.set(key, (accounted.get(key) ?? 0) + r.passengers);
    const to = r.to_flights.length > 0 ? journeyKey(r.to_flights) : null;
    if (to === null && r.from_flight !== g.fromFlight) say(`The passengers of ${label} who are not re-accommodated are named at ${r.from_flight}, but they first miss ${g.fromFlight}.`);
    if (to !== null) {
      const journey = r.to_flights.join(' then ');
      if (!g.eligible.has(to)) { say(`The re-accommodation of ${label} moves ${r.passengers} passengers onto ${journey}, which is not an eligible journey for them.`); continue; }
      if (fromHere && !fromHere.has(to)) say(`The re-accommodation of ${label} moves ${r.passengers} passengers onto ${journey}, which does not leave from where they leave their journey.`);
      for (const fid of r.to_flights) onto.set(fid, (onto.get(fid) ?? 0) + r.passengers);
    }
    moves.push({ key, to, pax: r.passengers });
  }
  for (const g of groups) {
    const n = accounted.get(g.key) ?? 0;
    const label = g.itineraryId === null ? `cancelled flight ${g.fromFlight}` : `group of itinerary ${g.itineraryId}`;
    if (n !== g.size) say(`The ${label} has ${g.size} passengers but the option accounts for ${n} (re-accommodated + not re-accommodated).`);
  }
  for (const [fid, n] of onto) {
    const free = freeSeats(p, o, fid);
    if (n > free) say(`Flight ${fid} receives ${n} re-accommodated passengers but has only ${free} free seats.`);
  }

  // ---------------------------------------------------------------- recompute figures
  const ev = evaluatePlan(p, o, moves, performed);
  if (c.maintenance === 'hard') for (const m of ev.missed) say(`The ${m.check.type} of ${m.check.tail} at ${m.check.station} (${hhmm(m.check.ms)}-${hhmm(m.check.me)}) is missed although maintenance is hard.`);
  if (c.crew_duty === 'hard') for (const v of ev.crew) say(`Crew ${v.crew.id} ends ${v.flight.id} at ${hhmm(v.arr)}, beyond its duty limit ${hhmm(v.crew.limit)}, although crew_duty is hard.`);

  const b = opt.cost_breakdown;
  for (const k of Object.keys(ev.breakdown) as (keyof typeof ev.breakdown)[]) {
    if (!close(b[k], ev.breakdown[k])) say(`The ${k} cost is reported as ${b[k]} but recomputes to ${ev.breakdown[k]}.`);
  }
  const sumReported = Object.values(b).reduce((s, v) => s + v, 0);
  if (!close(sumReported, opt.summary.cost)) say(`The cost breakdown sums to ${sumReported} but summary.cost is ${opt.summary.cost}.`);
  if (!close(opt.summary.cost, ev.cost)) say(`summary.cost is ${opt.summary.cost} but the plan recomputes to ${ev.cost}.`);
  const s = opt.summary;
  const counts = ['flights_delayed', 'flights_cancelled', 'flights_swapped', 'passengers_disrupted', 'passengers_reaccommodated', 'passengers_not_reaccommodated', 'total_delay_minutes'] as const;
  for (const k of counts) if (s[k] !== ev.summary[k]) say(`summary.${k} is ${s[k]} but recomputes to ${ev.summary[k]}.`);
  if (!close(s.otp, ev.summary.otp)) say(`summary.otp is ${s.otp} but recomputes to ${ev.summary.otp}.`);
  if (!close(s.nps, ev.summary.nps)) say(`summary.nps is ${s.nps} but recomputes to ${ev.summary.nps}.`);

  const position = (x: { tail: string; ends_at: string; required_at: string }) => `${x.tail}: ${x.ends_at} instead of ${x.required_at}`;
  const wantPosition = ev.outOfPosition.map(position).sort();
  const gotPosition = opt.aircraft_out_of_position.map(position).sort();
  if (wantPosition.join('; ') !== gotPosition.join('; ')) say(`aircraft_out_of_position lists [${gotPosition.join('; ')}] but the plan leaves [${wantPosition.join('; ')}] out of position.`);

  const reported = new Map(opt.violations.map((v) => [violationKey(v), v]));
  const expected = new Map(ev.violations.map((v) => [violationKey(v), v]));
  if (reported.size !== opt.violations.length) say(`The option lists a violation twice.`);
  for (const [k, v] of expected) {
    const r = reported.get(k);
    if (!r) say(`The option does not report the ${v.type} violation on ${v.flight ?? '(no flight)'} of ${v.type === 'crew_duty' ? `crew ${v.crew_id}` : v.tail}.`);
    else if (isoMinutes(r.limit) !== isoMinutes(v.limit)) say(`The ${v.type} violation on ${v.flight ?? '(no flight)'} reports limit ${r.limit} but it is ${v.limit}.`);
    else if ((r.actual === null ? null : isoMinutes(r.actual)) !== (v.actual === null ? null : isoMinutes(v.actual)) || r.excess_minutes !== v.excess_minutes) {
      say(`The ${v.type} violation on ${v.flight ?? '(no flight)'} reports actual ${r.actual} (${r.excess_minutes} min over) but it is ${v.actual} (${v.excess_minutes} min over).`);
    }
  }
  for (const [k, v] of reported) {
    if (!expected.has(k)) say(`The option reports a ${v.type} violation on ${v.flight ?? '(no flight)'} of ${v.type === 'crew_duty' ? `crew ${v.crew_id}` : v.tail} that the plan does not have.`);
  }

  // ---------------------------------------------------------------- the solver report
  const r = opt.solver;
  if (!['optimal', 'feasible', 'time_limit'].includes(r.status)) say(`An option with a plan reports solver status ${r.status}.`);
  if (r.objective !== null && !close(r.objective, opt.summary.cost)) say(`solver.objective is ${r.objective} but the option costs ${opt.summary.cost}.`);
  if (r.lower_bound !== null && r.lower_bound > opt.summary.cost && !close(r.lower_bound, opt.summary.cost)) say(`solver.lower_bound ${r.lower_bound} is above the cost ${opt.summary.cost} of a plan of this strategy.`);
  if (r.status === 'optimal' && r.mip_gap !== 0) say(`An optimal solve reports mip_gap ${r.mip_gap}, not 0.`);
  if (r.status !== 'optimal') {
    if (r.lower_bound === null && r.mip_gap !== null) say(`solver.mip_gap is ${r.mip_gap} but no lower bound is reported.`);
    if (r.lower_bound !== null && r.objective !== null) {
      const gap = (r.objective - r.lower_bound) / Math.max(1, Math.abs(r.objective));
      if (r.mip_gap === null || !close(r.mip_gap, gap, 1e-4)) say(`solver.mip_gap is ${r.mip_gap} but (objective − lower_bound) / max(1, |objective|) is ${gap}.`);
    }
  }
  if (!Number.isInteger(r.iterations) || r.iterations < 0) say(`solver.iterations is ${r.iterations}.`);

  // ---------------------------------------------------------------- cheapest re-accommodation (1.6, last line)
  const best = cheapestReaccommodation(p, o, groups);
  const mine = ev.breakdown.reaccommodation + ev.breakdown.compensation;
  if (mine > best.cost && !close(mine, best.cost)) say(`The re-accommodation costs ${mine} but the cheapest one for these aircraft decisions costs ${best.cost}.`);
  return problems;
}

/**
 * How many legs of the option's rotations leave later than their aircraft allows on the grid (holds:
 * for a capacity, a connection or a check), for statistics of the property tests.
 */
export function optionHolds(input: ProblemInput, option: RecoveryOptionView): number {
  const p = buildProblem(input);
  let holds = 0;
  for (const rot of option.rotations) {
    let ready = p.init.get(rot.tail)?.ready ?? Number.NEGATIVE_INFINITY;
    for (const l of rot.legs) {
      const f = p.flights.get(l.flight)!;
      if (isoMinutes(l.dep) > firstGridDep(p, f, ready)) holds++;
      ready = isoMinutes(l.arr) + turnOf(p, rot.tail, f.dest);
    }
  }
  return holds;
}
