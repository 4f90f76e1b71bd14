// Exhaustive enumeration of every feasible plan of docs/model.md section 1, for small instances.
// For each aircraft in scope, every route (continuous sequences of distinct flights of F, timed by
// the propagation rule, with every choice of maintenance holds, including the empty route); then
// every combination of routes with distinct flights (branch and bound over aircraft, pruned only by
// valid lower bounds); each combination's passengers re-accommodated exactly by min-cost flow.
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { RecoveryOptionView } from '../../src/http/recovery-schemas.ts';

/** An option as the response carries it; the oracle checks everything but the rotations (a view of the same plan). */
type RecoveryOption = Omit<RecoveryOptionView, 'rotations'>;
import type { OracleConfig, OracleStrategy } from './config.ts';
import {
  buildProblem, cheapestReaccommodation, close, crewViolations, disruptedGroups, evaluatePlan, isoOf, maxDelayOf,
  missedChecks, policyAllows, releaseOf, scheduledOutcome, turnOf,
  type Evaluation, type Leg, type OFlight, type Outcome, type PaxMove, type Problem,
} from './model.ts';

export interface BruteForceInput {
  schedule: ScheduleFile;
  disruptedFlight: string;
  minDelayMinutes: number;
  config: OracleConfig;
  /** Strategy whose plans are enumerated (1.8); `integrated` by default. */
  strategy?: OracleStrategy;
}

export interface BrutePlan {
  strategy: OracleStrategy;
  routes: { tail: string; legs: { flight: string; dep: string; arr: string; delay: number }[] }[];
  cancelled: string[];
  moves: PaxMove[];
  evaluation: Evaluation;
}

export interface BruteForceResult {
  /** False when no plan is feasible (then cost is Infinity and plan/option are null). */
  feasible: boolean;
  /** Minimum total cost over all feasible plans. */
  cost: number;
  plan: BrutePlan | null;
  /** The optimal plan written as a response option (checkable with checkOption). */
  option: RecoveryOption | null;
  scope: { aircraft: string[]; flights: string[] };
  stats: { routesPerAircraft: Record<string, number>; leaves: number; ms: number };
}

interface Route { tail: string; legs: Leg[]; mask: number; local: number; swaps: number }

/** The cost a route contributes by itself (delay, swap, spill, crew and maintenance violations, position). */
function routeCost(p: Problem, tail: string, legs: Leg[], strategy: OracleStrategy): { local: number; swaps: number; missed: number } {
  const w = p.cfg.cost_weights;
  const plane = p.aircraft.get(tail)!;
  let local = 0;
  let swaps = 0;
  for (const l of legs) {
    const delay = l.dep - l.f.sdep;
    local += delay * (w.delay_per_minute + w.delay_per_passenger_minute * l.f.booked);
    if (l.f.tail !== tail) swaps++;
    local += w.spill_per_passenger * Math.max(0, l.f.booked - plane.seats);
    for (const c of p.crewsByFlight.get(l.f.id) ?? []) if (l.arr > c.limit) local += w.crew_duty_violation;
  }
  local += w.swap_per_flight * swaps;
  const missed = missedChecks(p, tail, legs, strategy).length;
  local += w.maintenance_violation * missed;
  if (!p.afterWindow.get(tail)) {
    const end = legs.length > 0 ? legs[legs.length - 1]!.f.dest : p.init.get(tail)!.station;
    if (end !== p.L.get(tail)) local += w.aircraft_out_of_position;
  }
  return { local, swaps, missed };
}

