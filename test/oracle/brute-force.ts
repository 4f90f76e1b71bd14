// Exhaustive enumeration of every feasible plan of docs/model.md section 1, for small instances.
// For each aircraft in scope, every timed route: continuous sequences of distinct flights of F (every
// prefix a route, the empty one included), each flight at every departure of its grid that the rules
// allow, each check performed wherever the times let it be (performing a check costs nothing, so a plan
// that could and does not is never cheaper). Departures that no plan can tell apart from an earlier
// one are folded into the earliest (`departureChoices`, an exact dominance, argued there). Then every
// combination of routes with distinct flights within the capacities (branch and bound over aircraft,
// pruned only by valid lower bounds); each combination's passengers re-accommodated exactly by
// min-cost flow.
import type { RecoveryOptionView } from '../../src/http/recovery-schemas.ts';
import type { OracleStrategy } from './config.ts';
import {
  baseOutcome, buildProblem, capacitySlots, cheapestReaccommodation, close, crewViolations, delayPropagationRoute,
  disruptedGroups, earliestDep, evaluatePlan, firstGridDep, isoOf, journeyFlights, maxDelayOf, missedChecks, policyAllows, slotLimit,
  turnOf, unavailabilityHit, violationsOf,
  type Evaluation, type Leg, type OFlight, type Outcome, type PaxMove, type Problem, type ProblemInput, type PropagatedRoute,
} from './model.ts';

export interface BruteForceInput extends ProblemInput {
  /** Strategy whose plans are enumerated (1.8); `integrated` by default. */
  strategy?: OracleStrategy;
}

export interface BrutePlan {
  strategy: OracleStrategy;
  /** Whose plan it is: the strategy itself, or for integrated `delay_propagation` when the propagated plan is cheaper than every grid plan. */
  source: OracleStrategy;
  routes: { tail: string; legs: { flight: string; dep: string; arr: string; delay: number }[] }[];
  cancelled: string[];
  moves: PaxMove[];
  /** Checks performed, by tail. */
  performed: Map<string, Set<number>>;
  evaluation: Evaluation;
}

export interface BruteForceResult {
  /** False when no plan is feasible (then cost is Infinity and plan/option are null). */
  feasible: boolean;
  /** Minimum total cost over all feasible plans. */
  cost: number;
  plan: BrutePlan | null;
  /** The optimal plan written as a response option (checkable with checkOption). */
  option: RecoveryOptionView | null;
  scope: { aircraft: string[]; flights: string[] };
  stats: { routesPerAircraft: Record<string, number>; leaves: number; ms: number };
}

interface Route { tail: string; legs: Leg[]; mask: number; local: number; swaps: number; performed: Set<number>; slots: string[] }

/** The cost a route contributes by itself (delay, swap, spill, crew and maintenance violations, position). */
function routeCost(p: Problem, tail: string, legs: Leg[], performed: ReadonlySet<number>): { local: number; swaps: number; missed: number } {
  const w = p.cfg.cost_weights;
  const plane = p.aircraft.get(tail)!;
  let local = 0;
  let swaps = 0;
  for (const l of legs) {
    local += (l.dep - l.f.sdep) * (w.delay_per_minute + w.delay_per_passenger_minute * l.f.booked);
    if (l.f.tail !== tail) swaps++;
    local += w.spill_per_passenger * Math.max(0, l.f.booked - plane.seats);
    for (const c of p.crewsByFlight.get(l.f.id) ?? []) if (l.arr > c.limit) local += w.crew_duty_violation;
  }
  local += w.swap_per_flight * swaps;
  const missed = missedChecks(p, tail, legs, performed).length;
  local += w.maintenance_violation * missed;
  if (!p.afterWindow.get(tail)) {
    const end = legs.length > 0 ? legs[legs.length - 1]!.f.dest : p.init.get(tail)!.station;
    if (end !== p.L.get(tail)) local += w.aircraft_out_of_position;
  }
  return { local, swaps, missed };
}

const crewAllows = (p: Problem, f: OFlight, arr: number) => p.cfg.constraints.crew_duty !== 'hard' || (p.crewsByFlight.get(f.id) ?? []).every((x) => arr <= x.limit);

/**
 * The first rule the delay_propagation route breaks (1.8: then the strategy has no plan), or null:
 * a disrupted cancellation breaking the rotation, the delay limit, hard crew duty, hard maintenance,
 * the end of the window. (Unavailability holds by construction; capacities are a rule of the plan.)
 */
