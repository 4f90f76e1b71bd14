// The network engine on the service's schedules: a search over whole-network operating plans (one
// route per aircraft of the scope), each set of routes priced with its passengers exactly by the
// shared recovery model (neighbourhood/rows: the same rows, rules and cost_weights as every strategy)
// solved on GLPK.
//
// Where the neighbourhood engine prices routes one aircraft at a time against the master's duals, this
// search walks the whole network at once, in time order, handing out airport capacity first come,
// first served (like the first plan), and repairs as it goes: a flight that can no longer leave within
// its delay limit, or whose delay passes the walk's cancellation threshold, is cancelled together with
// the flights that bring the aircraft back to where it stands (a round trip), so that the rest of the
// rotation keeps its times. One walk per threshold gives a portfolio of whole-network plans; their
// routes form the pool of one integer model, which picks the cheapest combination (capacity rows
// keep the combination feasible). Then, from the best plan, the most troubled aircraft try a delayed
// round trip cancelled or their planned sequence restored, the whole network walked again around the
// change, and the pool grows, for at most 1.5 s; last, the best plan's passengers are re-accommodated
// exactly over every journey worth taking (docs/model.md 4.6).
//
// Every plan it finds is a plan of the integrated strategy, so the integrated column generation's
// bound (proven over every route of the scope) holds for it; the pipeline also hands the generation
// the routes of each better plan as they come (`offer`), as first columns for its master.
import type { Flight, Schedule } from '../../domain/schedule.ts';
import type { TimedLeg } from '../../domain/plan.ts';
import { afterUnavailability, performPlannedChecks, RouteEvaluator, type Route } from '../neighbourhood/aircraft-routes.ts';
import type { StrategySolve } from '../neighbourhood/column-generation.ts';
import { buildStrategyModel, type StrategyModel } from '../neighbourhood/rows/strategy-model.ts';
import { strategyCancels } from '../neighbourhood/rows/row-families.ts';
import { RecoveryError } from '../model/failure.ts';
import { brokenLegRule } from '../model/rules.ts';
import type { AircraftInScope, CapacityLimit, RecoveryScope } from '../model/scope.ts';
import type { SolverConfig } from '../model/solver-config.ts';
import type { SolveOutcome, Solver } from '../model/solver-port.ts';
import { JourneyFinder, type Journey } from '../passengers/journeys.ts';
import type { PassengerGroups } from '../passengers/passengers.ts';

/**
 * Delays (minutes) past which a walk cancels a flight's round trip rather than fly it that late; one
 * walk each, Infinity being the walk that only cancels what cannot be flown at all. Measured on the
 * storm of issue 23 (a hub's capacity cut to a fifth for three hours): the integer model over these
 * five walks picks round trips from several of them.
 */
const CANCELLATION_THRESHOLDS_MINUTES = [Number.POSITIVE_INFINITY, 240, 150, 90, 45];

/** Share of the time budget the search may use, at most SEARCH_MAX_MS (its solves share the workers with the column generations). */
const SEARCH_SHARE = 0.5;

/**
 * Longest the search runs before its exact re-accommodation, milliseconds: past it, on the storms
 * of issue 23 at 10 s, the column generations' own plans gain more from the thread and the workers
 * than the search's variants do (measured: with half of 10 s, the hub storm's plan ended 7 % dearer).
 */
const SEARCH_MAX_MS = 1_500;

/** Share of the budget by which the exact re-accommodation of the best plan ends (GLPK's own limit; the pipeline's deadline is the hard stop). */
const EXACT_SHARE = 0.8;

/** Aircraft whose variants are tried per round (the most delayed first). */
const VARIANTS_PER_ROUND = 6;
/** Thresholds of the single-aircraft variants (fewer than the portfolio's: the search's walks share the thread with the column generations' pricing). */
const VARIANT_THRESHOLDS_MINUTES = [Number.POSITIVE_INFINITY, 90];
/** Round trips per aircraft tried cancelled in a whole-network walk, per round (the most delayed first). */
const ROUND_TRIPS_PER_AIRCRAFT = 1;

/** The search's best plan: the model it was read from and GLPK's outcome on it. */
export interface NetworkSearchResult {
  /** The best plan found, as a solve of the integrated strategy (status feasible: the search proves nothing). */
  best: StrategySolve | null;
  /** Walks and rounds of the search. */
  rounds: number;
  routes: number;
}