function enumerateRoutes(p: Problem, tail: string, strategy: OracleStrategy, bit: Map<string, number>): Route[] {
  const routes: Route[] = [];
  const c = p.cfg.constraints;
  const plane = p.aircraft.get(tail)!;
  const init = p.init.get(tail)!;
  const after = p.afterWindow.get(tail) ?? null;
  const checks = p.checks.get(tail) ?? [];
  const crewOk = (f: OFlight, arr: number) => c.crew_duty !== 'hard' || (p.crewsByFlight.get(f.id) ?? []).every((x) => arr <= x.limit);
  const record = (legs: Leg[], station: string, ready: number) => {
    if (after && (station !== after.origin || ready > after.sdep)) return; // constraint 6
    const rc = routeCost(p, tail, legs, strategy);
    if (c.maintenance === 'hard' && rc.missed > 0) return;
    let mask = 0;
    for (const l of legs) mask |= bit.get(l.f.id)!;
    routes.push({ tail, legs: [...legs], mask, local: rc.local, swaps: rc.swaps });
  };

  if (strategy === 'delay_propagation') {
    const dp = delayPropagationRoute(p, tail);
    if (dp.broken || dp.legs.some((l) => l.dep - l.f.sdep > maxDelayOf(p, l.f) || !crewOk(l.f, l.arr))) return routes;
    record(dp.legs, dp.station, dp.ready);
    return routes;
  }

  const ownOnly = strategy === 'cancellation';
  const candidates = p.F.filter((f) => (ownOnly ? f.tail === tail : policyAllows(p, plane.fleet, p.aircraft.get(f.tail)!.fleet)));
  const legs: Leg[] = [];
  const dfs = (station: string, arrival: number, ready: number, used: number, holdUsed: number, lastSdep: number) => {
    record(legs, station, ready);
    for (const g of candidates) {
      const b = bit.get(g.id)!;
      if (used & b || g.origin !== station) continue;
      if (ownOnly && g.sdep <= lastSdep) continue;
      const base = Math.max(releaseOf(p, g), ready);
      const choices: { dep: number; hold: number }[] = [{ dep: base, hold: -1 }];
      for (const m of checks) {
        if (!(holdUsed & (1 << m.idx)) && m.station === station && arrival <= m.ms && m.me > base) choices.push({ dep: m.me, hold: m.idx });
      }
      for (const ch of choices) {
        if (ch.dep - g.sdep > maxDelayOf(p, g)) continue;
        const arr = ch.dep + g.block;
        if (!crewOk(g, arr)) continue;
        legs.push({ f: g, dep: ch.dep, arr });
        dfs(g.dest, arr, arr + turnOf(p, tail, g.dest), used | b, ch.hold >= 0 ? holdUsed | (1 << ch.hold) : holdUsed, g.sdep);
        legs.pop();
      }
    }
  };
  dfs(init.station, init.arrival, init.ready, 0, 0, Number.NEGATIVE_INFINITY);
  return routes;
}

/**
 * The delay_propagation route of an aircraft (1.8): its own flights of F in scheduled order, each check
 * performed where the schedule plans it if the aircraft is there by the check's start. No feasibility
 * filter is applied (`broken` only when the schedule itself is not continuous).
 */
export function delayPropagationRoute(p: Problem, tail: string): { legs: Leg[]; station: string; ready: number; broken: boolean } {
  const init = p.init.get(tail)!;
  const checks = p.checks.get(tail) ?? [];
  const legs: Leg[] = [];
  let station = init.station;
  let arrival = init.arrival;
  let ready = init.ready;
  let prevId: string | null = init.lastDeparted?.id ?? null;
  const plannedHere = () => {
    for (const m of checks) if (m.plannedAfter === prevId && m.station === station && arrival <= m.ms) ready = Math.max(ready, m.me);
  };
  for (const f of p.F.filter((g) => g.tail === tail)) {
    plannedHere();
    if (f.origin !== station) return { legs, station, ready, broken: true };
    const dep = Math.max(releaseOf(p, f), ready);
    const arr = dep + f.block;
    legs.push({ f, dep, arr });
    station = f.dest;
    arrival = arr;
    ready = arr + turnOf(p, tail, f.dest);
    prevId = f.id;
  }
  plannedHere();
  return { legs, station, ready, broken: false };
}

