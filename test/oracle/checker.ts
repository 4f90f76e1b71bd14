// Independent checker of one recovery option against docs/model.md section 1. It applies the
// option's action set to the raw schedule, verifies feasibility, and recomputes every reported
// figure. Shares no code with the engine (only the result TYPES are imported).
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { RecoveryOptionView } from '../../src/http/recovery-schemas.ts';

/** An option as the response carries it; the oracle checks everything but the rotations (a view of the same plan). */
type RecoveryOption = Omit<RecoveryOptionView, 'rotations'>;
import type { OracleConfig, OracleStrategy } from './config.ts';
import {
  buildProblem, cheapestReaccommodation, close, disruptedGroups, evaluatePlan, freeSeats, groupKey, isoMinutes, isoOf,
  maxDelayOf, policyAllows, releaseOf, routeOf, scheduledOutcome, turnOf, violationKey,
  type Outcome, type PaxMove, type Problem,
} from './model.ts';

export interface CheckInput {
  schedule: ScheduleFile;
  disruptedFlight: string;
  minDelayMinutes: number;
  /** The full effective configuration (every field present). */
  config: OracleConfig;
  option: RecoveryOption;
}

const hhmm = (m: number): string => (Number.isFinite(m) ? isoOf(m) : String(m));

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
  const o: Outcome = scheduledOutcome(p);

  // ---------------------------------------------------------------- apply the action set
  const known = (fid: string, where: string): boolean => {
    const f = p.flights.get(fid);
    if (!f) { say(`The ${where} entry names unknown flight ${fid}.`); return false; }
    if (f.airline !== p.airline) { say(`The ${where} entry names flight ${fid} of airline ${f.airline}, not of the disrupted airline ${p.airline}.`); return false; }
    return true;
  };
  const cancelled = new Set<string>();
  const delayed = new Map<string, RecoveryOption['action_set']['delays'][number]>();
  const swapped = new Map<string, RecoveryOption['action_set']['swaps'][number]>();
  const touched = new Set<string>();

  for (const c of actions.cancellations) {
    if (!known(c.flight, 'cancellation')) continue;
    if (cancelled.has(c.flight)) { say(`Flight ${c.flight} is cancelled twice.`); continue; }
    cancelled.add(c.flight);
    touched.add(c.flight);
    const f = p.flights.get(c.flight)!;
    if (c.passengers !== f.booked) say(`The cancellation of ${c.flight} reports ${c.passengers} passengers but ${f.booked} are booked.`);
    o.get(c.flight)!.flown = false;
  }
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
    // An entry that leaves a flight exactly as scheduled changes nothing, wherever the flight is.
    if (!p.inF.has(fid) && a.flown && a.tail === f.tail && a.dep === f.sdep && a.arr === f.sarr) continue;
    if (f.sdep < p.t0) say(`Flight ${fid} departed before the disruption time ${hhmm(p.t0)} and must fly untouched, but the option changes it.`);
    else if (!p.inF.has(fid)) say(`Flight ${fid} is outside the recovery scope (window or aircraft) and must fly as scheduled, but the option changes it.`);
  }
  for (const f of p.F) {
    const a = o.get(f.id)!;
    if (a.flown && !inK.has(a.tail)) say(`Flight ${f.id} is flown by ${a.tail}, which is not among the aircraft in scope (${p.K.join(', ')}).`);
  }

  // ---------------------------------------------------------------- every tail's day
  const dayOf = new Map<string, { id: string; origin: string; dest: string; dep: number; arr: number }[]>();
  for (const f of p.airlineFlights) {
    const a = o.get(f.id)!;
    if (!a.flown) continue;
    if (!dayOf.has(a.tail)) dayOf.set(a.tail, []);
    dayOf.get(a.tail)!.push({ id: f.id, origin: f.origin, dest: f.dest, dep: a.dep, arr: a.arr });
  }
  for (const [tail, day] of dayOf) {
    day.sort((x, y) => x.dep - y.dep);
    for (let i = 1; i < day.length; i++) {
      const prev = day[i - 1]!;
      const next = day[i]!;
      if (prev.dest !== next.origin) say(`The day of ${tail} is not continuous: ${prev.id} arrives at ${prev.dest} but the next flight ${next.id} departs from ${next.origin}.`);
      const need = turnOf(p, tail, prev.dest);
      if (next.dep - prev.arr < need) say(`The day of ${tail} turns ${prev.id} into ${next.id} at ${prev.dest} in ${next.dep - prev.arr} min, below the minimum turnaround of ${need} min.`);
    }
    const init = p.init.get(tail);
    if (init && !init.lastDeparted && day.length > 0 && day[0]!.origin !== init.station) {
      say(`The day of ${tail} starts with ${day[0]!.id} from ${day[0]!.origin} but the aircraft is at ${init.station}.`);
    }
  }

  // ---------------------------------------------------------------- propagation rule (no deliberate holds)
  for (const tail of p.K) {
    const legs = routeOf(p, o, tail);
    const init = p.init.get(tail)!;
    const checks = p.checks.get(tail) ?? [];
    let station = init.station;
    let arrival = init.arrival;
    let ready = init.ready;
    let prevId: string | null = init.lastDeparted?.id ?? null;
    const holdUsed = new Set<number>();
    for (const l of legs) {
      let base = Math.max(releaseOf(p, l.f), ready);
      if (strategy === 'delay_propagation') {
        for (const m of checks) if (m.plannedAfter === prevId && m.station === station && arrival <= m.ms) base = Math.max(base, m.me);
        if (l.dep !== base) say(`Under delay_propagation ${l.f.id} should depart at ${hhmm(base)} (its aircraft ${tail} is ready then, planned checks included) but departs at ${hhmm(l.dep)}.`);
      } else if (l.dep > base) {
        const m = checks.find((c) => !holdUsed.has(c.idx) && c.station === station && arrival <= c.ms && c.me === l.dep);
        if (m) holdUsed.add(m.idx);
        else say(`Flight ${l.f.id} departs at ${hhmm(l.dep)} although ${tail} allows ${hhmm(base)}: delays are propagated, never chosen, and no maintenance check ending then justifies the hold.`);
      }
      station = l.f.dest;
      arrival = l.arr;
      ready = l.arr + turnOf(p, tail, l.f.dest);
      prevId = l.f.id;
    }
    if (strategy === 'delay_propagation') {
      const after = p.afterWindow.get(tail);
      let end = ready;
      for (const m of checks) if (m.plannedAfter === prevId && m.station === station && arrival <= m.ms) end = Math.max(end, m.me);
      if (after && end > after.sdep) say(`Under delay_propagation ${tail} is ready at ${hhmm(end)} (planned checks included), after the scheduled departure of ${after.id}.`);
    }
  }

  // ---------------------------------------------------------------- constraints 3-5, fleet policy, strategy
  const c = p.cfg.constraints;
  const f0 = o.get(p.f0.id)!;
  if (f0.flown && f0.dep - p.f0.sdep < p.D0) say(`The disrupted flight ${p.f0.id} departs ${f0.dep - p.f0.sdep} min late, less than the minimum delay of ${p.D0} min.`);
  let nSwaps = 0;
  let nCancelled = 0;
  for (const f of p.airlineFlights) {
    const a = o.get(f.id)!;
    if (!a.flown) { nCancelled++; continue; }
    const delay = a.dep - f.sdep;
    if (p.inF.has(f.id) && delay > maxDelayOf(p, f)) say(`Flight ${f.id} is delayed ${delay} min, more than the ${maxDelayOf(p, f)} min allowed.`);
    if (a.tail !== f.tail) {
      nSwaps++;
      const flying = p.aircraft.get(a.tail);
      const planned = p.aircraft.get(f.tail)!;
      if (flying && !policyAllows(p, flying.fleet, planned.fleet)) say(`Flight ${f.id} is flown by ${a.tail} (${flying.fleet}) instead of ${f.tail} (${planned.fleet}), which the ${c.swap_fleet_policy} fleet policy forbids.`);
    }
  }
  if (nSwaps > c.max_swaps) say(`The option swaps ${nSwaps} flights, more than max_swaps = ${c.max_swaps}.`);
  if (nCancelled > 0 && !c.allow_cancellations) say(`The option cancels ${nCancelled} flights but cancellations are not allowed.`);
  if (c.max_cancellations !== null && nCancelled > c.max_cancellations) say(`The option cancels ${nCancelled} flights, more than max_cancellations = ${c.max_cancellations}.`);
  if ((strategy === 'delay_propagation' || strategy === 'cancellation') && nSwaps > 0) say(`The ${strategy} strategy allows no swaps but the option swaps ${nSwaps} flights.`);
  if ((strategy === 'delay_propagation' || strategy === 'aircraft_swap') && nCancelled > 0) say(`The ${strategy} strategy allows no cancellations but the option cancels ${nCancelled} flights.`);
  if (strategy === 'delay_propagation' || strategy === 'cancellation') {
    for (const tail of p.K) {
      const legs = routeOf(p, o, tail);
      for (let i = 1; i < legs.length; i++) {
        if (legs[i]!.f.sdep < legs[i - 1]!.f.sdep) say(`Under ${strategy} ${tail} must fly its own flights in scheduled order, but flies ${legs[i]!.f.id} after ${legs[i - 1]!.f.id}.`);
      }
    }
  }

  // ---------------------------------------------------------------- passengers
  const groups = disruptedGroups(p, o);
  const byKey = new Map(groups.map((g) => [g.key, g]));
  const moves: PaxMove[] = [];
  const accounted = new Map<string, number>();
  const onto = new Map<string, number>();
  for (const r of actions.reaccommodations) {
    const key = groupKey(r.reason, r.from_flight, r.itinerary_id);
    const g = byKey.get(key);
    const label = r.reason === 'cancellation' ? `cancelled flight ${r.from_flight}` : `itinerary ${r.itinerary_id} (missed ${r.from_flight})`;
    if (!g) { say(`The re-accommodation of ${label} is not a disrupted group of this plan.`); continue; }
    if (g.fromFlight !== r.from_flight) say(`The re-accommodation of ${label} names from_flight ${r.from_flight}, but the missed flight is ${g.fromFlight}.`);
    if (!Number.isInteger(r.passengers) || r.passengers < 0) { say(`The re-accommodation of ${label} moves ${r.passengers} passengers, not a whole number.`); continue; }
    accounted.set(key, (accounted.get(key) ?? 0) + r.passengers);
    if (r.to_flights.length > 1) { say(`The re-accommodation of ${label} books a ${r.to_flights.length}-flight journey; each passenger goes on one eligible flight.`); continue; }
    const to = r.to_flights[0] ?? null;
    if (to !== null) {
      if (!g.eligible.has(to)) { say(`The re-accommodation of ${label} moves ${r.passengers} passengers onto ${to}, which is not an eligible flight for them.`); continue; }
      onto.set(to, (onto.get(to) ?? 0) + r.passengers);
    }
    moves.push({ key, to, pax: r.passengers });
  }
  for (const g of groups) {
    const n = accounted.get(g.key) ?? 0;
    const label = g.reason === 'cancellation' ? `cancelled flight ${g.fromFlight}` : `misconnection group of itinerary ${g.itineraryId}`;
    if (n !== g.size) say(`The ${label} has ${g.size} passengers but the option accounts for ${n} (re-accommodated + not re-accommodated).`);
  }
  for (const [fid, n] of onto) {
    const free = freeSeats(p, o, fid);
    if (n > free) say(`Flight ${fid} receives ${n} re-accommodated passengers but has only ${free} free seats.`);
  }

  // ---------------------------------------------------------------- recompute figures
  const ev = evaluatePlan(p, o, moves, strategy);
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

  // ---------------------------------------------------------------- cheapest re-accommodation (1.6, last line)
  const best = cheapestReaccommodation(p, o, groups);
  const mine = ev.breakdown.reaccommodation + ev.breakdown.compensation;
  if (mine > best.cost && !close(mine, best.cost)) say(`The re-accommodation costs ${mine} but the cheapest one for these aircraft decisions costs ${best.cost}.`);
  return problems;
}