export function propagatedRouteBreaks(p: Problem, tail: string, dp: PropagatedRoute): string | null {
  if (dp.broken) return 'a disrupted cancellation breaks its rotation';
  for (const l of dp.legs) {
    if (l.dep - l.f.sdep > maxDelayOf(p, l.f)) return `${l.f.id} would be ${l.dep - l.f.sdep} min late, above the limit`;
    if (!crewAllows(p, l.f, l.arr)) return `${l.f.id} would break its crew's duty limit (hard)`;
  }
  if (p.cfg.constraints.maintenance === 'hard' && missedChecks(p, tail, dp.legs, dp.performed).length > 0) return 'a check would be missed (hard)';
  const after = p.afterWindow.get(tail);
  if (after && (dp.station !== after.origin || dp.ready > after.sdep)) return `it would not be ready for ${after.id} after the window`;
  return null;
}

/**
 * Departure choices of flight g flown next by `tail` from a point with `ready` and the checks
 * `pending` there: every grid departure the delay limit, unavailability and hard crew duty allow,
 * folded by an exact dominance. Two departures s < t fall in one class when they perform the same
 * pending checks (me <= dep), use the same capacity slots, and g does not end a connection of an
 * itinerary (else they must be equal). Then any plan flying g at t stays feasible and costs no more
 * with g at s: the rest of the route keeps its times (ready only gets earlier), delay, crew and later
 * checks (arrival <= ms) only improve, capacities are unchanged, a connection that starts with g
 * only improves (arr(g) earlier: it breaks no more often, and if it was an itinerary's first broken
 * one, the passengers may leave from the same hubs or more, with more eligible flights at g's), and
 * nothing else in section 1 depends on dep(g). So the earliest departure of each class suffices.
 */