/**
 * The top-level `violations` of a response: those of the delay_propagation plan evaluated with soft
 * rules (1.8, last paragraph), whether or not that plan is feasible under the configuration's limits.
 */
export function topLevelViolations(input: BruteForceInput): RecoveryOption['violations'] {
  const soft = { ...input.config, constraints: { ...input.config.constraints, crew_duty: 'soft' as const, maintenance: 'soft' as const } };
  const p = buildProblem({ ...input, config: soft });
  const o = scheduledOutcome(p);
  for (const tail of p.K) for (const l of delayPropagationRoute(p, tail).legs) o.set(l.f.id, { flown: true, tail, dep: l.dep, arr: l.arr });
  return evaluatePlan(p, o, [], 'delay_propagation').violations;
}

function outcomeOf(p: Problem, chosen: Route[]): Outcome {
  const o = scheduledOutcome(p);
  for (const f of p.F) o.get(f.id)!.flown = false;
  for (const r of chosen) for (const l of r.legs) o.set(l.f.id, { flown: true, tail: r.tail, dep: l.dep, arr: l.arr });
  return o;
}

export function bruteForceOptimum(input: BruteForceInput): BruteForceResult {
  const started = performance.now();
  const strategy = input.strategy ?? 'integrated';
  const p = buildProblem(input);
  if (p.F.length > 30) throw new Error(`brute force is for small instances: ${p.F.length} flights in scope`);
  const bit = new Map(p.F.map((f, i) => [f.id, 1 << i]));
  const all = p.F.length === 0 ? 0 : p.F.length === 31 ? -1 : (1 << p.F.length) - 1;
  const w = p.cfg.cost_weights;
  const c = p.cfg.constraints;
  const cancellationsAllowed = c.allow_cancellations && strategy !== 'delay_propagation' && strategy !== 'aircraft_swap';
  const maxCancel = cancellationsAllowed ? (c.max_cancellations ?? Number.POSITIVE_INFINITY) : 0;
  const maxSwaps = strategy === 'delay_propagation' || strategy === 'cancellation' ? 0 : c.max_swaps;

  const routes = p.K.map((tail) => enumerateRoutes(p, tail, strategy, bit).sort((x, y) => x.local - y.local));
  const coverFrom: number[] = new Array(p.K.length + 1).fill(0);
  for (let i = p.K.length - 1; i >= 0; i--) coverFrom[i] = coverFrom[i + 1]! | routes[i]!.reduce((m, r) => m | r.mask, 0);

  // Costs that no decision changes: spill and crew violations of flights of A outside F.
  const o0 = scheduledOutcome(p);
  const outside = p.airlineFlights.filter((f) => !p.inF.has(f.id));
  let constant = w.crew_duty_violation * crewViolations(p, o0, outside).length;
  for (const f of outside) constant += w.spill_per_passenger * Math.max(0, f.booked - p.aircraft.get(f.tail)!.seats);

  const popcount = (x: number) => { let n = 0; while (x) { x &= x - 1; n++; } return n; };
  const paxCache = new Map<string, number>();
  let best = Number.POSITIVE_INFINITY;
  let bestChoice: Route[] | null = null;
  let leaves = 0;
  const chosen: Route[] = [];

  const leaf = (used: number, partial: number) => {
    leaves++;
    const nCancel = popcount(all & ~used);
    if (nCancel > maxCancel) return;
    let total = partial + constant + w.cancellation_per_flight * nCancel;
    if (total >= best) return;
    const o = outcomeOf(p, chosen);
    const key = p.F.map((f) => { const a = o.get(f.id)!; return a.flown ? `${a.tail}@${a.dep}` : '-'; }).join('|');
    let pax = paxCache.get(key);
    if (pax === undefined) {
      pax = cheapestReaccommodation(p, o, disruptedGroups(p, o)).cost;
      paxCache.set(key, pax);
    }
    total += pax;
    if (total < best) { best = total; bestChoice = [...chosen]; }
  };
  const search = (i: number, used: number, partial: number, swaps: number) => {
    const forced = popcount(all & ~used & ~coverFrom[i]!);
    if (forced > maxCancel) return;
    if (partial + constant + w.cancellation_per_flight * forced >= best) return;
    if (i === p.K.length) { leaf(used, partial); return; }
    for (const r of routes[i]!) {
      if (partial + r.local + constant + w.cancellation_per_flight * forced >= best) break; // sorted by cost
      if (r.mask & used || swaps + r.swaps > maxSwaps) continue;
      chosen.push(r);
      search(i + 1, used | r.mask, partial + r.local, swaps + r.swaps);
      chosen.pop();
    }
  };
  search(0, 0, 0, 0);

  const scope = { aircraft: [...p.K], flights: p.F.map((f) => f.id) };
  const stats = { routesPerAircraft: Object.fromEntries(p.K.map((t, i) => [t, routes[i]!.length])), leaves, ms: 0 };
  const finalChoice = bestChoice as Route[] | null;
  if (!finalChoice) {
    stats.ms = performance.now() - started;
    return { feasible: false, cost: Number.POSITIVE_INFINITY, plan: null, option: null, scope, stats };
  }
  const o = outcomeOf(p, finalChoice);
  const groups = disruptedGroups(p, o);
  const pax = cheapestReaccommodation(p, o, groups);
  const evaluation = evaluatePlan(p, o, pax.moves, strategy);
  if (!close(evaluation.cost, best)) {
    throw new Error(`oracle inconsistency: branch and bound found ${best} but the plan evaluates to ${evaluation.cost}`);
  }
  const plan: BrutePlan = {
    strategy,
    routes: finalChoice.map((r) => ({ tail: r.tail, legs: r.legs.map((l) => ({ flight: l.f.id, dep: isoOf(l.dep), arr: isoOf(l.arr), delay: l.dep - l.f.sdep })) })),
    cancelled: p.F.filter((f) => !o.get(f.id)!.flown).map((f) => f.id),
    moves: pax.moves,
    evaluation,
  };
  stats.ms = performance.now() - started;
  return { feasible: true, cost: evaluation.cost, plan, option: toOption(p, o, pax.moves, evaluation, strategy), scope, stats };
}