/** Movements booked per airport, kind and clock hour, against the scope's capacity rows. */
class Slots {
  private readonly limits = new Map<string, CapacityLimit>();
  private readonly used = new Map<string, number>();
  constructor(capacities: readonly CapacityLimit[]) {
    for (const c of capacities) {
      const key = Slots.key(c.airport, c.kind, c.hourStartMinutes);
      this.limits.set(key, c);
      this.used.set(key, c.fixed);
    }
  }
  private static key(airport: string, kind: CapacityLimit['kind'], minutes: number): string {
    return `${airport}|${kind}|${Math.floor(minutes / 60) * 60}`;
  }
  fits(airport: string, kind: CapacityLimit['kind'], minutes: number): boolean {
    const key = Slots.key(airport, kind, minutes);
    const limit = this.limits.get(key);
    return !limit || (this.used.get(key) ?? 0) < limit.max;
  }
  take(airport: string, kind: CapacityLimit['kind'], minutes: number): void {
    const key = Slots.key(airport, kind, minutes);
    if (this.limits.has(key)) this.used.set(key, (this.used.get(key) ?? 0) + 1);
  }
  clone(): Slots {
    const copy = new Slots([]);
    for (const [key, limit] of this.limits) copy.limits.set(key, limit);
    for (const [key, n] of this.used) copy.used.set(key, n);
    return copy;
  }
  /** Book every leg of `legs` (the routes of aircraft that keep theirs). */
  takeLegs(legs: readonly TimedLeg[]): void {
    for (const leg of legs) {
      this.take(leg.flight.origin, 'departures', leg.depMinutes);
      this.take(leg.flight.dest, 'arrivals', leg.arrMinutes);
    }
  }
}

interface WalkState {
  a: AircraftInScope;
  sequence: Flight[];
  next: number;
  station: string;
  arrival: number;
  ready: number;
  legs: TimedLeg[];
  points: (number | null)[];
}

/**
 * Walk `aircraft` through their `sequences` in time order (the earliest next departure first), each
 * flight at the first grid minute its aircraft, disruption, unavailability and the capacities left in
 * `slots` allow. A flight that breaks a leg rule there, or is `thresholdMinutes` or more late, is
 * cancelled with the flights up to the next one leaving from where the aircraft stands (when
 * `mayCancel`; else, or when there is none, the rest of the sequence is dropped). Routes per tail, null
 * where even that leaves a route a rule forbids.
 */
function walk(
  ev: RouteEvaluator, aircraft: readonly AircraftInScope[], sequences: ReadonlyMap<string, Flight[]>, slots: Slots,
  { stepMinutes, thresholdMinutes, mayCancel }: { stepMinutes: number; thresholdMinutes: number; mayCancel: boolean },
): Map<string, Route | null> {
  const states: WalkState[] = aircraft.map((a) => ({
    a, sequence: sequences.get(a.aircraft.tail) ?? [], next: 0, station: a.station, arrival: a.arrivalMinutes, ready: a.readyMinutes, legs: [], points: a.checks.map(() => null),
  }));
  // Checks where the schedule performs them, when the aircraft is there in time (as the first plan does).
  for (const s of states) performPlannedChecks(s, -1);
  const earliest = (s: WalkState) => {
    const flight = s.sequence[s.next]!;
    const e = ev.earliestDeparture(flight);
    const onGrid = (minutes: number) => e + Math.ceil(Math.max(0, minutes - e) / stepMinutes) * stepMinutes;
    return afterUnavailability(s.a, onGrid(s.ready), flight.arrMinutes - flight.depMinutes, onGrid);
  };
  /** Drop the sequence from `next` up to the next flight leaving from where the aircraft stands (or all of it). */
  const cancelFromHere = (s: WalkState) => {
    let k = s.next + 1;
    while (k < s.sequence.length && s.sequence[k]!.origin !== s.station) k++;
    s.sequence = mayCancel && k < s.sequence.length ? [...s.sequence.slice(0, s.next), ...s.sequence.slice(k)] : s.sequence.slice(0, s.next);
  };
  const open = new Set(states);
  while (open.size > 0) {
    let s: WalkState | null = null;
    let at = Number.POSITIVE_INFINITY;
    for (const t of open) {
      if (t.next >= t.sequence.length) { open.delete(t); continue; }
      const e = earliest(t);
      if (e < at) { at = e; s = t; }
    }
    if (!s) break;
    const flight = s.sequence[s.next]!;
    const block = flight.arrMinutes - flight.depMinutes;
    const latest = flight.depMinutes + ev.delayLimit(flight);
    let dep = at;
    while (dep <= latest && !(slots.fits(flight.origin, 'departures', dep) && slots.fits(flight.dest, 'arrivals', dep + block))) dep += stepMinutes;
    const pending = s.a.checks.filter((_, i) => s!.points[i] === null);
    const broken = dep > latest || brokenLegRule(ev.legContext(s.a, s.station, flight, dep, flight.tail === s.a.aircraft.tail ? 0 : 1, pending)) !== null;
    // A disruption's own delay is no reason to cancel: the threshold counts the delay beyond it.
    if (broken || (dep - ev.earliestDeparture(flight) >= thresholdMinutes && mayCancel)) {
      cancelFromHere(s);
      continue;
    }
    slots.take(flight.origin, 'departures', dep);
    slots.take(flight.dest, 'arrivals', dep + block);
    s.legs.push({ flight, depMinutes: dep, arrMinutes: dep + block, delayMinutes: dep - flight.depMinutes });
    s.station = flight.dest;
    s.arrival = dep + block;
    s.ready = dep + block + ev.turnaround(s.a, flight.dest);
    performPlannedChecks(s, s.a.plannedFlights.indexOf(flight));
    s.next++;
  }
  return new Map(states.map((s) => [s.a.aircraft.tail, ev.finish(s.a, s.legs, s.points, false)]));
}