function departureChoices(p: Problem, tail: string, g: OFlight, ready: number, pending: { idx: number; me: number }[], secondLegs: Set<string>): { dep: number; done: number }[] {
  const out: { dep: number; done: number }[] = [];
  const seen = new Set<string>();
  const limit = g.sdep + maxDelayOf(p, g);
  for (let dep = firstGridDep(p, g, ready); dep <= limit; dep += p.step) {
    const arr = dep + g.block;
    if (unavailabilityHit(p, tail, dep, arr)) continue;
    if (!crewAllows(p, g, arr)) break; // every later departure breaks it too
    let done = 0;
    for (const m of pending) if (m.me <= dep) done |= 1 << m.idx;
    const key = `${done}|${capacitySlots(p, tail, g.origin, g.dest, dep, arr).join(',')}|${secondLegs.has(g.id) ? dep : ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ dep, done });
  }
  return out;
}

function enumerateRoutes(p: Problem, tail: string, strategy: OracleStrategy, bit: Map<string, number>): Route[] {
  const c = p.cfg.constraints;
  const plane = p.aircraft.get(tail)!;
  const init = p.init.get(tail)!;
  const after = p.afterWindow.get(tail) ?? null;
  const checks = p.checks.get(tail) ?? [];
  const routes: Route[] = [];
  const make = (legs: Leg[], performed: Set<number>): Route | null => {
    const rc = routeCost(p, tail, legs, performed);
    if (c.maintenance === 'hard' && rc.missed > 0) return null;
    let mask = 0;
    for (const l of legs) mask |= bit.get(l.f.id)!;
    return { tail, legs: [...legs], mask, local: rc.local, swaps: rc.swaps, performed, slots: legs.flatMap((l) => capacitySlots(p, tail, l.f.origin, l.f.dest, l.dep, l.arr)) };
  };

  if (strategy === 'delay_propagation') {
    const dp = delayPropagationRoute(p, tail);
    if (propagatedRouteBreaks(p, tail, dp) !== null) return routes;
    const r = make(dp.legs, dp.performed);
    if (r) routes.push(r);
    return routes;
  }

  const ownOnly = strategy === 'cancellation';
  const candidates = p.F.filter((f) => !p.disruptedCancelled.has(f.id) && (ownOnly ? f.tail === tail : policyAllows(p, plane.fleet, p.aircraft.get(f.tail)!.fleet)));
  // Flights whose departure (arrival) ends (starts) a connection of an itinerary.
  const secondLegs = new Set(p.itineraries.flatMap((it) => it.legs.slice(1)));
  const firstLegs = new Set(p.itineraries.flatMap((it) => it.legs.slice(0, -1)));
  // Routes that no plan can tell apart (same flights, capacity slots, itinerary times): keep the cheapest.
  const best = new Map<string, Route>();
  const legs: Leg[] = [];
  const record = (station: string, ready: number, performed: number, pending: typeof checks) => {
    // At the end, the aircraft performs what it can before its first flight after the window (constraint 6).
    const endLimit = after ? after.sdep : Number.POSITIVE_INFINITY;
    let all = performed;
    for (const m of pending) if (m.me <= endLimit) all |= 1 << m.idx;
    if (after && (station !== after.origin || ready > after.sdep)) return;
    const r = make(legs, new Set(checks.filter((m) => all & (1 << m.idx)).map((m) => m.idx)));
    if (!r) return;
    const sig = `${r.mask}|${r.legs.map((l) => `${l.f.id}:${capacitySlots(p, tail, l.f.origin, l.f.dest, l.dep, l.arr).join(',')}:${secondLegs.has(l.f.id) ? l.dep : ''}:${firstLegs.has(l.f.id) ? l.arr : ''}`).sort().join(' ')}`;
    const old = best.get(sig);
    if (!old || r.local < old.local) best.set(sig, r);
  };
  const dfs = (station: string, arrival: number, ready: number, used: number, performed: number, lastSdep: number) => {
    const pending = checks.filter((m) => !(performed & (1 << m.idx)) && m.station === station && arrival <= m.ms);
    record(station, ready, performed, pending);
    for (const g of candidates) {
      const b = bit.get(g.id)!;
      if (used & b || g.origin !== station) continue;
      if (ownOnly && g.sdep <= lastSdep) continue;
      for (const { dep, done } of departureChoices(p, tail, g, Math.max(earliestDep(p, g), ready), pending, secondLegs)) {
        const arr = dep + g.block;
        legs.push({ f: g, dep, arr });
        dfs(g.dest, arr, arr + turnOf(p, tail, g.dest), used | b, performed | done, g.sdep);
        legs.pop();
      }
    }
  };
  if (checks.length > 30) throw new Error(`brute force is for small instances: ${checks.length} checks of ${tail}`);
  dfs(init.station, init.arrival, init.ready, 0, 0, Number.NEGATIVE_INFINITY);
  routes.push(...best.values());
  return routes;
}

function outcomeOf(p: Problem, chosen: Route[]): Outcome {
  const o = baseOutcome(p);
  for (const f of p.F) o.get(f.id)!.flown = false;
  for (const r of chosen) for (const l of r.legs) o.set(l.f.id, { flown: true, tail: r.tail, dep: l.dep, arr: l.arr });
  return o;
}

/** The cheapest plan of `strategy` (integrated by default), exhaustively. */
export function bruteForceOptimum(input: BruteForceInput): BruteForceResult {
  const strategy = input.strategy ?? 'integrated';
  const own = optimumOf(input, strategy);
  if (strategy !== 'integrated') return own;
  // "Its option is the cheapest of its own solve and the other strategies' plans": only the propagated
  // plan can be cheaper, being off the grid; the others are grid plans of all actions.
  const propagated = optimumOf(input, 'delay_propagation');
  if (!propagated.feasible || propagated.cost >= own.cost || close(propagated.cost, own.cost)) return own;
  const plan = { ...propagated.plan!, strategy, source: 'delay_propagation' as const };
  return { ...propagated, plan, option: { ...propagated.option!, option_id: 'oracle-integrated', strategy, solver: { ...propagated.option!.solver, note: 'oracle brute force: the delay_propagation plan' } } };
}

function optimumOf(input: ProblemInput, strategy: OracleStrategy): BruteForceResult {
  const started = performance.now();
  const p = buildProblem(input);
  const flyable = p.F.filter((f) => !p.disruptedCancelled.has(f.id));
  if (flyable.length > 30) throw new Error(`brute force is for small instances: ${flyable.length} flights in scope`);
  const bit = new Map(flyable.map((f, i) => [f.id, 1 << i]));
  const all = flyable.length === 0 ? 0 : flyable.length === 31 ? -1 : (1 << flyable.length) - 1;
  const w = p.cfg.cost_weights;
  const c = p.cfg.constraints;
  const cancellationsAllowed = c.allow_cancellations && strategy !== 'delay_propagation' && strategy !== 'aircraft_swap';
  const maxCancel = cancellationsAllowed ? (c.max_cancellations ?? Number.POSITIVE_INFINITY) : 0;
  const maxSwaps = strategy === 'delay_propagation' || strategy === 'cancellation' ? 0 : c.max_swaps;

  const routes = p.K.map((tail) => enumerateRoutes(p, tail, strategy, bit).sort((x, y) => x.local - y.local));
  const coverFrom: number[] = new Array(p.K.length + 1).fill(0);
  for (let i = p.K.length - 1; i >= 0; i--) coverFrom[i] = coverFrom[i + 1]! | routes[i]!.reduce((m, r) => m | r.mask, 0);

  // Costs no decision changes: spill and crew violations of flights of A outside F, disrupted cancellations.
  const o0 = baseOutcome(p);
  const outside = p.airlineFlights.filter((f) => !p.inF.has(f.id));
  let constant = w.crew_duty_violation * crewViolations(p, o0, outside).length + w.cancellation_per_flight * p.disruptedCancelled.size;
  for (const f of outside) if (o0.get(f.id)!.flown) constant += w.spill_per_passenger * Math.max(0, f.booked - p.aircraft.get(f.tail)!.seats);
  // Capacity slots already used by flights that fly as scheduled.
  const used = new Map<string, number>();
  for (const f of outside) if (o0.get(f.id)!.flown) for (const s of capacitySlots(p, f.tail, f.origin, f.dest, f.sdep, f.sarr)) used.set(s, (used.get(s) ?? 0) + 1);
  const fixedFits = [...used].every(([s, n]) => n <= slotLimit(p, s));

  const popcount = (x: number) => { let n = 0; while (x) { x &= x - 1; n++; } return n; };
  const paxCache = new Map<string, number>();
  let best = Number.POSITIVE_INFINITY;
  let bestChoice: Route[] | null = null;
  let leaves = 0;
  const chosen: Route[] = [];

  const leaf = (covered: number, partial: number) => {
    leaves++;
    const nCancel = popcount(all & ~covered);
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
  const fits = (r: Route) => r.slots.every((s) => (used.get(s) ?? 0) + r.slots.filter((x) => x === s).length <= slotLimit(p, s));
  const search = (i: number, covered: number, partial: number, swaps: number) => {
    const forced = popcount(all & ~covered & ~coverFrom[i]!);
    if (forced > maxCancel) return;
    if (partial + constant + w.cancellation_per_flight * forced >= best) return;
    if (i === p.K.length) { leaf(covered, partial); return; }
    for (const r of routes[i]!) {
      if (partial + r.local + constant + w.cancellation_per_flight * forced >= best) break; // sorted by cost
      if (r.mask & covered || swaps + r.swaps > maxSwaps || !fits(r)) continue;
      chosen.push(r);
      for (const s of r.slots) used.set(s, (used.get(s) ?? 0) + 1);
      search(i + 1, covered | r.mask, partial + r.local, swaps + r.swaps);
      for (const s of r.slots) used.set(s, used.get(s)! - 1);
      chosen.pop();
    }
  };
  if (fixedFits) search(0, 0, 0, 0);

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
  const performed = new Map(finalChoice.map((r) => [r.tail, r.performed]));
  const evaluation = evaluatePlan(p, o, pax.moves, performed);
  if (!close(evaluation.cost, best)) {
    throw new Error(`oracle inconsistency: branch and bound found ${best} but the plan evaluates to ${evaluation.cost}`);
  }
  const plan: BrutePlan = {
    strategy,
    source: strategy,
    routes: finalChoice.map((r) => ({ tail: r.tail, legs: r.legs.map((l) => ({ flight: l.f.id, dep: isoOf(l.dep), arr: isoOf(l.arr), delay: l.dep - l.f.sdep })) })),
    cancelled: p.F.filter((f) => !o.get(f.id)!.flown).map((f) => f.id),
    moves: pax.moves,
    performed,
    evaluation,
  };
  stats.ms = performance.now() - started;
  return { feasible: true, cost: evaluation.cost, plan, option: toOption(p, o, pax.moves, evaluation, performed, strategy), scope, stats };
}

/**
 * The top-level `violations` of a response: those of the delay_propagation plan evaluated with soft
 * rules (1.8, last paragraph), whether or not that plan is feasible under the configuration's limits.
 * Reading: an aircraft whose propagated route a disrupted cancellation breaks has no such route and
 * contributes no violation (section 1 does not say what the plan is then).
 */
export function topLevelViolations(input: ProblemInput): RecoveryOptionView['violations'] {
  const soft = { ...input.config, constraints: { ...input.config.constraints, crew_duty: 'soft' as const, maintenance: 'soft' as const } };
  const p = buildProblem({ ...input, config: soft });
  const o = baseOutcome(p);
  const broken = new Set<string>();
  const missed = [];
  for (const tail of p.K) {
    const dp = delayPropagationRoute(p, tail);
    if (dp.broken) { broken.add(tail); continue; }
    for (const l of dp.legs) o.set(l.f.id, { flown: true, tail, dep: l.dep, arr: l.arr });
    missed.push(...missedChecks(p, tail, dp.legs, dp.performed));
  }
  const counted = p.airlineFlights.filter((f) => !(p.inF.has(f.id) && broken.has(f.tail)));
  return violationsOf(crewViolations(p, o, counted), missed, o);
}

/** Write a plan as a response option (the shape of POST /simulate's options). */
export function toOption(p: Problem, o: Outcome, moves: PaxMove[], ev: Evaluation, performed: ReadonlyMap<string, ReadonlySet<number>>, strategy: OracleStrategy): RecoveryOptionView {
  const delays: RecoveryOptionView['action_set']['delays'] = [];
  const swaps: RecoveryOptionView['action_set']['swaps'] = [];
  const cancellations: RecoveryOptionView['action_set']['cancellations'] = [];
  for (const f of p.F) {
    const a = o.get(f.id)!;
    if (!a.flown) { cancellations.push({ flight: f.id, passengers: f.booked }); continue; }
    if (a.dep > f.sdep) delays.push({ flight: f.id, tail: a.tail, delay_minutes: a.dep - f.sdep, new_dep: isoOf(a.dep), new_arr: isoOf(a.arr) });
    if (a.tail !== f.tail) swaps.push({ flight: f.id, from_tail: f.tail, to_tail: a.tail });
  }
  const groups = new Map(ev.groups.map((g) => [g.key, g]));
  const reaccommodations = moves.map((m) => {
    const g = groups.get(m.key)!;
    const from = m.to === null ? g.fromFlight : [...g.leaveBefore].find(([, here]) => here.has(m.to!))![0];
    return { from_flight: from, to_flights: m.to === null ? [] : journeyFlights(m.to), passengers: m.pax, reason: g.reason, itinerary_id: g.itineraryId };
  });
  const rotations = p.K.map((tail) => {
    const legs = [...o.entries()].filter(([fid, a]) => p.inF.has(fid) && a.flown && a.tail === tail).sort((x, y) => x[1].dep - y[1].dep);
    const last = legs.length > 0 ? p.flights.get(legs[legs.length - 1]![0])! : null;
    return {
      tail,
      end_station: last ? last.dest : p.init.get(tail)!.station,
      required_end_station: p.L.get(tail)!,
      legs: legs.map(([fid, a]) => {
        const f = p.flights.get(fid)!;
        return { flight: fid, origin: f.origin, dest: f.dest, dep: isoOf(a.dep), arr: isoOf(a.arr), delay_minutes: a.dep - f.sdep, planned_tail: f.tail };
      }),
      maintenance: (p.checks.get(tail) ?? []).filter((m) => performed.get(tail)?.has(m.idx)).map((m) => ({ type: m.type, station: m.station, start: isoOf(m.ms), end: isoOf(m.me) })),
    };
  });
  return {
    option_id: `oracle-${strategy}`,
    strategy,
    rank: 1,
    summary: ev.summary,
    cost_breakdown: ev.breakdown,
    action_set: { delays, swaps, cancellations, reaccommodations, new_flights: [] },
    rotations,
    aircraft_out_of_position: ev.outOfPosition,
    violations: ev.violations,
    solver: {
      status: 'optimal', objective: ev.cost, lower_bound: ev.cost, mip_gap: 0, solve_ms: 0, rows: 0, columns: 0, nonzeros: 0, integers: 0,
      candidate_routes: 0, iterations: 0, lower_bound_source: null, note: 'oracle brute force', engine: 'neighbourhood', engine_reasons: [],
    },
  };
}