/** Write a plan as a response option (the shape of src/recovery/result.ts). */
export function toOption(p: Problem, o: Outcome, moves: PaxMove[], ev: Evaluation, strategy: OracleStrategy): RecoveryOption {
  const delays: RecoveryOption['action_set']['delays'] = [];
  const swaps: RecoveryOption['action_set']['swaps'] = [];
  const cancellations: RecoveryOption['action_set']['cancellations'] = [];
  for (const f of p.F) {
    const a = o.get(f.id)!;
    if (!a.flown) { cancellations.push({ flight: f.id, passengers: f.booked }); continue; }
    if (a.dep > f.sdep) delays.push({ flight: f.id, tail: a.tail, delay_minutes: a.dep - f.sdep, new_dep: isoOf(a.dep), new_arr: isoOf(a.arr) });
    if (a.tail !== f.tail) swaps.push({ flight: f.id, from_tail: f.tail, to_tail: a.tail });
  }
  const groups = new Map(ev.groups.map((g) => [g.key, g]));
  const reaccommodations = moves.map((m) => {
    const g = groups.get(m.key)!;
    return { from_flight: g.fromFlight, to_flights: m.to === null ? [] : [m.to], passengers: m.pax, reason: g.reason, itinerary_id: g.itineraryId };
  });
  return {
    option_id: `oracle-${strategy}`,
    strategy,
    rank: 1,
    summary: ev.summary,
    cost_breakdown: ev.breakdown,
    action_set: { delays, swaps, cancellations, reaccommodations },
    violations: ev.violations,
    solver: { status: 'optimal', objective: ev.cost, mip_gap: 0, solve_ms: 0, rows: 0, columns: 0, nonzeros: 0, integers: 0, candidate_routes: 0, note: 'oracle brute force' },
  };
}