/**
 * Search the network for SEARCH_SHARE of the time to `deadline` (a performance.now() instant), at
 * most SEARCH_MAX_MS, then re-accommodate the best plan's passengers exactly by EXACT_SHARE of it. The
 * routes of each better plan are pushed to `offer` (the integrated column generation takes them up).
 * Resolves to its best plan as a solve of the integrated strategy, or none when no walk gives every
 * aircraft a route; rejects with RecoveryError when a round's solve fails or `signal` aborts.
 */
export async function searchNetwork(args: {
  schedule: Schedule; scope: RecoveryScope; config: SolverConfig; groups: PassengerGroups; solver: Solver;
  signal?: AbortSignal; deadline: number; offer?: Route[];
  /** Told of each better plan. */
  onIncumbent?: (best: StrategySolve) => void;
}): Promise<NetworkSearchResult> {
  const { schedule, scope, config, groups, solver, signal, deadline } = args;
  const started = performance.now();
  const ev = new RouteEvaluator(schedule, scope, config);
  const stepMinutes = config.solver.time_step_minutes;
  const mayCancel = strategyCancels('integrated', config);
  const pool = new Map<string, Route[]>(scope.aircraft.map((a) => [a.aircraft.tail, []]));
  const keys = new Set<string>();
  const add = (route: Route | null | undefined) => {
    if (!route || keys.has(route.key)) return;
    keys.add(route.key);
    pool.get(route.tail)!.push(route);
  };
  const planned = new Map(scope.aircraft.map((a) => [a.aircraft.tail, a.plannedFlights.filter((f) => !scope.cancelledFlights.has(f.id))]));
  // The portfolio: one whole-network walk per threshold, and each aircraft grounded where it may be.
  for (const thresholdMinutes of CANCELLATION_THRESHOLDS_MINUTES) {
    if (!mayCancel && Number.isFinite(thresholdMinutes)) continue;
    for (const route of walk(ev, scope.aircraft, planned, new Slots(scope.capacities), { stepMinutes, thresholdMinutes, mayCancel }).values()) add(route);
  }
  if (mayCancel) for (const a of scope.aircraft) add(ev.finish(a, [], a.checks.map(() => null)));

  const journeysFound = new Map<string, Journey[]>();
  let best: StrategySolve | null = null;
  let rounds = 0;
  const tried = new Set<string>();
  // The search keeps to the first SEARCH_SHARE of the budget: its integer models share the solver's
  // workers with the column generations, whose proof and bound need the rest.
  const searchDeadline = started + Math.min(SEARCH_SHARE * (deadline - started), SEARCH_MAX_MS);
  const exactDeadline = started + EXACT_SHARE * (deadline - started);
  const remaining = () => searchDeadline - performance.now();
  const offered = new Set<string>();
  while (remaining() > 0) {
    if (signal?.aborted) throw new RecoveryError({ kind: 'aborted', message: 'The simulation was cancelled.' });
    if (scope.aircraft.some((a) => pool.get(a.aircraft.tail)!.length === 0)) break;
    // The search's rounds re-accommodate on direct flights only (a model GLPK solves several times
    // faster); the final plan gets every journey (below).
    const model = buildStrategyModel(schedule, scope, config, 'integrated', pool, groups);
    // A model built after the search's share is not solved: the generations have the workers then.
    if (remaining() <= 0) break;
    // GLPK's own limit ends the solve; the hard stop (which costs the pool a worker) only at the
    // exact stage's end.
    const outcome = await solver.solve({ model: model.model, timeLimitMs: Math.max(1, remaining()), mipGap: config.solver.mip_gap }, { signal, deadline: exactDeadline });
    rounds++;
    if (outcome.objective !== null && (!best || outcome.objective < best.outcome.objective! - 1e-6)) {
      best = asSolve(model, outcome, rounds, started);
      args.onIncumbent?.(best);
      // The generation takes up the best plan's routes (not every route tried: a larger master slows its rounds).
      for (const route of chosenRoutes(model, outcome.values).values()) if (!offered.has(route.key)) { offered.add(route.key); args.offer?.push(route); }
    }
    if (!best) break;
    // Variants of the best plan for the aircraft with the most delay or cancelled flights (each once
    // per route it flies in the best plan): whole-network walks around one change to it, and walks of
    // it alone against the others' capacity use (its flown or its planned sequence, at
    // VARIANT_THRESHOLDS_MINUTES).
    const chosen = chosenRoutes(best.model, best.outcome.values);
    const trouble = (a: AircraftInScope) => {
      const route = chosen.get(a.aircraft.tail);
      const flown = route?.legs.length ?? 0;
      return (route?.legs.reduce((sum, l) => sum + l.delayMinutes, 0) ?? 0) + 60 * (planned.get(a.aircraft.tail)!.length - flown);
    };
    const candidates = scope.aircraft.filter((a) => chosen.has(a.aircraft.tail) && trouble(a) > 0 && !tried.has(chosen.get(a.aircraft.tail)!.key))
      .sort((p, q) => trouble(q) - trouble(p)).slice(0, VARIANTS_PER_ROUND);
    if (candidates.length === 0 || !mayCancel) break;
    let added = 0;
    for (const a of candidates) {
      const route = chosen.get(a.aircraft.tail)!;
      tried.add(route.key);
      const slots = new Slots(scope.capacities);
      for (const [tail, other] of chosen) if (tail !== route.tail) slots.takeLegs(other.legs);
      // Whole-network variants: one of this aircraft's most delayed round trips cancelled, or its planned
      // sequence restored, and every aircraft walked again around it (freed capacity goes to the others).
      const flownSequences = new Map([...chosen].map(([tail, r]) => [tail, r.legs.map((l) => l.flight)]));
      const variants: Flight[][] = [planned.get(a.aircraft.tail)!];
      for (const trip of delayedRoundTrips(route).slice(0, ROUND_TRIPS_PER_AIRCRAFT)) variants.push([...route.legs.slice(0, trip.from), ...route.legs.slice(trip.to)].map((l) => l.flight));
      for (const sequence of variants) {
        const before = keys.size;
        for (const r of walk(ev, scope.aircraft, new Map([...flownSequences, [a.aircraft.tail, sequence]]), new Slots(scope.capacities), { stepMinutes, thresholdMinutes: Number.POSITIVE_INFINITY, mayCancel }).values()) add(r);
        added += keys.size - before;
      }
      for (const sequence of [route.legs.map((l) => l.flight), planned.get(a.aircraft.tail)!]) {
        for (const thresholdMinutes of VARIANT_THRESHOLDS_MINUTES) {
          const before = keys.size;
          add(walk(ev, [a], new Map([[a.aircraft.tail, sequence]]), slots.clone(), { stepMinutes, thresholdMinutes, mayCancel }).get(a.aircraft.tail));
          added += keys.size - before;
        }
      }
    }
    if (added === 0) break;
  }
  // The best plan's routes alone, with every journey of several flights worth taking: its passengers
  // re-accommodated exactly (the checker of section 1.6 asks it of every option), in the time left.
  if (best && performance.now() < exactDeadline) {
    const routes = new Map([...chosenRoutes(best.model, best.outcome.values)].map(([tail, route]) => [tail, [route]]));
    const exact = await withAllJourneys(buildStrategyModel(schedule, scope, config, 'integrated', routes, groups), (journeys) => buildStrategyModel(schedule, scope, config, 'integrated', routes, groups, journeys), journeysFound, groups, config);
    if (performance.now() < exactDeadline) {
      const outcome = await solver.solve({ model: exact.model, timeLimitMs: Math.max(1, exactDeadline - performance.now()), mipGap: 0 }, { signal, deadline }).catch(keepSearchPlan);
      if (outcome && outcome.status === 'optimal' && outcome.objective !== null && outcome.objective <= best.outcome.objective! + 1e-6) {
        best = asSolve(exact, outcome, rounds, started);
        args.onIncumbent?.(best);
      }
    }
  }
  return { best, rounds, routes: keys.size };
}

