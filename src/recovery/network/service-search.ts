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
// keep the combination feasible). Then, from the best plan, each aircraft in turn tries its delayed
// round trips cancelled against the others' capacity use, and the pool grows until the budget ends.
//
// Every route it builds is also a route of the integrated strategy: the pipeline hands them to the
// integrated column generation as they come (`offer`), whose bound then holds for the search's plans.
import type { Flight, Schedule } from '../../domain/schedule.ts';
import type { TimedLeg } from '../../domain/plan.ts';
import { afterUnavailability, RouteEvaluator, type Route } from '../neighbourhood/aircraft-routes.ts';
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

/** Aircraft whose single-aircraft variants are tried per round (the most delayed first). */
const VARIANTS_PER_ROUND = 12;

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
  const performPlanned = (s: WalkState, position: number) => {
    s.a.checks.forEach((check, i) => {
      if (s.a.plannedCheckPoints[i] === position && s.points[i] === null && check.station === s.station && s.arrival <= check.startMinutes) {
        s.points[i] = s.legs.length - 1;
        s.ready = Math.max(s.ready, check.endMinutes);
      }
    });
  };
  for (const s of states) performPlanned(s, -1);
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
    performPlanned(s, s.a.plannedFlights.indexOf(flight));
    s.next++;
  }
  return new Map(states.map((s) => [s.a.aircraft.tail, ev.finish(s.a, s.legs, s.points, false)]));
}

/**
 * Search the network for `deadline` (a performance.now() instant). Every route it builds is pushed to
 * `offer` (the integrated column generation takes them up). Resolves to its best plan as a solve of
 * the integrated strategy, or none when no walk gives every aircraft a route; rejects with
 * RecoveryError when the solver fails or `signal` aborts.
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
    args.offer?.push(route);
  };
  const planned = new Map(scope.aircraft.map((a) => [a.aircraft.tail, a.plannedFlights.filter((f) => !scope.cancelledFlights.has(f.id))]));
  // The portfolio: one whole-network walk per threshold, and each aircraft grounded where it may be.
  for (const thresholdMinutes of CANCELLATION_THRESHOLDS_MINUTES) {
    if (!mayCancel && Number.isFinite(thresholdMinutes)) continue;
    for (const route of walk(ev, scope.aircraft, planned, new Slots(scope.capacities), { stepMinutes, thresholdMinutes, mayCancel }).values()) add(route);
  }
  if (mayCancel) for (const a of scope.aircraft) add(ev.finish(a, [], a.checks.map(() => null)));

  const finders = new Map<string, JourneyFinder>();
  let best: StrategySolve | null = null;
  let rounds = 0;
  const tried = new Set<string>();
  const remaining = () => deadline - performance.now();
  while (remaining() > 0) {
    if (signal?.aborted) throw new RecoveryError({ kind: 'aborted', message: 'The simulation was cancelled.' });
    if (scope.aircraft.some((a) => pool.get(a.aircraft.tail)!.length === 0)) break;
    const model = withAllJourneys(buildStrategyModel(schedule, scope, config, 'integrated', pool, groups), (journeys) => buildStrategyModel(schedule, scope, config, 'integrated', pool, groups, journeys), finders, groups, config);
    const outcome = await solver.solve({ model: model.model, timeLimitMs: Math.max(1, remaining()), mipGap: config.solver.mip_gap }, { signal, deadline });
    rounds++;
    if (outcome.objective !== null && (!best || outcome.objective < best.outcome.objective! - 1e-6)) {
      best = asSolve(model, outcome, rounds, started);
      args.onIncumbent?.(best);
    }
    if (!best) break;
    // Variants of the best plan: an aircraft's delayed round trips cancelled, the others keeping
    // their routes (and their capacity), the most delayed aircraft first.
    const chosen = chosenRoutes(best.model, best.outcome.values);
    const delayOf = (r: Route) => r.legs.reduce((sum, l) => sum + l.delayMinutes, 0);
    const candidates = scope.aircraft.map((a) => chosen.get(a.aircraft.tail)).filter((r): r is Route => r !== undefined && delayOf(r) > 0 && !tried.has(r.key))
      .sort((p, q) => delayOf(q) - delayOf(p)).slice(0, VARIANTS_PER_ROUND);
    if (candidates.length === 0 || !mayCancel) break;
    let added = 0;
    for (const route of candidates) {
      tried.add(route.key);
      const a = scope.aircraft.find((x) => x.aircraft.tail === route.tail)!;
      const slots = new Slots(scope.capacities);
      for (const [tail, other] of chosen) if (tail !== route.tail) slots.takeLegs(other.legs);
      const sequence = route.legs.map((l) => l.flight);
      for (const thresholdMinutes of CANCELLATION_THRESHOLDS_MINUTES.slice(1)) {
        const before = keys.size;
        add(walk(ev, [a], new Map([[a.aircraft.tail, sequence]]), slots.clone(), { stepMinutes, thresholdMinutes, mayCancel }).get(a.aircraft.tail));
        added += keys.size - before;
      }
    }
    if (added === 0) break;
  }
  return { best, rounds, routes: keys.size };
}

/** Journeys of several flights kept per passenger source: far more than a storm's sources have below their compensation. */
const JOURNEYS_PER_SOURCE = 2_000;

/**
 * `model` rebuilt (by `rebuild`) with a column for every journey of several flights of its passenger
 * sources that costs less than compensating the passengers (more never pays): with them the integer
 * model decides the passengers exactly for its routes, as the checker of section 1.6 asks. `model`
 * itself when no source has such a journey.
 */
function withAllJourneys(
  model: StrategyModel, rebuild: (journeys: ReadonlyMap<string, readonly Journey[]>) => StrategyModel, finders: Map<string, JourneyFinder>,
  groups: PassengerGroups, config: SolverConfig,
): StrategyModel {
  const journeys = new Map<string, Journey[]>();
  for (const source of model.journeySources) {
    let finder = finders.get(source.key);
    if (!finder) finders.set(source.key, finder = new JourneyFinder(groups.network, config, source.search, source.usable, config.constraints.max_reaccommodation_legs));
    if (!Number.isFinite(finder.cheapestOfSeveral)) continue;
    const found = finder.within(new Float64Array(groups.network.flights.length), source.search.compensationPerPassenger, JOURNEYS_PER_SOURCE, (journey) => journey.length === 1);
    if (found.journeys.length > 0) journeys.set(source.key, found.journeys.map((j) => j.journey));
  }
  return journeys.size === 0 ? model : rebuild(journeys);
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