/** A failed or stopped exact solve leaves the search's plan standing (the caller's abort still rejects elsewhere). */
function keepSearchPlan(error: unknown): null {
  if (error instanceof RecoveryError) return null;
  throw error;
}

/** Longest the journey search runs before it lets the event loop turn, milliseconds. */
const YIELD_EVERY_MS = 25;

/**
 * `model` rebuilt (by `rebuild`) with a column for every journey of several flights of its passenger
 * sources that costs less than compensating the passengers (more never pays): with them the integer
 * model decides the passengers exactly for its routes, as the checker of section 1.6 asks. `model`
 * itself when no source has such a journey. A source's journeys depend on the scope only (at zero
 * leg prices), so they are found once per search (`found`); the search yields to the event loop
 * between sources, so that the other solves' deadlines keep their time.
 */
async function withAllJourneys(
  model: StrategyModel, rebuild: (journeys: ReadonlyMap<string, readonly Journey[]>) => StrategyModel, found: Map<string, Journey[]>,
  groups: PassengerGroups, config: SolverConfig,
): Promise<StrategyModel> {
  const journeys = new Map<string, Journey[]>();
  let since = performance.now();
  for (const source of model.journeySources) {
    let list = found.get(source.key);
    if (!list) {
      if (performance.now() - since > YIELD_EVERY_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        since = performance.now();
      }
      list = new JourneyFinder(groups.network, config, source.search, source.usable, config.constraints.max_reaccommodation_legs).worthTaking();
      found.set(source.key, list);
    }
    if (list.length > 0) journeys.set(source.key, list);
  }
  return journeys.size === 0 ? model : rebuild(journeys);
}

/**
 * Runs of legs [from, to) of `route` that leave from an airport and bring the aircraft back to it
 * (the shortest from each leg), late ones only, the most delay minutes first.
 */
function delayedRoundTrips(route: Route): { from: number; to: number }[] {
  const trips: { from: number; to: number; delay: number }[] = [];
  for (let i = 0; i < route.legs.length; i++) {
    let delay = 0;
    for (let k = i; k < route.legs.length; k++) {
      delay += route.legs[k]!.delayMinutes;
      if (route.legs[k]!.flight.dest !== route.legs[i]!.flight.origin) continue;
      if (delay > 0) trips.push({ from: i, to: k + 1, delay });
      break;
    }
  }
  return trips.sort((p, q) => q.delay - p.delay);
}

/** The route each aircraft flies in `values` of `model`. */
function chosenRoutes(model: StrategyModel, values: Record<string, number>): Map<string, Route> {
  const chosen = new Map<string, Route>();
  for (const [column, route] of model.routeColumns) if ((values[column] ?? 0) > 0.5) chosen.set(route.tail, route);
  return chosen;
}

function asSolve(model: StrategyModel, outcome: SolveOutcome, rounds: number, started: number): StrategySolve {
  return {
    model, iterations: rounds, boundSource: null, facts: { kind: 'running' },
    // The search proves no bound of its own: its plan is feasible, the pipeline adds the bounds it has.
    outcome: { ...outcome, status: 'feasible', lowerBound: null, solveMs: performance.now() - started },
  };
}
